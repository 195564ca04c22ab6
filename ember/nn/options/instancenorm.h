#pragma once
// Options of InstanceNorm1d/2d/3d and F::instance_norm, as torch::nn::InstanceNormOptions.
#include <cstdint>

#include "ember/core/arg.h"
#include "ember/core/tensor.h"

namespace torch::nn {

// InstanceNorm2dOptions(64).affine(true).track_running_stats(true)
struct InstanceNormOptions {
  /* implicit */ InstanceNormOptions(int64_t num_features) : num_features_(num_features) {}  // NOLINT
  TORCH_ARG(int64_t, num_features);
  TORCH_ARG(double, eps) = 1e-5;
  TORCH_ARG(double, momentum) = 0.1;
  TORCH_ARG(bool, affine) = false;
  TORCH_ARG(bool, track_running_stats) = false;
};
using InstanceNorm1dOptions = InstanceNormOptions;
using InstanceNorm2dOptions = InstanceNormOptions;
using InstanceNorm3dOptions = InstanceNormOptions;

namespace functional {
// F::instance_norm(x, F::InstanceNormFuncOptions().running_mean(m).running_var(v))
struct InstanceNormFuncOptions {
  TORCH_ARG(Tensor, running_mean) = Tensor();
  TORCH_ARG(Tensor, running_var) = Tensor();
  TORCH_ARG(Tensor, weight) = Tensor();
  TORCH_ARG(Tensor, bias) = Tensor();
  TORCH_ARG(bool, use_input_stats) = true;
  TORCH_ARG(double, momentum) = 0.1;
  TORCH_ARG(double, eps) = 1e-5;
};
}  // namespace functional

}  // namespace torch::nn
