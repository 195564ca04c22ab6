#pragma once
// Options of the normalization modules and their nn::functional forms, as
// torch/nn/options/{batchnorm,normalization,instancenorm}.h.
#include <cstdint>
#include <optional>
#include <vector>

#include "ember/core/arg.h"
#include "ember/core/tensor.h"

namespace ember::nn {

// BatchNorm2d(BatchNormOptions(3).momentum(0.01).affine(false)); an unset
// momentum (std::nullopt) means a cumulative moving average.
struct BatchNormOptions {
  /* implicit */ BatchNormOptions(int64_t num_features) : num_features_(num_features) {}  // NOLINT
  TORCH_ARG(int64_t, num_features);
  TORCH_ARG(double, eps) = 1e-5;
  TORCH_ARG(std::optional<double>, momentum) = 0.1;
  TORCH_ARG(bool, affine) = true;
  TORCH_ARG(bool, track_running_stats) = true;
};

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

// F::batch_norm(x, running_mean, running_var, F::BatchNormFuncOptions().training(true))
struct BatchNormFuncOptions {
  TORCH_ARG(Tensor, weight) = {};
  TORCH_ARG(Tensor, bias) = {};
  TORCH_ARG(bool, training) = false;
  TORCH_ARG(std::optional<double>, momentum) = 0.1;
  TORCH_ARG(double, eps) = 1e-5;
};

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
}  // namespace ember::nn
