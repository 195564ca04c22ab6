#pragma once
// torchaudio.load: decodes an audio file into a [channels, frames] tensor.
#include <cstdint>
#include <istream>
#include <optional>
#include <string>
#include <tuple>

#include "ember/core/tensor.h"

namespace torch::audio {

// Returns (waveform, sample_rate). normalize=true gives float32 in [-1, 1];
// normalize=false keeps integer WAV samples as uint8 (8-bit), int16 (16-bit) or
// int32 (24- and 32-bit, full range), as torchaudio does; every other
// encoding is float32 either way. frame_offset skips frames; num_frames=-1
// reads to the end, otherwise at most num_frames.
std::tuple<Tensor, int64_t> load(const std::string& filepath, int64_t frame_offset = 0, int64_t num_frames = -1,
                                 bool normalize = true, bool channels_first = true,
                                 const std::optional<std::string>& format = std::nullopt);
// The bytes of an audio file in memory, a 1-D uint8 tensor.
std::tuple<Tensor, int64_t> load(const Tensor& src, int64_t frame_offset = 0, int64_t num_frames = -1,
                                 bool normalize = true, bool channels_first = true,
                                 const std::optional<std::string>& format = std::nullopt);
// A file-like object: read to its end, then decoded from memory.
std::tuple<Tensor, int64_t> load(std::istream& fileobj, int64_t frame_offset = 0, int64_t num_frames = -1,
                                 bool normalize = true, bool channels_first = true,
                                 const std::optional<std::string>& format = std::nullopt);

}  // namespace torch::audio
