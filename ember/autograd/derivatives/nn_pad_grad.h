#pragma once
// Backward recording for ops/nn/pad.cpp: constant_pad_nd ("ConstantPadNdBackward0",
// the other pad modes are compositions). Formula in nn_pad_grad.cpp: the gradient
// cropped back, itself a constant_pad_nd, so it differentiates to any order.
#include "ember/core/tensor.h"

namespace torch::autograd {

void record_constant_pad_nd(const Tensor& self, const Tensor& out, IntArrayRef pad);

}  // namespace torch::autograd
