#pragma once
// torchaudio.functional.loudness: ITU-R BS.1770-4 integrated loudness (LKFS)
// of [..., channels <= 5, time] with K-weighting and absolute/relative gating.
#include <cstdint>

#include "ember/core/tensor.h"

namespace torch::audio::functional {

Tensor loudness(const Tensor& waveform, int64_t sample_rate);

}  // namespace torch::audio::functional
