#pragma once
// The byte-mask dropout backward in one pass (Note [Dropout with a byte mask] and
// Note [Relu then dropout] in ops/nn/dropout.cpp). The formulas that choose it over
// the composite form are in autograd/derivatives/nn_dropout_grad.cpp.
#include "ember/core/tensor.h"

namespace torch::kernels {

// out[i] = grad[i] * scale where mask byte i keeps element i, else 0. With relu_first
// the byte also says whether relu's result passed its gradient (3 kept and passing,
// 2 dropped and passing, below 2 stopped by relu). grad: contiguous float32/float64
// of mask's shape; out: grad's shape and dtype, and may be grad itself.
void byte_mask_dropout_backward(const Tensor& grad, const Tensor& mask, double scale, bool relu_first,
                                const Tensor& out);

}  // namespace torch::kernels
