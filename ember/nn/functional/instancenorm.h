#pragma once
// nn::functional::instance_norm, as torch::nn::functional::instance_norm.
#include "ember/nn/options/instancenorm.h"
#include "ember/ops/nn/normalization.h"

namespace torch::nn::functional {

namespace detail {
inline Tensor instance_norm(const Tensor& input, const Tensor& running_mean, const Tensor& running_var,
                            const Tensor& weight, const Tensor& bias, bool use_input_stats, double momentum,
                            double eps) {
  return ember::instance_norm(input, weight, bias, running_mean, running_var, use_input_stats, momentum, eps, false);
}
}  // namespace detail

inline Tensor instance_norm(const Tensor& input, const InstanceNormFuncOptions& options = {}) {
  return detail::instance_norm(input, options.running_mean(), options.running_var(), options.weight(), options.bias(),
                               options.use_input_stats(), options.momentum(), options.eps());
}

}  // namespace torch::nn::functional
