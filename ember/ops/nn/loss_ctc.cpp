// ctc_loss: alpha recursion forward, beta recursion for the gradient (PyTorch's LossCTC.cpp),
// in log space with double accumulation, one batch element per task.
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>
#include "ember/core/record_scope.h"

#include "ember/autograd/derivatives/nn_loss_grad.h"
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
#include "ember/ops/nn/loss.h"
#include "ember/vmap/rules_nn.h"
#include "ember/vmap/vmap.h"

namespace torch {

namespace {

constexpr double kNegInf = -std::numeric_limits<double>::infinity();

double log_add(double a, double b) {
  if (a == kNegInf) return b;
  if (b == kNegInf) return a;
  const double m = std::max(a, b);
  return m + std::log1p(std::exp(-std::abs(a - b)));
}

struct CtcProblem {
  int64_t T, N, C, blank;
  std::vector<int64_t> in_len, tg_len, tg_offset;  // where batch b's labels start in `labels`
  std::vector<int64_t> labels;
};

// Label s of batch b's extended target (blank, l1, blank, l2, ..., blank).
inline int64_t ext_label(const CtcProblem& p, int64_t b, int64_t s) {
  return s % 2 == 0 ? p.blank : p.labels[p.tg_offset[b] + s / 2];
}

// Negative log-likelihood of batch b; fills grad[t, b, c] (unit upstream gradient) if given.
template <typename T>
double ctc_one(const CtcProblem& p, const T* lp, int64_t b, T* grad, bool zero_infinity) {
  const int64_t Tb = p.in_len[b], L = p.tg_len[b], S = 2 * L + 1;
  auto lpv = [&](int64_t t, int64_t c) { return static_cast<double>(lp[(t * p.N + b) * p.C + c]); };
  std::vector<double> alpha(std::max<int64_t>(Tb, 1) * S, kNegInf);
  double nll = std::numeric_limits<double>::infinity();
  if (Tb > 0) {
    alpha[0] = lpv(0, p.blank);
    if (L > 0) alpha[1] = lpv(0, ext_label(p, b, 1));
    for (int64_t t = 1; t < Tb; ++t) {
      for (int64_t s = 0; s < S; ++s) {
        const int64_t l = ext_label(p, b, s);
        double a = alpha[(t - 1) * S + s];
        if (s > 0) a = log_add(a, alpha[(t - 1) * S + s - 1]);
        if (s % 2 == 1 && s > 1 && l != ext_label(p, b, s - 2)) a = log_add(a, alpha[(t - 1) * S + s - 2]);
        alpha[t * S + s] = a == kNegInf ? kNegInf : a + lpv(t, l);
      }
    }
    const double end =
        L > 0 ? log_add(alpha[(Tb - 1) * S + S - 1], alpha[(Tb - 1) * S + S - 2]) : alpha[(Tb - 1) * S + S - 1];
    nll = -end;
  } else if (L == 0) {
    nll = 0;  // empty input and empty target: probability 1
  }
  if (!grad) return nll;
  auto gref = [&](int64_t t, int64_t c) -> T& { return grad[(t * p.N + b) * p.C + c]; };
  if (zero_infinity && std::isinf(nll)) return nll;  // grad stays zero
  if (Tb == 0) return nll;
  std::vector<double> beta(Tb * S, kNegInf), acc(p.C);
  beta[(Tb - 1) * S + S - 1] = lpv(Tb - 1, p.blank);
  if (L > 0) beta[(Tb - 1) * S + S - 2] = lpv(Tb - 1, ext_label(p, b, S - 2));
  for (int64_t t = Tb - 2; t >= 0; --t) {
    for (int64_t s = 0; s < S; ++s) {
      const int64_t l = ext_label(p, b, s);
      double v = beta[(t + 1) * S + s];
      if (s + 1 < S) v = log_add(v, beta[(t + 1) * S + s + 1]);
      if (s % 2 == 1 && s + 2 < S && l != ext_label(p, b, s + 2)) v = log_add(v, beta[(t + 1) * S + s + 2]);
      beta[t * S + s] = v == kNegInf ? kNegInf : v + lpv(t, l);
    }
  }
  for (int64_t t = 0; t < Tb; ++t) {
    std::fill(acc.begin(), acc.end(), kNegInf);
    for (int64_t s = 0; s < S; ++s) {
      const int64_t l = ext_label(p, b, s);
      acc[l] = log_add(acc[l], alpha[t * S + s] + beta[t * S + s]);
    }
    // alpha and beta both include log_probs[t, l], hence the - lp.
    for (int64_t c = 0; c < p.C; ++c) {
      const double lv = lpv(t, c);
      gref(t, c) = static_cast<T>(std::exp(lv) - std::exp(acc[c] + nll - lv));
    }
  }
  return nll;
}

CtcProblem check_ctc(const Tensor& lp, const Tensor& targets, IntArrayRef input_lengths, IntArrayRef target_lengths,
                     int64_t blank) {
  const char* op = "ctc_loss";
  CtcProblem p;
  p.T = lp.size(0);
  p.N = lp.size(1);
  p.C = lp.size(2);
  p.blank = blank;
  EMBER_CHECK(blank >= 0 && blank < p.C, op, ": blank must be in label range [0, ", p.C, "), got ", blank);
  EMBER_CHECK(static_cast<int64_t>(input_lengths.size()) == p.N, op, ": input_lengths must be of size batch_size ", p.N,
              ", got ", input_lengths.size());
  EMBER_CHECK(static_cast<int64_t>(target_lengths.size()) == p.N, op, ": target_lengths must be of size batch_size ",
              p.N, ", got ", target_lengths.size());
  EMBER_CHECK(targets.scalar_type() == kLong || targets.scalar_type() == kInt, op,
              ": targets must be int32 or int64, got ", dtype_name(targets.scalar_type()));
  const Tensor tg = targets.to(kLong).contiguous();
  const int64_t* tp = tg.data_ptr<int64_t>();
  int64_t pos = 0;
  for (int64_t b = 0; b < p.N; ++b) {
    const int64_t il = input_lengths[b], tl = target_lengths[b];
    EMBER_CHECK(il >= 0 && il <= p.T, op, ": Expected input_lengths to have value at most ", p.T, ", but got value ",
                il, " (log_probs ", shape_str(lp.sizes()), ")");
    EMBER_CHECK(tl >= 0, op, ": target_lengths must be non-negative, got ", tl);
    p.in_len.push_back(il);
    p.tg_len.push_back(tl);
    int64_t off;
    if (tg.dim() == 2) {
      EMBER_CHECK(tg.size(0) == p.N, op, ": Expected tensor to have size ", p.N, " at dimension 0, but got size ",
                  tg.size(0), " for argument #2 'targets' (targets of shape ", shape_str(tg.sizes()), ")");
      EMBER_CHECK(tl <= tg.size(1), op, ": Expected tensor to have size at least ", tl,
                  " at dimension 1, but got size ", tg.size(1), " for argument #2 'targets' (targets of shape ",
                  shape_str(tg.sizes()), ")");
      off = b * tg.size(1);
    } else {
      EMBER_CHECK(tg.dim() == 1 && pos + tl <= tg.numel(), op, ": targets ", shape_str(tg.sizes()),
                  " hold fewer labels than the sum of target_lengths");
      off = pos;
      pos += tl;
    }
    p.tg_offset.push_back(static_cast<int64_t>(p.labels.size()));
    for (int64_t i = 0; i < tl; ++i) {
      const int64_t l = tp[off + i];
      EMBER_CHECK(l >= 0 && l < p.C, op, ": target ", l, " is out of range for ", p.C, " classes (targets ",
                  shape_str(tg.sizes()), ")");
      p.labels.push_back(l);
    }
  }
  EMBER_CHECK(tg.dim() == 2 || pos == tg.numel(), op, ": concatenated targets ", shape_str(tg.sizes()),
              " must hold exactly sum(target_lengths) = ", pos, " labels");
  return p;
}

}  // namespace

Tensor ctc_loss(const Tensor& log_probs_in, const Tensor& targets_in, IntArrayRef input_lengths,
                IntArrayRef target_lengths, int64_t blank, int64_t reduction, bool zero_infinity) {
  if (batching::any_batched(log_probs_in, targets_in)) [[unlikely]]
    return batching::ctc_loss_batched(log_probs_in, targets_in, input_lengths, target_lengths, blank, reduction,
                                      zero_infinity);
  EMBER_RECORD_OP("ctc_loss", log_probs_in, targets_in);
  // Unbatched [T, C] log_probs take 1-D targets as the (single) concatenated target.
  const char* op = "ctc_loss";
  EMBER_CHECK(log_probs_in.defined() && targets_in.defined(), op, ": expected defined log_probs and targets");
  EMBER_CHECK(log_probs_in.dim() == 3 || log_probs_in.dim() == 2, op, ": log_probs must be [T, N, C] or [T, C], got ",
              shape_str(log_probs_in.sizes()));
  const ScalarType st = log_probs_in.scalar_type();
  EMBER_CHECK(st == kFloat || st == kDouble, op, ": log_probs must be float32 or float64, got ", dtype_name(st));
  EMBER_CHECK(reduction >= Reduction::None && reduction < Reduction::END, op,
              ": reduction must be 0 (None), 1 (Mean) or 2 (Sum), got ", reduction);
  const bool unbatched = log_probs_in.dim() == 2;
  const Tensor lp = unbatched ? log_probs_in.unsqueeze(1) : log_probs_in;  // keeps the graph
  const CtcProblem p = check_ctc(lp, targets_in, input_lengths, target_lengths, blank);
  const bool want_grad = autograd::needs_grad(lp);
  Tensor nll = empty({p.N}, lp.options());
  Tensor raw_grad;
  {
    autograd::BelowAutogradGuard no_grad;
    const Tensor x = lp.contiguous();
    if (want_grad) raw_grad = zeros(lp.sizes(), lp.options());
    auto run = [&](auto tag) {
      using T = EMBER_TYPE(tag);
      const T* xp = x.data_ptr<T>();
      T* np = nll.data_ptr<T>();
      T* gp = want_grad ? raw_grad.data_ptr<T>() : nullptr;
      parallel_for(0, p.N, 1, [&](int64_t b0, int64_t b1) {
        for (int64_t b = b0; b < b1; ++b) np[b] = static_cast<T>(ctc_one<T>(p, xp, b, gp, zero_infinity));
      });
    };
    if (st == kFloat)
      run(TypeTag<float>{});
    else
      run(TypeTag<double>{});
  }
  if (want_grad) autograd::record_ctc_loss(lp, raw_grad, nll);
  Tensor res = nll;
  if (zero_infinity) res = where(isinf(res), zeros_like(res), res);
  if (reduction == Reduction::Mean) {
    const Tensor lens =
        tensor(std::vector<int64_t>(target_lengths.begin(), target_lengths.end())).clamp_min(1).to(res.scalar_type());
    return (res / lens).mean();
  }
  if (reduction == Reduction::Sum) return res.sum();
  return unbatched ? res.squeeze(0) : res;
}

Tensor ctc_loss(const Tensor& log_probs, const Tensor& targets, const Tensor& input_lengths,
                const Tensor& target_lengths, int64_t blank, int64_t reduction, bool zero_infinity) {
  // Per-sample lengths: one kernel call per sample (the lengths are read as integers).
  if (batching::any_batched(input_lengths, target_lengths)) [[unlikely]]
    return batching::per_sample_loop(
        {&log_probs, &targets, &input_lengths, &target_lengths}, "ctc_loss", [&](const std::vector<Tensor>& a) {
          return std::vector<Tensor>{ctc_loss(a[0], a[1], a[2], a[3], blank, reduction, zero_infinity)};
        })[0];
  // Shared lengths: the IntArrayRef form below takes batched log_probs and targets.
  EMBER_RECORD_COMPOSITE_OP("ctc_loss", log_probs, targets, input_lengths, target_lengths);
  EMBER_CHECK(input_lengths.defined() && target_lengths.defined(), "ctc_loss: expected defined lengths");
  EMBER_CHECK(!is_floating_point(input_lengths.scalar_type()) && !is_complex(input_lengths.scalar_type()),
              "ctc_loss: input_lengths must be integral, got ", dtype_name(input_lengths.scalar_type()));
  EMBER_CHECK(!is_floating_point(target_lengths.scalar_type()) && !is_complex(target_lengths.scalar_type()),
              "ctc_loss: target_lengths must be integral, got ", dtype_name(target_lengths.scalar_type()));
  const Tensor il = input_lengths.to(kLong).contiguous().reshape({-1});
  const Tensor tl = target_lengths.to(kLong).contiguous().reshape({-1});
  const std::vector<int64_t> ilv(il.data_ptr<int64_t>(), il.data_ptr<int64_t>() + il.numel());
  const std::vector<int64_t> tlv(tl.data_ptr<int64_t>(), tl.data_ptr<int64_t>() + tl.numel());
  return ctc_loss(log_probs, targets, ilv, tlv, blank, reduction, zero_infinity);
}

}  // namespace torch
