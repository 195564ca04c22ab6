// ember::audio::transforms against torchaudio 0.13 (tools/golden/gen_audio_transforms.py):
// outputs, buffers and state_dict names, and the errors of bad construction or input.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "common/golden.h"
#include "common/test_util.h"
#include "ember/audio/transforms.h"
#include "ember/torch.h"

namespace torch::testing {
namespace {

namespace AT = ::torch::audio::transforms;

const Golden& golden() {
  static const Golden g("audio_transforms.golden");
  return g;
}
Tensor G(const std::string& name) { return golden()[name]; }

#define EXPECT_CLOSE(actual, name, rtol, atol) EXPECT_TENSOR_CLOSE_TOL((actual), G(name), (rtol), (atol))

std::vector<std::string> keys(const nn::Module& m) {
  std::vector<std::string> out;
  for (const auto& item : m.state_dict()) out.push_back(item.key());
  return out;
}

TEST(AudioTransformsSpectrogram, MatchesTorchaudio) {
  Tensor x = G("wave"), x3 = G("wave3");
  AT::Spectrogram spec(AT::SpectrogramOptions().n_fft(128));
  EXPECT_CLOSE(spec(x), "spectrogram.default", 1e-4, 1e-5);
  EXPECT_CLOSE(spec->window, "spectrogram.window", 0, 1e-6);
  EXPECT_EQ(keys(*spec), std::vector<std::string>{"window"});
  EXPECT_CLOSE(
      AT::Spectrogram(AT::SpectrogramOptions().n_fft(64).hop_length(20).power(std::nullopt).normalized(true))(x3),
      "spectrogram.complex", 1e-4, 1e-5);
  auto hamming = [](int64_t n) { return hamming_window(n); };
  EXPECT_CLOSE(
      AT::Spectrogram(
          AT::SpectrogramOptions().n_fft(100).win_length(80).window_fn(hamming).power(1.0).center(false).pad(7))(x),
      "spectrogram.hamming", 1e-4, 1e-5);
  Tensor cs = AT::Spectrogram(AT::SpectrogramOptions().n_fft(128).power(std::nullopt))(x);
  EXPECT_CLOSE(AT::InverseSpectrogram(AT::InverseSpectrogramOptions().n_fft(128))(cs, 1600), "ispec.out", 1e-4, 1e-5);
  EXPECT_CLOSE(AT::GriffinLim(AT::GriffinLimOptions().n_fft(128).n_iter(3).rand_init(false).length(1600))(spec(x)),
               "griffinlim.out", 1e-3, 1e-4);
  EXPECT_CLOSE(AT::AmplitudeToDB()(G("db.x")), "db.power", 1e-5, 1e-4);
  EXPECT_CLOSE(AT::AmplitudeToDB("magnitude", 30.0)(G("db.x")), "db.mag_top", 1e-5, 1e-4);
}

TEST(AudioTransformsMel, MatchesTorchaudio) {
  Tensor x = G("wave"), x3 = G("wave3");
  Tensor power = AT::Spectrogram(AT::SpectrogramOptions().n_fft(128))(x);
  AT::MelScale mel(AT::MelScaleOptions().n_mels(32).sample_rate(16000).n_stft(65));
  EXPECT_CLOSE(mel->fb, "melscale.fb", 1e-4, 1e-6);
  EXPECT_CLOSE(mel(power), "melscale.out", 1e-4, 1e-5);
  EXPECT_EQ(keys(*mel), std::vector<std::string>{"fb"});
  EXPECT_CLOSE(AT::MelScale(AT::MelScaleOptions()
                                .n_mels(20)
                                .sample_rate(8000)
                                .f_min(40.0)
                                .f_max(3800.0)
                                .n_stft(65)
                                .norm("slaney")
                                .mel_scale("slaney"))(power),
               "melscale.slaney", 1e-4, 1e-5);
  AT::MelSpectrogram ms(AT::MelSpectrogramOptions().sample_rate(16000).n_fft(256).n_mels(40));
  EXPECT_CLOSE(ms(x), "melspec.default", 1e-4, 1e-5);
  EXPECT_CLOSE(ms(x3), "melspec.batched", 1e-4, 1e-5);
  EXPECT_EQ(keys(*ms), (std::vector<std::string>{"spectrogram.window", "mel_scale.fb"}));
  EXPECT_CLOSE(AT::MelSpectrogram(AT::MelSpectrogramOptions()
                                      .sample_rate(22050)
                                      .n_fft(200)
                                      .win_length(160)
                                      .hop_length(40)
                                      .f_min(30.0)
                                      .f_max(9000.0)
                                      .n_mels(24)
                                      .power(1.0)
                                      .normalized(true)
                                      .norm("slaney")
                                      .mel_scale("slaney")
                                      .pad(4))(x),
               "melspec.opts", 1e-4, 1e-5);
  AT::MFCC mfcc(
      AT::MFCCOptions().sample_rate(16000).n_mfcc(13).melkwargs(AT::MelSpectrogramOptions().n_fft(256).n_mels(40)));
  EXPECT_CLOSE(mfcc(x), "mfcc.default", 1e-4, 2e-3);
  EXPECT_EQ(keys(*mfcc),
            (std::vector<std::string>{"dct_mat", "MelSpectrogram.spectrogram.window", "MelSpectrogram.mel_scale.fb"}));
  EXPECT_CLOSE(AT::MFCC(AT::MFCCOptions()
                            .sample_rate(8000)
                            .n_mfcc(10)
                            .norm(std::nullopt)
                            .log_mels(true)
                            .melkwargs(AT::MelSpectrogramOptions().n_fft(128).n_mels(23).hop_length(32)))(x3),
               "mfcc.logmels", 1e-4, 1e-3);
  AT::LFCC lfcc(
      AT::LFCCOptions().sample_rate(16000).n_filter(32).n_lfcc(12).speckwargs(AT::SpectrogramOptions().n_fft(128)));
  EXPECT_CLOSE(lfcc(x), "lfcc.default", 1e-4, 2e-3);
  EXPECT_EQ(keys(*lfcc), (std::vector<std::string>{"filter_mat", "dct_mat", "Spectrogram.window"}));
  EXPECT_CLOSE(
      AT::LFCC(
          AT::LFCCOptions().sample_rate(8000).n_filter(20).f_min(100.0).f_max(3000.0).n_lfcc(8).log_lf(true).speckwargs(
              AT::SpectrogramOptions().n_fft(64).hop_length(16)))(x3),
      "lfcc.loglf", 1e-4, 1e-3);
}

TEST(AudioTransformsMel, InverseMelScaleRecoversASpectrogram) {
  manual_seed(0);
  AT::MelScale mel(AT::MelScaleOptions().n_mels(16).sample_rate(8000).n_stft(33));
  Tensor power = AT::Spectrogram(AT::SpectrogramOptions().n_fft(64))(G("wave").slice(1, 0, 400));
  Tensor melspec = mel(power);
  AT::InverseMelScale inv(AT::InverseMelScaleOptions(33).n_mels(16).sample_rate(8000).max_iter(2000));
  EXPECT_EQ(keys(*inv), std::vector<std::string>{"fb"});
  Tensor rebuilt = inv(melspec);
  ASSERT_EQ(rebuilt.sizes(), power.sizes());
  EXPECT_TRUE((rebuilt >= 0).all().item<bool>());
  // Its mel projection matches the input far better than the random start does.
  const double err = (mel(rebuilt) - melspec).pow(2).mean().item<double>();
  EXPECT_LT(err, 1e-2 * melspec.pow(2).mean().item<double>());
  EXPECT_EMBER_ERROR(inv(zeros({2, 10, 5})), "InverseMelScale", "16");
}

TEST(AudioTransformsMisc, MatchesTorchaudio) {
  Tensor x = G("wave"), x3 = G("wave3");
  EXPECT_TENSOR_EQ(AT::MuLawEncoding(64)(x), G("mulaw.enc"));
  EXPECT_CLOSE(AT::MuLawDecoding(64)(AT::MuLawEncoding(64)(x)), "mulaw.dec", 1e-6, 1e-7);
  AT::Resample r(16000, 12000);
  EXPECT_CLOSE(r->kernel, "resample.kernel", 1e-6, 1e-7);
  EXPECT_CLOSE(r(x), "resample.out", 1e-4, 1e-5);
  EXPECT_EQ(keys(*r), std::vector<std::string>{"kernel"});
  EXPECT_CLOSE(AT::Resample(AT::ResampleOptions()
                                .orig_freq(44100)
                                .new_freq(16000)
                                .resampling_method("kaiser_window")
                                .lowpass_filter_width(8)
                                .rolloff(0.95)
                                .beta(10.0))(x3),
               "resample.kaiser", 1e-4, 1e-5);
  EXPECT_CLOSE(AT::Resample(AT::ResampleOptions().orig_freq(3).new_freq(4).dtype(kDouble))(x.to(kDouble)),
               "resample.double", 1e-10, 1e-12);
  Tensor power = AT::Spectrogram(AT::SpectrogramOptions().n_fft(128))(x);
  EXPECT_CLOSE(AT::ComputeDeltas(AT::ComputeDeltasOptions().win_length(7))(power), "deltas.out", 1e-4, 1e-5);
  AT::TimeStretch ts(AT::TimeStretchOptions().hop_length(16).n_freq(33).fixed_rate(1.25));
  EXPECT_CLOSE(ts->phase_advance, "timestretch.phase_advance", 0, 0);
  // The golden spectrogram itself: the phases of near-zero bins are too sensitive
  // to recompute, and the vocoder accumulates them.
  Tensor csp = G("timestretch.x");
  EXPECT_CLOSE(
      AT::Spectrogram(AT::SpectrogramOptions().n_fft(64).hop_length(16).power(std::nullopt))(x.slice(1, 0, 800)),
      "timestretch.x", 1e-4, 1e-5);
  EXPECT_CLOSE(ts(csp), "timestretch.fixed", 1e-4, 1e-4);
  // The accumulated phase reaches ~2000 rad, where one float32 ulp is 1.2e-4 rad.
  EXPECT_CLOSE(ts(csp, 0.7), "timestretch.override", 1e-3, 1e-3);
  for (const char* shape : {"linear", "exponential", "logarithmic", "quarter_sine", "half_sine"})
    EXPECT_CLOSE(AT::Fade(AT::FadeOptions().fade_in_len(300).fade_out_len(500).fade_shape(shape))(x),
                 std::string("fade.") + shape, 1e-5, 1e-6);
  EXPECT_CLOSE(AT::Vol(3.0)(x), "vol.amplitude", 1e-6, 1e-7);
  EXPECT_CLOSE(AT::Vol(-6.0, "db")(x), "vol.db", 1e-6, 1e-7);
  EXPECT_CLOSE(AT::Vol(2.0, "power")(x), "vol.power", 1e-6, 1e-7);
  EXPECT_CLOSE(
      AT::SlidingWindowCmn(AT::SlidingWindowCmnOptions().cmn_window(40).min_cmn_window(10).norm_vars(true))(G("cmn.x")),
      "cmn.out", 1e-4, 1e-4);
  EXPECT_CLOSE(AT::SpectralCentroid(AT::SpectralCentroidOptions(16000).n_fft(128).hop_length(40))(x), "centroid.out",
               1e-4, 1e-2);
  AT::PitchShift up(AT::PitchShiftOptions(8000, 12).n_fft(128));
  EXPECT_CLOSE(up(x), "pitchshift.up", 1e-3, 1e-4);
  EXPECT_EQ(keys(*up), (std::vector<std::string>{"kernel", "window"}));
  EXPECT_CLOSE(AT::PitchShift(AT::PitchShiftOptions(8000, -12).n_fft(128).hop_length(16))(x3), "pitchshift.down", 1e-3,
               1e-4);
}

TEST(AudioTransformsMisc, VadTrimsLikeTheFunction) {
  Tensor x = torch::testing::Golden("audio_functional.golden")["vad.x"];
  Tensor expected = torch::testing::Golden("audio_functional.golden")["vad.default"];
  EXPECT_TENSOR_EQ(AT::Vad(8000)(x), expected);
}

TEST(AudioTransformsMisc, MaskingShapes) {
  manual_seed(1);
  Tensor spec = ones({2, 3, 20, 30});
  Tensor f = AT::FrequencyMasking(AT::FrequencyMaskingOptions(6).iid_masks(true))(spec, -2.0);
  EXPECT_TRUE(((f == -2).all(-1).sum(-1) < 6).all().item<bool>());
  Tensor t = AT::TimeMasking(8)(spec.select(0, 0));
  EXPECT_LT((t.select(0, 0) == 0).all(0).sum().item<int64_t>(), 8);
  EXPECT_EMBER_ERROR(AT::TimeMasking(AT::TimeMaskingOptions(8).p(2.0)), "TimeMasking", "2");
}

TEST(AudioTransforms, BadConstructionAndInput) {
  EXPECT_EMBER_ERROR(AT::Spectrogram(AT::SpectrogramOptions().n_fft(0)), "Spectrogram", "n_fft");
  EXPECT_EMBER_ERROR(AT::Spectrogram(AT::SpectrogramOptions().n_fft(64).win_length(80)), "Spectrogram", "80");
  EXPECT_EMBER_ERROR(AT::Spectrogram(AT::SpectrogramOptions().n_fft(400))(zeros({1, 100})), "Spectrogram", "n_fft");
  EXPECT_EMBER_ERROR(AT::Spectrogram()(zeros({})), "Spectrogram", "[..., time]");
  EXPECT_EMBER_ERROR(AT::Spectrogram()(ones({1, 1000}, kLong)), "Spectrogram", "floating");
  EXPECT_EMBER_ERROR(AT::MelSpectrogram()(zeros({2, 150})), "MelSpectrogram", "n_fft");
  EXPECT_EMBER_ERROR(AT::MFCC()(zeros({2, 150})), "MFCC", "n_fft");
  EXPECT_EMBER_ERROR(AT::LFCC()(zeros({2, 150})), "LFCC", "n_fft");
  EXPECT_EMBER_ERROR(AT::SpectralCentroid(16000)(zeros({2, 150})), "SpectralCentroid", "n_fft");
  EXPECT_EMBER_ERROR(AT::Spectrogram(AT::SpectrogramOptions().center(false))(zeros({1, 399})), "Spectrogram", "399");
  EXPECT_EMBER_ERROR(AT::MelScale(AT::MelScaleOptions().sample_rate(0)), "MelScale", "sample_rate");
  EXPECT_EMBER_ERROR(AT::MelScale(AT::MelScaleOptions().f_min(9000.0)), "MelScale", "f_min");
  EXPECT_EMBER_ERROR(AT::MelScale(AT::MelScaleOptions().n_stft(65))(zeros({2, 33, 4})), "MelScale", "65");
  EXPECT_EMBER_ERROR(AT::MelSpectrogram(AT::MelSpectrogramOptions().sample_rate(-16000)), "sample_rate");
  EXPECT_EMBER_ERROR(AT::MFCC(AT::MFCCOptions().n_mfcc(200)), "MFCC", "200");
  EXPECT_EMBER_ERROR(AT::MFCC(AT::MFCCOptions().dct_type(3)), "MFCC", "3");
  EXPECT_EMBER_ERROR(AT::LFCC(AT::LFCCOptions().n_lfcc(500)), "LFCC", "500");
  EXPECT_EMBER_ERROR(AT::Resample(0, 16000), "Resample", "0");
  EXPECT_EMBER_ERROR(AT::Resample(16000, 8000)(zeros({4}, kLong)), "Resample", "floating");
  EXPECT_EMBER_ERROR(AT::GriffinLim(AT::GriffinLimOptions().momentum(1.5)), "GriffinLim", "momentum");
  EXPECT_EMBER_ERROR(AT::Vol(-1.0), "Vol", "gain");
  EXPECT_EMBER_ERROR(AT::Fade(AT::FadeOptions().fade_shape("cosine")), "Fade", "cosine");
  EXPECT_EMBER_ERROR(AT::Fade(AT::FadeOptions().fade_in_len(50))(zeros({1, 10})), "Fade", "50");
  EXPECT_EMBER_ERROR(AT::TimeStretch()(zeros({201, 4}, kComplexFloat)), "TimeStretch", "fixed_rate");
  EXPECT_EMBER_ERROR(AT::TimeStretch(AT::TimeStretchOptions().fixed_rate(2.0))(zeros({33, 4}, kComplexFloat)),
                     "TimeStretch", "201");
  EXPECT_EMBER_ERROR(AT::SpectralCentroid(0), "SpectralCentroid", "sample_rate");
  EXPECT_EMBER_ERROR(AT::PitchShift(0, 2), "PitchShift", "sample_rate");
  EXPECT_EMBER_ERROR(AT::ComputeDeltas(AT::ComputeDeltasOptions().win_length(1)), "ComputeDeltas", "1");
  EXPECT_EMBER_ERROR(AT::MuLawEncoding(1), "MuLawEncoding", "1");
  EXPECT_EMBER_ERROR(AT::Vad(0), "Vad", "sample_rate");
  EXPECT_EMBER_ERROR(AT::Resample(16000, 8000)(zeros({})), "Resample");
  EXPECT_EMBER_ERROR(AT::InverseSpectrogram()(zeros({201, 3})), "InverseSpectrogram", "complex");
  EXPECT_EMBER_ERROR(AT::GriffinLim()(zeros({100, 3})), "GriffinLim", "201");
}

}  // namespace
}  // namespace torch::testing
