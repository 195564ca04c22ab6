#pragma once
// Backward of ember::convolution (ConvolutionBackward0). The formula is made
// of convolutions, views and sums, so it is differentiable to any order
// (Note [Convolution gradients] in nn_conv_grad.cpp).
#include "ember/core/tensor.h"
#include "ember/kernels/cpu/conv_kernels.h"

namespace torch::autograd {

// input/weight/out batched; bias may be undefined.
void record_convolution(const Tensor& input, const Tensor& weight, const Tensor& bias, const Tensor& out,
                        const conv::ConvParams& p);

}  // namespace torch::autograd
