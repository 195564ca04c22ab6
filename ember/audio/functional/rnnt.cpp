// RNN-T loss by the alpha/beta recursions over the (time, label) lattice.
// Note [RNN-T gradient]: the gradient w.r.t. the logits is computed in the
// forward pass, as torchaudio does, and saved: with the fused log-softmax it is
// occupancy(t, u) * softmax(t, u, k) minus the flow along each transition
// leaving (t, u) with class k; without it, just minus that flow. It is a
// constant of the backward, so the loss is differentiable once, not twice
// (torchaudio's is not twice differentiable either).
#include "ember/audio/functional/rnnt.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "ember/autograd/custom_function.h"
#include "ember/core/error.h"
#include "ember/core/parallel.h"
#include "ember/ops/all_ops.h"

namespace torch::audio::functional {
namespace {

constexpr double kNegInf = -std::numeric_limits<double>::infinity();

double log_add(double a, double b) {
  if (a == kNegInf) return b;
  if (b == kNegInf) return a;
  const double m = std::max(a, b);
  return m + std::log1p(std::exp(-std::abs(a - b)));
}

struct RnntProblem {
  int64_t batch, max_t, max_u1, classes, blank;
  double clamp;
  bool fused;
  std::vector<int64_t> logit_len, target_len, targets;  // targets: [batch, max_u1 - 1]
};

// One sequence: writes its cost and, when `grad` is set, its slice of the gradient.
template <typename T>
void rnnt_one(const RnntProblem& p, int64_t b, const T* x, T* grad, double& cost) {
  const int64_t nt = p.logit_len[b], nu = p.target_len[b] + 1, d = p.classes;
  const int64_t* y = p.targets.data() + b * (p.max_u1 - 1);
  auto at = [&](int64_t t, int64_t u) { return x + ((b * p.max_t + t) * p.max_u1 + u) * d; };
  // log-normalizer, log p(blank) and log p(next label) per lattice node.
  std::vector<double> denom(nt * nu, 0.0), lp_blank(nt * nu), lp_label(nt * nu, kNegInf);
  for (int64_t t = 0; t < nt; ++t)
    for (int64_t u = 0; u < nu; ++u) {
      const T* row = at(t, u);
      double z = 0;
      if (p.fused) {
        double m = kNegInf;
        for (int64_t k = 0; k < d; ++k) m = std::max(m, static_cast<double>(row[k]));
        double s = 0;
        for (int64_t k = 0; k < d; ++k) s += std::exp(static_cast<double>(row[k]) - m);
        z = m + std::log(s);
      }
      denom[t * nu + u] = z;
      lp_blank[t * nu + u] = static_cast<double>(row[p.blank]) - z;
      if (u + 1 < nu) lp_label[t * nu + u] = static_cast<double>(row[y[u]]) - z;
    }
  std::vector<double> alpha(nt * nu), beta(nt * nu);
  for (int64_t t = 0; t < nt; ++t)
    for (int64_t u = 0; u < nu; ++u) {
      if (t == 0 && u == 0) {
        alpha[0] = 0;
        continue;
      }
      double a = kNegInf;
      if (t > 0) a = alpha[(t - 1) * nu + u] + lp_blank[(t - 1) * nu + u];
      if (u > 0) a = log_add(a, alpha[t * nu + u - 1] + lp_label[t * nu + u - 1]);
      alpha[t * nu + u] = a;
    }
  for (int64_t t = nt - 1; t >= 0; --t)
    for (int64_t u = nu - 1; u >= 0; --u) {
      double bt;
      if (t == nt - 1 && u == nu - 1) {
        bt = lp_blank[t * nu + u];
      } else {
        bt = kNegInf;
        if (t + 1 < nt) bt = beta[(t + 1) * nu + u] + lp_blank[t * nu + u];
        if (u + 1 < nu) bt = log_add(bt, beta[t * nu + u + 1] + lp_label[t * nu + u]);
      }
      beta[t * nu + u] = bt;
    }
  const double log_lik = beta[0];
  cost = -log_lik;
  if (grad == nullptr) return;
  for (int64_t t = 0; t < nt; ++t)
    for (int64_t u = 0; u < nu; ++u) {
      const int64_t n = t * nu + u;
      const T* row = at(t, u);
      T* g = grad + (at(t, u) - x);
      const double base = alpha[n] - log_lik;
      // Flow along the blank (to t + 1, or out of the lattice) and label edges.
      double next_blank = kNegInf;
      if (t + 1 < nt)
        next_blank = beta[(t + 1) * nu + u];
      else if (u == nu - 1)
        next_blank = 0;
      const double flow_blank = std::exp(base + lp_blank[n] + next_blank);
      const double flow_label = u + 1 < nu ? std::exp(base + lp_label[n] + beta[n + 1]) : 0.0;
      const double occupancy = std::exp(base + beta[n]);
      for (int64_t k = 0; k < d; ++k) {
        double v = p.fused ? occupancy * std::exp(static_cast<double>(row[k]) - denom[n]) : 0.0;
        if (k == p.blank) v -= flow_blank;
        if (u + 1 < nu && k == y[u]) v -= flow_label;
        if (p.clamp > 0) v = std::clamp(v, -p.clamp, p.clamp);
        g[k] = static_cast<T>(v);
      }
    }
}

template <typename T>
void rnnt_all(const RnntProblem& p, const Tensor& logits, Tensor& costs, Tensor& grads) {
  const T* x = logits.data_ptr<T>();
  T* c = costs.data_ptr<T>();
  T* g = grads.defined() ? grads.data_ptr<T>() : nullptr;
  parallel_for(0, p.batch, 1, [&](int64_t begin, int64_t end) {
    for (int64_t b = begin; b < end; ++b) {
      double cost = 0;
      rnnt_one<T>(p, b, x, g, cost);
      c[b] = static_cast<T>(cost);
    }
  });
}

std::vector<int64_t> to_int64_vector(const Tensor& t) {
  Tensor l = t.to(kLong).contiguous();
  const int64_t* p = l.data_ptr<int64_t>();
  return std::vector<int64_t>(p, p + l.numel());
}

struct RnntLossFunction : autograd::Function<RnntLossFunction> {
  static Tensor forward(autograd::AutogradContext* ctx, const Tensor& logits, const RnntProblem& p) {
    Tensor x = logits.contiguous();
    Tensor costs = empty({p.batch}, TensorOptions(x.scalar_type()));
    Tensor grads;
    if (ctx->needs_input_grad(0)) grads = zeros_like(x);
    if (x.scalar_type() == kFloat)
      rnnt_all<float>(p, x, costs, grads);
    else
      rnnt_all<double>(p, x, costs, grads);
    ctx->save_for_backward({grads});
    return costs;
  }

  static autograd::variable_list backward(autograd::AutogradContext* ctx, autograd::variable_list grads) {
    Tensor g = ctx->get_saved_variables()[0];
    return {g * grads[0].reshape({-1, 1, 1, 1}), Tensor()};
  }
};

void check_lengths(const Tensor& t, const char* name, int64_t batch) {
  EMBER_CHECK(t.dim() == 1 && t.size(0) == batch, "rnnt_loss: ", name, " must be 1-D of size batch (", batch,
              "), got shape ", t.sizes());
  EMBER_CHECK(t.scalar_type() == kInt || t.scalar_type() == kLong, "rnnt_loss: ", name, " must be int32, got ",
              t.scalar_type());
}

}  // namespace

Tensor rnnt_loss(const Tensor& logits, const Tensor& targets, const Tensor& logit_lengths, const Tensor& target_lengths,
                 int64_t blank, double clamp, const std::string& reduction, bool fused_log_softmax) {
  EMBER_CHECK(reduction == "none" || reduction == "mean" || reduction == "sum",
              "rnnt_loss: reduction should be one of \"none\", \"mean\", or \"sum\", got \"", reduction, "\"");
  EMBER_CHECK(logits.dim() == 4, "rnnt_loss: logits must be 4-D (batch, time, target, class), got shape ",
              logits.sizes());
  EMBER_CHECK(logits.scalar_type() == kFloat || logits.scalar_type() == kDouble,
              "rnnt_loss: logits must be float32 or float64, got ", logits.scalar_type());
  EMBER_CHECK(targets.dim() == 2, "rnnt_loss: targets must be 2-D (batch, max target length), got shape ",
              targets.sizes());
  EMBER_CHECK(targets.scalar_type() == kInt || targets.scalar_type() == kLong, "rnnt_loss: targets must be int32, got ",
              targets.scalar_type());
  const int64_t batch = logits.size(0);
  EMBER_CHECK(targets.size(0) == batch, "rnnt_loss: batch dimension mismatch between logits (", batch,
              ") and targets (", targets.size(0), ")");
  check_lengths(logit_lengths, "logit_lengths", batch);
  check_lengths(target_lengths, "target_lengths", batch);
  RnntProblem p;
  p.batch = batch;
  p.max_t = logits.size(1);
  p.max_u1 = logits.size(2);
  p.classes = logits.size(3);
  p.blank = blank < 0 ? p.classes + blank : blank;
  p.clamp = clamp;
  p.fused = fused_log_softmax;
  EMBER_CHECK(p.blank >= 0 && p.blank < p.classes, "rnnt_loss: blank must be within [0, ", p.classes, "), got ", blank);
  EMBER_CHECK(batch > 0, "rnnt_loss: expected a non-empty batch, got logits of shape ", logits.sizes());
  p.logit_len = to_int64_vector(logit_lengths);
  p.target_len = to_int64_vector(target_lengths);
  const int64_t max_t = *std::max_element(p.logit_len.begin(), p.logit_len.end());
  const int64_t max_u = *std::max_element(p.target_len.begin(), p.target_len.end());
  EMBER_CHECK(p.max_t == max_t, "rnnt_loss: input length mismatch: logits.size(1) is ", p.max_t,
              " but max(logit_lengths) is ", max_t);
  EMBER_CHECK(p.max_u1 == max_u + 1, "rnnt_loss: output length mismatch: logits.size(2) is ", p.max_u1,
              " but max(target_lengths) + 1 is ", max_u + 1);
  EMBER_CHECK(targets.size(1) == max_u, "rnnt_loss: target length mismatch: targets.size(1) is ", targets.size(1),
              " but max(target_lengths) is ", max_u);
  for (int64_t b = 0; b < batch; ++b) {
    EMBER_CHECK(p.logit_len[b] >= 1, "rnnt_loss: logit_lengths[", b, "] must be positive, got ", p.logit_len[b]);
    EMBER_CHECK(p.target_len[b] >= 0, "rnnt_loss: target_lengths[", b, "] must be non-negative, got ", p.target_len[b]);
  }
  p.targets = to_int64_vector(targets);
  for (int64_t b = 0; b < batch; ++b)
    for (int64_t u = 0; u < p.target_len[b]; ++u) {
      const int64_t v = p.targets[b * max_u + u];
      EMBER_CHECK(v >= 0 && v < p.classes, "rnnt_loss: targets[", b, "][", u, "] must be a class in [0, ", p.classes,
                  "), got ", v);
    }
  Tensor costs = RnntLossFunction::apply(logits, p);
  if (reduction == "mean") return costs.mean();
  if (reduction == "sum") return costs.sum();
  return costs;
}

}  // namespace torch::audio::functional
