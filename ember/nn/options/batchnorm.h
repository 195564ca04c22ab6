#pragma once
// Options of BatchNorm1d/2d/3d and F::batch_norm, as torch::nn::BatchNormOptions.
#include <cstdint>
#include <optional>

#include "ember/core/arg.h"
#include "ember/core/tensor.h"

namespace torch::nn {

// BatchNorm2dOptions(64).momentum(0.01); momentum std::nullopt means a cumulative
// average of the batch statistics (what optim::swa_utils::update_bn uses).
struct BatchNormOptions {
  /* implicit */ BatchNormOptions(int64_t num_features) : num_features_(num_features) {}  // NOLINT
  TORCH_ARG(int64_t, num_features);
  TORCH_ARG(double, eps) = 1e-5;
  TORCH_ARG(std::optional<double>, momentum) = 0.1;
  TORCH_ARG(bool, affine) = true;
  TORCH_ARG(bool, track_running_stats) = true;
};
using BatchNorm1dOptions = BatchNormOptions;
using BatchNorm2dOptions = BatchNormOptions;
using BatchNorm3dOptions = BatchNormOptions;

namespace functional {
// F::batch_norm(x, mean, var, F::BatchNormFuncOptions().weight(w).training(true))
struct BatchNormFuncOptions {
  TORCH_ARG(Tensor, weight) = Tensor();
  TORCH_ARG(Tensor, bias) = Tensor();
  TORCH_ARG(bool, training) = false;
  TORCH_ARG(std::optional<double>, momentum) = 0.1;
  TORCH_ARG(double, eps) = 1e-5;
};
}  // namespace functional

}  // namespace torch::nn
