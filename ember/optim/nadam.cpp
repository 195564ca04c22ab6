#include "ember/optim/nadam.h"

#include <cmath>

#include "ember/autograd/grad_mode.h"
#include "ember/core/error.h"
#include "ember/ops/all_ops.h"
#include "ember/ops/factory/factory.h"
#include "ember/optim/adam.h"

namespace torch::optim {

NAdamOptions::NAdamOptions(double lr) : lr_(lr) {}

void NAdamOptions::visit(StateVisitor& v) {
  v.real("lr", lr_);
  v.real("beta1", std::get<0>(betas_));
  v.real("beta2", std::get<1>(betas_));
  v.real("eps", eps_);
  v.real("weight_decay", weight_decay_);
  v.real("momentum_decay", momentum_decay_);
}

void NAdamParamState::visit(StateVisitor& v) {
  v.integer("step", step_);
  v.real("mu_product", mu_product_);
  v.tensor("exp_avg", exp_avg_);
  v.tensor("exp_avg_sq", exp_avg_sq_);
}

namespace {
std::unique_ptr<OptimizerOptions> checked(const NAdamOptions& o) {
  detail::check_adam_options("NAdam", o.lr(), o.eps(), o.betas(), o.weight_decay());
  EMBER_CHECK(o.momentum_decay() >= 0, "NAdam: Invalid momentum_decay value: ", o.momentum_decay());
  return std::make_unique<NAdamOptions>(o);
}

// Note [NAdam mu_product]
// PyTorch 1.13 keeps mu_product in a 0-dim tensor of the default dtype (float32
// unless set otherwise) whatever the parameters' dtype, and multiplies it by
// Python floats (rounded to that dtype first). The step sizes depend on it, so
// we round the same way to reproduce its values.
double round_to(double x, bool wide) { return wide ? x : static_cast<double>(static_cast<float>(x)); }
}  // namespace

NAdam::NAdam(std::vector<OptimizerParamGroup> param_groups, NAdamOptions defaults)
    : Optimizer(std::move(param_groups), checked(defaults)) {}

NAdam::NAdam(std::vector<Tensor> params, NAdamOptions defaults)
    : NAdam(std::vector<OptimizerParamGroup>{OptimizerParamGroup(std::move(params))}, std::move(defaults)) {}

Tensor NAdam::step(LossClosure closure) {
  NoGradGuard no_grad;
  Tensor loss = evaluate_closure(closure);
  for (auto& group : param_groups_) {
    const auto& o = static_cast<const NAdamOptions&>(group.options());
    const auto [beta1, beta2] = o.betas();
    for (auto& p : group.params()) {
      const Tensor& g = p.grad();
      if (!g.defined()) continue;
      auto& st = state_for<NAdamParamState>(p, [&](NAdamParamState& s) {
        s.exp_avg(zeros_like(p));
        s.exp_avg_sq(zeros_like(p));
      });
      st.step(st.step() + 1);
      const auto step = static_cast<double>(st.step());
      const double bias_correction2 = 1 - std::pow(beta2, step);
      const Tensor grad = o.weight_decay() != 0 ? g.add(p, o.weight_decay()) : g;
      const double mu = beta1 * (1. - 0.5 * std::pow(0.96, step * o.momentum_decay()));
      const double mu_next = beta1 * (1. - 0.5 * std::pow(0.96, (step + 1) * o.momentum_decay()));
      const bool wide = get_default_dtype() == kDouble;
      const auto r = [wide](double x) { return round_to(x, wide); };
      st.mu_product(r(r(st.mu_product()) * r(mu)));
      const double mu_product_next = r(r(st.mu_product() * r(mu)) * r(mu_next));
      st.exp_avg().mul_(beta1).add_(grad, 1 - beta1);
      st.exp_avg_sq().mul_(beta2).addcmul_(grad, grad, 1 - beta2);
      Tensor denom = st.exp_avg_sq().div(bias_correction2).sqrt().add_(o.eps());
      p.addcdiv_(grad, denom, -o.lr() * (1. - mu) / (1. - st.mu_product()));
      p.addcdiv_(st.exp_avg(), denom, -o.lr() * mu_next / (1. - mu_product_next));
    }
  }
  return loss;
}

std::unique_ptr<OptimizerParamState> NAdam::make_param_state() const { return std::make_unique<NAdamParamState>(); }

}  // namespace torch::optim
