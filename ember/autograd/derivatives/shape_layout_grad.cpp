#include "ember/autograd/derivatives/shape_layout_grad.h"

#include <algorithm>

#include "ember/autograd/formula_node.h"
#include "ember/autograd/forward_ad.h"
#include "ember/autograd/grad_mode.h"
#include "ember/autograd/node.h"
#include "ember/core/dispatch.h"
#include "ember/core/error.h"
#include "ember/core/parallel.h"
#include "ember/core/shape.h"
#include "ember/core/tensor.h"
#include "ember/ops/all_ops.h"
#include "ember/ops/nn/pad.h"
#include "ember/vmap/batched_tensor.h"
#include "ember/vmap/vmap.h"

namespace torch::autograd {

namespace {

// shapes[0] self's sizes; ints: repeats. The gradient viewed as
// [r0, p0, r1, p1, ...] (p = self's sizes padded with leading ones) is summed over the r dims.
variable_list repeat_backward(const FormulaNode& n, const variable_list& g) {
  const DimVector& sizes = n.shapes[0];
  const int64_t nr = static_cast<int64_t>(n.ints.size());
  DimVector padded(nr - static_cast<int64_t>(sizes.size()), 1);
  for (int64_t s : sizes) padded.push_back(s);
  DimVector split, dims;
  for (int64_t i = 0; i < nr; ++i) {
    split.push_back(n.ints[i]);
    split.push_back(padded[i]);
    dims.push_back(2 * i);
  }
  if (nr == 0) return {g[0]};
  return {g[0].reshape(split).sum(dims).reshape(sizes)};
}

// ints: shifts..., then dims... (half each).
variable_list roll_backward(const FormulaNode& n, const variable_list& g) {
  const size_t k = n.shapes[0].size();
  DimVector shifts, dims;
  for (size_t i = 0; i < k; ++i) shifts.push_back(-n.ints[i]);
  for (size_t i = k; i < n.ints.size(); ++i) dims.push_back(n.ints[i]);
  return {g[0].roll(shifts, dims)};
}

// ints: diagonal, lower.
variable_list triangle_backward(const FormulaNode& n, const variable_list& g) {
  return {n.ints[1] ? g[0].tril(n.ints[0]) : g[0].triu(n.ints[0])};
}

// shapes[0] self's sizes; ints: offset, dim1, dim2.
variable_list diagonal_backward_fn(const FormulaNode& n, const variable_list& g) {
  return {diagonal_backward(g[0], n.shapes[0], n.ints[0], n.ints[1], n.ints[2])};
}
variable_list diagonal_backward_backward(const FormulaNode& n, const variable_list& g) {
  return {g[0].diagonal(n.ints[0], n.ints[1], n.ints[2])};
}

// shapes[0] self's sizes; ints: diagonal.
variable_list diag_backward(const FormulaNode& n, const variable_list& g) {
  if (n.shapes[0].size() == 1) return {g[0].diagonal(n.ints[0])};
  return {diagonal_backward(g[0], n.shapes[0], n.ints[0], 0, 1)};
}

// Saved: 0 positions (window i, element k -> i * step + k, flattened); shapes[0] self's sizes; ints: dim.
variable_list unfold_backward(const FormulaNode& n, const variable_list& g) {
  const DimVector& sizes = n.shapes[0];
  if (sizes.empty()) return {g[0].sum()};
  const int64_t d = n.ints[0];
  const int64_t last = -1, after = d + 1;
  Tensor grad = g[0].movedim(last, after).flatten(d, d + 1);
  return {g[0].new_zeros(sizes).index_add(d, n.saved(0), grad)};
}

// Saved: 0 storage positions of self's elements (self's shape), 1 those of
// out's elements (flattened); ints: storage extent.
variable_list as_strided_backward(const FormulaNode& n, const variable_list& g) {
  std::vector<std::optional<Tensor>> out_pos{n.saved(1)};
  Tensor storage = index_put(g[0].new_zeros({n.ints[0]}), out_pos, g[0].reshape({-1}), /*accumulate=*/true);
  std::vector<std::optional<Tensor>> self_pos{n.saved(0)};
  return {index(storage, self_pos)};
}

// The storage position of every element of a geometry, as a long tensor of its shape.
Tensor storage_positions(IntArrayRef sizes, IntArrayRef strides, int64_t offset) {
  Tensor pos = full({}, offset, TensorOptions(kLong));
  const int64_t nd = static_cast<int64_t>(sizes.size());
  for (int64_t d = 0; d < nd; ++d) {
    DimVector shape(nd, 1);
    shape[d] = sizes[d];
    pos = pos + arange(sizes[d], TensorOptions(kLong)).view(shape) * strides[d];
  }
  return pos.expand(sizes).contiguous();
}

// Whether distinct elements of the geometry can share a storage position
// (sufficient test: sorted by stride, each stride passes the extent of the smaller ones).
bool may_overlap(IntArrayRef sizes, IntArrayRef strides) {
  std::vector<std::pair<int64_t, int64_t>> dims;  // (stride, size)
  for (size_t d = 0; d < sizes.size(); ++d) {
    if (sizes[d] == 0) return false;
    if (sizes[d] > 1) dims.emplace_back(strides[d], sizes[d]);
  }
  std::sort(dims.begin(), dims.end());
  int64_t extent = 1;  // one past the largest offset reached by the dims so far
  for (const auto& [stride, size] : dims) {
    if (stride < extent) return true;
    extent = stride * (size - 1) + extent;
  }
  return false;
}

}  // namespace

void record_repeat(const Tensor& self, const Tensor& out, IntArrayRef repeats) {
  auto node = record("RepeatBackward0", &repeat_backward, {self}, {out});
  node->shapes.push_back(DimVector(self.sizes()));
  node->ints = DimVector(repeats);
}

void record_roll(const Tensor& self, const Tensor& out, IntArrayRef shifts, IntArrayRef dims) {
  auto node = record("RollBackward0", &roll_backward, {self}, {out});
  node->shapes.push_back(DimVector(shifts));  // its length splits ints into shifts and dims
  node->ints = DimVector(shifts);
  for (int64_t d : dims) node->ints.push_back(d);
}

void record_triangle(const Tensor& self, const Tensor& out, int64_t diagonal, bool lower) {
  auto node = record(lower ? "TrilBackward0" : "TriuBackward0", &triangle_backward, {self}, {out});
  node->ints = {diagonal, lower ? 1 : 0};
}

void record_diagonal(const Tensor& self, const Tensor& out, int64_t offset, int64_t dim1, int64_t dim2) {
  auto node = record("DiagonalBackward0", &diagonal_backward_fn, {self}, {out});
  node->shapes.push_back(DimVector(self.sizes()));
  node->ints = {offset, dim1, dim2};
}

void record_diag(const Tensor& self, const Tensor& out, int64_t diagonal) {
  auto node = record("DiagBackward0", &diag_backward, {self}, {out});
  node->shapes.push_back(DimVector(self.sizes()));
  node->ints = {diagonal};
}

void record_diag_embed(const Tensor& self, const Tensor& out, int64_t offset, int64_t dim1, int64_t dim2) {
  auto node = record("DiagEmbedBackward0", &diagonal_backward_backward, {self}, {out});
  node->ints = {offset, dim1, dim2};
}

void record_unfold(const Tensor& self, const Tensor& out, int64_t dim, int64_t size, int64_t step) {
  auto node = record("UnfoldBackward0", &unfold_backward, {self}, {out});
  node->shapes.push_back(DimVector(self.sizes()));
  node->ints = {dim};
  if (self.dim() == 0) return;
  autograd::BelowAutogradGuard ng;
  const int64_t windows = out.size(dim);
  Tensor pos = arange(windows, TensorOptions(kLong)).view({windows, 1}) * step +
               arange(size, TensorOptions(kLong)).view({1, size});
  node->save(pos.reshape({-1}));
}

void record_as_strided(const Tensor& self, const Tensor& out) {
  if (may_overlap(self.sizes(), self.strides())) {
    auto node = record("AsStridedBackward0", &FormulaNode::not_implemented, {self}, {out});
    node->not_implemented_reason = "as_strided on an input whose elements overlap in memory";
    return;
  }
  auto node = record("AsStridedBackward0", &as_strided_backward, {self}, {out});
  autograd::BelowAutogradGuard ng;
  Tensor self_pos = storage_positions(self.sizes(), self.strides(), self.storage_offset());
  Tensor out_pos = storage_positions(out.sizes(), out.strides(), out.storage_offset()).reshape({-1});
  int64_t extent = 1;
  if (self_pos.numel() > 0) extent = std::max(extent, self_pos.max().item<int64_t>() + 1);
  if (out_pos.numel() > 0) extent = std::max(extent, out_pos.max().item<int64_t>() + 1);
  node->save(self_pos);
  node->save(out_pos);
  node->ints = {extent};
}

// Under vmap (jacrev, hessian) grad is a batched wrapper without history of its
// own, so the write into zeros below would be a constant to a second-order
// transform (as select_backward's, shape_grad.cpp). There the result is built
// out of place: diag_embed lays grad on the diagonal of a square block of
// side len + |offset|, which constant_pad_nd pads (or crops) to sizes.
Tensor diagonal_backward(const Tensor& grad, IntArrayRef sizes, int64_t offset, int64_t dim1, int64_t dim2) {
  if (batching::any_batched(grad)) [[unlikely]] {
    const int64_t n = static_cast<int64_t>(sizes.size());
    const int64_t d1 = wrap_dim(dim1, n), d2 = wrap_dim(dim2, n);
    Tensor r = diag_embed(grad, offset, d1, d2);
    DimVector pad(2 * static_cast<size_t>(n), 0);
    for (int64_t d : {d1, d2}) pad[2 * static_cast<size_t>(n - 1 - d) + 1] = sizes[d] - r.size(d);
    return constant_pad_nd(r, pad, 0);
  }
  Tensor r = grad.new_zeros(sizes);
  {
    autograd::BelowAutogradGuard ng;
    Tensor diag = r.diagonal(offset, dim1, dim2);
    diag.copy_(grad);
  }
  if (needs_grad(grad)) {
    auto node = record("DiagonalBackwardBackward0", &diagonal_backward_backward, {grad}, {r});
    node->ints = {offset, dim1, dim2};
  }
  return r;
}

}  // namespace torch::autograd
