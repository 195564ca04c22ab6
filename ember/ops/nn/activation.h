#pragma once
// The activations not in tables/unary.def, with LibTorch's at:: signatures
// (ops/nn/activation.cpp). hardtanh/relu6/threshold record their own backward
// (PyTorch's strict-boundary gradients); the rest are compositions of
// differentiable ops. In-place forms of the compositions (celu_, rrelu_) do
// not record autograd and raise when the input requires grad.
#include <optional>

#include "ember/core/tensor.h"
#include "ember/ops/factory/random.h"

namespace torch {

Tensor hardtanh(const Tensor& self, const Scalar& min_val = -1, const Scalar& max_val = 1);
Tensor& hardtanh_(Tensor& self, const Scalar& min_val = -1, const Scalar& max_val = 1);
// As at::hardtanh_backward: grad_output where min_val < self < max_val or self is NaN,
// else 0; one pass over the two tensors (hardtanh's and relu6's backward).
Tensor hardtanh_backward(const Tensor& grad_output, const Tensor& self, const Scalar& min_val, const Scalar& max_val);
Tensor relu6(const Tensor& self);  // hardtanh(self, 0, 6)
Tensor& relu6_(Tensor& self);
// self > threshold ? self : value
Tensor threshold(const Tensor& self, const Scalar& threshold, const Scalar& value);
Tensor& threshold_(Tensor& self, const Scalar& threshold, const Scalar& value);
// weight: one slope, or one per channel (dim 1 of self).
Tensor prelu(const Tensor& self, const Tensor& weight);
Tensor celu(const Tensor& self, const Scalar& alpha = 1.0);
Tensor& celu_(Tensor& self, const Scalar& alpha = 1.0);
// Training: negative inputs scaled by a slope drawn uniformly from [lower, upper]
// (default generator); eval: the fixed slope (lower + upper) / 2.
Tensor rrelu(const Tensor& self, const Scalar& lower = 0.125, const Scalar& upper = 0.3333333333333333,
             bool training = false, OptGen generator = std::nullopt);
Tensor& rrelu_(Tensor& self, const Scalar& lower = 0.125, const Scalar& upper = 0.3333333333333333,
               bool training = false, OptGen generator = std::nullopt);
// First half of `dim` times sigmoid of the second half.
Tensor glu(const Tensor& self, int64_t dim = -1);
Tensor hardshrink(const Tensor& self, const Scalar& lambd = 0.5);
Tensor softshrink(const Tensor& self, const Scalar& lambd = 0.5);
Tensor tanhshrink(const Tensor& self);
Tensor log_sigmoid(const Tensor& self);

}  // namespace torch
