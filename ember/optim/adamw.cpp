#include "ember/optim/adamw.h"

#include "ember/autograd/grad_mode.h"
#include "ember/core/error.h"
#include "ember/ops/all_ops.h"
#include "ember/ops/factory/factory.h"

namespace torch::optim {

AdamWOptions::AdamWOptions(double lr) : lr_(lr) {}

void AdamWOptions::visit(StateVisitor& v) {
  v.real("lr", lr_);
  v.real("beta1", std::get<0>(betas_));
  v.real("beta2", std::get<1>(betas_));
  v.real("eps", eps_);
  v.real("weight_decay", weight_decay_);
  v.flag("amsgrad", amsgrad_);
}

namespace {
std::unique_ptr<OptimizerOptions> checked(const AdamWOptions& o) {
  detail::check_adam_options("AdamW", o.lr(), o.eps(), o.betas(), o.weight_decay());
  return std::make_unique<AdamWOptions>(o);
}
}  // namespace

AdamW::AdamW(std::vector<OptimizerParamGroup> param_groups, AdamWOptions defaults)
    : Optimizer(std::move(param_groups), checked(defaults)) {}

AdamW::AdamW(std::vector<Tensor> params, AdamWOptions defaults)
    : AdamW(std::vector<OptimizerParamGroup>{OptimizerParamGroup(std::move(params))}, std::move(defaults)) {}

Tensor AdamW::step(LossClosure closure) {
  NoGradGuard no_grad;
  Tensor loss = evaluate_closure(closure);
  for (auto& group : param_groups_) {
    const auto& o = static_cast<const AdamWOptions&>(group.options());
    for (auto& p : group.params()) {
      const Tensor& g = p.grad();
      if (!g.defined()) continue;
      auto& st = state_for<AdamParamState>(p, [&](AdamParamState& s) { detail::init_adam_state(s, p, o.amsgrad()); });
      st.step(st.step() + 1);
      p.mul_(1 - o.lr() * o.weight_decay());  // decoupled decay, before the moment update
      detail::adam_update(p, g, st, o.lr(), std::get<0>(o.betas()), std::get<1>(o.betas()), o.eps(), o.amsgrad());
    }
  }
  return loss;
}

std::unique_ptr<OptimizerParamState> AdamW::make_param_state() const { return std::make_unique<AdamWParamState>(); }

}  // namespace torch::optim
