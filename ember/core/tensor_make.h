#pragma once
// The two ways below the op layer to make a Tensor: a fresh contiguous
// output and a view of an existing storage. Kernels and the op layer both
// allocate with these; neither records a profiler event or a gradient, so
// kernels need nothing above core to produce their results.
#include "ember/core/tensor.h"

namespace torch {

// A fresh contiguous tensor for an op's output, without the profiler scope
// of the public empty(): PyTorch's structured kernels allocate outputs with
// the undispatched at::detail::empty_cpu, so `a + b` records aten::add alone;
// the shared output paths (make_out, the small-op fast paths) use this so
// Ember's tables match and a plain op pays for one hook, not two. Ops that
// call the public empty() show an aten::empty child, as PyTorch's
// unstructured ops do.
Tensor empty_cpu(IntArrayRef size, ScalarType dtype);

// A view of `base` with new geometry (the one constructor every view goes
// through); the op layer's view functions add the gradient and the view base.
Tensor make_view(const Tensor& base, IntArrayRef sizes, IntArrayRef strides, int64_t offset);

}  // namespace torch
