#pragma once
// nn::functional::affine_grid / grid_sample (compositions in ember/ops/nn/grid_sample.cpp).
#include "ember/nn/options/vision.h"
#include "ember/ops/nn/grid_sample.h"

namespace torch::nn::functional {

inline Tensor affine_grid(const Tensor& theta, IntArrayRef size, bool align_corners = false) {
  return ember::affine_grid_generator(theta, size, align_corners);
}

// The variants' alternatives are ordered as PyTorch's integer codes (bilinear 0,
// nearest 1; zeros 0, border 1, reflection 2).
inline Tensor grid_sample(const Tensor& input, const Tensor& grid, const GridSampleFuncOptions& options = {}) {
  return ember::grid_sampler(input, grid, static_cast<int64_t>(options.mode().index()),
                             static_cast<int64_t>(options.padding_mode().index()),
                             options.align_corners().value_or(false));
}

}  // namespace torch::nn::functional
