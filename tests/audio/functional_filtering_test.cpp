// lfilter, filtfilt, the biquads and the effects against torchaudio 0.13
// (tools/golden/gen_audio_functional.py).
#include <gtest/gtest.h>

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

#define EXPECT_CLOSE(actual, name, rtol, atol) EXPECT_TENSOR_CLOSE_TOL((actual), G(name), (rtol), (atol))

TEST(AudioFunctionalLfilter, MatchesTorchaudio) {
  Tensor x = G("wave"), x3 = G("wave3");
  EXPECT_CLOSE(AF::lfilter(x, G("lfilter.a"), G("lfilter.b")), "lfilter.out", 1e-4, 1e-5);
  EXPECT_CLOSE(AF::lfilter(x * 4, G("lfilter.a"), G("lfilter.b"), false), "lfilter.noclamp", 1e-4, 1e-5);
  EXPECT_CLOSE(AF::lfilter(x3.slice(1, 0, 2), G("lfilter.ab"), G("lfilter.bb"), false, true), "lfilter.batched", 1e-4,
               1e-5);
  EXPECT_CLOSE(AF::lfilter(x, G("lfilter.ab"), G("lfilter.bb"), false, false), "lfilter.stacked", 1e-4, 1e-5);
  EXPECT_CLOSE(AF::filtfilt(x, G("lfilter.a"), G("lfilter.b")), "filtfilt.out", 1e-4, 1e-5);
  expect_golden_case(golden(), "lfilter.grad", 3,
                     [](const std::vector<Tensor>& in) { return AF::lfilter(in[0], in[1], in[2], false); });
}

TEST(AudioFunctionalLfilter, BadArguments) {
  Tensor x = G("wave");
  EXPECT_EMBER_ERROR(AF::lfilter(x, ones({3}), ones({2})), "lfilter", "same size");
  EXPECT_EMBER_ERROR(AF::lfilter(x, ones({3, 3}), ones({3, 3})), "lfilter", "3");
  EXPECT_EMBER_ERROR(AF::lfilter(x, ones({1, 1, 3}), ones({1, 1, 3})), "lfilter");
  EXPECT_EMBER_ERROR(AF::lfilter(x, ones({0}), ones({0})), "lfilter", "order");
  EXPECT_EMBER_ERROR(AF::lfilter(ones({4}, kLong), ones({2}), ones({2})), "lfilter", "float");
}

TEST(AudioFunctionalBiquad, MatchesTorchaudio) {
  Tensor x = G("wave");
  const int64_t sr = 44100;
  EXPECT_CLOSE(AF::allpass_biquad(x, sr, 1000.0, 0.9), "biquad.allpass", 1e-4, 1e-5);
  EXPECT_CLOSE(AF::band_biquad(x, sr, 2000.0, 1.2), "biquad.band", 1e-4, 1e-5);
  EXPECT_CLOSE(AF::band_biquad(x, sr, 2000.0, 1.2, true), "biquad.band_noise", 1e-4, 1e-5);
  EXPECT_CLOSE(AF::bandpass_biquad(x, sr, 3000.0), "biquad.bandpass", 1e-4, 1e-5);
  EXPECT_CLOSE(AF::bandpass_biquad(x, sr, 3000.0, 0.5, true), "biquad.bandpass_skirt", 1e-4, 1e-5);
  EXPECT_CLOSE(AF::bandreject_biquad(x, sr, 1500.0, 0.8), "biquad.bandreject", 1e-4, 1e-5);
  EXPECT_CLOSE(AF::bass_biquad(x, sr, 6.0), "biquad.bass", 1e-4, 1e-5);
  EXPECT_CLOSE(AF::bass_biquad(x, sr, -4.0, 200.0, 0.5), "biquad.bass_cut", 1e-4, 1e-5);
  EXPECT_CLOSE(AF::deemph_biquad(x, 44100), "biquad.deemph", 1e-4, 1e-5);
  EXPECT_CLOSE(AF::deemph_biquad(x, 48000), "biquad.deemph48", 1e-4, 1e-5);
  EXPECT_CLOSE(AF::equalizer_biquad(x, sr, 1000.0, 5.0, 1.1), "biquad.equalizer", 1e-4, 1e-5);
  EXPECT_CLOSE(AF::highpass_biquad(x, sr, 500.0), "biquad.highpass", 1e-4, 1e-5);
  EXPECT_CLOSE(AF::lowpass_biquad(x, sr, 3000.0, 0.6), "biquad.lowpass", 1e-4, 1e-5);
  EXPECT_CLOSE(AF::riaa_biquad(x, 44100), "biquad.riaa", 1e-4, 1e-5);
  EXPECT_CLOSE(AF::riaa_biquad(x, 96000), "biquad.riaa96", 1e-4, 1e-5);
  EXPECT_CLOSE(AF::treble_biquad(x, sr, -3.0), "biquad.treble", 1e-4, 1e-5);
  EXPECT_CLOSE(AF::biquad(x, 0.3, 0.2, 0.1, 1.1, -0.2, 0.05), "biquad.raw", 1e-4, 1e-5);
  EXPECT_EMBER_ERROR(AF::deemph_biquad(x, 16000), "deemph_biquad", "16000");
  EXPECT_EMBER_ERROR(AF::riaa_biquad(x, 8000), "riaa_biquad", "8000");
  EXPECT_EMBER_ERROR(AF::lowpass_biquad(x, 0, 100.0), "lowpass_biquad", "sample_rate");
}

TEST(AudioFunctionalEffects, MatchesTorchaudio) {
  Tensor x = G("wave"), x3 = G("wave3");
  EXPECT_CLOSE(AF::contrast(x, 60.0), "fx.contrast", 1e-5, 1e-6);
  EXPECT_CLOSE(AF::dcshift(x, 0.3), "fx.dcshift", 1e-6, 1e-7);
  EXPECT_CLOSE(AF::dcshift(x, 0.3, 0.05), "fx.dcshift_lim", 1e-6, 1e-6);
  EXPECT_CLOSE(AF::dcshift(x, -0.4, 0.1), "fx.dcshift_neg", 1e-6, 1e-6);
  EXPECT_CLOSE(AF::gain(x, 3.0), "fx.gain", 1e-6, 1e-7);
  EXPECT_CLOSE(AF::overdrive(x, 15, 30), "fx.overdrive", 1e-4, 1e-5);
  EXPECT_CLOSE(AF::dither(x), "fx.dither", 0, 1e-6);
  EXPECT_CLOSE(AF::dither(x, "TPDF", true), "fx.dither_shaped", 0, 1e-6);
  Tensor st = x3.slice(1, 0, 2);
  EXPECT_CLOSE(AF::flanger(st, 8000), "fx.flanger", 1e-4, 1e-5);
  EXPECT_CLOSE(AF::flanger(st, 8000, 1.0, 3.0, 20.0, 50.0, 2.0, 40.0, "triangular", "quadratic"), "fx.flanger_tri_quad",
               1e-4, 1e-5);
  EXPECT_CLOSE(AF::phaser(x, 8000), "fx.phaser", 1e-4, 1e-5);
  EXPECT_CLOSE(AF::phaser(x, 8000, 0.6, 0.8, 2.0, 0.5, 1.5, false), "fx.phaser_tri", 1e-4, 1e-5);
  EXPECT_EMBER_ERROR(AF::contrast(x, 120.0), "contrast", "120");
  EXPECT_EMBER_ERROR(AF::flanger(zeros({5, 100}), 8000), "flanger", "4");
  EXPECT_EMBER_ERROR(AF::flanger(st, 8000, 0, 2, 0, 71, 0.5, 25, "square"), "flanger", "square");
  EXPECT_EMBER_ERROR(AF::dither(x, "XPDF"), "dither", "XPDF");
}

TEST(AudioFunctionalLoudness, MatchesTorchaudio) {
  Tensor x = G("loudness.x");
  EXPECT_CLOSE(AF::loudness(x, 16000), "loudness.out", 1e-4, 1e-3);
  Tensor five = cat({x.select(0, 0), x.select(0, 1), x.select(0, 0).slice(0, 0, 1) * 0.3});
  EXPECT_CLOSE(AF::loudness(five, 16000), "loudness.5ch", 1e-4, 1e-3);
  EXPECT_EMBER_ERROR(AF::loudness(zeros({6, 20000}), 16000), "loudness", "5 channels");
  EXPECT_EMBER_ERROR(AF::loudness(zeros({1, 100}), 16000), "loudness", "100");
}

TEST(AudioFunctionalVad, TrimsLeadingSilence) {
  Tensor x = G("vad.x");
  EXPECT_CLOSE(AF::vad(x, 8000), "vad.default", 0, 0);
  EXPECT_CLOSE(AF::vad(stack({x, x.roll(800)}), 8000, 5.0, 0.1, 1.0, 0.25, 0.1, 0.35, 0.1, 0.01, 1.35, 25.0,
                       std::nullopt, 0.4, 80.0, 3000.0),
               "vad.opts", 0, 0);
  EXPECT_EQ(AF::vad(zeros({2, 4000}), 8000).sizes(), (std::vector<int64_t>{2, 4000}));
  EXPECT_EMBER_ERROR(AF::vad(x, 0), "vad", "sample_rate");
  EXPECT_EMBER_ERROR(AF::vad(x, 8000, 7.0, 0.25, 1.0, 0.25, 0.0, 0.35, 0.1, 0.01, 1.35, 20.0, std::nullopt, 0.4, 50.0,
                             6000.0, 3000.0, 2000.0),
                     "vad", "cepstrum");
}

}  // namespace
}  // namespace torch::testing
