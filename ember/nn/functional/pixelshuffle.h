#pragma once
// F::pixel_shuffle / F::pixel_unshuffle, as torch::nn::functional (reshape/permute ops).
#include "ember/core/tensor.h"
#include "ember/nn/options/pixelshuffle.h"
#include "ember/ops/nn/upsample.h"

namespace torch::nn::functional {

inline Tensor pixel_shuffle(const Tensor& input, const PixelShuffleFuncOptions& options) {
  return ember::pixel_shuffle(input, options.upscale_factor());
}
inline Tensor pixel_unshuffle(const Tensor& input, const PixelUnshuffleFuncOptions& options) {
  return ember::pixel_unshuffle(input, options.downscale_factor());
}

}  // namespace torch::nn::functional
