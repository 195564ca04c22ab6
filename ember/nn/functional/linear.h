#pragma once
// nn::functional::linear: y = x W^T + b, as torch::nn::functional::linear.
#include "ember/core/tensor.h"
#include "ember/ops/elementwise/operators.h"
#include "ember/ops/matmul/matmul.h"
#include "ember/ops/nn/linear.h"

namespace torch::nn::functional {

// ember::linear (composed of differentiable ops, so autograd comes for free): a
// contiguous N-D input with a bias is one addmm over its folded leading dims, as ATen's
// linear, instead of a matmul and then a broadcast add of the bias (and, backward, a
// reduction of the gradient for it): W10's two Linear layers see [128, 16, *] inputs.
inline Tensor linear(const Tensor& input, const Tensor& weight, const Tensor& bias = {}) {
  EMBER_CHECK(weight.dim() == 2, "linear: weight must be 2-D, got ", shape_str(weight.sizes()));
  EMBER_CHECK(input.dim() >= 1 && input.size(-1) == weight.size(1), "linear: input ", shape_str(input.sizes()),
              " and weight ", shape_str(weight.sizes()), " cannot be multiplied (the last dim of input must equal ",
              "in_features = ", weight.size(1), ")");
  return ember::linear(input, weight, bias);
}

// y[*, o] = sum_ij input1[*, i] weight[o, i, j] input2[*, j] (+ bias[o]); ember::bilinear
// checks the shapes and records through mm/bmm.
inline Tensor bilinear(const Tensor& input1, const Tensor& input2, const Tensor& weight, const Tensor& bias = {}) {
  return ember::bilinear(input1, input2, weight, bias);
}

}  // namespace torch::nn::functional
