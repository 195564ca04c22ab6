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

namespace ember::autograd {

namespace {

// node->shapes[0] is self's sizes; node->ints the op's integer arguments.
const DimVector& self_sizes(const FormulaNode& n) { return n.shapes[0]; }

// Re-inserts reduced dims (size 1) so grad broadcasts against self.
Tensor unreduce(const Tensor& grad, const FormulaNode& n, bool expand = true) {
  const DimVector& sizes = self_sizes(n);
  Tensor g = grad;
  const uint64_t mask = static_cast<uint64_t>(n.ints[0]);
  const bool keepdim = n.ints[1] != 0;
  if (!keepdim)
    for (int64_t d = 0; d < static_cast<int64_t>(sizes.size()); ++d)
      if (mask & (uint64_t(1) << d)) g = g.unsqueeze(d);
  return expand ? g.expand(sizes) : g;
}

// The reduced dims as a list (for sum/mean over them with keepdim).
DimVector reduced_dims(const FormulaNode& n) {
  DimVector dims;
  const uint64_t mask = static_cast<uint64_t>(n.ints[0]);
  for (int64_t d = 0; d < static_cast<int64_t>(self_sizes(n).size()); ++d)
    if (mask & (uint64_t(1) << d)) dims.push_back(d);
  return dims;
}

// Saved: 0 self, 1 result; scalars: count N, correction.
variable_list amax_backward(const FormulaNode& n, const variable_list& g) {
  Tensor self = n.saved(0);
  Tensor is_extreme = self == unreduce(n.saved(1), n, false);
  Tensor count = is_extreme.sum(reduced_dims(n), /*keepdim=*/true);
  return {unreduce(g[0], n, false) * is_extreme / count};
}
variable_list logsumexp_backward(const FormulaNode& n, const variable_list& g) {
  return {unreduce(g[0], n, false) * (n.saved(0) - unreduce(n.saved(1), n, false)).exp()};
}
variable_list var_backward(const FormulaNode& n, const variable_list& g) {
  Tensor self = n.saved(0);
  const double denom = n.scalars[0].toDouble() - n.scalars[1].toDouble();
  return {unreduce(g[0], n, false) * (self - self.mean(reduced_dims(n), true)) * (2.0 / denom)};
}
variable_list std_backward(const FormulaNode& n, const variable_list& g) {
  Tensor self = n.saved(0);
  const double denom = n.scalars[0].toDouble() - n.scalars[1].toDouble();
  return {unreduce(g[0], n, false) * (self - self.mean(reduced_dims(n), true)) /
          (unreduce(n.saved(1), n, false) * denom)};
}

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

variable_list sum_backward(const FormulaNode& n, const variable_list& g) { return {unreduce(g[0], n)}; }
variable_list mean_backward(const FormulaNode& n, const variable_list& g) { return {unreduce(g[0], n) / n.scalars[0]}; }

// Backward of select_backward / slice_backward themselves: pick the part again.
variable_list select_backward_backward(const FormulaNode& n, const variable_list& g) {
  return {g[0].select(n.ints[0], n.ints[1])};
}
variable_list slice_backward_backward(const FormulaNode& n, const variable_list& g) {
  return {g[0].slice(n.ints[0], n.ints[1], n.ints[2], n.ints[3])};
}

// Saved: 0 cond.
variable_list where_backward(const FormulaNode& n, const variable_list& g) {
  const Tensor cond = n.saved(0);
  const Tensor zero = zeros({}, g[0].options());
  return {Tensor(), n.needs_input_grad(1) ? where(cond, g[0], zero) : Tensor(),
          n.needs_input_grad(2) ? where(cond, zero, g[0]) : Tensor()};
}
// A matrix stored column-major (the transpose of a contiguous one), like the
// weight.t() operand of linear. Sizes of 1 make a matrix both row- and
// column-major; those count as row-major.
bool column_major(const Tensor& t) {
  return t.dim() == 2 && t.size(0) > 1 && t.size(1) > 1 && t.stride(0) == 1 && t.stride(1) == t.size(0);
}

// Note [GEMM gradient layout]
// The gradient of a column-major operand is computed as the transpose of a
// row-major product, (g^T conj(a))^T instead of a^H g, so it comes out in the
// operand's own layout, as PyTorch's mm_mat1/mm_mat2_backward do. For linear,
// whose GEMM operand is weight.t(), the weight's gradient is then contiguous
// after TBackward: accumulating it into .grad and the optimizer's update
// stream through memory instead of striding across rows (a quarter of an MLP
// training step before). Both forms are the same sums.
//
// Saved: 0 a, 1 b; scalars: alpha, beta. The products are differentiable
// matmuls again, so double backward works.
variable_list gemm_backward(const FormulaNode& n, const variable_list& g) {
  const Scalar& alpha = n.scalars[0];
  const Scalar& beta = n.scalars[1];
  auto scaled = [](Tensor t, const Scalar& s) { return s.equal(Scalar(1)) ? t : t * s; };
  Tensor ga, gb, gi;
  Tensor a, b;  // unpacked once: each operand's gradient reads both
  if (n.needs_input_grad(0) || n.needs_input_grad(1)) {
    a = n.saved(0);
    b = n.saved(1);
  }
  if (n.needs_input_grad(0)) {
    ga = column_major(a) ? b.conj().matmul(g[0].transpose(-2, -1)).transpose(-2, -1)
                         : g[0].matmul(b.transpose(-2, -1).conj());
    ga = scaled(ga, alpha);
  }
  if (n.needs_input_grad(1)) {
    gb = column_major(b) ? g[0].transpose(-2, -1).matmul(a.conj()).transpose(-2, -1)
                         : a.transpose(-2, -1).conj().matmul(g[0]);
    gb = scaled(gb, alpha);
  }
  if (n.needs_input_grad(2)) gi = scaled(g[0], beta);
  return {ga, gb, gi};
}

variable_list conj_backward(const FormulaNode&, const variable_list& g) { return {g[0].conj()}; }

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
variable_list sum_jvp(const FormulaNode& n, const variable_list& t, const variable_list& o) {
  return {t[0].sum(reduced_dims(n), n.ints[1] != 0).reshape(out_sizes(o))};
}
variable_list mean_jvp(const FormulaNode& n, const variable_list& t, const variable_list& o) {
  return {(t[0].sum(reduced_dims(n), n.ints[1] != 0) / n.scalars[0]).reshape(out_sizes(o))};
}
// out = beta * init + alpha * (a @ b): the product rule, each factor's tangent
// against the other's saved value.
variable_list gemm_jvp(const FormulaNode& n, const variable_list& t, const variable_list& o) {
  const Scalar& alpha = n.scalars[0];
  const Scalar& beta = n.scalars[1];
  Tensor r;
  if (t[0].defined()) r = t[0].matmul(n.saved(1));
  if (t[1].defined()) {
    Tensor p = n.saved(0).matmul(t[1]);
    r = r.defined() ? r + p : p;
  }
  if (r.defined() && !alpha.equal(Scalar(1))) r = r * alpha;
  if (t.size() > 2 && t[2].defined()) {
    Tensor p = beta.equal(Scalar(1)) ? t[2] : t[2] * beta;
    r = r.defined() ? r + p : p;
  }
  if (r.defined() && r.numel() == o[0].numel() && !r.sizes().equals(o[0].sizes())) r = r.reshape(o[0].sizes());
  return {r};
}

}  // namespace

void record_where(const Tensor& cond, const Tensor& self, const Tensor& other, const Tensor& out) {
  auto node = record("WhereBackward0", &where_backward, {cond, self, other}, {out});
  node->save(cond);
}

namespace {
// PyTorch's grad_fn name for a matmul-family op ("addmm" -> "AddmmBackward0").
const char* gemm_node_name(const char* op) {
  static const std::pair<const char*, const char*> kNames[] = {
      {"mm", "MmBackward0"},       {"bmm", "BmmBackward0"},         {"mv", "MvBackward0"},
      {"dot", "DotBackward0"},     {"vdot", "VdotBackward0"},       {"outer", "OuterBackward0"},
      {"addmm", "AddmmBackward0"}, {"baddbmm", "BaddbmmBackward0"}, {"addbmm", "AddbmmBackward0"},
      {"addmv", "AddmvBackward0"}, {"addr", "AddrBackward0"},       {"matmul", "MatmulBackward0"}};
  for (const auto& [k, v] : kNames)
    if (std::string_view(k) == op) return v;
  return "MmBackward0";
}
}  // namespace

void record_gemm(const char* op, const Tensor& a, const Tensor& b, const Tensor& init, const Tensor& out,
                 const Scalar& alpha, const Scalar& beta) {
  auto node = record(gemm_node_name(op), &gemm_backward, {a, b, init}, {out});
  node->jvp = &gemm_jvp;
  node->save(a);
  node->save(b);
  node->scalars = {alpha, beta};
}

void record_conj(const Tensor& self, const Tensor& out) { record("ConjBackward0", &conj_backward, {self}, {out}); }

namespace {
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
    case ShapeGradOp::Sum:
      return "SumBackward0";
    case ShapeGradOp::SumDim:
      return "SumBackward1";
    case ShapeGradOp::Mean:
      return "MeanBackward0";
    case ShapeGradOp::MeanDim:
      return "MeanBackward1";
    case ShapeGradOp::Amax:
      return "AmaxBackward0";
    case ShapeGradOp::Amin:
      return "AminBackward0";
    case ShapeGradOp::MaxAll:
      return "MaxBackward1";
    case ShapeGradOp::MinAll:
      return "MinBackward1";
    case ShapeGradOp::LogSumExp:
      return "LogsumexpBackward0";
    case ShapeGradOp::Var:
      return "VarBackward0";
    case ShapeGradOp::Std:
      return "StdBackward0";
  }
  return "";
}
}  // namespace

void record_shape_op(ShapeGradOp op, const Tensor& self, const Tensor& out, DimVector ints, uint64_t mask, bool keepdim,
                     double correction) {
  // The formula's kind: the values that share one formula map to the first of them.
  ShapeGradOp kind = op;
  if (op == ShapeGradOp::UnsafeView || op == ShapeGradOp::Squeeze || op == ShapeGradOp::SqueezeDim)
    kind = ShapeGradOp::View;
  if (op == ShapeGradOp::SumDim) kind = ShapeGradOp::Sum;
  if (op == ShapeGradOp::MeanDim) kind = ShapeGradOp::Mean;
  if (op == ShapeGradOp::Amin || op == ShapeGradOp::MaxAll || op == ShapeGradOp::MinAll) kind = ShapeGradOp::Amax;
  FormulaNode::Formula f = nullptr;
  FormulaNode::Jvp jvp = nullptr;  // null: from the VJP (Note [JVP from the VJP])
  switch (kind) {
    case ShapeGradOp::View:
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
    case ShapeGradOp::Sum:
      f = &sum_backward, jvp = &sum_jvp;
      break;
    case ShapeGradOp::Mean:
      f = &mean_backward, jvp = &mean_jvp;
      break;
    case ShapeGradOp::Amax:
      f = &amax_backward;
      break;
    case ShapeGradOp::LogSumExp:
      f = &logsumexp_backward;
      break;
    case ShapeGradOp::Var:
      f = &var_backward;
      break;
    case ShapeGradOp::Std:
      f = &std_backward;
      break;
    default:
      break;
  }
  auto node = record(shape_node_name(op), f, {self}, {out});
  node->jvp = jvp;
  node->shapes.push_back(DimVector(self.sizes()));
  const bool reduction = kind == ShapeGradOp::Sum || kind == ShapeGradOp::Mean || kind == ShapeGradOp::Amax ||
                         kind == ShapeGradOp::LogSumExp || kind == ShapeGradOp::Var || kind == ShapeGradOp::Std;
  if (reduction) {
    node->ints = {static_cast<int64_t>(mask), keepdim ? 1 : 0};
    const int64_t count = self.numel() / std::max<int64_t>(out.numel(), 1);
    if (kind == ShapeGradOp::Mean) node->scalars.push_back(Scalar(count));
    if (kind != ShapeGradOp::Sum && kind != ShapeGradOp::Mean) {
      node->save(self);
      node->save(out, /*is_output=*/true);
      node->scalars = {Scalar(count), Scalar(correction)};
    }
  } else {
    node->ints = std::move(ints);
  }
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

}  // namespace ember::autograd
