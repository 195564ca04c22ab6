// ember::audio::compliance::kaldi against torchaudio 0.13 (tools/golden/gen_audio_kaldi.py).
#include <gtest/gtest.h>

#include <string>

#include "common/golden.h"
#include "common/test_util.h"
#include "ember/audio/compliance/kaldi.h"
#include "ember/torch.h"

namespace torch::testing {
namespace {

namespace K = ::torch::audio::compliance::kaldi;

const Golden& golden() {
  static const Golden g("audio_kaldi.golden");
  return g;
}
Tensor G(const std::string& name) { return golden()[name]; }

// Log features of float32 spectra: absolute error of a few 1e-5 in the log domain.
#define EXPECT_CLOSE(actual, name, rtol, atol) EXPECT_TENSOR_CLOSE_TOL((actual), G(name), (rtol), (atol))

TEST(AudioKaldi, Spectrogram) {
  Tensor x = G("wave");
  EXPECT_CLOSE(K::spectrogram(x), "spec.default", 1e-4, 1e-3);
  EXPECT_CLOSE(
      K::spectrogram(x, 0.42, 1, 0.0, 0.0, 20.0, 8.0, 0.0, 0.5, false, false, false, 16000.0, false, true, "hamming"),
      "spec.opts", 1e-4, 1e-3);
  EXPECT_CLOSE(
      K::spectrogram(x, 0.4, -1, 0.0, 1.0, 25.0, 10.0, 0.0, 0.97, true, true, true, 8000.0, true, false, "blackman"),
      "spec.blackman", 1e-4, 1e-3);
}

TEST(AudioKaldi, Fbank) {
  Tensor x = G("wave");
  EXPECT_CLOSE(K::fbank(x), "fbank.default", 1e-4, 1e-3);
  EXPECT_CLOSE(K::fbank(x, 0.42, -1, 0.0, 1.0, 25.0, 10.0, -400.0, false, 50.0, 0.0, 30, 0.97, true, true, true,
                        16000.0, true, false, true),
               "fbank.energy", 1e-4, 1e-3);
  EXPECT_CLOSE(K::fbank(x, 0.42, -1, 0.0, 1.0, 25.0, 10.0, 0.0, true, 20.0, 0.0, 23, 0.97, true, true, true, 16000.0,
                        false, false, true, false, false, -500.0, 100.0, 1.0, "hanning"),
               "fbank.htk", 1e-4, 1e-3);
  EXPECT_CLOSE(K::fbank(x, 0.42, -1, 0.0, 1.0, 25.0, 10.0, 0.0, false, 20.0, 0.0, 25, 0.97, true, true, true, 16000.0,
                        true, false, false, true, true, -600.0, 120.0, 1.1),
               "fbank.vtln", 1e-4, 1e-3);
  EXPECT_CLOSE(K::fbank(x, 0.42, -1, 0.0, 1.0, 25.0, 10.0, 0.0, false, 20.0, 0.0, 23, 0.97, true, true, true, 16000.0,
                        true, true, false, true, true, -500.0, 100.0, 0.9, "rectangular"),
               "fbank.vtln_low", 1e-4, 1e-3);
}

TEST(AudioKaldi, Mfcc) {
  Tensor x = G("wave");
  EXPECT_CLOSE(K::mfcc(x), "mfcc.default", 1e-4, 2e-3);
  EXPECT_CLOSE(K::mfcc(x, 0.42, 0.0, -1, 0.0, 1.0, 25.0, 10.0, 0.0, true, 20.0, 10, 0.0, 23, 0.97, true, true, true,
                       16000.0, true, false, true),
               "mfcc.energy_htk", 1e-4, 2e-3);
  EXPECT_CLOSE(K::mfcc(x, 0.42, 22.0, 1, 0.0, 1.0, 32.0, 12.5, 7000.0, false, 20.0, 20, 0.0, 40, 0.97, true, true, true,
                       16000.0, true, true),
               "mfcc.opts", 1e-4, 2e-3);
  EXPECT_CLOSE(K::mfcc(x, 0.42, 22.0, -1, 0.0, 1.0, 25.0, 10.0, 0.0, true), "mfcc.htk_noenergy", 1e-4, 2e-3);
}

TEST(AudioKaldi, MelBanks) {
  auto [banks, centers] = K::get_mel_banks(23, 512, 16000.0, 20.0, 0.0, 100.0, -500.0, 1.0);
  EXPECT_CLOSE(banks, "banks.default", 1e-5, 1e-6);
  EXPECT_CLOSE(centers, "banks.centers", 1e-6, 1e-3);
  auto [vbanks, vcenters] = K::get_mel_banks(15, 256, 8000.0, 60.0, 3500.0, 200.0, 3000.0, 1.15);
  EXPECT_CLOSE(vbanks, "banks.vtln", 1e-5, 1e-6);
  EXPECT_CLOSE(vcenters, "banks.vtln_centers", 1e-6, 1e-3);
}

TEST(AudioKaldi, BadArguments) {
  Tensor x = G("wave");
  EXPECT_EMBER_ERROR(K::fbank(x.select(0, 0)), "fbank", "[channels, samples]");
  EXPECT_EMBER_ERROR(K::fbank(x, 0.42, 5), "fbank", "channel 5");
  EXPECT_EMBER_ERROR(K::fbank(x.slice(1, 0, 100)), "fbank", "window size");
  EXPECT_EMBER_ERROR(K::spectrogram(x, 0.42, -1, 0.0, 1.0, 25.0, 10.0, 0.0, 1.5), "spectrogram", "preemphasis");
  EXPECT_EMBER_ERROR(K::spectrogram(x, 0.42, -1, 0.0, 1.0, 25.0, 10.0, 0.0, 0.97, true, true, true, 0.0), "spectrogram",
                     "sample_frequency");
  EXPECT_EMBER_ERROR(
      K::spectrogram(x, 0.42, -1, 0.0, 1.0, 25.0, 10.0, 0.0, 0.97, true, true, true, 16000.0, true, false, "kaiser"),
      "kaiser");
  EXPECT_EMBER_ERROR(K::mfcc(x, 0.42, 22.0, -1, 0.0, 1.0, 25.0, 10.0, 0.0, false, 20.0, 30), "mfcc", "num_ceps");
  EXPECT_EMBER_ERROR(K::fbank(x, 0.42, -1, 0.0, 1.0, 25.0, 10.0, 0.0, false, 20.0, 0.0, 2), "get_mel_banks", "3");
  EXPECT_EMBER_ERROR(K::fbank(x, 0.42, -1, 0.0, 1.0, 25.0, 10.0, 9000.0), "get_mel_banks", "9000");
  EXPECT_EQ(K::fbank(x, 0.42, -1, 0.0, 1.0, 25.0, 10.0, 0.0, false, 20.0, 10.0).numel(), 0);
}

}  // namespace
}  // namespace torch::testing
