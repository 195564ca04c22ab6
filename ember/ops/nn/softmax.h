#pragma once
// softmax / log_softmax along one dim (ops/nn/softmax.cpp): a dedicated, numerically
// stable kernel (max-subtracted, accumulated in opmath) with SoftmaxBackward0 /
// LogSoftmaxBackward0 nodes whose formulas are differentiable.
#include <optional>

#include "ember/core/tensor.h"

namespace torch {

// `dtype` casts the input first (as LibTorch), e.g. softmax(int_tensor, 0, kDouble).
Tensor softmax(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype = std::nullopt);
Tensor log_softmax(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype = std::nullopt);

}  // namespace torch
