// Lying, cut and truncated files (built by tools/golden/gen_audio_io.py) raise
// ember::Error naming the input and the problem, from paths and from memory.
#include <gtest/gtest.h>

#include <fstream>

#include "common/test_util.h"
#include "ember/audio/io.h"
#include "ember/torch.h"

namespace {

std::string asset(const std::string& name) { return std::string(EMBER_GOLDEN_DIR) + "/audio/io/" + name; }

ember::Tensor bytes_of(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::string s((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ember::Tensor t = ember::empty({static_cast<int64_t>(s.size())}, ember::kUInt8);
  if (!s.empty()) std::memcpy(t.data_ptr(), s.data(), s.size());
  return t;
}

struct Hostile {
  const char* file;
  const char* problem;  // a fragment the message must contain
};

const Hostile kHostile[] = {
    {"bad_datasize.wav", "data chunk is larger than the file"},
    {"bad_zero_channels.wav", "failed to open"},
    {"bad_bits12.wav", "unsupported bits per sample of 12"},
    {"bad_bits0.wav", "failed to open"},
    {"bad_zero_rate.wav", "failed to open"},
    {"bad_cut_header.wav", "failed to open"},
    {"bad_empty.wav", "failed to open"},
    {"bad_noise.wav", "failed to open"},
    {"bad_truncated_s24.flac", "truncated"},
    {"bad_truncated_vorbis.ogg", "truncated"},
    {"bad_truncated_a.opus", "truncated"},
    {"bad_cut_s24.flac", ""},
    {"bad_cut_vorbis.ogg", ""},
    {"bad_cut_a.mp3", ""},
    {"bad_cut_a.opus", ""},
};

TEST(AudioIoHostile, FilesRaiseNamingFileAndProblem) {
  for (const auto& h : kHostile) {
    SCOPED_TRACE(h.file);
    EXPECT_EMBER_ERROR(ember::audio::load(asset(h.file)), "load", h.file, h.problem);
  }
}

// From memory libsndfile cannot look ahead the way it does in a file, so
// some damage is found at a different step (opening instead of decoding),
// and the message names that step.
TEST(AudioIoHostile, BuffersRaiseNamingBuffer) {
  for (const auto& h : kHostile) {
    SCOPED_TRACE(h.file);
    EXPECT_EMBER_ERROR(ember::audio::load(bytes_of(asset(h.file))), "load", "byte buffer");
  }
}

// A truncated MP3 has no exact frame count to fall short of (its length is an
// estimate), so it decodes to the frames that exist, as in torchaudio.
TEST(AudioIoHostile, TruncatedMp3DecodesWhatExists) {
  auto [wave, rate] = ember::audio::load(asset("bad_truncated_a.mp3"));
  EXPECT_EQ(rate, 16000);
  EXPECT_EQ(wave.size(0), 2);
  EXPECT_GT(wave.size(1), 0);
  EXPECT_LT(wave.size(1), 4000);
}

}  // namespace
