#pragma once
// trace, kron and inner: products PyTorch users expect, composed of Ember's
// view, elementwise and matmul ops (ops/matmul/products.cpp), so their gradients and
// batching come from those ops.
#include "ember/core/tensor.h"

namespace torch {

// Sum of the main diagonal of a matrix (integers sum to int64, as sum).
Tensor trace(const Tensor& self);
// Kronecker product: the shapes are right-aligned and multiplied dim by dim.
Tensor kron(const Tensor& self, const Tensor& other);
// Sum over the last dims of self and other; a 0-dim operand multiplies.
Tensor inner(const Tensor& self, const Tensor& other);

}  // namespace torch
