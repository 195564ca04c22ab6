// Losses that are compositions of differentiable ops (autograd comes free); each
// follows PyTorch 1.13's ATen composition so values, NaN propagation and broadcasting match.
#include <cmath>

#include "ember/autograd/derivatives/nn_loss_grad.h"
#include "ember/autograd/formula_node.h"
#include "ember/autograd/forward_ad.h"
#include "ember/autograd/grad_mode.h"
#include "ember/autograd/node.h"
#include "ember/core/dispatch.h"
#include "ember/core/error.h"
#include "ember/core/parallel.h"
#include "ember/core/record_scope.h"
#include "ember/core/shape.h"
#include "ember/core/tensor.h"
#include "ember/ops/all_ops.h"
#include "ember/ops/nn/loss.h"
#include "ember/vmap/rules_nn.h"
#include "ember/vmap/vmap.h"

namespace torch {

using ops::apply_loss_reduction;

namespace {

void check_defined(const char* op, const Tensor& a, const Tensor& b) {
  EMBER_CHECK(a.defined() && b.defined(), op, ": expected defined input and target");
}

}  // namespace

Tensor mse_loss(const Tensor& self, const Tensor& target, int64_t reduction) {
  EMBER_RECORD_COMPOSITE_OP("mse_loss", self, target);
  check_defined("mse_loss", self, target);
  const Tensor d = self - target;
  return apply_loss_reduction(d * d, reduction, "mse_loss");
}

Tensor l1_loss(const Tensor& self, const Tensor& target, int64_t reduction) {
  EMBER_RECORD_COMPOSITE_OP("l1_loss", self, target);
  check_defined("l1_loss", self, target);
  return apply_loss_reduction((self - target).abs(), reduction, "l1_loss");
}

Tensor smooth_l1_loss(const Tensor& self, const Tensor& target, int64_t reduction, double beta) {
  EMBER_RECORD_COMPOSITE_OP("smooth_l1_loss", self, target);
  check_defined("smooth_l1_loss", self, target);
  EMBER_CHECK(beta >= 0, "smooth_l1_loss: does not support negative values for beta, got ", beta);
  if (beta == 0) return l1_loss(self, target, reduction);
  const Tensor d = self - target;
  const Tensor z = d.abs();
  return apply_loss_reduction(where(z < beta, d * d * (0.5 / beta), z - 0.5 * beta), reduction, "smooth_l1_loss");
}

Tensor huber_loss(const Tensor& self, const Tensor& target, int64_t reduction, double delta) {
  EMBER_RECORD_COMPOSITE_OP("huber_loss", self, target);
  check_defined("huber_loss", self, target);
  EMBER_CHECK(delta > 0, "huber_loss: does not support non-positive values for delta, got ", delta);
  const Tensor d = self - target;
  const Tensor z = d.abs();
  return apply_loss_reduction(where(z < delta, d * d * 0.5, (z - 0.5 * delta) * delta), reduction, "huber_loss");
}

Tensor binary_cross_entropy(const Tensor& self, const Tensor& target_in, const std::optional<Tensor>& weight,
                            int64_t reduction) {
  if (batching::any_batched(self, target_in, weight)) [[unlikely]]
    return batching::binary_cross_entropy_batched(self, target_in, weight ? *weight : Tensor(), reduction);
  EMBER_RECORD_OP("binary_cross_entropy", self, target_in);
  check_defined("binary_cross_entropy", self, target_in);
  // ATen squeezes input and target before its loop, so shapes that differ only in size-1
  // dimensions pair up elementwise ([N, 1] input, [N] target) and the loss keeps the input's shape.
  const bool same = self.sizes() == target_in.sizes();
  EMBER_CHECK(same || target_in.squeeze().sizes() == self.squeeze().sizes(), "binary_cross_entropy: target size ",
              shape_str(target_in.sizes()), " must match input size ", shape_str(self.sizes()));
  const Tensor target = same ? target_in : target_in.reshape(self.sizes());
  EMBER_CHECK(is_floating_point(self.scalar_type()), "binary_cross_entropy: expected a floating point input, got ",
              dtype_name(self.scalar_type()));
  {
    autograd::BelowAutogradGuard no_grad;
    // NaN fails both comparisons, so it is rejected too (as PyTorch).
    const bool in_range = self.numel() == 0 || ((self >= 0) & (self <= 1)).all().item<bool>();
    EMBER_CHECK(in_range, "binary_cross_entropy: all elements of input should be between 0 and 1 (input ",
                shape_str(self.sizes()), " ", dtype_name(self.scalar_type()), ")");
  }
  const Tensor w = weight && weight->defined() ? *weight : Tensor();
  Tensor out;
  {
    // The forward composes ops without recording; BinaryCrossEntropyBackward0 carries PyTorch's
    // gradient, which stays finite at inputs of exactly 0 and 1 (the composition's would not).
    autograd::BelowAutogradGuard no_grad;
    // PyTorch clamps each log at -100 so that 0 * log(0) stays finite.
    Tensor loss = (target - 1) * clamp((-self).log1p(), -100.0) - target * clamp(self.log(), -100.0);
    if (w.defined()) loss = loss * w;
    out = apply_loss_reduction(loss, reduction, "binary_cross_entropy");
  }
  if (autograd::needs_grad(self, target)) autograd::record_binary_cross_entropy(self, target, w, out, reduction);
  return out;
}

Tensor binary_cross_entropy_with_logits(const Tensor& self, const Tensor& target, const std::optional<Tensor>& weight,
                                        const std::optional<Tensor>& pos_weight, int64_t reduction) {
  EMBER_RECORD_COMPOSITE_OP("binary_cross_entropy_with_logits", self, target);
  check_defined("binary_cross_entropy_with_logits", self, target);
  EMBER_CHECK(self.sizes() == target.sizes(), "binary_cross_entropy_with_logits: target size ",
              shape_str(target.sizes()), " must be the same as input size ", shape_str(self.sizes()));
  const Tensor ls = log_sigmoid(self);
  Tensor loss;
  if (pos_weight && pos_weight->defined()) {
    const Tensor log_weight = (*pos_weight - 1) * target + 1;
    loss = (1 - target) * self - log_weight * ls;
  } else {
    loss = (1 - target) * self - ls;
  }
  if (weight && weight->defined()) loss = loss * *weight;
  return apply_loss_reduction(loss, reduction, "binary_cross_entropy_with_logits");
}

Tensor kl_div(const Tensor& self, const Tensor& target, int64_t reduction, bool log_target) {
  EMBER_RECORD_COMPOSITE_OP("kl_div", self, target);
  check_defined("kl_div", self, target);
  Tensor out;
  if (log_target) {
    out = target.exp() * (target - self);
  } else {
    // xlogy(t, t) - t * x, with 0 * log 0 = 0; the where keeps log's gradient finite at t = 0.
    Tensor safe;
    {
      autograd::BelowAutogradGuard no_grad;
      safe = target == 0;
    }
    out = target * where(safe, ones_like(target), target).log() - target * self;
  }
  return apply_loss_reduction(out, reduction, "kl_div");
}

Tensor poisson_nll_loss(const Tensor& input, const Tensor& target, bool log_input, bool full, double eps,
                        int64_t reduction) {
  EMBER_RECORD_COMPOSITE_OP("poisson_nll_loss", input, target);
  check_defined("poisson_nll_loss", input, target);
  Tensor loss = log_input ? input.exp() - target * input : input - target * (input + eps).log();
  if (full) {
    // Stirling's approximation of log(target!), used only where target > 1.
    const Tensor stirling = target * target.log() - target + (target * (2 * M_PI)).log() * 0.5;
    loss = loss + stirling.masked_fill(target <= 1, 0);
  }
  return apply_loss_reduction(loss, reduction, "poisson_nll_loss");
}

Tensor soft_margin_loss(const Tensor& self, const Tensor& target, int64_t reduction) {
  EMBER_RECORD_COMPOSITE_OP("soft_margin_loss", self, target);
  check_defined("soft_margin_loss", self, target);
  return apply_loss_reduction((-self * target).exp().log1p(), reduction, "soft_margin_loss");
}

Tensor margin_ranking_loss(const Tensor& input1, const Tensor& input2, const Tensor& target, double margin,
                           int64_t reduction) {
  EMBER_RECORD_COMPOSITE_OP("margin_ranking_loss", input1, input2, target);
  check_defined("margin_ranking_loss", input1, input2);
  EMBER_CHECK(target.defined(), "margin_ranking_loss: expected a defined target");
  const Tensor out = clamp(-target * (input1 - input2) + margin, 0.0);
  return apply_loss_reduction(out, reduction, "margin_ranking_loss");
}

Tensor hinge_embedding_loss(const Tensor& self, const Tensor& target, double margin, int64_t reduction) {
  EMBER_RECORD_COMPOSITE_OP("hinge_embedding_loss", self, target);
  check_defined("hinge_embedding_loss", self, target);
  const Tensor zero = zeros_like(self);
  const Tensor margin_clamp = clamp(margin - self, 0.0);
  const Tensor out = where(target != 1, margin_clamp, zero) + where(target != -1, self, zero);
  return apply_loss_reduction(out, reduction, "hinge_embedding_loss");
}

namespace {

// Shared checks for the multi-class margin losses: input [C] or [N, C] floating.
void check_margin_input(const char* op, const Tensor& self) {
  EMBER_CHECK(self.defined(), op, ": expected a defined input");
  EMBER_CHECK(is_floating_point(self.scalar_type()), op, ": expected a floating point input, got ",
              dtype_name(self.scalar_type()));
  EMBER_CHECK(
      (self.dim() == 1 && self.numel() > 0) || (self.dim() == 2 && self.size(1) > 0), op,
      ": expected non-empty vector or matrix with optional 0-dim batch size, but got: ", shape_str(self.sizes()));
}

}  // namespace

Tensor multi_margin_loss(const Tensor& self, const Tensor& target, const Scalar& p_s, const Scalar& margin_s,
                         const std::optional<Tensor>& weight, int64_t reduction) {
  if (batching::any_batched(self, target, weight)) [[unlikely]]
    return batching::multi_margin_loss_batched(self, target, p_s, margin_s, weight ? *weight : Tensor(), reduction);
  EMBER_RECORD_OP("multi_margin_loss", self, target);
  const char* op = "multi_margin_loss";
  check_margin_input(op, self);
  EMBER_CHECK(target.defined() && target.scalar_type() == kLong, op, ": expected int64 target, got ",
              target.defined() ? dtype_name(target.scalar_type()) : "undefined");
  const int64_t p = p_s.toLong();
  EMBER_CHECK(p == 1 || p == 2, op, ": only p == 1 and p == 2 supported, got ", p);
  const bool vec = self.dim() == 1;
  const Tensor x = vec ? self.unsqueeze(0) : self;
  const int64_t n = x.size(0), c = x.size(1);
  EMBER_CHECK(target.numel() == n && target.dim() <= 1, op, ": inconsistent target size: ", shape_str(target.sizes()),
              " for input of size: ", shape_str(self.sizes()));
  Tensor onehot, wy;
  const Tensor t = target.reshape({n});
  {
    autograd::BelowAutogradGuard no_grad;
    if (n > 0) {
      const bool ok = ((t >= 0) & (t < c)).all().item<bool>();
      EMBER_CHECK(ok, op, ": target out of range for ", c, " classes (input ", shape_str(self.sizes()), " ",
                  dtype_name(self.scalar_type()), ", target ", shape_str(target.sizes()), ")");
    }
    onehot = one_hot(t, c).to(self.scalar_type());
    if (weight && weight->defined()) {
      EMBER_CHECK(weight->dim() <= 1 && weight->numel() == c, op, ": expected weight to be a vector of size ", c,
                  ", got ", shape_str(weight->sizes()));
      wy = weight->reshape({c}).to(self.scalar_type()).index_select(0, t).unsqueeze(1);
    }
  }
  const Tensor xy = (x * onehot).sum({1}, true);
  Tensor z = clamp(x - xy + margin_s.toDouble(), 0.0);
  if (p == 2) z = z * z;
  if (wy.defined()) z = z * wy;
  Tensor loss = (z * (1 - onehot)).sum({1}) / static_cast<double>(c);
  if (vec && reduction == Reduction::None) loss = loss.squeeze(0);
  return apply_loss_reduction(loss, reduction, op);
}

Tensor multilabel_margin_loss(const Tensor& self, const Tensor& target, int64_t reduction) {
  if (batching::any_batched(self, target)) [[unlikely]]
    return batching::multilabel_margin_loss_batched(self, target, reduction);
  EMBER_RECORD_OP("multilabel_margin_loss", self, target);
  const char* op = "multilabel_margin_loss";
  check_margin_input(op, self);
  EMBER_CHECK(target.defined() && target.scalar_type() == kLong, op, ": expected int64 target, got ",
              target.defined() ? dtype_name(target.scalar_type()) : "undefined");
  EMBER_CHECK(target.sizes() == self.sizes(), op, ": inconsistent target size: ", shape_str(target.sizes()),
              " for input of size: ", shape_str(self.sizes()));
  const bool vec = self.dim() == 1;
  const Tensor x = vec ? self.unsqueeze(0) : self;
  const int64_t n = x.size(0), c = x.size(1);
  // is_target[i, j]: j is one of sample i's labels (the list in target[i] ends at the first -1).
  Tensor is_target;
  {
    autograd::BelowAutogradGuard no_grad;
    const Tensor t = (vec ? target.unsqueeze(0) : target).contiguous();
    is_target = zeros({n, c}, self.options());
    const int64_t* tp = t.data_ptr<int64_t>();
    Tensor mask = zeros({n, c}, TensorOptions(kDouble));
    double* mp = mask.data_ptr<double>();
    // Every entry must be a class or -1, also after the -1 that ends a row's list (PyTorch).
    for (int64_t k = 0; k < n * c; ++k)
      EMBER_CHECK(tp[k] >= -1 && tp[k] < c, op, ": target ", tp[k], " is out of range for ", c, " classes (input ",
                  shape_str(self.sizes()), ", target ", shape_str(target.sizes()), ")");
    for (int64_t i = 0; i < n; ++i) {
      for (int64_t j = 0; j < c; ++j) {
        const int64_t cls = tp[i * c + j];
        if (cls < 0) break;
        mp[i * c + cls] = 1;
      }
    }
    is_target = mask.to(self.scalar_type());
  }
  // Pairs (j a label, k not a label): max(0, 1 - (x[j] - x[k])), summed and divided by C.
  const Tensor diff = clamp(1 - x.unsqueeze(2) + x.unsqueeze(1), 0.0);  // [n, j, k]
  const Tensor pair = is_target.unsqueeze(2) * (1 - is_target).unsqueeze(1);
  Tensor loss = (diff * pair).sum({1, 2}) / static_cast<double>(c);
  if (vec && reduction == Reduction::None) loss = loss.squeeze(0);
  return apply_loss_reduction(loss, reduction, op);
}

Tensor multilabel_soft_margin_loss(const Tensor& self, const Tensor& target, const std::optional<Tensor>& weight,
                                   int64_t reduction) {
  check_defined("multilabel_soft_margin_loss", self, target);
  EMBER_CHECK(self.dim() >= 1, "multilabel_soft_margin_loss: input must have at least 1 dimension, got ",
              shape_str(self.sizes()));
  Tensor loss = -(target * log_sigmoid(self) + (1 - target) * log_sigmoid(-self));
  if (weight && weight->defined()) loss = loss * *weight;
  const int64_t class_dim = self.dim() - 1;
  loss = loss.sum({class_dim}) / static_cast<double>(self.size(class_dim));
  return apply_loss_reduction(loss, reduction, "multilabel_soft_margin_loss");
}

}  // namespace torch
