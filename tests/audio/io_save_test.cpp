// torchaudio.save: what Ember writes reads back as what torchaudio 0.13
// (libsox) wrote for the same input (tools/golden/gen_audio_io.py).
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <sstream>

#include "common/golden.h"
#include "common/test_util.h"
#include "ember/audio/io.h"
#include "ember/torch.h"

namespace {

using ember::Tensor;
using ember::testing::Golden;

const Golden& golden() {
  static const Golden g("audio_io.golden");
  return g;
}

// A per-process scratch directory, removed when the test ends.
class AudioIoSave : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() / ("ember_audio_io_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string file(const std::string& name) const { return (dir_ / name).string(); }
  std::filesystem::path dir_;
};

struct SaveCase {
  const char* tag;
  const char* src;
  std::optional<std::string> encoding;
  std::optional<int64_t> bits;
};

TEST_F(AudioIoSave, WavMatchesTorchaudio) {
  const SaveCase cases[] = {
      {"f_s16", "save.src", "PCM_S", 16},
      {"f_s24", "save.src", "PCM_S", 24},
      {"f_s32", "save.src", "PCM_S", 32},
      {"f_u8", "save.src", "PCM_U", 8},
      {"f_f32", "save.src", std::nullopt, std::nullopt},
      {"f_ulaw", "save.src", "ULAW", std::nullopt},
      {"f_alaw", "save.src", "ALAW", std::nullopt},
      {"i16_default", "save.src16", std::nullopt, std::nullopt},
      {"i16_s24", "save.src16", std::nullopt, 24},
      {"i16_u8", "save.src16", std::nullopt, 8},
      {"u8_default", "save.srcu8", std::nullopt, std::nullopt},
      {"u8_s16", "save.srcu8", "PCM_S", std::nullopt},
      {"i32_default", "save.src32", std::nullopt, std::nullopt},
      {"i32_s16", "save.src32", std::nullopt, 16},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.tag);
    std::string path = file(std::string(c.tag) + ".wav");
    ember::audio::save(path, golden()[c.src], 8000, true, std::nullopt, std::nullopt, c.encoding, c.bits);
    auto [back, rate] = ember::audio::load(path, 0, -1, false);
    EXPECT_EQ(rate, 8000);
    Tensor want = golden()[std::string("save.") + c.tag];
    EXPECT_EQ(back.scalar_type(), want.scalar_type());
    if (c.encoding == "ULAW" || c.encoding == "ALAW") {
      // libsox and libsndfile pick neighbouring codewords for a few samples
      // next to a decision level (Note [Sample conversion on save]).
      Tensor off = (back - want).abs() > 1e-7;
      EXPECT_LE(off.sum().item<int64_t>(), want.numel() / 50);
      EXPECT_TENSOR_CLOSE_TOL(back, want, 0.07, 1e-3);
    } else {
      EXPECT_TENSOR_EQ(back, want);
    }
  }
}

TEST_F(AudioIoSave, FlacMatchesTorchaudio) {
  Tensor src = golden()["save.src"];
  ember::audio::save(file("a.flac"), src, 8000);
  EXPECT_EQ(ember::audio::info(file("a.flac")).bits_per_sample, 24);
  EXPECT_EQ(ember::audio::info(file("a.flac")).encoding, "FLAC");
  EXPECT_TENSOR_EQ(std::get<0>(ember::audio::load(file("a.flac"))), golden()["save.flac24"]);
  ember::audio::save(file("b.flac"), src, 8000, true, 0.0, std::nullopt, std::nullopt, 16);
  EXPECT_TENSOR_EQ(std::get<0>(ember::audio::load(file("b.flac"))), golden()["save.flac16"]);
}

TEST_F(AudioIoSave, ChannelsLastAndLossyRoundTrips) {
  Tensor src = golden()["save.src"].clamp(-0.9, 0.9);
  ember::audio::save(file("tc.wav"), src.t().contiguous(), 8000, false, std::nullopt, std::nullopt, "PCM_F");
  EXPECT_TENSOR_CLOSE_TOL(std::get<0>(ember::audio::load(file("tc.wav"))), src, 0, 1e-6);
  // A smooth tone survives lossy coding closely enough to recognise.
  Tensor t = ember::arange(16000, ember::kDouble) / 16000.0;
  Tensor tone = (ember::sin(t * (2 * M_PI * 440)) * 0.5).to(ember::kFloat).unsqueeze(0);
  for (const char* name : {"a.ogg", "a.mp3", "a.opus"}) {
    SCOPED_TRACE(name);
    ember::audio::save(file(name), tone, 16000);
    auto meta = ember::audio::info(file(name));
    EXPECT_EQ(meta.num_channels, 1);
    auto [back, rate] = ember::audio::load(file(name));
    EXPECT_EQ(rate, meta.sample_rate);
    EXPECT_GT(back.size(1), 14000);
    double rms = back.pow(2).mean().sqrt().item<double>();
    EXPECT_NEAR(rms, 0.5 / std::sqrt(2.0), 0.05);
  }
}

TEST_F(AudioIoSave, ToFileLikeObjects) {
  Tensor src = golden()["save.src16"];
  for (const char* fmt : {"wav", "flac"}) {
    SCOPED_TRACE(fmt);
    std::ostringstream out;
    ember::audio::save(out, src, 8000, true, std::nullopt, fmt);
    std::istringstream in(out.str());
    auto [back, rate] = ember::audio::load(in, 0, -1, false);
    EXPECT_EQ(rate, 8000);
    if (std::string(fmt) == "wav") {
      EXPECT_TENSOR_EQ(back, src);
    } else {
      EXPECT_TENSOR_EQ(back, src.to(ember::kFloat) / 32768.0);
    }
  }
  std::ostringstream out;
  EXPECT_EMBER_ERROR(ember::audio::save(out, src, 8000), "save", "format is required");
}

TEST_F(AudioIoSave, BadArguments) {
  // Qualified: torch::save (serialize) is found by argument-dependent lookup too.
  namespace audio = ember::audio;
  Tensor x = ember::zeros({2, 10});
  EXPECT_EMBER_ERROR(audio::save(file("a.wav"), ember::zeros({10}), 8000), "save", "2D", "[10]");
  EXPECT_EMBER_ERROR(audio::save(file("a.wav"), x.to(ember::kDouble), 8000), "save", "float32, int32, int16 or uint8");
  EXPECT_EMBER_ERROR(audio::save(file("a.wav"), x, 0), "save", "sample_rate", "0");
  EXPECT_EMBER_ERROR(audio::save(file("a.xyz"), x, 8000), "save", "unsupported format", "xyz");
  EXPECT_EMBER_ERROR(audio::save(file("a.wav"), x, 8000, true, std::nullopt, std::nullopt, "PCM_F", 16), "save",
                     "32-bit or 64-bit for floating-point");
  EXPECT_EMBER_ERROR(audio::save(file("a.wav"), x, 8000, true, std::nullopt, std::nullopt, "ULAW", 16), "save",
                     "8-bit for mu-law");
  EXPECT_EMBER_ERROR(audio::save(file("a.wav"), x, 8000, true, std::nullopt, std::nullopt, std::nullopt, 12), "save",
                     "12");
  EXPECT_EMBER_ERROR(audio::save(file("a.wav"), x, 8000, true, std::nullopt, std::nullopt, "PCM_X"), "save", "PCM_X");
  EXPECT_EMBER_ERROR(audio::save(file("a.flac"), x, 8000, true, std::nullopt, std::nullopt, std::nullopt, 32), "save",
                     "larger than 24");
  EXPECT_EMBER_ERROR(audio::save(file("a.flac"), x, 8000, true, 9.0), "save", "flac compression", "9");
  EXPECT_EMBER_ERROR(audio::save(file("no_dir/a.wav"), x, 8000), "save", "no_dir/a.wav");
}

}  // namespace
