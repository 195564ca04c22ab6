// torchaudio.io.StreamWriter on FFmpeg: files Ember writes read back as the
// ones torchaudio 0.13 wrote from the same chunks (tools/golden/gen_audio_io_stream.py).
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
using ember::audio::io::StreamWriter;
using ember::testing::Golden;

const Golden& golden() {
  static const Golden g("audio_io_stream.golden");
  return g;
}

class AudioIoStreamWriter : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() / ("ember_audio_writer_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string file(const std::string& name) const { return (dir_ / name).string(); }
  std::filesystem::path dir_;
};

struct WriterCase {
  const char* tag;
  const char* ext;
  int64_t rate, channels;
  const char* format;
  std::optional<std::string> encoder;
  const char* src;
  bool normalize;
  double atol;
};

TEST_F(AudioIoStreamWriter, MatchesTorchaudio) {
  const WriterCase cases[] = {
      {"wav_flt", "wav", 8000, 2, "flt", std::nullopt, "writer.src", false, 0},
      {"wav_flt_s32", "wav", 8000, 2, "flt", "pcm_s32le", "writer.src", false, 0},
      {"flac_s16", "flac", 8000, 2, "s16", std::nullopt, "writer.src16", true, 0},
      {"mp3_tone", "mp3", 16000, 1, "flt", "libmp3lame", "writer.tone", true, 1e-4},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.tag);
    std::string path = file(std::string("out.") + c.ext);
    Tensor src = golden()[c.src];
    {
      StreamWriter w(path);
      w.add_audio_stream(c.rate, c.channels, c.format, c.encoder);
      w.open();
      // Chunks need not fill encoder frames (FLAC's are 4608 samples); the
      // golden FLAC file was written in one chunk (see the generator).
      w.write_audio_chunk(0, src.narrow(0, 0, 700));
      w.write_audio_chunk(0, src.narrow(0, 700, src.size(0) - 700));
      w.close();
    }
    auto [back, rate] = ember::audio::load(path, 0, -1, c.normalize);
    EXPECT_EQ(rate, c.rate);
    Tensor want = golden()[std::string("writer.") + c.tag];
    ASSERT_EQ(back.sizes(), want.sizes());
    EXPECT_EQ(back.scalar_type(), want.scalar_type());
    EXPECT_TENSOR_CLOSE_TOL(back, want, 0, c.atol);
  }
}

TEST_F(AudioIoStreamWriter, RoundTripsThroughStreamReader) {
  Tensor src = golden()["writer.src16"];
  std::string path = file("rt.wav");
  {
    StreamWriter w(path);
    w.add_audio_stream(8000, 2, "s16");
    w.set_metadata({{"title", "ember"}});
    w.open();
    w.write_audio_chunk(0, src);
    w.flush();
  }  // the destructor closes
  ember::audio::io::StreamReader r(path);
  EXPECT_EQ(r.get_metadata().at("title"), "ember");
  r.add_basic_audio_stream(-1, 3, std::nullopt, std::nullopt, std::nullopt, "s16");
  std::vector<Tensor> parts;
  for (const auto& chunks : r.stream()) parts.push_back(*chunks[0]);
  EXPECT_TENSOR_EQ(ember::cat(parts, 0), src);
}

TEST_F(AudioIoStreamWriter, ToFileLikeObject) {
  Tensor src = golden()["writer.src16"];
  std::ostringstream out;
  {
    StreamWriter w(out, "wav");
    w.add_audio_stream(8000, 2, "s16");
    w.open();
    w.write_audio_chunk(0, src);
    w.close();
  }
  std::istringstream in(out.str());
  auto [back, rate] = ember::audio::load(in, 0, -1, false, false);
  EXPECT_EQ(rate, 8000);
  EXPECT_TENSOR_EQ(back, src);
  std::ostringstream none;
  EXPECT_EMBER_ERROR(StreamWriter(none, std::nullopt), "StreamWriter", "format is required");
}

TEST_F(AudioIoStreamWriter, Errors) {
  EXPECT_EMBER_ERROR(StreamWriter(file("x.no_such_ext")), "StreamWriter", "x.no_such_ext");
  StreamWriter w(file("e.wav"));
  EXPECT_EMBER_ERROR(w.open(), "open", "no stream");
  EXPECT_EMBER_ERROR(w.add_audio_stream(0, 2), "add_audio_stream", "sample_rate", "0");
  EXPECT_EMBER_ERROR(w.add_audio_stream(8000, 0), "add_audio_stream", "num_channels");
  EXPECT_EMBER_ERROR(w.add_audio_stream(8000, 2, "s17"), "add_audio_stream", "s17");
  EXPECT_EMBER_ERROR(w.add_audio_stream(8000, 2, "flt", "no_such_encoder"), "add_audio_stream", "no_such_encoder");
  EXPECT_EMBER_ERROR(w.add_audio_stream(44100, 2, "flt", "libopus"), "add_audio_stream", "sample rate", "44100");
  w.add_audio_stream(8000, 2);
  EXPECT_EMBER_ERROR(w.write_audio_chunk(0, ember::zeros({10, 2})), "write_audio_chunk", "open()");
  w.open();
  EXPECT_EMBER_ERROR(w.write_audio_chunk(1, ember::zeros({10, 2})), "write_audio_chunk", "1");
  EXPECT_EMBER_ERROR(w.write_audio_chunk(0, ember::zeros({10, 3})), "write_audio_chunk", "[frames, 2]", "[10, 3]");
  EXPECT_EMBER_ERROR(w.write_audio_chunk(0, ember::zeros({10, 2}, ember::kShort)), "write_audio_chunk", "int16");
  w.close();
}

}  // namespace
