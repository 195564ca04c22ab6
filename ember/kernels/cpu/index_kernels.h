#pragma once
// CPU kernels behind the indexing ops. The op layer (ops/indexing*.cpp) has
// already checked shapes, dtypes and index bounds, so kernels never throw
// (they may run inside OpenMP regions) and only move or combine elements.
#include "ember/core/tensor.h"

namespace torch::kernels {

// Note [Offset indexing]
// Advanced indexing is lowered to a flat int64 tensor of element offsets
// (sum over indexed dims of index * stride) plus a "restrided" view of the
// source whose indexed dims have stride 0. All three operands then share one
// iteration shape and TensorIterator walks them; the kernel only adds the
// offset. Offsets are in elements of the source's dtype.

// out[i] = src[i + offsets[i]]
void index_gather_kernel(const Tensor& out, const Tensor& src, const Tensor& offsets);
// dst[i + offsets[i]] = values[i]  (accumulate: dst[...] += alpha * values[i], serially so
// repeated offsets all count).
void index_put_kernel(const Tensor& dst, const Tensor& values, const Tensor& offsets, bool accumulate,
                      const Scalar& alpha = 1);

// Note [Scatter/gather iteration]
// gather/scatter iterate over the index's shape with `dim` collapsed to one;
// at each position an inner loop walks index.size(dim) entries along dim.
// Every write of one position lands in one column of self, so positions can
// run in parallel without races even when indices repeat.
enum class ScatterOp { Assign, Sum, Prod, Amax, Amin };
// out[...][i][...] = self[...][index[...][i][...]][...] along dim; out has index's shape.
void gather_kernel(const Tensor& out, const Tensor& self, const Tensor& index, int64_t dim);
// self[...][index[...][i][...]][...] op= src[...][i][...] along dim.
void scatter_kernel(const Tensor& self, const Tensor& index, const Tensor& src, int64_t dim, ScatterOp op);

// self[i] = value where mask[i] (mask broadcast to self).
void masked_fill_kernel(const Tensor& self, const Tensor& mask, const Scalar& value);
class TensorIterator;
// out[i] = cond[i] ? a[i] : b[i] over an iterator of (out, cond, a, b); a and b
// already have out's dtype.
void where_kernel(const TensorIterator& iter);
// [n, ndim] int64 coordinates of the nonzero elements, in row-major order.
Tensor nonzero_kernel(const Tensor& self);
// self[i] = self[i] / count[i] where count[i] > 0 (floor division for integers): scatter_reduce "mean".
void divide_by_count_kernel(const Tensor& self, const Tensor& count);

}  // namespace torch::kernels
