#pragma once
// at::linear and at::bilinear (ops/nn/linear.cpp).
#include <optional>

#include "ember/core/tensor.h"

namespace torch {

// input [*, in] @ weight[out, in]^T (+ bias [out]) -> [*, out]. With a bias, 2-D
// and contiguous N-D inputs are one addmm (the bias is the GEMM's C operand).
Tensor linear(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias = {});
// y[*, o] = sum_ij input1[*, i] weight[o, i, j] input2[*, j] (+ bias[o]).
Tensor bilinear(const Tensor& input1, const Tensor& input2, const Tensor& weight,
                const std::optional<Tensor>& bias = {});

}  // namespace torch
