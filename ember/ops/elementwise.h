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

// A fresh contiguous tensor for an op's output, without the profiler scope
// of the public empty(): PyTorch's structured kernels allocate outputs with
// the undispatched at::detail::empty_cpu, so `a + b` records aten::add alone;
// the shared output paths (make_out, the small-op fast paths) use this so
// Ember's tables match and a plain op pays for one hook, not two. Ops that
// call the public empty() show an aten::empty child, as PyTorch's
// unstructured ops do.
Tensor empty_cpu(IntArrayRef size, ScalarType dtype);

}  // namespace ember::ops
