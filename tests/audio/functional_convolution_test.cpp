// convolve, fftconvolve, add_noise, speed, preemphasis and deemphasis (torchaudio 2's
// additions) and their transforms, against numpy's convolve and torchaudio 2.0's
// formulas written out with torch ops (tools/golden/gen_audio_functional.py).
#include <gtest/gtest.h>

#include <string>

#include "common/golden.h"
#include "common/test_util.h"
#include "ember/audio/functional.h"
#include "ember/audio/transforms.h"
#include "ember/torch.h"

namespace torch::testing {
namespace {

namespace AF = ::torch::audio::functional;
namespace AT = ::torch::audio::transforms;

const Golden& golden() {
  static const Golden g("audio_functional.golden");
  return g;
}
Tensor G(const std::string& name) { return golden()[name]; }

#define EXPECT_CLOSE(actual, name, rtol, atol) EXPECT_TENSOR_CLOSE_TOL((actual), G(name), (rtol), (atol))

TEST(AudioFunctionalConvolve, MatchesNumpy) {
  Tensor x = G("conv.x"), y = G("conv.y");
  for (const char* mode : {"full", "valid", "same"}) {
    EXPECT_CLOSE(AF::convolve(x, y, mode), std::string("conv.") + mode, 1e-10, 1e-10);
    EXPECT_CLOSE(AF::fftconvolve(x, y, mode), std::string("conv.") + mode, 1e-9, 1e-9);
    EXPECT_CLOSE(AT::Convolve(mode)(x, y), std::string("conv.") + mode, 1e-10, 1e-10);
    EXPECT_CLOSE(AT::FFTConvolve(mode)(x, y), std::string("conv.") + mode, 1e-9, 1e-9);
  }
  // The shorter signal may come first: convolution commutes ("full" only).
  EXPECT_TENSOR_CLOSE_TOL(AF::convolve(y.expand({2, 3, 9}), x), G("conv.full"), 1e-10, 1e-10);
  EXPECT_EMBER_ERROR(AF::convolve(x, y, "circular"), "convolve", "circular");
  EXPECT_EMBER_ERROR(AF::convolve(x, y.select(0, 0)), "convolve", "dimensions");
  EXPECT_EMBER_ERROR(AF::fftconvolve(x, ones({1, 2, 5}, kDouble)), "fftconvolve", "broadcast");
  EXPECT_EMBER_ERROR(AT::Convolve("bogus"), "Convolve", "bogus");
}

TEST(AudioFunctionalConvolve, AddNoiseSpeedEmphasis) {
  Tensor x = G("noise.x"), n = G("noise.n"), snr = G("noise.snr");
  EXPECT_CLOSE(AF::add_noise(x, n, snr), "noise.out", 1e-10, 1e-10);
  EXPECT_CLOSE(AF::add_noise(x, n, snr, G("noise.lengths")), "noise.masked", 1e-10, 1e-10);
  EXPECT_CLOSE(AT::AddNoise()(x, n, snr), "noise.out", 1e-10, 1e-10);
  EXPECT_EMBER_ERROR(AF::add_noise(x, n.slice(1, 0, 100), snr), "add_noise", "100");
  EXPECT_EMBER_ERROR(AF::add_noise(x, n, snr.unsqueeze(0)), "add_noise");
  Tensor wave = G("wave");
  auto [fast, lengths] = AF::speed(wave, 16000, 1.5, tensor({600, 451}));
  EXPECT_CLOSE(fast, "speed.out", 1e-4, 1e-5);
  ASSERT_TRUE(lengths.has_value());
  EXPECT_TENSOR_EQ(*lengths, G("speed.lengths"));
  auto [fast2, none] = AT::Speed(16000, 1.5)(wave);
  EXPECT_CLOSE(fast2, "speed.out", 1e-4, 1e-5);
  EXPECT_FALSE(none.has_value());
  EXPECT_EMBER_ERROR(AF::speed(wave, 16000, -1.0), "speed", "factor");
  EXPECT_CLOSE(AF::preemphasis(wave, 0.9), "emph.pre", 1e-6, 1e-7);
  EXPECT_CLOSE(AT::Preemphasis(0.9)(wave), "emph.pre", 1e-6, 1e-7);
  EXPECT_CLOSE(AF::deemphasis(wave, 0.9), "emph.de", 1e-5, 1e-6);
  EXPECT_CLOSE(AT::Deemphasis(0.9)(wave), "emph.de", 1e-5, 1e-6);
}

}  // namespace
}  // namespace torch::testing
