#pragma once
// How an op's output and one of its inputs share memory, by PyTorch's rules
// (its get_overlap_status): ops raise on a partial overlap, where the result
// would depend on the order the loop visits elements.
#include "ember/core/tensor.h"

namespace ember::ops {

enum class MemOverlap {
  kNo,       // disjoint memory (or an empty tensor)
  kFull,     // the very same elements in the same layout: the in-place case
  kPartial,  // some elements shared, not all: an error
  kTooHard,  // one of them is not dense: not decided (Ember computes through a copy)
};

// True when the elements fill a byte range without gaps or repeats, in some
// order of the dims (a permutation of a contiguous layout).
bool is_non_overlapping_and_dense(const Tensor& t);

MemOverlap overlap_status(const Tensor& a, const Tensor& b);

// Raises for a partial overlap of `out` and `input`, naming `op` and both shapes.
void assert_no_partial_overlap(const char* op, const Tensor& out, const Tensor& input);

}  // namespace ember::ops
