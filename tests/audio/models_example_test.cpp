// examples/audio_features' pipeline (log_mel_image.h, the code main.cpp runs)
// against torchaudio 0.13 (tools/golden/gen_audio_models_example.py): the
// fixture's info line and its log-Mel picture.
#include <gtest/gtest.h>

#include <string>

#include "../../examples/audio_features/log_mel_image.h"
#include "common/golden.h"
#include "common/test_util.h"
#include "ember/audio/io/info.h"
#include "ember/audio/io/load.h"
#include "ember/torch.h"

namespace torch::testing {
namespace {

const std::string kWav = EMBER_GOLDEN_DIR "/audio/models/chirp.wav";

TEST(AudioModelsExample, DescribesTheFixture) {
  Golden g("audio_models_example.golden");
  Tensor expected = g["info"];
  auto meta = audio::info(kWav);
  EXPECT_EQ(meta.sample_rate, expected[0].item<int64_t>());
  EXPECT_EQ(meta.num_frames, expected[1].item<int64_t>());
  EXPECT_EQ(meta.num_channels, expected[2].item<int64_t>());
  EXPECT_EQ(meta.bits_per_sample, expected[3].item<int64_t>());
  const std::string line = audio_features::describe(kWav, meta);
  EXPECT_NE(line.find("2 channel(s), 16000 Hz, 4800 frames (0.3 s), encoding PCM_S, 16 bits per sample"),
            std::string::npos)
      << line;
}

TEST(AudioModelsExample, LogMelImageMatchesTorchaudio) {
  Golden g("audio_models_example.golden");
  auto [waveform, sample_rate] = audio::load(kWav);
  Tensor image = audio_features::log_mel_image(waveform, sample_rate);
  Tensor expected = g["image"];
  ASSERT_EQ(image.scalar_type(), kUInt8);
  ASSERT_EQ(image.sizes().vec(), expected.sizes().vec());
  // Rounding x.5 may go either way between float implementations: allow one level.
  Tensor diff = (image.to(kInt32) - expected.to(kInt32)).abs();
  EXPECT_LE(diff.max().item<int64_t>(), 1);
  EXPECT_LT(diff.to(kFloat).mean().item<double>(), 0.01);
  EXPECT_EQ(image.max().item<int64_t>(), 255);
  EXPECT_EQ(image.min().item<int64_t>(), 0);
}

TEST(AudioModelsExample, BadInput) {
  EXPECT_EMBER_ERROR(audio_features::log_mel_image(zeros({100}), 16000), "log_mel_image", "[channels, frames]");
  EXPECT_EMBER_ERROR(audio_features::log_mel_image(zeros({1, 1000}), 0), "log_mel_image", "sample_rate");
}

}  // namespace
}  // namespace torch::testing
