#pragma once
// Backward recording for the ops with dedicated kernels in ops/nn/softmax.cpp and
// ops/nn/loss_nll.cpp. The formulas (nn_loss_grad.cpp) use differentiable ops, so
// double backward works.
#include "ember/core/tensor.h"

namespace torch::autograd {

// "BinaryCrossEntropyBackward0": PyTorch's formulas, d/dx = (x - t) / max(x (1 - x), 1e-12) and
// d/dt = -logit(x), both times weight (no gradient for weight).
void record_binary_cross_entropy(const Tensor& self, const Tensor& target, const Tensor& weight, const Tensor& out,
                                 int64_t reduction);
// "SoftmaxBackward0" / "LogSoftmaxBackward0"; saves the output only.
void record_softmax(const Tensor& self, const Tensor& out, int64_t dim, bool log);
// "NllLossBackward0" / "NllLoss2DBackward0" (a 4-D self): gradient for self only (as PyTorch,
// none for weight).
void record_nll_loss(const Tensor& self, const Tensor& target, const Tensor& weight, const Tensor& out,
                     int64_t reduction, int64_t ignore_index, double total_weight);

}  // namespace torch::autograd

namespace torch::autograd {

// "CtcLossBackward0" on the per-sequence losses: gradient = raw_grad * g, where raw_grad
// (d loss_b / d log_probs for unit upstream gradients) comes from the beta recursion in the
// forward and is a constant, so this is first-order only (as in PyTorch).
void record_ctc_loss(const Tensor& log_probs, const Tensor& raw_grad, const Tensor& out);

}  // namespace torch::autograd
