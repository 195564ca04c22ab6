#pragma once
// take_along_dim and rot90 (ops/shape/rearrange.cpp): element rearrangements built
// from gather, flip and transpose, so gradients and batching come with them.
#include <cstdint>
#include <optional>

#include "ember/core/tensor.h"

namespace torch {

// gather along dim after broadcasting self and indices against each other in
// every other dim; without dim, indices pick from the flattened self.
Tensor take_along_dim(const Tensor& self, const Tensor& indices, std::optional<int64_t> dim = std::nullopt);
// Rotates by 90 degrees k times in the plane of dims, from dims[0] towards dims[1].
Tensor rot90(const Tensor& self, int64_t k = 1, IntArrayRef dims = {0, 1});

}  // namespace torch
