#pragma once
// nn::functional::batch_norm, as torch::nn::functional::batch_norm.
#include "ember/nn/options/batchnorm.h"
#include "ember/ops/nn/normalization.h"

namespace torch::nn::functional {

namespace detail {
inline Tensor batch_norm(const Tensor& input, const Tensor& running_mean, const Tensor& running_var,
                         const Tensor& weight, const Tensor& bias, bool training, std::optional<double> momentum,
                         double eps) {
  EMBER_CHECK(input.dim() >= 2, "batch_norm: expected an input of at least 2 dims (N, C, *), got ",
              shape_str(input.sizes()));
  if (training) {
    // One value per channel has no variance; PyTorch refuses it in training.
    int64_t per_channel = input.size(0);
    for (int64_t d = 2; d < input.dim(); ++d) per_channel *= input.size(d);
    EMBER_CHECK(per_channel != 1, "batch_norm: expected more than 1 value per channel when training, got input size ",
                shape_str(input.sizes()));
  }
  return ember::batch_norm(input, weight, bias, running_mean, running_var, training, momentum.value_or(0.0), eps,
                           false);
}
}  // namespace detail

inline Tensor batch_norm(const Tensor& input, const Tensor& running_mean, const Tensor& running_var,
                         const BatchNormFuncOptions& options = {}) {
  return detail::batch_norm(input, running_mean, running_var, options.weight(), options.bias(), options.training(),
                            options.momentum(), options.eps());
}

}  // namespace torch::nn::functional
