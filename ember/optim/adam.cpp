#include "ember/optim/adam.h"

#include <cmath>

#include "ember/autograd/grad_mode.h"
#include "ember/core/error.h"
#include "ember/ops/all_ops.h"
#include "ember/ops/factory/factory.h"
#include "ember/optim/adam_kernel.h"

namespace torch::optim {

AdamOptions::AdamOptions(double lr) : lr_(lr) {}

void AdamOptions::visit(StateVisitor& v) {
  v.real("lr", lr_);
  v.real("beta1", std::get<0>(betas_));
  v.real("beta2", std::get<1>(betas_));
  v.real("eps", eps_);
  v.real("weight_decay", weight_decay_);
  v.flag("amsgrad", amsgrad_);
}

void AdamParamState::visit(StateVisitor& v) {
  v.integer("step", step_);
  v.tensor("exp_avg", exp_avg_);
  v.tensor("exp_avg_sq", exp_avg_sq_);
  v.tensor("max_exp_avg_sq", max_exp_avg_sq_);
}

namespace detail {

void check_adam_options(const char* name, double lr, double eps, const std::tuple<double, double>& betas,
                        double weight_decay) {
  EMBER_CHECK(lr >= 0, name, ": Invalid learning rate: ", lr);
  EMBER_CHECK(eps >= 0, name, ": Invalid epsilon value: ", eps);
  EMBER_CHECK(0 <= std::get<0>(betas) && std::get<0>(betas) < 1.0, name,
              ": Invalid beta parameter at index 0: ", std::get<0>(betas));
  EMBER_CHECK(0 <= std::get<1>(betas) && std::get<1>(betas) < 1.0, name,
              ": Invalid beta parameter at index 1: ", std::get<1>(betas));
  EMBER_CHECK(weight_decay >= 0, name, ": Invalid weight_decay value: ", weight_decay);
}

void init_adam_state(AdamParamState& st, const Tensor& p, bool amsgrad) {
  st.exp_avg(zeros_like(p));
  st.exp_avg_sq(zeros_like(p));
  if (amsgrad) st.max_exp_avg_sq(zeros_like(p));
}

void adam_update(Tensor& p, const Tensor& grad, AdamParamState& st, double lr, double beta1, double beta2, double eps,
                 bool amsgrad) {
  Tensor& exp_avg = st.exp_avg();
  Tensor& exp_avg_sq = st.exp_avg_sq();
  const auto step = static_cast<double>(st.step());
  const double bias_correction1 = 1 - std::pow(beta1, step);
  const double bias_correction2 = 1 - std::pow(beta2, step);
  const double step_size = lr / bias_correction1;
  const double bias_correction2_sqrt = std::sqrt(bias_correction2);
  if (amsgrad && !st.max_exp_avg_sq().defined()) st.max_exp_avg_sq(zeros_like(p));  // amsgrad switched on mid-run
  const AdamCoefficients c{beta1, beta2, eps, step_size, bias_correction2_sqrt};
  if (adam_update_fused(p, grad, exp_avg, exp_avg_sq, amsgrad ? st.max_exp_avg_sq() : Tensor(), c)) return;

  exp_avg.mul_(beta1).add_(grad, 1 - beta1);
  exp_avg_sq.mul_(beta2).addcmul_(grad, grad, 1 - beta2);

  Tensor denom;
  if (amsgrad) {
    Tensor& max_sq = st.max_exp_avg_sq();
    maximum_out(max_sq, max_sq, exp_avg_sq);
    denom = max_sq.sqrt().div_(bias_correction2_sqrt).add_(eps);
  } else {
    denom = exp_avg_sq.sqrt().div_(bias_correction2_sqrt).add_(eps);
  }
  p.addcdiv_(exp_avg, denom, -step_size);
}

}  // namespace detail

namespace {
std::unique_ptr<OptimizerOptions> checked(const AdamOptions& o) {
  detail::check_adam_options("Adam", o.lr(), o.eps(), o.betas(), o.weight_decay());
  return std::make_unique<AdamOptions>(o);
}
}  // namespace

Adam::Adam(std::vector<OptimizerParamGroup> param_groups, AdamOptions defaults)
    : Optimizer(std::move(param_groups), checked(defaults)) {}

Adam::Adam(std::vector<Tensor> params, AdamOptions defaults)
    : Adam(std::vector<OptimizerParamGroup>{OptimizerParamGroup(std::move(params))}, std::move(defaults)) {}

Tensor Adam::step(LossClosure closure) {
  NoGradGuard no_grad;
  Tensor loss = evaluate_closure(closure);
  for (auto& group : param_groups_) {
    const auto& o = static_cast<const AdamOptions&>(group.options());
    for (auto& p : group.params()) {
      const Tensor& g = p.grad();
      if (!g.defined()) continue;
      auto& st = state_for<AdamParamState>(p, [&](AdamParamState& s) { detail::init_adam_state(s, p, o.amsgrad()); });
      st.step(st.step() + 1);
      const Tensor grad = o.weight_decay() != 0 ? g.add(p, o.weight_decay()) : g;
      detail::adam_update(p, grad, st, o.lr(), std::get<0>(o.betas()), std::get<1>(o.betas()), o.eps(), o.amsgrad());
    }
  }
  return loss;
}

std::unique_ptr<OptimizerParamState> Adam::make_param_state() const { return std::make_unique<AdamParamState>(); }

}  // namespace torch::optim
