#include "ember/ops/shape/mem_overlap.h"

#include <algorithm>

#include "ember/core/error.h"
#include "ember/core/shape.h"
#include "ember/core/small_vector.h"

namespace torch::ops {

bool is_non_overlapping_and_dense(const Tensor& t) {
  return t.is_contiguous() || is_non_overlapping_and_dense(t.sizes(), t.strides());
}

bool is_non_overlapping_and_dense(IntArrayRef sizes, IntArrayRef strides) {
  DimVector dims;
  for (int64_t d = 0; d < static_cast<int64_t>(sizes.size()); ++d)
    if (sizes[d] != 1) dims.push_back(d);
  std::sort(dims.begin(), dims.end(), [&](int64_t a, int64_t b) { return strides[a] < strides[b]; });
  int64_t expected = 1;
  for (int64_t d : dims) {
    if (strides[d] != expected) return false;
    expected *= sizes[d];
  }
  return true;
}

MemOverlap overlap_status(const Tensor& a, const Tensor& b) {
  if (a.is_same(b)) return MemOverlap::kFull;
  if (a.numel() == 0 || b.numel() == 0) return MemOverlap::kNo;
  if (!is_non_overlapping_and_dense(a) || !is_non_overlapping_and_dense(b)) return MemOverlap::kTooHard;
  if (a.impl()->storage() != b.impl()->storage()) return MemOverlap::kNo;
  const char* ab = static_cast<const char*>(a.data_ptr());
  const char* ae = ab + a.numel() * static_cast<int64_t>(a.itemsize());
  const char* bb = static_cast<const char*>(b.data_ptr());
  const char* be = bb + b.numel() * static_cast<int64_t>(b.itemsize());
  if (ab == bb && ae == be) return a.strides().equals(b.strides()) ? MemOverlap::kFull : MemOverlap::kPartial;
  return ab < be && bb < ae ? MemOverlap::kPartial : MemOverlap::kNo;
}

void assert_no_internal_overlap(const char* op, const Tensor& out) {
  if (out.numel() == 0) return;  // nothing is written (PyTorch allows an empty expanded output too)
  for (int64_t d = 0; d < out.dim(); ++d)
    EMBER_CHECK(out.stride(d) != 0 || out.size(d) <= 1, op,
                ": unsupported operation: more than one element of the written-to tensor refers to a single "
                "memory location (shape ",
                shape_str(out.sizes()), ", strides ", shape_str(out.strides()),
                "). Please clone() the tensor before performing the operation.");
}

namespace {
[[noreturn]] void shared_elements_error(const char* op, const Tensor& out, const Tensor& input) {
  EMBER_ERROR(op,
              ": unsupported operation: some elements of the input tensor and the written-to tensor refer to a "
              "single memory location (input shape ",
              shape_str(input.sizes()), ", strides ", shape_str(input.strides()), "; written-to shape ",
              shape_str(out.sizes()), ", strides ", shape_str(out.strides()),
              "). Please clone() the tensor before performing the operation.");
}
}  // namespace

void assert_no_partial_overlap(const char* op, const Tensor& out, const Tensor& input) {
  if (overlap_status(out, input) == MemOverlap::kPartial) shared_elements_error(op, out, input);
}

void assert_no_overlap(const char* op, const Tensor& out, const Tensor& input) {
  const MemOverlap s = overlap_status(out, input);
  if (s == MemOverlap::kPartial || s == MemOverlap::kFull) shared_elements_error(op, out, input);
}

void assert_no_index_overlap(const char* op, const Tensor& self, const Tensor& index, const Tensor& source) {
  assert_no_internal_overlap(op, self);
  assert_no_overlap(op, self, index);
  assert_no_overlap(op, self, source);
}

void assert_no_output_overlap(const char* op, const Tensor& out, ArrayRef<Tensor> inputs) {
  assert_no_internal_overlap(op, out);
  for (const Tensor& in : inputs)
    if (in.defined()) assert_no_partial_overlap(op, out, in);
}

}  // namespace torch::ops
