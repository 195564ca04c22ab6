// ember::audio::functional's spectral features, resampling, masking, CMN and
// pitch against torchaudio 0.13 (tools/golden/gen_audio_functional.py).
#include <gtest/gtest.h>

#include <cmath>
#include <optional>
#include <string>

#include "common/golden.h"
#include "common/test_util.h"
#include "ember/audio/functional.h"
#include "ember/torch.h"

namespace torch::testing {
namespace {

namespace AF = ::torch::audio::functional;

const Golden& golden() {
  static const Golden g("audio_functional.golden");
  return g;
}
Tensor G(const std::string& name) { return golden()[name]; }

// float32 spectra of sums of ~64 products: a few ulps of the largest bin.
#define EXPECT_CLOSE(actual, name, rtol, atol) EXPECT_TENSOR_CLOSE_TOL((actual), G(name), (rtol), (atol))

TEST(AudioFunctionalSpectrogram, MatchesTorchaudio) {
  Tensor x = G("wave"), x3 = G("wave3");
  Tensor w = hann_window(64);
  EXPECT_CLOSE(AF::spectrogram(x, 0, w, 64, 16, 64, 2.0, false), "spec.power2", 1e-4, 1e-5);
  EXPECT_CLOSE(AF::spectrogram(x, 0, w, 64, 16, 64, 1.0, false), "spec.power1", 1e-4, 1e-5);
  EXPECT_CLOSE(AF::spectrogram(x, 0, w, 64, 16, 64, std::nullopt, false), "spec.complex", 1e-4, 1e-5);
  EXPECT_CLOSE(AF::spectrogram(x, 0, w, 64, 16, 64, 2.0, true), "spec.norm_window", 1e-4, 1e-5);
  EXPECT_CLOSE(AF::spectrogram(x, 0, w, 64, 16, 64, 2.0, "frame_length"), "spec.norm_frame", 1e-4, 1e-5);
  EXPECT_CLOSE(AF::spectrogram(x, 5, w, 64, 20, 64, 2.0, false, false), "spec.nocenter_pad", 1e-4, 1e-5);
  EXPECT_CLOSE(AF::spectrogram(x3, 0, hamming_window(48), 64, 12, 48, 2.0, false, true, "constant"),
               "spec.win48_constant", 1e-4, 1e-5);
  EXPECT_CLOSE(AF::spectrogram(x, 0, w, 64, 16, 64, std::nullopt, false, true, "reflect", false), "spec.twosided", 1e-4,
               1e-5);
}

TEST(AudioFunctionalSpectrogram, InverseAndGriffinLim) {
  Tensor x = G("wave");
  Tensor w = hann_window(64);
  Tensor spec = AF::spectrogram(x, 0, w, 64, 16, 64, std::nullopt, false);
  EXPECT_CLOSE(AF::inverse_spectrogram(spec, 600, 0, w, 64, 16, 64, false), "ispec.out", 1e-4, 1e-5);
  EXPECT_CLOSE(AF::inverse_spectrogram(spec, std::nullopt, 0, w, 64, 16, 64, false), "ispec.nolength", 1e-4, 1e-5);
  Tensor spec_pad = AF::spectrogram(x, 3, w, 64, 16, 64, std::nullopt, true);
  EXPECT_CLOSE(AF::inverse_spectrogram(spec_pad, 600, 3, w, 64, 16, 64, true), "ispec.pad_norm", 1e-4, 1e-5);
  Tensor mag = AF::spectrogram(x, 0, w, 64, 16, 64, 2.0, false);
  EXPECT_CLOSE(AF::griffinlim(mag, w, 64, 16, 64, 2.0, 4, 0.99, 600, false), "griffinlim.out", 1e-3, 1e-4);
  EXPECT_CLOSE(AF::griffinlim(mag, w, 64, 16, 64, 2.0, 3, 0.0, std::nullopt, false), "griffinlim.nomomentum", 1e-3,
               1e-4);
}

TEST(AudioFunctionalSpectrogram, BadArguments) {
  Tensor w = hann_window(64);
  EXPECT_EMBER_ERROR(AF::spectrogram(zeros({2, 20}), 0, w, 64, 16, 64, 2.0, false), "spectrogram", "n_fft");
  EXPECT_EMBER_ERROR(AF::spectrogram(zeros({2, 40}), 0, w, 64, 16, 64, 2.0, false, false), "spectrogram", "64");
  EXPECT_EMBER_ERROR(AF::spectrogram(zeros({2, 200}), 0, w, 64, 0, 64, 2.0, false), "spectrogram", "hop_length");
  EXPECT_EMBER_ERROR(AF::spectrogram(zeros({2, 200}), 0, hann_window(32), 64, 16, 64, 2.0, false), "spectrogram",
                     "window");
  EXPECT_EMBER_ERROR(AF::spectrogram(zeros({2, 200}), 0, w, 64, 16, 64, 2.0, "bogus"), "spectrogram", "bogus");
  EXPECT_EMBER_ERROR(AF::inverse_spectrogram(zeros({33, 5}), 100, 0, w, 64, 16, 64, false), "inverse_spectrogram",
                     "complex");
  EXPECT_EMBER_ERROR(AF::griffinlim(zeros({33, 5}), w, 64, 16, 64, 2.0, 2, 1.0, std::nullopt, false), "griffinlim",
                     "momentum");
}

TEST(AudioFunctionalSpectral, DecibelsFilterBanksAndDct) {
  Tensor s = G("db.x");
  EXPECT_CLOSE(AF::amplitude_to_DB(s, 10.0, 1e-10, 0.0), "db.power", 1e-5, 1e-4);
  EXPECT_CLOSE(AF::amplitude_to_DB(s, 20.0, 1e-5, std::log10(2.0), 20.0), "db.top", 1e-5, 1e-4);
  EXPECT_CLOSE(AF::amplitude_to_DB(s.select(0, 0).select(0, 0), 10.0, 1e-10, 0.0, 5.0), "db.top2d", 1e-5, 1e-4);
  EXPECT_CLOSE(AF::DB_to_amplitude(s - 5, 1.5, 0.5), "db.inv", 1e-5, 1e-6);
  EXPECT_CLOSE(AF::melscale_fbanks(201, 0.0, 8000.0, 40, 16000), "fb.htk", 1e-5, 1e-6);
  EXPECT_CLOSE(AF::melscale_fbanks(129, 20.0, 7600.0, 48, 16000, "slaney", "slaney"), "fb.slaney", 1e-5, 1e-6);
  EXPECT_CLOSE(AF::melscale_fbanks(129, 50.0, 4000.0, 23, 8000, "slaney", "htk"), "fb.htk_norm", 1e-5, 1e-6);
  EXPECT_CLOSE(AF::linear_fbanks(129, 0.0, 4000.0, 20, 8000), "fb.linear", 1e-5, 1e-6);
  EXPECT_CLOSE(AF::create_dct(13, 40, std::nullopt), "dct.none", 1e-5, 1e-6);
  EXPECT_CLOSE(AF::create_dct(20, 64, "ortho"), "dct.ortho", 1e-5, 1e-6);
  EXPECT_EMBER_ERROR(AF::melscale_fbanks(10, 0, 100, 4, 200, "bogus"), "melscale_fbanks", "bogus");
  EXPECT_EMBER_ERROR(AF::melscale_fbanks(10, 0, 100, 4, 200, std::nullopt, "mel"), "melscale_fbanks", "mel");
  EXPECT_EMBER_ERROR(AF::create_dct(3, 4, "l2"), "create_dct", "l2");
}

TEST(AudioFunctionalSpectral, MuLawPhaseVocoderCentroidDeltas) {
  Tensor x = G("wave");
  EXPECT_TENSOR_EQ(AF::mu_law_encoding(x, 256), G("mulaw.enc"));
  EXPECT_CLOSE(AF::mu_law_decoding(AF::mu_law_encoding(x, 256), 256), "mulaw.dec", 1e-6, 1e-7);
  EXPECT_CLOSE(AF::mu_law_decoding(linspace(0, 15, 31), 16), "mulaw.dec_float", 1e-6, 1e-7);
  Tensor spec = AF::spectrogram(G("wave3"), 0, hann_window(64), 64, 16, 64, std::nullopt, false);
  Tensor adv = linspace(0, M_PI * 16, 33).unsqueeze(-1);
  EXPECT_CLOSE(AF::phase_vocoder(spec, 1.3, adv), "pv.fast", 1e-4, 1e-4);
  EXPECT_CLOSE(AF::phase_vocoder(spec, 0.8, adv), "pv.slow", 1e-4, 1e-4);
  EXPECT_CLOSE(AF::spectral_centroid(x, 16000, 0, hann_window(64), 64, 16, 64), "centroid", 1e-4, 1e-2);
  EXPECT_CLOSE(AF::compute_deltas(G("deltas.x")), "deltas.w5", 1e-5, 1e-6);
  EXPECT_CLOSE(AF::compute_deltas(G("deltas.x"), 7), "deltas.w7", 1e-5, 1e-6);
  EXPECT_EMBER_ERROR(AF::compute_deltas(G("deltas.x"), 2), "compute_deltas", "2");
  EXPECT_CLOSE(AF::pitch_shift(x, 16000, 12), "pitch_shift.up12", 1e-3, 1e-4);
  EXPECT_CLOSE(AF::pitch_shift(x, 100, 3, 12, 64), "pitch_shift.odd", 1e-3, 1e-4);
  EXPECT_CLOSE(AF::pitch_shift(G("wave3"), 8000, -12, 12, 128), "pitch_shift.down", 1e-3, 1e-4);
}

TEST(AudioFunctionalResample, MatchesTorchaudio) {
  Tensor x = G("wave");
  EXPECT_CLOSE(AF::resample(x, 16000, 8000), "resample.down", 1e-4, 1e-5);
  EXPECT_CLOSE(AF::resample(x, 44100, 16000), "resample.44k", 1e-4, 1e-5);
  EXPECT_CLOSE(AF::resample(G("wave3"), 8000, 11025), "resample.up", 1e-4, 1e-5);
  EXPECT_CLOSE(AF::resample(x, 48000, 16000, 8, 0.9, "kaiser_window", 12.0), "resample.kaiser", 1e-4, 1e-5);
  EXPECT_CLOSE(AF::resample(x, 16000, 22050, 6, 0.95, "kaiser_window"), "resample.kaiser_default", 1e-4, 1e-5);
  EXPECT_CLOSE(AF::resample(x.to(kDouble), 3, 2, 4, 0.8), "resample.width4", 1e-10, 1e-12);
  // The second call with the same rates is served by the kernel cache and must agree.
  EXPECT_CLOSE(AF::resample(x, 16000, 8000), "resample.down", 1e-4, 1e-5);
  EXPECT_EMBER_ERROR(AF::resample(x, 0, 8000), "resample", "0");
  EXPECT_EMBER_ERROR(AF::resample(x, 16000, -1), "resample", "-1");
  EXPECT_EMBER_ERROR(AF::resample(x, 16000, 8000, 6, 0.99, "cubic"), "resample", "cubic");
  EXPECT_EMBER_ERROR(AF::resample(x, 16000, 8000, 0), "resample", "width");
  EXPECT_EMBER_ERROR(AF::resample(ones({4}, kLong), 16000, 8000), "resample", "floating");
}

TEST(AudioFunctionalFeatures, PitchAndSlidingCmn) {
  EXPECT_CLOSE(AF::detect_pitch_frequency(G("sine"), 8000), "pitch.sine", 1e-5, 1e-3);
  EXPECT_CLOSE(AF::detect_pitch_frequency(G("sine"), 8000, 0.02, 5, 100, 2000), "pitch.sine_w5", 1e-5, 1e-3);
  Tensor f = G("cmn.x");
  EXPECT_CLOSE(AF::sliding_window_cmn(f, 50, 20), "cmn.default", 1e-4, 1e-5);
  EXPECT_CLOSE(AF::sliding_window_cmn(f, 50, 20, true), "cmn.center", 1e-4, 1e-5);
  EXPECT_CLOSE(AF::sliding_window_cmn(f, 60, 10, false, true), "cmn.vars", 1e-4, 1e-4);
  EXPECT_CLOSE(AF::sliding_window_cmn(f, 40, 10, true, true), "cmn.center_vars", 1e-4, 1e-4);
  EXPECT_CLOSE(AF::sliding_window_cmn(f.select(0, 0).slice(0, 0, 30), 600, 100), "cmn.short", 1e-4, 1e-5);
  EXPECT_EMBER_ERROR(AF::sliding_window_cmn(zeros({5}), 10, 5), "sliding_window_cmn");
}

TEST(AudioFunctionalEditDistance, MatchesTorchaudio) {
  Tensor d = G("edit.distances");
  EXPECT_EQ(AF::edit_distance(std::string("kitten"), std::string("sitting")), d[0].item<int64_t>());
  EXPECT_EQ(AF::edit_distance(std::vector<std::string>{"a", "b", "c", "d"},
                              std::vector<std::string>{"a", "c", "d", "e", "f"}),
            d[1].item<int64_t>());
  EXPECT_EQ(AF::edit_distance(std::vector<int64_t>{1, 2, 3}, std::vector<int64_t>{}), d[2].item<int64_t>());
  EXPECT_EQ(AF::edit_distance(std::vector<int64_t>{}, std::vector<int64_t>{4, 5}), d[3].item<int64_t>());
  EXPECT_EQ(AF::edit_distance(std::vector<int64_t>{1, 2, 3, 4}, std::vector<int64_t>{4, 3, 2, 1}),
            d[4].item<int64_t>());
}

TEST(AudioFunctionalMasking, MasksOneBand) {
  manual_seed(3);
  Tensor spec = ones({2, 3, 20, 30});
  Tensor m = AF::mask_along_axis_iid(spec, 10, 0.0, 3);
  // Every (batch, channel) gets one band of whole time columns, shorter than mask_param.
  Tensor zeroed_cols = (m == 0).all(2).sum(-1);
  EXPECT_TRUE((zeroed_cols < 10).all().item<bool>());
  EXPECT_TRUE(((m == 0).sum(2) % 20 == 0).all().item<bool>());
  Tensor m2 = AF::mask_along_axis(ones({3, 20, 30}), 8, -1.0, 1);
  Tensor rows = (m2.select(0, 0) == -1).all(1);
  EXPECT_LT(rows.sum().item<int64_t>(), 8);
  EXPECT_TRUE((m2.select(0, 0) == m2.select(0, 2)).all().item<bool>());
  EXPECT_EMBER_ERROR(AF::mask_along_axis(spec, 5, 0.0, 3), "mask_along_axis", "3");
  EXPECT_EMBER_ERROR(AF::mask_along_axis_iid(spec, 5, 0.0, 2, 1.5), "mask_along_axis_iid", "1.5");
}

}  // namespace
}  // namespace torch::testing
