// apply_codec against torchaudio 0.13 (tools/golden/gen_audio_codec.py):
// WAV (float, PCM, µ-law, A-law) and FLAC sample for sample; Vorbis by its
// length and by how closely it follows the input.
#include <gtest/gtest.h>

#include <string>

#include "common/golden.h"
#include "common/test_util.h"
#include "ember/audio/functional/codec.h"
#include "ember/torch.h"

namespace torch::testing {
namespace {

namespace AF = ::torch::audio::functional;

const Golden& golden() {
  static const Golden g("audio_codec.golden");
  return g;
}
Tensor G(const std::string& name) { return golden()[name]; }

TEST(AudioCodec, LosslessAndCompanded) {
  Tensor x = G("noise");
  auto check = [&](const std::string& name, const Tensor& y) {
    SCOPED_TRACE(name);
    EXPECT_TENSOR_CLOSE_TOL(y, G("codec." + name), 0, 1e-6);
  };
  // libsox and libsndfile pick neighbouring µ-law / A-law codewords for a few
  // samples next to a decision level (as in io_save_test.cpp): at most 2% of
  // the samples, each one codeword off.
  auto check_companded = [&](const std::string& name, const Tensor& y) {
    SCOPED_TRACE(name);
    Tensor want = G("codec." + name);
    ASSERT_EQ(y.sizes(), want.sizes());
    EXPECT_LE(((y - want).abs() > 1e-7).sum().item<int64_t>(), want.numel() / 50);
    EXPECT_TENSOR_CLOSE_TOL(y, want, 0.07, 1e-3);
  };
  check("wav", AF::apply_codec(x, 8000, "wav"));
  check("wav_s16", AF::apply_codec(x, 8000, "wav", true, std::nullopt, "PCM_S", 16));
  check("wav_s24", AF::apply_codec(x, 8000, "wav", true, std::nullopt, "PCM_S", 24));
  check("wav_u8", AF::apply_codec(x, 8000, "wav", true, std::nullopt, "PCM_U", 8));
  check_companded("wav_ulaw", AF::apply_codec(x, 8000, "wav", true, std::nullopt, "ULAW", 8));
  check_companded("wav_alaw", AF::apply_codec(x, 8000, "wav", true, std::nullopt, "ALAW", 8));
  check("flac", AF::apply_codec(x, 8000, "flac"));
  check("flac_16_c0", AF::apply_codec(x, 8000, "flac", true, 0.0, std::nullopt, 16));
  check_companded("ulaw_time_first", AF::apply_codec(x.t().contiguous(), 8000, "wav", false, std::nullopt, "ULAW", 8));
}

TEST(AudioCodec, Vorbis) {
  Tensor t = arange(16000, TensorOptions(kDouble)) / 16000;
  Tensor sine = (sin(t * (2 * M_PI * 440)) * 0.5).to(kFloat).unsqueeze(0);
  Tensor y = AF::apply_codec(sine, 16000, "ogg");
  Tensor shape = G("vorbis.shape");
  ASSERT_EQ(y.dim(), 2);
  EXPECT_EQ(y.size(0), shape[0].item<int64_t>());
  EXPECT_EQ(y.size(1), shape[1].item<int64_t>());
  // Away from the edges the decoded tone follows the input closely.
  Tensor mid = y.slice(1, 1000, 15000), ref = sine.slice(1, 1000, 15000);
  const double err = ((mid - ref).pow(2).mean() / ref.pow(2).mean()).item<double>();
  EXPECT_LT(err, 0.01);
}

TEST(AudioCodec, BadArguments) {
  Tensor x = G("noise");
  EXPECT_EMBER_ERROR(AF::apply_codec(x[0], 8000, "wav"), "apply_codec", "2-D");
  EXPECT_EMBER_ERROR(AF::apply_codec(x, 0, "wav"), "apply_codec", "sample_rate");
  EXPECT_THROW(AF::apply_codec(x, 8000, "nosuchformat"), ::ember::Error);
  EXPECT_THROW(AF::apply_codec(x, 8000, "wav", true, std::nullopt, "PCM_S", 8), ::ember::Error);
}

}  // namespace
}  // namespace torch::testing
