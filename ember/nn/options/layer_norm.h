#pragma once
// LayerNormOptions, as torch::nn::LayerNormOptions (torch/nn/options/normalization.h).
#include <cstdint>
#include <utility>
#include <vector>

#include "ember/core/arg.h"

namespace ember::nn {

// LayerNormOptions({256}).eps(1e-6).elementwise_affine(false)
struct LayerNormOptions {
  /* implicit */ LayerNormOptions(std::vector<int64_t> normalized_shape)  // NOLINT
      : normalized_shape_(std::move(normalized_shape)) {}
  TORCH_ARG(std::vector<int64_t>, normalized_shape);
  TORCH_ARG(double, eps) = 1e-5;
  TORCH_ARG(bool, elementwise_affine) = true;
};

}  // namespace ember::nn
