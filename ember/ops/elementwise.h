#pragma once
// Output handling shared by every elementwise op: fresh results, out= tensors
// and in-place updates, with PyTorch's shape and casting rules.
#include "ember/core/tensor.h"

namespace ember::ops {

// Note [Elementwise outputs]
// An op computes values of dtype `dtype` over the broadcast `shape`.
//  - No out tensor: a fresh contiguous tensor.
//  - out= / in-place: `dtype` must be castable to out's dtype (no float->int,
//    complex->real); out is resized to `shape` if its shape differs (for
//    in-place ops the shape must already match: "output with shape ... doesn't
//    match the broadcast shape ..."). When dtypes differ the kernel writes a
//    temporary that finish_out copies (and converts) into out.
Tensor make_out(Tensor* out, IntArrayRef shape, ScalarType dtype, const char* op, bool inplace = false);
void finish_out(Tensor* out, const Tensor& result);

}  // namespace ember::ops
