#pragma once
// Output handling shared by every elementwise op: fresh results, out= tensors
// and in-place updates, with PyTorch's shape and casting rules.
#include "ember/autograd/forward_ad.h"
#include "ember/core/tensor.h"
#include "ember/core/tensor_make.h"
#include "ember/kernels/cpu/tensor_iterator.h"
#include "ember/ops/shape/mem_overlap.h"

namespace torch::ops {

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

// `sum += g` for the gradient sums of the autograd engine: `sum` is contiguous
// and nothing else sees its memory (the caller checked). Two operands of one
// dtype and shape without autograd or vmap state take add_'s small-op fast
// path directly, without re-checking add_'s arguments or handing back a new
// reference to `sum` (bench/SPEC.md W1 sums a gradient this way per op); anything
// else is `sum.add_(g)`.
void accumulate_(const Tensor& sum, const Tensor& g);

// Note [Elementwise overlap]
// The one entry for the n-ary loop ops (binary, clamp, lerp, addcmul,
// addcdiv, where): runs `kernel` over the broadcast of `inputs` (already of
// the compute dtype) into a result of dtype `rt` and shape `shape`, honouring
// out= / in-place rules. Memory shared by out and the `operands` the user
// passed follows ops/shape/mem_overlap.h, checked before the operands are cast or
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

// An operand of an in-place op with autograd that shares self's storage (a.mul_(a),
// c[0].add_(c[1]) on rows of one tensor): its formula must read the values before
// the update, so it is cloned first (the clone is recorded against its history).
// Without this the saved operand held the result: silently wrong gradients.
Tensor unaliased(const Tensor& operand, const Tensor& self);
// `out` of an op_out(out, ...) call, checked to be defined.
Tensor& checked_out(Tensor& out, const char* op);
// clamp with one bound, for clamp's own scope (ops/elementwise/ternary.cpp):
// the binary table's clamp_min / clamp_max kernel rows with no profiler event
// and no node (clamp records both). Defined in ops/elementwise/binary.cpp.
Tensor clamp_one_bound(bool is_min, const Tensor& self, const Scalar& bound, Tensor* out, bool inplace);
Tensor clamp_one_bound(bool is_min, const Tensor& self, const Tensor& bound, Tensor* out, bool inplace);

}  // namespace torch::ops
