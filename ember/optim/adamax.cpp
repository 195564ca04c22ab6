#include "ember/optim/adamax.h"

#include <cmath>

#include "ember/autograd/grad_mode.h"
#include "ember/core/error.h"
#include "ember/ops/all_ops.h"
#include "ember/ops/factory/factory.h"
#include "ember/optim/adam.h"

namespace torch::optim {

AdamaxOptions::AdamaxOptions(double lr) : lr_(lr) {}

void AdamaxOptions::visit(StateVisitor& v) {
  v.real("lr", lr_);
  v.real("beta1", std::get<0>(betas_));
  v.real("beta2", std::get<1>(betas_));
  v.real("eps", eps_);
  v.real("weight_decay", weight_decay_);
}

void AdamaxParamState::visit(StateVisitor& v) {
  v.integer("step", step_);
  v.tensor("exp_avg", exp_avg_);
  v.tensor("exp_inf", exp_inf_);
}

namespace {
std::unique_ptr<OptimizerOptions> checked(const AdamaxOptions& o) {
  detail::check_adam_options("Adamax", o.lr(), o.eps(), o.betas(), o.weight_decay());
  return std::make_unique<AdamaxOptions>(o);
}
}  // namespace

Adamax::Adamax(std::vector<OptimizerParamGroup> param_groups, AdamaxOptions defaults)
    : Optimizer(std::move(param_groups), checked(defaults)) {}

Adamax::Adamax(std::vector<Tensor> params, AdamaxOptions defaults)
    : Adamax(std::vector<OptimizerParamGroup>{OptimizerParamGroup(std::move(params))}, std::move(defaults)) {}

Tensor Adamax::step(LossClosure closure) {
  NoGradGuard no_grad;
  Tensor loss = evaluate_closure(closure);
  for (auto& group : param_groups_) {
    const auto& o = static_cast<const AdamaxOptions&>(group.options());
    const auto [beta1, beta2] = o.betas();
    for (auto& p : group.params()) {
      const Tensor& g = p.grad();
      if (!g.defined()) continue;
      auto& st = state_for<AdamaxParamState>(p, [&](AdamaxParamState& s) {
        s.exp_avg(zeros_like(p));
        s.exp_inf(zeros_like(p));
      });
      st.step(st.step() + 1);
      const Tensor grad = o.weight_decay() != 0 ? g.add(p, o.weight_decay()) : g;
      st.exp_avg().mul_(beta1).add_(grad, 1 - beta1);
      // PyTorch takes amax over stack(exp_inf * beta2, |grad| + eps): the same
      // values (NaN included) as an elementwise maximum, without the copy.
      Tensor& exp_inf = st.exp_inf();
      exp_inf.mul_(beta2);
      maximum_out(exp_inf, exp_inf, grad.abs().add_(o.eps()));
      const double clr = o.lr() / (1 - std::pow(beta1, static_cast<double>(st.step())));
      p.addcdiv_(st.exp_avg(), exp_inf, -clr);
    }
  }
  return loss;
}

std::unique_ptr<OptimizerParamState> Adamax::make_param_state() const { return std::make_unique<AdamaxParamState>(); }

}  // namespace torch::optim
