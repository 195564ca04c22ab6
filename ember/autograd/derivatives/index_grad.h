#pragma once
// Backward recording for the index family (ember/ops/index/): advanced
// indexing, index_put, scatter/scatter_add/scatter_reduce, gather,
// index_select, index_add/index_copy/index_fill, take, masked_select,
// masked_fill and where (sort.cpp's ops record through reduce_grad.h). Formulas (index_grad.cpp) use differentiable ops
// only: index <-> index_put, gather <-> scatter/scatter_add, index_select <-> index_add, so every pair differentiates
// the other and double backward works. The in-place recorders take `self` after the kernel ran: it is both the node's
// input (record() reads its old history first) and its output. The caller calls check_inplace before the kernel runs.
#include <optional>
#include <string_view>

#include "ember/core/tensor.h"

namespace torch::autograd {

using OptionalTensors = ArrayRef<std::optional<Tensor>>;

// out = self[indices] (at::index; absent entries take the whole dim).
void record_index(const Tensor& self, OptionalTensors indices, const Tensor& out);
// self[indices] = values (or += with accumulate), in place: `self` is the output.
void record_index_put(const Tensor& self, OptionalTensors indices, const Tensor& values, bool accumulate);
// scatter_(dim, index, src) / scatter_(dim, index, value): src undefined for the value form.
void record_scatter(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src);
void record_scatter_add(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src);
// scatter_reduce_ with every reduction. "prod", "amax" and "amin" read self as
// it was before the write: `self_before` is a clone taken (with grad mode on,
// so double backward reaches self's history) before the kernel ran.
void record_scatter_reduce(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src,
                           std::string_view reduce, bool include_self, const Tensor& self_before = Tensor());
void record_index_add(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& source, const Scalar& alpha);
void record_index_copy(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& source);
// `value` is the 0-dim value tensor of index_fill_(dim, index, Tensor), undefined for a Scalar.
void record_index_fill(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& value);
void record_take(const Tensor& self, const Tensor& index, const Tensor& out);
// Gradients for these scatter into zeros with scatter_add / index_add, which record their own
// backward, so both are twice differentiable.
void record_index_select(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& out);
void record_gather(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& out);
void record_masked_fill(const Tensor& self, const Tensor& mask, const Tensor& out);
// out = where(cond, self, other); either value operand may be undefined (a Scalar).
void record_where(const Tensor& cond, const Tensor& self, const Tensor& other, const Tensor& out);
// out = self (broadcast to `mask`) at the true positions of mask.
void record_masked_select(const Tensor& self, const Tensor& mask, const Tensor& out);

// Sums `grad` down to `sizes` (broadcast dims) and reshapes it when only
// leading unit dims differ (index_put drops those of its values).
Tensor sum_to_size(const Tensor& grad, IntArrayRef sizes);

}  // namespace torch::autograd
