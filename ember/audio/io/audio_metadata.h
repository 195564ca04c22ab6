#pragma once
// torchaudio.backend.common.AudioMetaData: what info() reports about a file.
#include <cstdint>
#include <ostream>
#include <string>

#include "ember/core/namespace.h"

namespace torch::audio {

struct AudioMetaData {
  int64_t sample_rate = 0;
  int64_t num_frames = 0;
  int64_t num_channels = 0;
  // 0 for lossy formats (Vorbis, Opus, MP3) whose samples have no bit depth.
  int64_t bits_per_sample = 0;
  // torchaudio's names: "PCM_S", "PCM_U", "PCM_F", "ULAW", "ALAW", "FLAC",
  // "VORBIS", "OPUS", "MP3", ... and "UNKNOWN".
  std::string encoding;
};

inline bool operator==(const AudioMetaData& a, const AudioMetaData& b) {
  return a.sample_rate == b.sample_rate && a.num_frames == b.num_frames && a.num_channels == b.num_channels &&
         a.bits_per_sample == b.bits_per_sample && a.encoding == b.encoding;
}

inline std::ostream& operator<<(std::ostream& os, const AudioMetaData& m) {
  return os << "AudioMetaData(sample_rate=" << m.sample_rate << ", num_frames=" << m.num_frames
            << ", num_channels=" << m.num_channels << ", bits_per_sample=" << m.bits_per_sample
            << ", encoding=" << m.encoding << ")";
}

namespace backend::common {
using ::torch::audio::AudioMetaData;
}  // namespace backend::common

}  // namespace torch::audio
