#pragma once
// Internal: first-order softmax backward along the last dim in one pass per row, used by
// SoftmaxBackward0's formula (autograd/derivatives/nn_loss_grad.cpp) when no graph of the
// backward is needed (Note [Softmax backward rows]).
#include "ember/core/tensor.h"

namespace torch::kernels {

// y * (grad - sum(grad * y, -1)) for contiguous float32/float64 y and grad of one shape and dtype.
Tensor softmax_backward_lastdim(const Tensor& grad, const Tensor& y);

}  // namespace torch::kernels
