#pragma once
// torchaudio.functional.mu_law_encoding / mu_law_decoding (ITU-T G.711 µ-law
// companding of [-1, 1] signals to quantization_channels integer levels).
#include <cstdint>

#include "ember/core/tensor.h"

namespace torch::audio::functional {

// Float [-1, 1] -> int64 in [0, quantization_channels - 1].
Tensor mu_law_encoding(const Tensor& x, int64_t quantization_channels);
// Integer (or float) levels -> float in [-1, 1].
Tensor mu_law_decoding(const Tensor& x_mu, int64_t quantization_channels);

}  // namespace torch::audio::functional
