#pragma once
// Pure shape arithmetic shared by views, broadcasting and the loop engine.
#include <cstdint>
#include <string>

#include "ember/core/small_vector.h"

namespace torch {

// Row-major strides for `sizes`.
DimVector contiguous_strides(IntArrayRef sizes);
// Product of sizes, raising on overflow.
int64_t checked_numel(IntArrayRef sizes, const char* op);
// Wraps a possibly negative dim into [0, ndim); raises with PyTorch's message.
int64_t wrap_dim(int64_t dim, int64_t ndim, const char* op = "", bool scalar_as_1d = true);
// Broadcast shape of two shapes (PyTorch/NumPy rules) or a readable error.
DimVector broadcast_shapes(IntArrayRef a, IntArrayRef b, const char* op = "");
// Replaces one -1 in `shape` by the size that makes numel match.
DimVector infer_size(IntArrayRef shape, int64_t numel, const char* op = "view");
// Strides that let `sizes`/`strides` be viewed as `new_sizes` without a copy,
// or an empty result when impossible (PyTorch's computeStride).
bool compute_view_strides(IntArrayRef sizes, IntArrayRef strides, IntArrayRef new_sizes, DimVector& out);
// Bitmask of dims named in `dims` (wrapped), raising on repeats.
uint64_t dim_mask(IntArrayRef dims, int64_t ndim, const char* op);
std::string shape_str(IntArrayRef sizes);
// Number of elements a strided layout spans (1 + the largest offset; 0 when
// empty), raising for negative strides and for overflow.
int64_t checked_extent(IntArrayRef sizes, IntArrayRef strides, const char* op);

}  // namespace torch
