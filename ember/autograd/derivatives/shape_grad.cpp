#include "ember/autograd/derivatives/shape_grad.h"
#include "ember/autograd/raw_backward.h"

#include "ember/autograd/copy_slices.h"
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
#include "ember/ops/shape/mem_overlap.h"
#include "ember/vmap/vmap.h"

namespace torch::autograd {

namespace {

// node->shapes[0] is self's sizes; node->ints the op's integer arguments.
const DimVector& self_sizes(const FormulaNode& n) { return n.shapes[0]; }

variable_list view_backward(const FormulaNode& n, const variable_list& g) { return {g[0].reshape(self_sizes(n))}; }
variable_list expand_backward(const FormulaNode& n, const variable_list& g) {
  const DimVector& sizes = self_sizes(n);
  const int64_t lead = g[0].dim() - static_cast<int64_t>(sizes.size());
  DimVector dims;
  for (int64_t d = 0; d < g[0].dim(); ++d)
    if (d < lead || (sizes[d - lead] == 1 && g[0].size(d) != 1)) dims.push_back(d);
  Tensor r = dims.empty() ? g[0] : g[0].sum(dims, /*keepdim=*/true);
  return {r.reshape(sizes)};
}
variable_list unsqueeze_backward(const FormulaNode& n, const variable_list& g) { return {g[0].squeeze(n.ints[0])}; }
variable_list transpose_backward(const FormulaNode& n, const variable_list& g) {
  return {g[0].transpose(n.ints[0], n.ints[1])};
}
variable_list permute_backward(const FormulaNode& n, const variable_list& g) {
  DimVector inverse(n.ints.size());
  for (size_t i = 0; i < n.ints.size(); ++i) inverse[n.ints[i]] = static_cast<int64_t>(i);
  return {g[0].permute(inverse)};
}
variable_list select_backward_fn(const FormulaNode& n, const variable_list& g) {
  return {select_backward(g[0], self_sizes(n), n.ints[0], n.ints[1])};
}
variable_list slice_backward_fn(const FormulaNode& n, const variable_list& g) {
  return {slice_backward(g[0], self_sizes(n), n.ints[0], n.ints[1], n.ints[2], n.ints[3])};
}
// The tensor whose pieces along d the gradients g are, when they are exactly that: one
// storage, each piece where select(d, i) of a tensor of `sizes` and `strides` would put
// it. Undefined otherwise.
Tensor whole_of_pieces(const variable_list& g, IntArrayRef sizes, IntArrayRef strides, int64_t d) {
  const Tensor& first = g[0];
  if (!first.defined()) return Tensor();
  DimVector piece_sizes(sizes), piece_strides(strides);
  piece_sizes.erase(d);
  piece_strides.erase(d);
  for (size_t i = 0; i < g.size(); ++i) {
    const Tensor& t = g[i];
    if (!t.defined() || t.scalar_type() != first.scalar_type() || t.impl()->storage() != first.impl()->storage() ||
        !t.sizes().equals(piece_sizes) || !t.strides().equals(piece_strides) ||
        t.storage_offset() != first.storage_offset() + static_cast<int64_t>(i) * strides[static_cast<size_t>(d)])
      return Tensor();
  }
  return first.as_strided(sizes, strides, first.storage_offset());
}

// Saved shapes: 0 self's sizes, 1 the strides to build the gradient with;
// ints: dim, then (Split) the pieces' lengths (Note [Multi-output views]).
Tensor join_piece_grads(const FormulaNode& n, const variable_list& g, bool stacked) {
  const int64_t d = n.ints[0];
  const DimVector& sizes = self_sizes(n);
  const Tensor* like = nullptr;
  for (const Tensor& t : g)
    if (t.defined() && like == nullptr) like = &t;
  if (like == nullptr) return Tensor();
  auto piece_len = [&](size_t i) { return stacked ? int64_t(1) : n.ints[i + 1]; };
  // Otherwise stack / cat, which record their own backward (Note [Raw backward paths]).
  if (!raw_backward_ok(g)) {
    variable_list parts;
    for (size_t i = 0; i < g.size(); ++i) {
      if (g[i].defined()) {
        parts.push_back(g[i]);
        continue;
      }
      DimVector shape(sizes);
      if (stacked)
        shape.erase(d);
      else
        shape[d] = piece_len(i);
      parts.push_back(zeros(shape, like->options()));
    }
    return stacked ? stack(parts, d) : cat(parts, d);
  }
  BelowAutogradGuard below;
  // Gradients written as the pieces of one buffer laid out as r would be (the fused
  // attention's q|k|v, Note [Fused attention]) are that buffer: no copy.
  if (stacked)
    if (Tensor whole = whole_of_pieces(g, sizes, n.shapes[1], d); whole.defined()) return whole;
  Tensor r = empty_strided(sizes, n.shapes[1], like->options());
  int64_t start = 0;
  for (size_t i = 0; i < g.size(); ++i) {
    Tensor part = stacked ? r.select(d, static_cast<int64_t>(i)) : r.narrow(d, start, piece_len(i));
    start += piece_len(i);
    if (g[i].defined())
      part.copy_(g[i]);
    else
      part.zero_();
  }
  return r;
}
variable_list split_backward(const FormulaNode& n, const variable_list& g) {
  return {join_piece_grads(n, g, /*stacked=*/false)};
}
variable_list unbind_backward(const FormulaNode& n, const variable_list& g) {
  return {join_piece_grads(n, g, /*stacked=*/true)};
}
variable_list split_jvp(const FormulaNode& n, const variable_list& t, const variable_list&) {
  return t[0].split_with_sizes(IntArrayRef(n.ints).slice(1), n.ints[0]);
}
variable_list unbind_jvp(const FormulaNode& n, const variable_list& t, const variable_list&) {
  return t[0].unbind(n.ints[0]);
}

// Backward of select_backward / slice_backward themselves: pick the part again.
variable_list select_backward_backward(const FormulaNode& n, const variable_list& g) {
  return {g[0].select(n.ints[0], n.ints[1])};
}
variable_list slice_backward_backward(const FormulaNode& n, const variable_list& g) {
  return {g[0].slice(n.ints[0], n.ints[1], n.ints[2], n.ints[3])};
}

// Forward-mode JVPs (Note [Forward-mode AD]). Views and sum/mean are linear:
// the tangent goes through the same op, so the tangent of a view is a view of
// its base's tangent (in-place writes through the view update both).
DimVector out_sizes(const variable_list& outputs) { return DimVector(outputs[0].sizes()); }
variable_list view_jvp(const FormulaNode&, const variable_list& t, const variable_list& o) {
  return {t[0].reshape(out_sizes(o))};
}
variable_list expand_jvp(const FormulaNode&, const variable_list& t, const variable_list& o) {
  return {t[0].expand(out_sizes(o))};
}
variable_list unsqueeze_jvp(const FormulaNode& n, const variable_list& t, const variable_list&) {
  return {t[0].unsqueeze(n.ints[0])};
}
variable_list transpose_jvp(const FormulaNode& n, const variable_list& t, const variable_list&) {
  return {t[0].transpose(n.ints[0], n.ints[1])};
}
variable_list permute_jvp(const FormulaNode& n, const variable_list& t, const variable_list&) {
  return {t[0].permute(n.ints)};
}
variable_list select_jvp(const FormulaNode& n, const variable_list& t, const variable_list&) {
  return {t[0].select(n.ints[0], n.ints[1])};
}
variable_list slice_jvp(const FormulaNode& n, const variable_list& t, const variable_list&) {
  return {t[0].slice(n.ints[0], n.ints[1], n.ints[2], n.ints[3])};
}

variable_list cat_backward(const FormulaNode& n, const variable_list& g) {
  variable_list out;
  int64_t offset = 0;
  const int64_t dim = n.ints[0];
  for (size_t i = 1; i < n.ints.size(); ++i) {
    const int64_t len = n.ints[i];
    out.push_back(len < 0 ? Tensor() : g[0].narrow(dim, offset, len));
    if (len > 0) offset += len;
  }
  return out;
}
variable_list flip_backward(const FormulaNode& n, const variable_list& g) { return {g[0].flip(n.ints)}; }

variable_list identity_backward(const FormulaNode&, const variable_list& g) { return {g[0]}; }

// The overwritten values get a zero gradient, not none: as PyTorch, a leaf
// behind copy_/fill_/zero_ ends up with .grad = zeros.
Tensor overwritten_grad(const FormulaNode& n, const Tensor& g) {
  return n.needs_input_grad(0) && g.defined() ? zeros_like(g) : Tensor();
}
variable_list copy_backward(const FormulaNode& n, const variable_list& g) {
  return {overwritten_grad(n, g[0]), n.needs_input_grad(1) && g[0].defined() ? g[0] : Tensor()};
}
variable_list fill_backward(const FormulaNode& n, const variable_list& g) {
  return {overwritten_grad(n, g[0]), n.needs_input_grad(1) && g[0].defined() ? g[0].sum() : Tensor()};
}

const char* shape_node_name(ShapeGradOp op) {
  switch (op) {
    case ShapeGradOp::View:
      return "ViewBackward0";
    case ShapeGradOp::UnsafeView:
      return "UnsafeViewBackward0";
    case ShapeGradOp::Expand:
      return "ExpandBackward0";
    case ShapeGradOp::Squeeze:
      return "SqueezeBackward0";
    case ShapeGradOp::SqueezeDim:
      return "SqueezeBackward1";
    case ShapeGradOp::Unsqueeze:
      return "UnsqueezeBackward0";
    case ShapeGradOp::Transpose:
      return "TransposeBackward0";
    case ShapeGradOp::Permute:
      return "PermuteBackward0";
    case ShapeGradOp::Select:
      return "SelectBackward0";
    case ShapeGradOp::Slice:
      return "SliceBackward0";
  }
  return "";
}

}  // namespace

void record_shape_op(ShapeGradOp op, const Tensor& self, const Tensor& out, DimVector ints) {
  FormulaNode::Formula f = nullptr;
  FormulaNode::Jvp jvp = nullptr;
  switch (op) {
    case ShapeGradOp::View:
    case ShapeGradOp::UnsafeView:
    case ShapeGradOp::Squeeze:
    case ShapeGradOp::SqueezeDim:
      f = &view_backward, jvp = &view_jvp;
      break;
    case ShapeGradOp::Expand:
      f = &expand_backward, jvp = &expand_jvp;
      break;
    case ShapeGradOp::Unsqueeze:
      f = &unsqueeze_backward, jvp = &unsqueeze_jvp;
      break;
    case ShapeGradOp::Transpose:
      f = &transpose_backward, jvp = &transpose_jvp;
      break;
    case ShapeGradOp::Permute:
      f = &permute_backward, jvp = &permute_jvp;
      break;
    case ShapeGradOp::Select:
      f = &select_backward_fn, jvp = &select_jvp;
      break;
    case ShapeGradOp::Slice:
      f = &slice_backward_fn, jvp = &slice_jvp;
      break;
  }
  auto node = record(shape_node_name(op), f, {self}, {out});
  node->jvp = jvp;
  node->shapes.push_back(DimVector(self.sizes()));
  node->ints = std::move(ints);
}

void record_pieces(PiecesOp op, const Tensor& self, TensorList pieces, DimVector ints) {
  const bool split = op != PiecesOp::Unbind;
  const char* name = op == PiecesOp::Split            ? "SplitBackward0"
                     : op == PiecesOp::SplitWithSizes ? "SplitWithSizesBackward0"
                                                      : "UnbindBackward0";
  auto node = record(name, split ? &split_backward : &unbind_backward, {self}, pieces);
  node->jvp = split ? &split_jvp : &unbind_jvp;
  node->shapes.push_back(DimVector(self.sizes()));
  node->shapes.push_back(ops::is_non_overlapping_and_dense(self) ? DimVector(self.strides())
                                                                 : contiguous_strides(self.sizes()));
  node->ints = std::move(ints);
  for (const Tensor& p : pieces) set_piece_view_base(self, p);
}

namespace {
// Zero-pads `g` along `dim` to `size` elements, with `before` zeros first (a
// negative remainder crops), through constant_pad_nd.
Tensor pad_along(const Tensor& g, int64_t dim, int64_t before, int64_t size) {
  DimVector pad(2 * (g.dim() - dim), 0);
  const size_t j = 2 * static_cast<size_t>(g.dim() - 1 - dim);
  pad[j] = before;
  pad[j + 1] = size - before - g.size(dim);
  return constant_pad_nd(g, pad, 0);
}
}  // namespace

// Under vmap (jacrev, hessian) grad is a batched wrapper, which carries no
// history or tangent of its own, so the write-into-zeros below would be
// constant to a second-order transform. There the result is built out of
// place with constant_pad_nd instead, whose batching rule records backward
// and tangents on the physical tensors.
Tensor select_backward(const Tensor& grad, IntArrayRef sizes, int64_t dim, int64_t index) {
  if (batching::any_batched(grad)) [[unlikely]]
    return pad_along(grad.unsqueeze(dim), dim, index < 0 ? index + sizes[dim] : index, sizes[dim]);
  Tensor r = grad.new_zeros(sizes);
  {
    autograd::BelowAutogradGuard ng;
    r.select(dim, index).copy_(grad);
  }
  if (needs_grad(grad)) {
    auto node = record("SelectBackwardBackward0", &select_backward_backward, {grad}, {r});
    node->ints = {dim, index};
  }
  return r;
}

Tensor slice_backward(const Tensor& grad, IntArrayRef sizes, int64_t dim, int64_t start, int64_t end, int64_t step) {
  if (batching::any_batched(grad)) [[unlikely]] {  // as select_backward
    Tensor g = grad;
    if (step > 1)  // element i lands at i * step: pad a new dim to `step`, then merge the two
      g = pad_along(g.unsqueeze(dim + 1), dim + 1, 0, step).flatten(dim, dim + 1);
    return pad_along(g, dim, start, sizes[dim]);
  }
  Tensor r = grad.new_zeros(sizes);
  {
    autograd::BelowAutogradGuard ng;
    r.slice(dim, start, end, step).copy_(grad);
  }
  if (needs_grad(grad)) {
    auto node = record("SliceBackwardBackward0", &slice_backward_backward, {grad}, {r});
    node->ints = {dim, start, end, step};
  }
  return r;
}

void record_clone(const Tensor& self, const Tensor& out) {
  record("CloneBackward0", &identity_backward, {self}, {out});
}
void record_to_copy(const Tensor& self, const Tensor& out) {
  record("ToCopyBackward0", &identity_backward, {self}, {out});
}
void record_copy_(const Tensor& self, const Tensor& src) {
  record("CopyBackwards", &copy_backward, {self, src}, {self});
}
void record_fill_(const Tensor& self, const Tensor& value) {
  record(value.defined() ? "FillBackward1" : "FillBackward0", &fill_backward, {self, value}, {self});
}
void record_zero_(const Tensor& self) { record("ZeroBackward0", &fill_backward, {self, Tensor()}, {self}); }
void record_cat(TensorList inputs, const Tensor& out, int64_t dim, const DimVector& lengths) {
  auto node = record("CatBackward0", &cat_backward, inputs, {out});
  node->ints = {dim};
  for (int64_t len : lengths) node->ints.push_back(len);
}
void record_flip(const Tensor& self, const Tensor& out, IntArrayRef dims) {
  record("FlipBackward0", &flip_backward, {self}, {out})->ints = DimVector(dims);
}

}  // namespace torch::autograd
