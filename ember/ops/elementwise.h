#pragma once
// Output handling shared by every elementwise op: fresh results, out= tensors
// and in-place updates, with PyTorch's shape and casting rules.
#include "ember/autograd/forward_ad.h"
#include "ember/core/tensor.h"
#include "ember/kernels/cpu/tensor_iterator.h"
#include "ember/ops/mem_overlap.h"

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

// `sum += g` for the gradient sums of the autograd engine: `sum` is contiguous
// and nothing else sees its memory (the caller checked). Two operands of one
// dtype and shape without autograd or vmap state take add_'s small-op fast
// path directly, without re-checking add_'s arguments or handing back a new
// reference to `sum` (SPEC.md W1 sums a gradient this way per op); anything
// else is `sum.add_(g)`.
void accumulate_(const Tensor& sum, const Tensor& g);

// Note [Elementwise overlap]
// The one entry for the n-ary loop ops (binary, clamp, lerp, addcmul,
// addcdiv, where): runs `kernel` over the broadcast of `inputs` (already of
// the compute dtype) into a result of dtype `rt` and shape `shape`, honouring
// out= / in-place rules. Memory shared by out and the `operands` the user
// passed follows ops/mem_overlap.h, checked before the operands are cast or
// out is resized, as PyTorch checks them; an input sharing memory with the
// result otherwise (out itself in another dtype, a non-dense view) is read
// through a copy. An input that is out itself (x.add_(y)) is read and written
// at the same position, which is fine.
template <typename Kernel>
Tensor run_elementwise(const char* op, ArrayRef<Tensor> operands, ArrayRef<Tensor> inputs, IntArrayRef shape,
                       ScalarType rt, Tensor* out, bool inplace, const Kernel& kernel) {
  const bool has_out = out != nullptr && out->defined();
  if (has_out) assert_no_output_overlap(op, *out, operands);
  Tensor r = make_out(out, shape, rt, op, inplace);
  bool alias = false;
  for (const Tensor& in : inputs) alias = alias || needs_input_copy(r, in);
  Tensor target = alias ? empty_cpu(shape, rt) : r;
  kernels::TensorIterator iter(ArrayRef<Tensor>(&target, 1), inputs);
  kernel(iter);
  if (alias) {
    // The op's own work: a copy recorded by autograd would put a CopySlices on r
    // (a view) that cuts the gradient of the values r held, under the op's node.
    autograd::BelowAutogradGuard below;
    r.copy_(target);
  }
  finish_out(out, r);
  return has_out ? *out : r;
}

}  // namespace ember::ops
