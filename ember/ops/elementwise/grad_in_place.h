#pragma once
// Backward kernels that may write their result over the incoming gradient
// (Note [Gradients overwritten in place] in autograd/raw_backward.h).
#include "ember/core/tensor.h"

namespace torch {

// threshold_backward(grad_output, self, threshold) — written over grad_output when
// autograd::can_overwrite_grad allows it and the two are dense and alike (then the
// result is grad_output itself), else into a new tensor. For derivative formulas only:
// the caller hands over its reference to grad_output.
Tensor threshold_backward_over_grad(const Tensor& grad_output, const Tensor& self, const Scalar& threshold);

}  // namespace torch
