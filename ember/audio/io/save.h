#pragma once
// torchaudio.save (the sox_io backend's semantics, written through libsndfile).
#include <cstdint>
#include <optional>
#include <ostream>
#include <string>

#include "ember/core/tensor.h"

namespace torch::audio {

// src is 2-D float32, int32, int16 or uint8 ([channels, time] when
// channels_first). format defaults to the extension: "wav", "flac", "ogg" /
// "vorbis", "opus", "mp3", "sph". encoding ("PCM_S", "PCM_U", "PCM_F", "ULAW",
// "ALAW") and bits_per_sample apply to WAV (and bits to FLAC, SPH); their
// defaults follow torchaudio (WAV: from the dtype; FLAC: 24 bits).
// compression: FLAC level 0..8 (default 8), Vorbis quality -1..10 (default 3),
// MP3 bit rate in kbps (> 0, constant) or VBR quality (<= 0, default -4.5).
void save(const std::string& filepath, const Tensor& src, int64_t sample_rate, bool channels_first = true,
          std::optional<double> compression = std::nullopt, const std::optional<std::string>& format = std::nullopt,
          const std::optional<std::string>& encoding = std::nullopt,
          std::optional<int64_t> bits_per_sample = std::nullopt);

// A file-like object: the encoded file is written to `fileobj`; `format` is
// required, as in torchaudio.
void save(std::ostream& fileobj, const Tensor& src, int64_t sample_rate, bool channels_first = true,
          std::optional<double> compression = std::nullopt, const std::optional<std::string>& format = std::nullopt,
          const std::optional<std::string>& encoding = std::nullopt,
          std::optional<int64_t> bits_per_sample = std::nullopt);

}  // namespace torch::audio
