#pragma once
// How an op's output and its inputs share memory, by PyTorch's rules (its
// has_internal_overlap / get_overlap_status), in one place for the
// elementwise ops (through ops::run_elementwise), copy_ and the index family:
// - an output with a broadcast (stride-0) dim raises: several elements would
//   be written to one place (copy_, scatter and index_add_/index_copy_ too;
//   fill_, masked_fill_, index_fill_ and index_put_ allow it, as PyTorch does);
// - a partial overlap of dense tensors raises: the result would depend on the
//   order the loop visits elements;
// - the very same elements in the same layout is the in-place case, fine;
// - any other shared memory (a non-dense side, where PyTorch leaves the result
//   undecided) is read through a copy, as if the input were cloned.
#include "ember/core/tensor.h"

namespace torch::ops {

enum class MemOverlap {
  kNo,       // disjoint memory (or an empty tensor)
  kFull,     // the very same elements in the same layout: the in-place case
  kPartial,  // some elements shared, not all: an error
  kTooHard,  // one of them is not dense: not decided (Ember computes through a copy)
};

// True when the elements fill a byte range without gaps or repeats, in some
// order of the dims (a permutation of a contiguous layout).
bool is_non_overlapping_and_dense(const Tensor& t);
// The same question for a layout not yet allocated.
bool is_non_overlapping_and_dense(IntArrayRef sizes, IntArrayRef strides);

MemOverlap overlap_status(const Tensor& a, const Tensor& b);

// Raises when `out` has a broadcast dim (several elements in one place).
void assert_no_internal_overlap(const char* op, const Tensor& out);
// Raises for a partial overlap of `out` and `input`, naming `op` and both shapes.
void assert_no_partial_overlap(const char* op, const Tensor& out, const Tensor& input);
// Raises when `out` and `input` share any element, the same tensor included:
// PyTorch's rule for the index family (scatter*, index_add_/copy_/fill_,
// index_put_), whose writes land in index order, not beside the element read.
void assert_no_overlap(const char* op, const Tensor& out, const Tensor& input);
// The index family's writes (scatter*, index_add_, index_copy_): `self` without
// a broadcast dim, sharing no element with `index` or `source`.
void assert_no_index_overlap(const char* op, const Tensor& self, const Tensor& index, const Tensor& source);
// Both checks for an op that writes `out` and reads `inputs`, on the operands
// as the user passed them (before any cast copies them), as PyTorch's
// TensorIterator checks them. Undefined inputs (Scalar operands) are skipped.
void assert_no_output_overlap(const char* op, const Tensor& out, ArrayRef<Tensor> inputs);
// Whether `input` must be copied before a loop writes `out`: they share memory
// and are not the same elements in the same layout and dtype. Inline: the
// in-place small-op path asks it on every call.
inline bool needs_input_copy(const Tensor& out, const Tensor& input) {
  if (input.numel() == 0 || out.numel() == 0) return false;
  if (input.impl()->storage() != out.impl()->storage()) return false;
  return !(input.data_ptr() == out.data_ptr() && input.dtype() == out.dtype() && input.sizes().equals(out.sizes()) &&
           input.strides().equals(out.strides()));
}

}  // namespace torch::ops
