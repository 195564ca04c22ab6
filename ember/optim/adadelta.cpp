#include "ember/optim/adadelta.h"

#include "ember/autograd/grad_mode.h"
#include "ember/core/error.h"
#include "ember/ops/all_ops.h"
#include "ember/ops/factory/factory.h"

namespace torch::optim {

AdadeltaOptions::AdadeltaOptions(double lr) : lr_(lr) {}

void AdadeltaOptions::visit(StateVisitor& v) {
  v.real("lr", lr_);
  v.real("rho", rho_);
  v.real("eps", eps_);
  v.real("weight_decay", weight_decay_);
}

void AdadeltaParamState::visit(StateVisitor& v) {
  v.integer("step", step_);
  v.tensor("square_avg", square_avg_);
  v.tensor("acc_delta", acc_delta_);
}

namespace {
std::unique_ptr<OptimizerOptions> checked(const AdadeltaOptions& o) {
  EMBER_CHECK(o.lr() >= 0, "Adadelta: Invalid learning rate: ", o.lr());
  EMBER_CHECK(0 <= o.rho() && o.rho() <= 1, "Adadelta: Invalid rho value: ", o.rho());
  EMBER_CHECK(o.eps() >= 0, "Adadelta: Invalid epsilon value: ", o.eps());
  EMBER_CHECK(o.weight_decay() >= 0, "Adadelta: Invalid weight_decay value: ", o.weight_decay());
  return std::make_unique<AdadeltaOptions>(o);
}
}  // namespace

Adadelta::Adadelta(std::vector<OptimizerParamGroup> param_groups, AdadeltaOptions defaults)
    : Optimizer(std::move(param_groups), checked(defaults)) {}

Adadelta::Adadelta(std::vector<Tensor> params, AdadeltaOptions defaults)
    : Adadelta(std::vector<OptimizerParamGroup>{OptimizerParamGroup(std::move(params))}, std::move(defaults)) {}

Tensor Adadelta::step(LossClosure closure) {
  NoGradGuard no_grad;
  Tensor loss = evaluate_closure(closure);
  for (auto& group : param_groups_) {
    const auto& o = static_cast<const AdadeltaOptions&>(group.options());
    for (auto& p : group.params()) {
      const Tensor& g = p.grad();
      if (!g.defined()) continue;
      auto& st = state_for<AdadeltaParamState>(p, [&](AdadeltaParamState& s) {
        s.square_avg(zeros_like(p));
        s.acc_delta(zeros_like(p));
      });
      st.step(st.step() + 1);
      const Tensor grad = o.weight_decay() != 0 ? g.add(p, o.weight_decay()) : g;
      st.square_avg().mul_(o.rho()).addcmul_(grad, grad, 1 - o.rho());
      Tensor std = st.square_avg().add(o.eps()).sqrt_();
      Tensor delta = st.acc_delta().add(o.eps()).sqrt_().div_(std).mul_(grad);
      st.acc_delta().mul_(o.rho()).addcmul_(delta, delta, 1 - o.rho());
      p.add_(delta, -o.lr());
    }
  }
  return loss;
}

std::unique_ptr<OptimizerParamState> Adadelta::make_param_state() const {
  return std::make_unique<AdadeltaParamState>();
}

}  // namespace torch::optim
