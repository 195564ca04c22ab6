#pragma once
// torchaudio.info: sample rate, length, channels and encoding of an audio file.
#include <istream>
#include <optional>
#include <string>

#include "ember/audio/io/audio_metadata.h"
#include "ember/core/tensor.h"

namespace torch::audio {

// `format` names the container when the file's content or extension cannot
// ("wav", "flac", "ogg", "vorbis", "opus", "mp3"); the file must then be one.
AudioMetaData info(const std::string& filepath, const std::optional<std::string>& format = std::nullopt);
// The bytes of a file in memory: a 1-D uint8 tensor.
AudioMetaData info(const Tensor& src, const std::optional<std::string>& format = std::nullopt);
// A file-like object (Python's `read()`-able): read to its end, then parsed.
AudioMetaData info(std::istream& fileobj, const std::optional<std::string>& format = std::nullopt);

}  // namespace torch::audio
