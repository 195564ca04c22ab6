#pragma once
// Backward kernels that write their result over the incoming gradient, for
// formulas that own it (autograd::can_overwrite_grad, Note [Gradients
// overwritten in place] in autograd/raw_backward.h).
#include "ember/core/tensor.h"

namespace ember {

// grad_output = self <= threshold ? 0 : grad_output, in place. Both dense, of
// one dtype and shape (the caller checked).
void threshold_backward_into_grad(const Tensor& grad_output, const Tensor& self, const Scalar& threshold);

}  // namespace ember
