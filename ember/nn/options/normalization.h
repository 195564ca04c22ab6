#pragma once
// Options of the normalization modules and their nn::functional forms, as
// torch/nn/options/normalization.h (BatchNorm and InstanceNorm options
// are in options/{batchnorm,instancenorm}.h).
#include <cstdint>
#include <optional>
#include <vector>

#include "ember/core/arg.h"
#include "ember/core/tensor.h"

namespace torch::nn {

// LayerNorm(LayerNormOptions({4, 5}).elementwise_affine(false))
struct LayerNormOptions {
  /* implicit */ LayerNormOptions(std::vector<int64_t> normalized_shape)  // NOLINT
      : normalized_shape_(std::move(normalized_shape)) {}
  TORCH_ARG(std::vector<int64_t>, normalized_shape);
  TORCH_ARG(double, eps) = 1e-5;
  TORCH_ARG(bool, elementwise_affine) = true;
};

// GroupNorm(GroupNormOptions(2, 4).eps(1e-3))
struct GroupNormOptions {
  GroupNormOptions(int64_t num_groups, int64_t num_channels) : num_groups_(num_groups), num_channels_(num_channels) {}
  TORCH_ARG(int64_t, num_groups);
  TORCH_ARG(int64_t, num_channels);
  TORCH_ARG(double, eps) = 1e-5;
  TORCH_ARG(bool, affine) = true;
};

namespace functional {

// F::layer_norm(x, F::LayerNormFuncOptions({5}).eps(1e-3))
struct LayerNormFuncOptions {
  /* implicit */ LayerNormFuncOptions(std::vector<int64_t> normalized_shape)  // NOLINT
      : normalized_shape_(std::move(normalized_shape)) {}
  TORCH_ARG(std::vector<int64_t>, normalized_shape);
  TORCH_ARG(Tensor, weight) = {};
  TORCH_ARG(Tensor, bias) = {};
  TORCH_ARG(double, eps) = 1e-5;
};

// F::group_norm(x, F::GroupNormFuncOptions(2))
struct GroupNormFuncOptions {
  /* implicit */ GroupNormFuncOptions(int64_t num_groups) : num_groups_(num_groups) {}  // NOLINT
  TORCH_ARG(int64_t, num_groups);
  TORCH_ARG(Tensor, weight) = {};
  TORCH_ARG(Tensor, bias) = {};
  TORCH_ARG(double, eps) = 1e-5;
};

}  // namespace functional
}  // namespace torch::nn
