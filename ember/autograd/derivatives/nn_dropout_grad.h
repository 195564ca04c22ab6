#pragma once
// Backward recording for ops/nn/dropout.cpp's one-pass dropout. Formula in
// nn_dropout_grad.cpp: the byte-mask kernel when no graph is being built,
// else a composite of differentiable ops.
#include "ember/core/tensor.h"

namespace torch::autograd {

// dropout's one-pass form (Note [Dropout with a byte mask]): `mask` holds one byte
// per element, and with relu_first also whether relu passed (Note [Relu then dropout]).
void record_dropout_with_mask(const Tensor& input, const Tensor& out, const Tensor& mask, double scale,
                              bool relu_first);

}  // namespace torch::autograd
