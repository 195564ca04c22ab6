#pragma once
// Normalization ops with LibTorch's at:: signatures (ops/nn/normalization.cpp).
// batch_norm and layer_norm run dedicated float32/float64 kernels
// (kernels/cpu/norm_kernels.h) and record their backward
// (autograd/derivatives/nn_norm_grad.cpp); group_norm, instance_norm and
// local_response_norm are compositions of them and of differentiable ops.
#include <optional>

#include "ember/core/tensor.h"

namespace torch {

// input (N, C, *). Training: normalizes with the batch's biased variance and
// updates running_mean / running_var in place (momentum-weighted, unbiased
// variance), as PyTorch. Eval: normalizes with the running statistics.
Tensor batch_norm(const Tensor& input, const std::optional<Tensor>& weight, const std::optional<Tensor>& bias,
                  const std::optional<Tensor>& running_mean, const std::optional<Tensor>& running_var, bool training,
                  double momentum, double eps, bool cudnn_enabled);
// Normalizes over the trailing dims given by normalized_shape.
Tensor layer_norm(const Tensor& input, IntArrayRef normalized_shape, const std::optional<Tensor>& weight = {},
                  const std::optional<Tensor>& bias = {}, double eps = 1e-5, bool cudnn_enable = true);
Tensor group_norm(const Tensor& input, int64_t num_groups, const std::optional<Tensor>& weight = {},
                  const std::optional<Tensor>& bias = {}, double eps = 1e-5, bool cudnn_enabled = true);
// batch_norm over (1, N*C, *), as PyTorch; running statistics are averaged over N.
Tensor instance_norm(const Tensor& input, const std::optional<Tensor>& weight, const std::optional<Tensor>& bias,
                     const std::optional<Tensor>& running_mean, const std::optional<Tensor>& running_var,
                     bool use_input_stats, double momentum, double eps, bool cudnn_enabled);
// torch.nn.functional.local_response_norm: x / (k + alpha/size * sum of x^2 over
// `size` neighbouring channels, zero padded)^beta.
Tensor local_response_norm(const Tensor& input, int64_t size, double alpha = 1e-4, double beta = 0.75, double k = 1.0);

namespace detail {
// First-order training-mode batch_norm backward through the fused kernel;
// used by the formula when no graph of the backward is needed.
// Returns {grad_input, grad_weight, grad_bias} (each only when requested).
std::tuple<Tensor, Tensor, Tensor> batch_norm_backward_fast(const Tensor& grad, const Tensor& input,
                                                            const Tensor& weight, const Tensor& mean,
                                                            const Tensor& invstd, bool need_input, bool need_weight,
                                                            bool need_bias);
}  // namespace detail

}  // namespace torch
