#pragma once
// Note [Transposing copies]
// A copy into a contiguous tensor from a permuted one (`w.t().contiguous()`, a permute
// before a reshape) reads the source along a large stride. Element by element that
// touches one cache line per element read and runs at a few GB/s; this kernel copies
// 16 x 16 tiles instead, so every source line fetched is used 16 times while it is in L1.
#include "ember/core/tensor.h"

namespace torch::kernels {

// Copies src into dst when the two have the same dtype and sizes, dst's innermost dim has
// stride 1 and no two of its elements share memory (a contiguous tensor, or a slice of one
// such as the part of a packed buffer a gradient is written into), and src's innermost dim
// is strided while some other dim of src has stride 1 (the shape of a transpose). Returns false, having done nothing,
// for every other case; the caller then runs the general loop.
bool try_transpose_copy(const Tensor& dst, const Tensor& src);

}  // namespace torch::kernels
