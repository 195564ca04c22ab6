#pragma once
// Internal: first-order layer_norm backward through the row kernel (mean/rstd
// from the forward), used by its formula (autograd/derivatives/nn_norm_grad.cpp)
// when no graph of the backward is needed. Returns {grad_input, grad_weight,
// grad_bias}, each only when requested.
#include <tuple>

#include "ember/core/tensor.h"

namespace torch::detail {

std::tuple<Tensor, Tensor, Tensor> layer_norm_backward_fast(const Tensor& grad, const Tensor& input,
                                                            int64_t normalized_dims, const Tensor& weight,
                                                            const Tensor& mean, const Tensor& rstd, bool need_input,
                                                            bool need_weight, bool need_bias);

}  // namespace torch::detail
