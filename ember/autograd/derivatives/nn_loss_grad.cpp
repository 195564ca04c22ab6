#include "ember/autograd/derivatives/nn_loss_grad.h"
#include "ember/autograd/raw_backward.h"

#include "ember/autograd/formula_node.h"
#include "ember/autograd/forward_ad.h"
#include "ember/autograd/grad_mode.h"
#include "ember/autograd/node.h"
#include "ember/core/dispatch.h"
#include "ember/core/error.h"
#include "ember/core/parallel.h"
#include "ember/core/shape.h"
#include "ember/core/tensor.h"
#include "ember/kernels/cpu/softmax_backward.h"
#include "ember/ops/all_ops.h"
#include "ember/ops/nn/loss.h"
#include "ember/vmap/batched_tensor.h"
#include "ember/vmap/vmap.h"

namespace torch::autograd {

namespace {

// y = softmax(x): dx = y * (g - sum(g * y)).
variable_list softmax_backward(const FormulaNode& n, const variable_list& g) {
  const Tensor y = n.saved(0);
  const int64_t d = n.ints[0];
  // First order along the last dim: one pass per row (Note [Softmax backward rows]).
  if (raw_backward_ok(g) && y.dim() > 0 && d == y.dim() - 1 &&
      (y.scalar_type() == kFloat || y.scalar_type() == kDouble) && g[0].scalar_type() == y.scalar_type() &&
      g[0].sizes() == y.sizes() && !batching::is_batched(y))
    return {kernels::softmax_backward_lastdim(g[0].contiguous(), y.contiguous())};
  return {y * (g[0] - (g[0] * y).sum({d}, true))};
}
// y = log_softmax(x): dx = g - exp(y) * sum(g).
variable_list log_softmax_backward(const FormulaNode& n, const variable_list& g) {
  const Tensor y = n.saved(0);
  const int64_t d = n.ints[0];
  return {g[0] - y.exp() * g[0].sum({d}, true)};
}

// nll_loss is linear in self: dx = coef * g with a constant coef (ops::nll_loss_coef), so the
// formula is differentiable in g and the second derivative in self is zero.
variable_list nll_loss_backward(const FormulaNode& n, const variable_list& g) {
  const int64_t reduction = n.ints[0], ignore_index = n.ints[1], has_weight = n.ints[2];
  const Tensor target = n.saved(0);
  const Tensor weight = has_weight ? n.saved(1) : Tensor();
  const DimVector& self_sizes = n.shapes[0];
  Tensor coef = ops::nll_loss_coef(self_sizes, g[0].scalar_type(), target, weight, reduction, ignore_index,
                                   n.scalars[0].toDouble());
  Tensor grad = g[0];
  if (reduction == Reduction::None && self_sizes.size() >= 2) grad = grad.unsqueeze(1);
  return {coef * grad};
}

variable_list ctc_loss_backward(const FormulaNode& n, const variable_list& g) {
  // raw_grad is [T, N, C]; g[0] holds one gradient per sequence.
  return {n.saved(0) * g[0].view({1, -1, 1})};
}

// Upstream gradient of a reduced elementwise loss, broadcastable to the loss's shape.
Tensor unreduce(const Tensor& g, int64_t reduction, int64_t numel) {
  return reduction == Reduction::Mean ? g / static_cast<double>(numel) : g;
}

variable_list binary_cross_entropy_backward(const FormulaNode& n, const variable_list& g) {
  const Tensor x = n.saved(0), t = n.saved(1);
  Tensor gg = unreduce(g[0], n.ints[0], x.numel());
  if (n.ints[1]) gg = gg * n.saved(2);
  Tensor gx, gt;
  if (n.needs_input_grad(0)) gx = gg * (x - t) / clamp((1 - x) * x, 1e-12);
  if (n.needs_input_grad(1)) gt = -gg * x.logit();
  return {gx, gt};
}

}  // namespace

void record_binary_cross_entropy(const Tensor& self, const Tensor& target, const Tensor& weight, const Tensor& out,
                                 int64_t reduction) {
  auto node = record("BinaryCrossEntropyBackward0", &binary_cross_entropy_backward, {self, target}, {out});
  node->save(self);
  node->save(target);
  if (weight.defined()) node->save(weight);
  node->ints = {reduction, weight.defined() ? 1 : 0};
}

void record_softmax(const Tensor& self, const Tensor& out, int64_t dim, bool log) {
  auto node = log ? record("LogSoftmaxBackward0", &log_softmax_backward, {self}, {out})
                  : record("SoftmaxBackward0", &softmax_backward, {self}, {out});
  node->save(out, /*is_output=*/true);
  node->ints = {dim};
}

void record_nll_loss(const Tensor& self, const Tensor& target, const Tensor& weight, const Tensor& out,
                     int64_t reduction, int64_t ignore_index, double total_weight) {
  // A 4-D input (N, C, H, W) is nll_loss2d's case, as PyTorch names it.
  const char* name = self.dim() == 4 ? "NllLoss2DBackward0" : "NllLossBackward0";
  auto node = record(name, &nll_loss_backward, {self}, {out});
  node->save(target);
  if (weight.defined()) node->save(weight);
  node->ints = {reduction, ignore_index, weight.defined() ? 1 : 0};
  node->scalars = {total_weight};
  node->shapes.push_back(DimVector(self.sizes()));
}

void record_ctc_loss(const Tensor& log_probs, const Tensor& raw_grad, const Tensor& out) {
  auto node = record("CtcLossBackward0", &ctc_loss_backward, {log_probs}, {out});
  node->save(raw_grad);
}

}  // namespace torch::autograd
