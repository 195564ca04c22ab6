#pragma once
// torchaudio.functional.apply_codec: encodes a waveform in a format (and
// encoding) and decodes it again, in memory, to hear the codec's artefacts.
#include <cstdint>
#include <optional>
#include <string>

#include "ember/core/tensor.h"

namespace torch::audio::functional {

// waveform: float [channels, time] (or [time, channels] when channels_first
// is false). format, compression, encoding and bits_per_sample as ember::audio::save
// takes them. The result has the input's layout and sample rate (resampled when
// the codec changed the rate); lossy codecs may change its length.
Tensor apply_codec(const Tensor& waveform, int64_t sample_rate, const std::string& format, bool channels_first = true,
                   std::optional<double> compression = std::nullopt,
                   const std::optional<std::string>& encoding = std::nullopt,
                   std::optional<int64_t> bits_per_sample = std::nullopt);

}  // namespace torch::audio::functional
