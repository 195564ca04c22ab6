#include "ember/autograd/derivatives/reduce_grad.h"

#include <cmath>
#include <limits>

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
#include "ember/vmap/vmap.h"

namespace torch::autograd {

// prod's gradient without dividing by the input: the product of the elements
// before each one times the product of those after it (PyTorch's prod_safe_zeros_backward).
Tensor prod_safe_zeros_backward(const Tensor& grad, const Tensor& inp, int64_t dim) {
  if (inp.numel() == 0) return grad.expand(inp.sizes());
  const int64_t len = inp.size(dim);
  DimVector ones_size(inp.sizes());
  ones_size[dim] = 1;
  Tensor one = ones(ones_size, grad.options());
  Tensor exclusive_normal = cat({one, inp.narrow(dim, 0, len - 1)}, dim).cumprod(dim);
  Tensor narrow_reverse = inp.narrow(dim, 1, len - 1).flip({dim});
  Tensor exclusive_reverse = cat({one, narrow_reverse}, dim).cumprod(dim).flip({dim});
  return grad * (exclusive_normal * exclusive_reverse).conj();
}

namespace {

// The full and dim reductions (sum, mean, amax/amin, max()/min(), logsumexp, var, std).
// node->shapes[0] is self's sizes; node->ints {mask of the reduced dims, keepdim}.
const DimVector& self_sizes(const FormulaNode& n) { return n.shapes[0]; }
DimVector out_sizes(const variable_list& outputs) { return DimVector(outputs[0].sizes()); }

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

variable_list sum_backward(const FormulaNode& n, const variable_list& g) { return {unreduce(g[0], n)}; }
variable_list mean_backward(const FormulaNode& n, const variable_list& g) { return {unreduce(g[0], n) / n.scalars[0]}; }
variable_list sum_jvp(const FormulaNode& n, const variable_list& t, const variable_list& o) {
  return {t[0].sum(reduced_dims(n), n.ints[1] != 0).reshape(out_sizes(o))};
}
variable_list mean_jvp(const FormulaNode& n, const variable_list& t, const variable_list& o) {
  return {(t[0].sum(reduced_dims(n), n.ints[1] != 0) / n.scalars[0]).reshape(out_sizes(o))};
}

variable_list cumsum_backward(const FormulaNode& n, const variable_list& g) {
  const int64_t d = n.ints[0];
  return {g[0].flip({d}).cumsum(d).flip({d})};
}

const char* reduction_node_name(ReduceGradOp op) {
  switch (op) {
    case ReduceGradOp::Sum:
      return "SumBackward0";
    case ReduceGradOp::SumDim:
      return "SumBackward1";
    case ReduceGradOp::Mean:
      return "MeanBackward0";
    case ReduceGradOp::MeanDim:
      return "MeanBackward1";
    case ReduceGradOp::Amax:
      return "AmaxBackward0";
    case ReduceGradOp::Amin:
      return "AminBackward0";
    case ReduceGradOp::MaxAll:
      return "MaxBackward1";
    case ReduceGradOp::MinAll:
      return "MinBackward1";
    case ReduceGradOp::LogSumExp:
      return "LogsumexpBackward0";
    case ReduceGradOp::Var:
      return "VarBackward0";
    case ReduceGradOp::Std:
      return "StdBackward0";
  }
  return "";
}

// The dims named by a reduction mask over `ndim` dims.
DimVector mask_dims(uint64_t mask, int64_t ndim) {
  DimVector dims;
  for (int64_t d = 0; d < ndim; ++d)
    if (mask & (uint64_t(1) << d)) dims.push_back(d);
  return dims;
}

// Re-inserts the reduced dims (size 1) of a keepdim=false result.
Tensor unsqueeze_dims(Tensor t, const DimVector& dims) {
  for (int64_t d : dims) t = t.unsqueeze(d);
  return t;
}

// Whether any element of `t` is zero (read without recording).
bool has_zero(const Tensor& t) {
  autograd::BelowAutogradGuard ng;
  return t.numel() > 0 && (t == 0).any().item<bool>();
}

// Saved: 0 indices; shapes[0] self's sizes; ints: dim, keepdim.
variable_list value_selection_backward(const FormulaNode& n, const variable_list& g) {
  const DimVector& sizes = n.shapes[0];
  if (sizes.empty()) return {g[0].reshape({})};
  const int64_t dim = n.ints[0];
  Tensor grad = g[0], idx = n.saved(0);
  if (!n.ints[1]) {
    grad = grad.unsqueeze(dim);
    idx = idx.unsqueeze(dim);
  }
  return {grad.new_zeros(sizes).scatter(dim, idx, grad)};
}

// Saved: 0 self, 1 result.
variable_list evenly_distributed_backward(const FormulaNode& n, const variable_list& g) {
  const Tensor self = n.saved(0), result = n.saved(1);
  Tensor mask = (self == result) | (self.isnan() & result.isnan());
  return {mask * (g[0] / mask.sum())};
}

// Saved: 0 self, 1 result; ints: has_dim, dim, keepdim.
variable_list prod_backward(const FormulaNode& n, const variable_list& g) {
  const Tensor self = n.saved(0);
  Tensor result = n.saved(1), grad = g[0];
  if (self.dim() == 0) return {grad};
  if (!n.ints[0]) {
    if (!has_zero(self)) return {grad * (result / self).conj()};
    return {prod_safe_zeros_backward(grad, self.reshape({-1}), 0).reshape(self.sizes())};
  }
  const int64_t dim = n.ints[1];
  if (!n.ints[2]) {
    grad = grad.unsqueeze(dim);
    result = result.unsqueeze(dim);
  }
  if (!has_zero(self)) return {grad * (result / self).conj()};
  return {prod_safe_zeros_backward(grad, self, dim)};
}

Tensor reversed_cumsum(const Tensor& t, int64_t dim) { return t.flip({dim}).cumsum(dim).flip({dim}); }

// Saved: 0 self, 1 result; ints: dim. Without zeros: reversed cumsum of
// result * grad divided by the input. With zeros PyTorch's O(n^2) form, which
// stays differentiable: output k's gradient sums grad[j] * prod_{i <= j, i != k} x[i].
variable_list cumprod_backward(const FormulaNode& n, const variable_list& g) {
  const Tensor self = n.saved(0), grad = g[0];
  if (self.numel() <= 1 || self.dim() == 0) return {grad};
  const int64_t dim = n.ints[0];
  const int64_t len = self.size(dim);
  if (len == 1) return {grad};
  if (!has_zero(self)) return {reversed_cumsum(n.saved(1).conj() * grad, dim) / self.conj()};
  DimVector ones_size(self.sizes());
  ones_size[dim] = 1;
  const Tensor one = ones(ones_size, grad.options());
  std::vector<Tensor> cols;
  for (int64_t k = 0; k < len; ++k) {
    Tensor omitted;
    if (k == 0) {
      omitted = cat({one, self.narrow(dim, 1, len - 1).cumprod(dim)}, dim);
    } else {
      Tensor until = self.narrow(dim, 0, k).prod(dim, true);
      if (k == len - 1) {
        omitted = until;
      } else {
        Tensor from = self.narrow(dim, k + 1, len - k - 1).cumprod(dim);
        omitted = cat({until, until.expand(from.sizes()) * from}, dim);
      }
    }
    cols.push_back((grad.narrow(dim, k, len - k) * omitted.conj()).sum({dim}));
  }
  return {stack(cols, dim)};
}

// Saved: 0 indices; shapes[0] self's sizes; ints: dim.
variable_list cummaxmin_backward(const FormulaNode& n, const variable_list& g) {
  if (n.shapes[0].empty() || g[0].numel() == 0) return {g[0]};
  return {g[0].new_zeros(n.shapes[0]).scatter_add(n.ints[0], n.saved(0), g[0])};
}

// Saved: 0 self, 1 result; ints: dim. PyTorch's form: the positive and the
// negative parts of grad go through logcumsumexp in log space separately, so
// nothing overflows.
variable_list logcumsumexp_backward(const FormulaNode& n, const variable_list& g) {
  const Tensor grad = g[0];
  if (grad.dim() == 0 || grad.numel() == 0) return {grad};
  const int64_t dim = n.ints[0];
  const Tensor self = n.saved(0), result = n.saved(1);
  // The dtype's own lowest value (fill_ rejects a float's lowest in a half tensor).
  const ScalarType t = grad.scalar_type();
  const double lowest = t == kDouble     ? std::numeric_limits<double>::lowest()
                        : t == kHalf     ? -65504.0
                        : t == kBFloat16 ? -3.38953138925153547590470800371487866880e+38
                                         : static_cast<double>(std::numeric_limits<float>::lowest());
  const Tensor grad_min = full({}, lowest, grad.options());
  auto reverse_logcumsumexp = [dim](const Tensor& x) { return x.flip({dim}).logcumsumexp(dim).flip({dim}); };
  const Tensor log_abs_grad = grad.abs().log();
  const Tensor log_grad_positive = where(grad > 0, log_abs_grad, grad_min);
  const Tensor log_grad_negative = where(grad < 0, log_abs_grad, grad_min);
  const Tensor output_pos = (reverse_logcumsumexp(log_grad_positive - result) + self).exp();
  const Tensor output_neg = (reverse_logcumsumexp(log_grad_negative - result) + self).exp();
  return {output_pos - output_neg};
}

// Saved: 0 self, 1 result; scalars: p; ints: mask, keepdim. PyTorch's
// norm_backward, including its subgradients at zero (0 for p = 2 and p < 2).
variable_list norm_backward(const FormulaNode& n, const variable_list& g) {
  const Tensor self = n.saved(0);
  Tensor norm = n.saved(1), grad = g[0];
  const double p = n.scalars[0].toDouble();
  const DimVector dims = mask_dims(static_cast<uint64_t>(n.ints[0]), self.dim());
  if (!n.ints[1] && self.dim() != 0) {
    grad = unsqueeze_dims(grad, dims);
    norm = unsqueeze_dims(norm, dims);
  }
  if (p == 0.0) return {Tensor()};  // PyTorch leaves the gradient undefined (x.grad stays None)
  if (p == 1.0) return {self.sgn() * grad};
  if (p == 2.0) return {grad * (self / norm).masked_fill(norm == 0, 0)};
  if (std::isinf(p)) {
    const Tensor self_abs = self.abs();
    const Tensor mask = (self_abs == norm) | self_abs.isnan();
    return {self.sgn() * ((grad / mask.sum(dims, true)) * mask)};
  }
  if (p < 1.0) {
    const Tensor self_scaled = self.sgn() * self.abs().pow(p - 1).masked_fill(self == 0, 0);
    return {self_scaled * grad * norm.pow(1 - p)};
  }
  const Tensor self_scaled = p < 2.0 ? self.sgn() * self.abs().pow(p - 1) : self * self.abs().pow(p - 2);
  const Tensor scale_v = (grad / norm.pow(p - 1)).masked_fill(norm == 0, 0);
  return {self_scaled * scale_v};
}

}  // namespace

namespace {
const char* selection_node_name(SelectionOp op) {
  switch (op) {
    case SelectionOp::Max:
      return "MaxBackward0";
    case SelectionOp::Min:
      return "MinBackward0";
    case SelectionOp::Sort:
      return "SortBackward0";
    case SelectionOp::Topk:
      return "TopkBackward0";
    case SelectionOp::Kthvalue:
      return "KthvalueBackward0";
    case SelectionOp::Median:
      return "MedianBackward1";
    case SelectionOp::Nanmedian:
      return "NanmedianBackward1";
    case SelectionOp::Mode:
      return "ModeBackward0";
  }
  return "";
}
}  // namespace

void record_value_selection(SelectionOp op, const Tensor& self, const Tensor& values, const Tensor& indices,
                            int64_t dim, bool keepdim) {
  auto node = record(selection_node_name(op), &value_selection_backward, {self}, {values});
  node->save(indices);
  node->shapes.push_back(DimVector(self.sizes()));
  node->ints = {dim, keepdim ? 1 : 0};
}

void record_evenly_distributed(SelectionOp op, const Tensor& self, const Tensor& out) {
  EMBER_INTERNAL_ASSERT(op == SelectionOp::Median || op == SelectionOp::Nanmedian,
                        "record_evenly_distributed: median or nanmedian");
  const char* name = op == SelectionOp::Median ? "MedianBackward0" : "NanmedianBackward0";
  auto node = record(name, &evenly_distributed_backward, {self}, {out});
  node->save(self);
  node->save(out, /*is_output=*/true);
}

void record_prod(const Tensor& self, const Tensor& out, std::optional<int64_t> dim, bool keepdim) {
  auto node = record(dim ? "ProdBackward1" : "ProdBackward0", &prod_backward, {self}, {out});
  node->save(self);
  node->save(out, /*is_output=*/true);
  node->ints = {dim ? 1 : 0, dim.value_or(0), keepdim ? 1 : 0};
}

void record_cumprod(const Tensor& self, const Tensor& out, int64_t dim) {
  auto node = record("CumprodBackward0", &cumprod_backward, {self}, {out});
  node->save(self);
  node->save(out, /*is_output=*/true);
  node->ints = {dim};
}

void record_cummaxmin(bool is_max, const Tensor& self, const Tensor& values, const Tensor& indices, int64_t dim) {
  auto node = record(is_max ? "CummaxBackward0" : "CumminBackward0", &cummaxmin_backward, {self}, {values});
  node->save(indices);
  node->shapes.push_back(DimVector(self.sizes()));
  node->ints = {dim};
}

void record_logcumsumexp(const Tensor& self, const Tensor& out, int64_t dim) {
  auto node = record("LogcumsumexpBackward0", &logcumsumexp_backward, {self}, {out});
  node->save(self);
  node->save(out, /*is_output=*/true);
  node->ints = {dim};
}

void record_norm(const Tensor& self, const Tensor& out, double p, uint64_t mask, bool keepdim) {
  auto node = record("NormBackward1", &norm_backward, {self}, {out});
  node->save(self);
  node->save(out, /*is_output=*/true);
  node->scalars = {Scalar(p)};
  node->ints = {static_cast<int64_t>(mask), keepdim ? 1 : 0};
}

void record_reduction(ReduceGradOp op, const Tensor& self, const Tensor& out, uint64_t mask, bool keepdim,
                      double correction) {
  FormulaNode::Formula f = nullptr;
  FormulaNode::Jvp jvp = nullptr;  // null: from the VJP (Note [JVP from the VJP])
  bool linear = false;             // sum and mean save nothing
  switch (op) {
    case ReduceGradOp::Sum:
    case ReduceGradOp::SumDim:
      f = &sum_backward, jvp = &sum_jvp, linear = true;
      break;
    case ReduceGradOp::Mean:
    case ReduceGradOp::MeanDim:
      f = &mean_backward, jvp = &mean_jvp, linear = true;
      break;
    case ReduceGradOp::Amax:
    case ReduceGradOp::Amin:
    case ReduceGradOp::MaxAll:
    case ReduceGradOp::MinAll:
      f = &amax_backward;
      break;
    case ReduceGradOp::LogSumExp:
      f = &logsumexp_backward;
      break;
    case ReduceGradOp::Var:
      f = &var_backward;
      break;
    case ReduceGradOp::Std:
      f = &std_backward;
      break;
  }
  auto node = record(reduction_node_name(op), f, {self}, {out});
  node->jvp = jvp;
  node->shapes.push_back(DimVector(self.sizes()));
  node->ints = {static_cast<int64_t>(mask), keepdim ? 1 : 0};
  const int64_t count = self.numel() / std::max<int64_t>(out.numel(), 1);
  if (op == ReduceGradOp::Mean || op == ReduceGradOp::MeanDim) node->scalars.push_back(Scalar(count));
  if (!linear) {
    node->save(self);
    node->save(out, /*is_output=*/true);
    node->scalars = {Scalar(count), Scalar(correction)};
  }
}

void record_cumsum(const Tensor& self, const Tensor& out, int64_t dim) {
  record("CumsumBackward0", &cumsum_backward, {self}, {out})->ints = {dim};
}

}  // namespace torch::autograd
