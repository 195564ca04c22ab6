#pragma once
// Backward recording for ops/nn/normalization.cpp: batch_norm and layer_norm
// (Note [Normalization backward] in nn_norm_grad.cpp). The formulas are written
// with public differentiable ops, so gradgradcheck works; the first-order
// backward uses the fused kernels when no graph is being built.
#include "ember/core/tensor.h"

namespace torch::autograd {

// mean / invstd: the statistics the forward normalized with (batch stats in
// training, running stats in eval), in the compute dtype.
void record_batch_norm(const Tensor& input, const Tensor& weight, const Tensor& bias, const Tensor& out,
                       const Tensor& mean, const Tensor& invstd, bool training, double eps);
// normalized_dims: how many trailing dims were normalized; mean/rstd: the
// forward's row statistics (compute dtype), for the first-order kernel.
void record_layer_norm(const Tensor& input, const Tensor& weight, const Tensor& bias, const Tensor& out,
                       int64_t normalized_dims, double eps, const Tensor& mean, const Tensor& rstd);

}  // namespace torch::autograd
