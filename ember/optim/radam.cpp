#include "ember/optim/radam.h"

#include <cmath>

#include "ember/autograd/grad_mode.h"
#include "ember/core/error.h"
#include "ember/ops/all_ops.h"
#include "ember/ops/factory/factory.h"
#include "ember/optim/adam.h"

namespace torch::optim {

RAdamOptions::RAdamOptions(double lr) : lr_(lr) {}

void RAdamOptions::visit(StateVisitor& v) {
  v.real("lr", lr_);
  v.real("beta1", std::get<0>(betas_));
  v.real("beta2", std::get<1>(betas_));
  v.real("eps", eps_);
  v.real("weight_decay", weight_decay_);
}

void RAdamParamState::visit(StateVisitor& v) {
  v.integer("step", step_);
  v.tensor("exp_avg", exp_avg_);
  v.tensor("exp_avg_sq", exp_avg_sq_);
}

namespace {
std::unique_ptr<OptimizerOptions> checked(const RAdamOptions& o) {
  detail::check_adam_options("RAdam", o.lr(), o.eps(), o.betas(), o.weight_decay());
  return std::make_unique<RAdamOptions>(o);
}
}  // namespace

RAdam::RAdam(std::vector<OptimizerParamGroup> param_groups, RAdamOptions defaults)
    : Optimizer(std::move(param_groups), checked(defaults)) {}

RAdam::RAdam(std::vector<Tensor> params, RAdamOptions defaults)
    : RAdam(std::vector<OptimizerParamGroup>{OptimizerParamGroup(std::move(params))}, std::move(defaults)) {}

Tensor RAdam::step(LossClosure closure) {
  NoGradGuard no_grad;
  Tensor loss = evaluate_closure(closure);
  for (auto& group : param_groups_) {
    const auto& o = static_cast<const RAdamOptions&>(group.options());
    const auto [beta1, beta2] = o.betas();
    for (auto& p : group.params()) {
      const Tensor& g = p.grad();
      if (!g.defined()) continue;
      auto& st = state_for<RAdamParamState>(p, [&](RAdamParamState& s) {
        s.exp_avg(zeros_like(p));
        s.exp_avg_sq(zeros_like(p));
      });
      st.step(st.step() + 1);
      const auto step = static_cast<double>(st.step());
      const double bias_correction1 = 1 - std::pow(beta1, step);
      const double bias_correction2 = 1 - std::pow(beta2, step);
      const Tensor grad = o.weight_decay() != 0 ? g.add(p, o.weight_decay()) : g;
      st.exp_avg().mul_(beta1).add_(grad, 1 - beta1);
      st.exp_avg_sq().mul_(beta2).addcmul_(grad, grad, 1 - beta2);
      Tensor update = st.exp_avg().div(bias_correction1).mul_(o.lr());
      const double rho_inf = 2 / (1 - beta2) - 1;
      const double rho_t = rho_inf - 2 * step * std::pow(beta2, step) / bias_correction2;
      if (rho_t > 5.) {
        const double rect = std::sqrt((rho_t - 4) * (rho_t - 2) * rho_inf / ((rho_inf - 4) * (rho_inf - 2) * rho_t));
        // PyTorch's `scalar / tensor` is reciprocal() * scalar; same rounding here.
        Tensor adaptive_lr = st.exp_avg_sq().sqrt().add_(o.eps()).reciprocal_().mul_(std::sqrt(bias_correction2));
        update.mul_(adaptive_lr).mul_(rect);
      }
      p.add_(update, -1.0);
    }
  }
  return loss;
}

std::unique_ptr<OptimizerParamState> RAdam::make_param_state() const { return std::make_unique<RAdamParamState>(); }

}  // namespace torch::optim
