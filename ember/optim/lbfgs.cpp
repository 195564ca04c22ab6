#include "ember/optim/lbfgs.h"

#include <algorithm>
#include <cmath>

#include "ember/autograd/grad_mode.h"
#include "ember/core/error.h"
#include "ember/ops/all_ops.h"
#include "ember/ops/factory/factory.h"

namespace torch::optim {

LBFGSOptions::LBFGSOptions(double lr) : lr_(lr) {}

void LBFGSOptions::visit(StateVisitor& v) {
  v.real("lr", lr_);
  v.integer("max_iter", max_iter_);
  int64_t max_eval = max_eval_.value_or(-1);  // -1: not set
  v.integer("max_eval", max_eval);
  max_eval_ = max_eval < 0 ? std::nullopt : std::optional<int64_t>(max_eval);
  v.real("tolerance_grad", tolerance_grad_);
  v.real("tolerance_change", tolerance_change_);
  v.integer("history_size", history_size_);
  std::string fn = line_search_fn_.value_or("");  // "": none
  v.text("line_search_fn", fn);
  line_search_fn_ = fn.empty() ? std::nullopt : std::optional<std::string>(fn);
}

void LBFGSParamState::visit(StateVisitor& v) {
  v.integer("func_evals", func_evals_);
  v.integer("n_iter", n_iter_);
  v.real("t", t_);
  v.real("prev_loss", prev_loss_);
  v.tensor("d", d_);
  v.tensor("H_diag", H_diag_);
  v.tensor("prev_flat_grad", prev_flat_grad_);
  v.tensors("old_dirs", old_dirs_);
  v.tensors("old_stps", old_stps_);
  v.tensors("ro", ro_);
}

namespace {

// Python's max(a, b) / min(a, b): the first argument unless the second
// compares strictly greater / smaller (this fixes what a NaN yields).
double py_max(double a, double b) { return b > a ? b : a; }
double py_min(double a, double b) { return b < a ? b : a; }

// Minimiser of the cubic through (x1, f1, g1) and (x2, f2, g2), clamped to the
// bounds (the interval between the points by default); ported from PyTorch.
double cubic_interpolate(double x1, double f1, double g1, double x2, double f2, double g2,
                         std::optional<std::pair<double, double>> bounds = std::nullopt) {
  double xmin_bound = 0, xmax_bound = 0;
  if (bounds) {
    std::tie(xmin_bound, xmax_bound) = *bounds;
  } else if (x1 <= x2) {
    xmin_bound = x1, xmax_bound = x2;
  } else {
    xmin_bound = x2, xmax_bound = x1;
  }
  const double d1 = g1 + g2 - 3 * (f1 - f2) / (x1 - x2);
  const double d2_square = d1 * d1 - g1 * g2;
  if (d2_square >= 0) {
    const double d2 = std::sqrt(d2_square);
    double min_pos = 0;
    if (x1 <= x2) {
      min_pos = x2 - (x2 - x1) * ((g2 + d2 - d1) / (g2 - g1 + 2 * d2));
    } else {
      min_pos = x1 - (x1 - x2) * ((g1 + d2 - d1) / (g1 - g2 + 2 * d2));
    }
    return py_min(py_max(min_pos, xmin_bound), xmax_bound);
  }
  return (xmin_bound + xmax_bound) / 2.;
}

struct LineSearchResult {
  double f;
  Tensor g;
  double t;
  int64_t func_evals;
};

using ObjFunc = std::function<std::pair<double, Tensor>(const std::vector<Tensor>&, double, const Tensor&)>;

double dot_value(const Tensor& a, const Tensor& b) { return a.dot(b).item<double>(); }

// Line search for a step satisfying the strong Wolfe conditions: bracketing,
// then zoom; a line-by-line port of PyTorch's _strong_wolfe.
LineSearchResult strong_wolfe(const ObjFunc& obj_func, const std::vector<Tensor>& x, double t, const Tensor& d,
                              double f, Tensor g, double gtd, double c1 = 1e-4, double c2 = 0.9,
                              double tolerance_change = 1e-9, int64_t max_ls = 25) {
  const double d_norm = d.abs().max().item<double>();
  g = g.clone();
  auto [f_new, g_new] = obj_func(x, t, d);
  int64_t ls_func_evals = 1;
  double gtd_new = dot_value(g_new, d);

  double t_prev = 0, f_prev = f, gtd_prev = gtd;
  Tensor g_prev = g;
  bool done = false;
  int64_t ls_iter = 0;
  std::vector<double> bracket, bracket_f, bracket_gtd;
  std::vector<Tensor> bracket_g;
  while (ls_iter < max_ls) {
    if (f_new > (f + c1 * t * gtd) || (ls_iter > 1 && f_new >= f_prev)) {
      bracket = {t_prev, t};
      bracket_f = {f_prev, f_new};
      bracket_g = {g_prev, g_new.clone()};
      bracket_gtd = {gtd_prev, gtd_new};
      break;
    }
    if (std::abs(gtd_new) <= -c2 * gtd) {
      bracket = {t};
      bracket_f = {f_new};
      bracket_g = {g_new};
      done = true;
      break;
    }
    if (gtd_new >= 0) {
      bracket = {t_prev, t};
      bracket_f = {f_prev, f_new};
      bracket_g = {g_prev, g_new.clone()};
      bracket_gtd = {gtd_prev, gtd_new};
      break;
    }
    // interpolate
    const double min_step = t + 0.01 * (t - t_prev);
    const double max_step = t * 10;
    const double tmp = t;
    t = cubic_interpolate(t_prev, f_prev, gtd_prev, t, f_new, gtd_new, std::make_pair(min_step, max_step));
    t_prev = tmp;
    f_prev = f_new;
    g_prev = g_new.clone();
    gtd_prev = gtd_new;
    std::tie(f_new, g_new) = obj_func(x, t, d);
    ls_func_evals += 1;
    gtd_new = dot_value(g_new, d);
    ls_iter += 1;
  }
  if (ls_iter == max_ls) {
    bracket = {0, t};
    bracket_f = {f, f_new};
    bracket_g = {g, g_new};
  }

  // zoom: refine the bracket until a point satisfies the conditions
  bool insuf_progress = false;
  size_t low_pos = 0, high_pos = 1;
  if (!(bracket_f.front() <= bracket_f.back())) low_pos = 1, high_pos = 0;
  while (!done && ls_iter < max_ls) {
    if (std::abs(bracket[1] - bracket[0]) * d_norm < tolerance_change) break;
    t = cubic_interpolate(bracket[0], bracket_f[0], bracket_gtd[0], bracket[1], bracket_f[1], bracket_gtd[1]);
    // Keep t at least 10% of the bracket away from its ends once progress stalls.
    const double bmax = std::max(bracket[0], bracket[1]);
    const double bmin = std::min(bracket[0], bracket[1]);
    const double eps = 0.1 * (bmax - bmin);
    if (std::min(bmax - t, t - bmin) < eps) {
      if (insuf_progress || t >= bmax || t <= bmin) {
        t = std::abs(t - bmax) < std::abs(t - bmin) ? bmax - eps : bmin + eps;
        insuf_progress = false;
      } else {
        insuf_progress = true;
      }
    } else {
      insuf_progress = false;
    }
    std::tie(f_new, g_new) = obj_func(x, t, d);
    ls_func_evals += 1;
    gtd_new = dot_value(g_new, d);
    ls_iter += 1;
    if (f_new > (f + c1 * t * gtd) || f_new >= bracket_f[low_pos]) {
      // Armijo condition not satisfied or not lower than the lowest point
      bracket[high_pos] = t;
      bracket_f[high_pos] = f_new;
      bracket_g[high_pos] = g_new.clone();
      bracket_gtd[high_pos] = gtd_new;
      if (bracket_f[0] <= bracket_f[1]) {
        low_pos = 0, high_pos = 1;
      } else {
        low_pos = 1, high_pos = 0;
      }
    } else {
      if (std::abs(gtd_new) <= -c2 * gtd) {
        done = true;  // Wolfe conditions satisfied
      } else if (gtd_new * (bracket[high_pos] - bracket[low_pos]) >= 0) {
        // old high becomes new low
        bracket[high_pos] = bracket[low_pos];
        bracket_f[high_pos] = bracket_f[low_pos];
        bracket_g[high_pos] = bracket_g[low_pos];
        bracket_gtd[high_pos] = bracket_gtd[low_pos];
      }
      bracket[low_pos] = t;
      bracket_f[low_pos] = f_new;
      bracket_g[low_pos] = g_new.clone();
      bracket_gtd[low_pos] = gtd_new;
    }
  }
  return {bracket_f[low_pos], bracket_g[low_pos], bracket[low_pos], ls_func_evals};
}

std::unique_ptr<OptimizerOptions> checked(const LBFGSOptions& o) {
  EMBER_CHECK(o.lr() >= 0, "LBFGS: Invalid learning rate: ", o.lr());
  EMBER_CHECK(o.max_iter() > 0, "LBFGS: Invalid max_iter value: ", o.max_iter());
  EMBER_CHECK(o.history_size() > 0, "LBFGS: Invalid history_size value: ", o.history_size());
  EMBER_CHECK(!o.line_search_fn() || *o.line_search_fn() == "strong_wolfe",
              "LBFGS: only 'strong_wolfe' is supported as line_search_fn, got '", o.line_search_fn().value_or(""), "'");
  auto out = std::make_unique<LBFGSOptions>(o);
  if (!out->max_eval()) out->max_eval(o.max_iter() * 5 / 4);
  return out;
}

}  // namespace

LBFGS::LBFGS(std::vector<OptimizerParamGroup> param_groups, LBFGSOptions defaults)
    : Optimizer(std::move(param_groups), checked(defaults)) {
  EMBER_CHECK(param_groups_.size() == 1, "LBFGS doesn't support per-parameter options (parameter groups)");
  auto& o = static_cast<LBFGSOptions&>(param_groups_[0].options());
  if (!o.max_eval()) o.max_eval(o.max_iter() * 5 / 4);
}

LBFGS::LBFGS(std::vector<Tensor> params, LBFGSOptions defaults)
    : LBFGS(std::vector<OptimizerParamGroup>{OptimizerParamGroup(std::move(params))}, std::move(defaults)) {}

int64_t LBFGS::numel() {
  if (!numel_cache_) {
    int64_t n = 0;
    for (const auto& p : param_groups_[0].params()) n += p.numel();
    numel_cache_ = n;
  }
  return *numel_cache_;
}

Tensor LBFGS::gather_flat_grad() {
  std::vector<Tensor> views;
  for (const auto& p : param_groups_[0].params()) {
    views.push_back(p.grad().defined() ? p.grad().reshape({-1}) : zeros({p.numel()}, p.options()));
  }
  return cat(views, 0);
}

void LBFGS::add_grad(double step_size, const Tensor& update) {
  int64_t offset = 0;
  for (auto& p : param_groups_[0].params()) {
    const int64_t n = p.numel();
    p.add_(update.narrow(0, offset, n).view_as(p), step_size);
    offset += n;
  }
  EMBER_INTERNAL_ASSERT(offset == numel());
}

std::vector<Tensor> LBFGS::clone_param() {
  std::vector<Tensor> out;
  for (const auto& p : param_groups_[0].params()) out.push_back(p.clone());
  return out;
}

void LBFGS::set_param(const std::vector<Tensor>& params_data) {
  auto& params = param_groups_[0].params();
  for (size_t i = 0; i < params.size(); ++i) params[i].copy_(params_data[i]);
}

std::pair<double, Tensor> LBFGS::directional_evaluate(const LossClosure& closure, const std::vector<Tensor>& x,
                                                      double t, const Tensor& d) {
  add_grad(t, d);
  const double loss = evaluate_closure(closure).item<double>();
  Tensor flat_grad = gather_flat_grad();
  set_param(x);
  return {loss, flat_grad};
}

Tensor LBFGS::step(LossClosure closure) {
  EMBER_CHECK(closure != nullptr, "LBFGS: step() requires a closure that re-evaluates the loss");
  NoGradGuard no_grad;
  auto& group = param_groups_[0];
  const auto& o = static_cast<const LBFGSOptions&>(group.options());
  const double lr = o.lr();
  const int64_t max_iter = o.max_iter();
  const int64_t max_eval = o.max_eval().value_or(max_iter * 5 / 4);
  const double tolerance_grad = o.tolerance_grad();
  const double tolerance_change = o.tolerance_change();
  const int64_t history_size = o.history_size();
  EMBER_CHECK(!group.params().empty(), "LBFGS: step() called without parameters");

  auto& st = state_for<LBFGSParamState>(group.params()[0], [](LBFGSParamState&) {});

  Tensor orig_loss = evaluate_closure(closure);
  double loss = orig_loss.item<double>();
  int64_t current_evals = 1;
  st.func_evals(st.func_evals() + 1);

  Tensor flat_grad = gather_flat_grad();
  bool opt_cond = flat_grad.abs().max().item<double>() <= tolerance_grad;
  if (opt_cond) return orig_loss;  // already optimal

  Tensor d = st.d();
  double t = st.t();
  auto& old_dirs = st.old_dirs();
  auto& old_stps = st.old_stps();
  auto& ro = st.ro();
  Tensor H_diag = st.H_diag();
  Tensor prev_flat_grad = st.prev_flat_grad();
  double prev_loss = st.prev_loss();

  int64_t n_iter = 0;
  while (n_iter < max_iter) {
    n_iter += 1;
    st.n_iter(st.n_iter() + 1);

    // compute the direction
    if (st.n_iter() == 1) {
      d = flat_grad.neg();
      old_dirs.clear();
      old_stps.clear();
      ro.clear();
      H_diag = ones({}, flat_grad.options());
    } else {
      // update the memory
      Tensor y = flat_grad.sub(prev_flat_grad);
      Tensor s = d.mul(t);
      Tensor ys = y.dot(s);
      if (ys.item<double>() > 1e-10) {
        if (static_cast<int64_t>(old_dirs.size()) == history_size) {
          old_dirs.pop_front();
          old_stps.pop_front();
          ro.pop_front();
        }
        old_dirs.push_back(y);
        old_stps.push_back(s);
        ro.push_back(ys.reciprocal());
        H_diag = ys / y.dot(y);
      }
      // two-loop recursion for the approximate inverse-Hessian product
      const size_t num_old = old_dirs.size();
      if (!st.al()) st.al(std::vector<Tensor>(static_cast<size_t>(history_size)));
      auto& al = *st.al();
      Tensor q = flat_grad.neg();
      for (size_t k = num_old; k-- > 0;) {
        al[k] = old_stps[k].dot(q) * ro[k];
        q.add_(old_dirs[k], -al[k].item<double>());
      }
      Tensor r = q.mul(H_diag);
      for (size_t k = 0; k < num_old; ++k) {
        Tensor be_k = old_dirs[k].dot(r) * ro[k];
        r.add_(old_stps[k], (al[k] - be_k).item<double>());
      }
      d = r;
    }

    if (!prev_flat_grad.defined()) {
      prev_flat_grad = flat_grad.clone();
    } else {
      prev_flat_grad.copy_(flat_grad);
    }
    prev_loss = loss;

    // step length: the first step is scaled by the gradient's size
    if (st.n_iter() == 1) {
      t = std::min(1., 1. / flat_grad.abs().sum().item<double>()) * lr;
    } else {
      t = lr;
    }

    const double gtd = flat_grad.dot(d).item<double>();
    if (gtd > -tolerance_change) break;  // not a descent direction

    int64_t ls_func_evals = 0;
    if (o.line_search_fn()) {
      const std::vector<Tensor> x_init = clone_param();
      const ObjFunc obj_func = [&](const std::vector<Tensor>& x, double tt, const Tensor& dd) {
        return directional_evaluate(closure, x, tt, dd);
      };
      auto res = strong_wolfe(obj_func, x_init, t, d, loss, flat_grad, gtd);
      loss = res.f;
      flat_grad = res.g;
      t = res.t;
      ls_func_evals = res.func_evals;
      add_grad(t, d);
      opt_cond = flat_grad.abs().max().item<double>() <= tolerance_grad;
    } else {
      // fixed step; re-evaluate unless this was the last iteration
      add_grad(t, d);
      if (n_iter != max_iter) {
        loss = evaluate_closure(closure).item<double>();
        flat_grad = gather_flat_grad();
        opt_cond = flat_grad.abs().max().item<double>() <= tolerance_grad;
        ls_func_evals = 1;
      }
    }
    current_evals += ls_func_evals;
    st.func_evals(st.func_evals() + ls_func_evals);

    // stopping conditions
    if (n_iter == max_iter) break;
    if (current_evals >= max_eval) break;
    if (opt_cond) break;
    if (d.mul(t).abs().max().item<double>() <= tolerance_change) break;
    if (std::abs(loss - prev_loss) < tolerance_change) break;
  }

  st.d(d);
  st.t(t);
  st.H_diag(H_diag);
  st.prev_flat_grad(prev_flat_grad);
  st.prev_loss(prev_loss);
  return orig_loss;
}

std::unique_ptr<OptimizerParamState> LBFGS::make_param_state() const { return std::make_unique<LBFGSParamState>(); }

}  // namespace torch::optim
