#pragma once
#include <functional>
// Shared by the reduce_*.cpp files: which dims a reduction covers, its output
// shape, and the glue from a typed input to the reduction engine.
#include "ember/core/shape.h"
#include "ember/kernels/cpu/convert.h"
#include "ember/kernels/cpu/reduce.h"

namespace torch::ops {

// Bit d set for every reduced dim; an empty list means all dims (PyTorch's
// sum(dim=[])). Raises for out-of-range or repeated dims, naming `op`.
uint64_t reduce_mask(const Tensor& x, IntArrayRef dims, const char* op);
uint64_t reduce_mask(const Tensor& x, int64_t dim, const char* op);
uint64_t all_dims_mask(const Tensor& x);
// Output sizes: reduced dims removed, or kept as 1 with keepdim.
DimVector reduce_shape(const Tensor& x, uint64_t mask, bool keepdim);
// Number of elements folded into each output.
int64_t reduced_numel(const Tensor& x, uint64_t mask);
// Raises "<op>(): Expected reduction dim d to have non-zero size." for ops with no identity.
void check_nonempty_dims(const Tensor& x, uint64_t mask, const char* op);
// `x` converted to `t` (x itself when it already has dtype t).
Tensor cast_to(const Tensor& x, ScalarType t);

// Calls f(line_starts) once per line of `dim`: line_starts[i] is the address
// of the line's first element in operand i (outputs first, then inputs; all
// of the same shape). Walk a line with each operand's own stride(dim). Lines
// run in parallel through the loop engine; nothing runs for empty tensors.
void for_each_line(ArrayRef<Tensor> outs, ArrayRef<Tensor> ins, int64_t dim,
                   const std::function<void(char* const* line_starts)>& f);
// Byte stride of `t` along `dim` (0-dim tensors count as [1]).
int64_t line_stride(const Tensor& t, int64_t dim);

// Runs Ops over `in` (element type T) and stores proj(acc) converted to Out
// into the contiguous `out`, whose row-major order is the kept dims' order.
template <typename Out, typename T, typename Ops, typename Project>
void reduce_into(const Tensor& in, uint64_t mask, const Ops& ops, const Tensor& out, const Project& proj,
                 bool keep_order = false) {
  Out* o = static_cast<Out*>(out.data_ptr());
  kernels::reduce_kernel(static_cast<const T*>(in.data_ptr()), kernels::make_reduce_plan(in, mask, keep_order), ops,
                         [&](int64_t i, const auto& acc) { o[i] = kernels::convert<Out>(proj(acc)); });
}

}  // namespace torch::ops
