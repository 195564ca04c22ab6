#include "ember/optim/adagrad.h"

#include "ember/autograd/grad_mode.h"
#include "ember/core/error.h"
#include "ember/ops/all_ops.h"
#include "ember/ops/factory/factory.h"

namespace torch::optim {

AdagradOptions::AdagradOptions(double lr) : lr_(lr) {}

void AdagradOptions::visit(StateVisitor& v) {
  v.real("lr", lr_);
  v.real("lr_decay", lr_decay_);
  v.real("weight_decay", weight_decay_);
  v.real("initial_accumulator_value", initial_accumulator_value_);
  v.real("eps", eps_);
}

void AdagradParamState::visit(StateVisitor& v) {
  v.tensor("sum", sum_);
  v.integer("step", step_);
}

namespace {
std::unique_ptr<OptimizerOptions> checked(const AdagradOptions& o) {
  EMBER_CHECK(o.lr() >= 0, "Adagrad: Invalid learning rate: ", o.lr());
  EMBER_CHECK(o.lr_decay() >= 0, "Adagrad: Invalid lr_decay value: ", o.lr_decay());
  EMBER_CHECK(o.weight_decay() >= 0, "Adagrad: Invalid weight_decay value: ", o.weight_decay());
  EMBER_CHECK(o.initial_accumulator_value() >= 0,
              "Adagrad: Invalid initial_accumulator_value value: ", o.initial_accumulator_value());
  EMBER_CHECK(o.eps() >= 0, "Adagrad: Invalid epsilon value: ", o.eps());
  return std::make_unique<AdagradOptions>(o);
}

void init_state(AdagradParamState& s, const Tensor& p, const AdagradOptions& o) {
  s.sum(full_like(p, o.initial_accumulator_value()));
}
}  // namespace

// As PyTorch and LibTorch, the accumulators exist from construction on.
Adagrad::Adagrad(std::vector<OptimizerParamGroup> param_groups, AdagradOptions defaults)
    : Optimizer(std::move(param_groups), checked(defaults)) {
  for (auto& group : param_groups_) {
    const auto& o = static_cast<const AdagradOptions&>(group.options());
    for (auto& p : group.params()) state_for<AdagradParamState>(p, [&](AdagradParamState& s) { init_state(s, p, o); });
  }
}

Adagrad::Adagrad(std::vector<Tensor> params, AdagradOptions defaults)
    : Adagrad(std::vector<OptimizerParamGroup>{OptimizerParamGroup(std::move(params))}, std::move(defaults)) {}

Tensor Adagrad::step(LossClosure closure) {
  NoGradGuard no_grad;
  Tensor loss = evaluate_closure(closure);
  for (auto& group : param_groups_) {
    const auto& o = static_cast<const AdagradOptions&>(group.options());
    for (auto& p : group.params()) {
      const Tensor& g = p.grad();
      if (!g.defined()) continue;
      auto& st = state_for<AdagradParamState>(p, [&](AdagradParamState& s) { init_state(s, p, o); });
      st.step(st.step() + 1);
      const Tensor grad = o.weight_decay() != 0 ? g.add(p, o.weight_decay()) : g;
      const double clr = o.lr() / (1 + static_cast<double>(st.step() - 1) * o.lr_decay());
      st.sum().addcmul_(grad, grad, 1);
      Tensor std = st.sum().sqrt().add_(o.eps());
      p.addcdiv_(grad, std, -clr);
    }
  }
  return loss;
}

std::unique_ptr<OptimizerParamState> Adagrad::make_param_state() const { return std::make_unique<AdagradParamState>(); }

}  // namespace torch::optim
