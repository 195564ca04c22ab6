// torchaudio.load / info on files libsox and FFmpeg wrote, against what
// torchaudio 0.13 returns for them (tools/golden/gen_audio_io.py).
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "common/golden.h"
#include "common/test_util.h"
#include "ember/audio/io.h"
#include "ember/torch.h"

namespace {

using ember::Tensor;
using ember::testing::Golden;

std::string asset(const std::string& name) { return std::string(EMBER_GOLDEN_DIR) + "/audio/io/" + name; }

const Golden& golden() {
  static const Golden g("audio_io.golden");
  return g;
}

struct InfoRow {
  std::string file;
  ember::audio::AudioMetaData meta;
};

std::vector<InfoRow> info_rows() {
  std::ifstream in(asset("info.txt"));
  std::vector<InfoRow> rows;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream ls(line);
    InfoRow r;
    ls >> r.file >> r.meta.sample_rate >> r.meta.num_frames >> r.meta.num_channels >> r.meta.bits_per_sample >>
        r.meta.encoding;
    rows.push_back(r);
  }
  return rows;
}

std::string read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// Lossy decoders (libvorbis, libopus, mpg123 here; libsox's / FFmpeg's in
// torchaudio) agree to rounding only; lossless and PCM ones agree exactly.
double tolerance_for(const std::string& file) {
  if (file.find(".mp3") != std::string::npos) return 2e-3;
  if (file.find(".ogg") != std::string::npos || file.find(".opus") != std::string::npos) return 1e-4;
  return 0;
}

TEST(AudioIoInfo, MatchesTorchaudio) {
  auto rows = info_rows();
  ASSERT_EQ(rows.size(), 14u);
  for (const auto& r : rows) {
    SCOPED_TRACE(r.file);
    EXPECT_EQ(ember::audio::info(asset(r.file)), r.meta);
  }
}

TEST(AudioIoLoad, NormalizedMatchesTorchaudio) {
  for (const auto& r : info_rows()) {
    SCOPED_TRACE(r.file);
    auto [wave, rate] = ember::audio::load(asset(r.file));
    Tensor want = golden()["load." + r.file];
    EXPECT_EQ(rate, golden()["rate." + r.file].item<int64_t>());
    EXPECT_EQ(wave.scalar_type(), ember::kFloat);
    ASSERT_EQ(wave.sizes(), want.sizes());
    double tol = tolerance_for(r.file);
    EXPECT_TENSOR_CLOSE_TOL(wave, want, 0, tol);
  }
}

TEST(AudioIoLoad, UnnormalizedKeepsIntegerWav) {
  for (const auto& r : info_rows()) {
    if (r.file.find(".wav") == std::string::npos) continue;
    SCOPED_TRACE(r.file);
    auto [wave, rate] = ember::audio::load(asset(r.file), 0, -1, false);
    Tensor want = golden()["raw." + r.file];
    EXPECT_EQ(wave.scalar_type(), want.scalar_type());
    EXPECT_TENSOR_EQ(wave, want);
  }
}

TEST(AudioIoLoad, OffsetsCountsAndLayout) {
  using ember::audio::load;
  EXPECT_TENSOR_EQ(std::get<0>(load(asset("s16.wav"), 100, 300)), golden()["slice.s16.wav"]);
  EXPECT_TENSOR_EQ(std::get<0>(load(asset("s16.wav"), 1150, 300)), golden()["tail.s16.wav"]);
  EXPECT_TENSOR_EQ(std::get<0>(load(asset("s16.wav"), 5000)), golden()["past.s16.wav"]);
  EXPECT_TENSOR_EQ(std::get<0>(load(asset("s24.flac"), 700, 64)), golden()["slice.s24.flac"]);
  EXPECT_TENSOR_CLOSE_TOL(std::get<0>(load(asset("vorbis.ogg"), 1000)), golden()["last.vorbis.ogg"], 0, 1e-4);
  EXPECT_TENSOR_CLOSE_TOL(std::get<0>(load(asset("a.mp3"), 1000, 500)), golden()["slice.a.mp3"], 0, 2e-3);
  EXPECT_TENSOR_CLOSE_TOL(std::get<0>(load(asset("a.opus"), 2000, 700)), golden()["slice.a.opus"], 0, 1e-4);
  Tensor tc = std::get<0>(load(asset("s16.wav"), 0, -1, true, false));
  EXPECT_TRUE(tc.is_contiguous());
  EXPECT_TENSOR_EQ(tc, golden()["tc.s16.wav"]);
  EXPECT_TENSOR_EQ(std::get<0>(load(asset("u8.wav"), 0, -1, false, false)), golden()["tc.raw.u8.wav"]);
}

TEST(AudioIoLoad, FromBytesAndStreams) {
  for (const char* file : {"s16.wav", "s24.flac", "vorbis.ogg", "a.mp3", "u8.wav"}) {
    SCOPED_TRACE(file);
    std::string bytes = read_bytes(asset(file));
    Tensor buf = ember::empty({static_cast<int64_t>(bytes.size())}, ember::kUInt8);
    std::memcpy(buf.data_ptr(), bytes.data(), bytes.size());
    auto [from_file, r0] = ember::audio::load(asset(file), 0, -1, false);
    auto [from_tensor, r1] = ember::audio::load(buf, 0, -1, false);
    std::istringstream stream(bytes);
    auto [from_stream, r2] = ember::audio::load(stream, 0, -1, false);
    EXPECT_EQ(r0, r1);
    EXPECT_EQ(r0, r2);
    EXPECT_TENSOR_EQ(from_tensor, from_file);
    EXPECT_TENSOR_EQ(from_stream, from_file);
    std::istringstream stream2(bytes);
    EXPECT_EQ(ember::audio::info(buf), ember::audio::info(asset(file)));
    EXPECT_EQ(ember::audio::info(stream2), ember::audio::info(asset(file)));
  }
}

TEST(AudioIoLoad, ArgumentErrors) {
  using ember::audio::load;
  EXPECT_EMBER_ERROR(load(asset("s16.wav"), 0, 0), "load", "num_frames must be -1 or greater than 0", "0");
  EXPECT_EMBER_ERROR(load(asset("s16.wav"), 0, -2), "load", "num_frames", "-2");
  EXPECT_EMBER_ERROR(load(asset("s16.wav"), -1), "load", "frame_offset must be non-negative", "-1");
  EXPECT_EMBER_ERROR(load(asset("no_such_file.wav")), "load", "no_such_file.wav");
  EXPECT_EMBER_ERROR(load(std::string(EMBER_GOLDEN_DIR)), "load", "is a directory");
  EXPECT_EMBER_ERROR(load(asset("s16.wav"), 0, -1, true, true, "flac"), "load", "s16.wav", "flac");
  EXPECT_EMBER_ERROR(load(asset("s16.wav"), 0, -1, true, true, "xyz"), "load", "unsupported format", "xyz");
  EXPECT_EMBER_ERROR(ember::audio::info(ember::zeros({4, 4}, ember::kUInt8)), "info", "1-D uint8");
  EXPECT_EMBER_ERROR(ember::audio::info(ember::zeros({16}, ember::kFloat)), "info", "1-D uint8", "float32");
}

}  // namespace
