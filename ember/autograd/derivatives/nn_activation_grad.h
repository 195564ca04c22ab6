#pragma once
// Backward recording for the activations of ops/nn/activation.cpp whose gradient
// differs from a composition's: hardtanh and threshold. Formulas in
// nn_activation_grad.cpp (the activations with arguments of ops/elementwise/ are
// in elementwise_grad.cpp).
#include "ember/core/tensor.h"

namespace torch::autograd {

// grad = g where min < x < max (strict, as PyTorch's hardtanh_backward). `self_value`
// is the input's value before an in-place update (== self otherwise).
void record_hardtanh(const Tensor& self, const Tensor& self_value, const Tensor& out, double min, double max);
void record_threshold(const Tensor& self, const Tensor& self_value, const Tensor& out, const Scalar& threshold);

}  // namespace torch::autograd
