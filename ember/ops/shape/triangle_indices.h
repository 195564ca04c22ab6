#pragma once
// tril_indices / triu_indices (ops/shape/triangle_indices.cpp): the coordinates of a
// row x col matrix's lower / upper triangle, row by row, as a [2, N] tensor.
#include <cstdint>

#include "ember/core/tensor.h"
#include "ember/core/tensor_options.h"

namespace torch {

// Entries (i, j) with j - i <= offset (tril) or j - i >= offset (triu).
Tensor tril_indices(int64_t row, int64_t col, int64_t offset = 0, const TensorOptions& options = TensorOptions(kLong));
Tensor triu_indices(int64_t row, int64_t col, int64_t offset = 0, const TensorOptions& options = TensorOptions(kLong));

}  // namespace torch
