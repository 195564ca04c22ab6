#include "ember/optim/rmsprop.h"

#include "ember/autograd/grad_mode.h"
#include "ember/core/error.h"
#include "ember/ops/all_ops.h"
#include "ember/ops/factory/factory.h"

namespace torch::optim {

RMSpropOptions::RMSpropOptions(double lr) : lr_(lr) {}

void RMSpropOptions::visit(StateVisitor& v) {
  v.real("lr", lr_);
  v.real("alpha", alpha_);
  v.real("eps", eps_);
  v.real("weight_decay", weight_decay_);
  v.real("momentum", momentum_);
  v.flag("centered", centered_);
}

void RMSpropParamState::visit(StateVisitor& v) {
  v.integer("step", step_);
  v.tensor("square_avg", square_avg_);
  v.tensor("momentum_buffer", momentum_buffer_);
  v.tensor("grad_avg", grad_avg_);
}

namespace {
std::unique_ptr<OptimizerOptions> checked(const RMSpropOptions& o) {
  EMBER_CHECK(o.lr() >= 0, "RMSprop: Invalid learning rate: ", o.lr());
  EMBER_CHECK(o.eps() >= 0, "RMSprop: Invalid epsilon value: ", o.eps());
  EMBER_CHECK(o.momentum() >= 0, "RMSprop: Invalid momentum value: ", o.momentum());
  EMBER_CHECK(o.weight_decay() >= 0, "RMSprop: Invalid weight_decay value: ", o.weight_decay());
  EMBER_CHECK(o.alpha() >= 0, "RMSprop: Invalid alpha value: ", o.alpha());
  return std::make_unique<RMSpropOptions>(o);
}
}  // namespace

RMSprop::RMSprop(std::vector<OptimizerParamGroup> param_groups, RMSpropOptions defaults)
    : Optimizer(std::move(param_groups), checked(defaults)) {}

RMSprop::RMSprop(std::vector<Tensor> params, RMSpropOptions defaults)
    : RMSprop(std::vector<OptimizerParamGroup>{OptimizerParamGroup(std::move(params))}, std::move(defaults)) {}

Tensor RMSprop::step(LossClosure closure) {
  NoGradGuard no_grad;
  Tensor loss = evaluate_closure(closure);
  for (auto& group : param_groups_) {
    const auto& o = static_cast<const RMSpropOptions&>(group.options());
    for (auto& p : group.params()) {
      const Tensor& g = p.grad();
      if (!g.defined()) continue;
      auto& st = state_for<RMSpropParamState>(p, [&](RMSpropParamState& s) { s.square_avg(zeros_like(p)); });
      st.step(st.step() + 1);
      const Tensor grad = o.weight_decay() != 0 ? g.add(p, o.weight_decay()) : g;
      Tensor& square_avg = st.square_avg();
      square_avg.mul_(o.alpha()).addcmul_(grad, grad, 1 - o.alpha());
      Tensor avg;
      if (o.centered()) {
        if (!st.grad_avg().defined()) st.grad_avg(zeros_like(p));
        Tensor& grad_avg = st.grad_avg();
        grad_avg.mul_(o.alpha()).add_(grad, 1 - o.alpha());
        avg = square_avg.addcmul(grad_avg, grad_avg, -1).sqrt_();
      } else {
        avg = square_avg.sqrt();
      }
      avg.add_(o.eps());
      if (o.momentum() > 0) {
        if (!st.momentum_buffer().defined()) st.momentum_buffer(zeros_like(p));
        Tensor& buf = st.momentum_buffer();
        buf.mul_(o.momentum()).addcdiv_(grad, avg);
        p.add_(buf, -o.lr());
      } else {
        p.addcdiv_(grad, avg, -o.lr());
      }
    }
  }
  return loss;
}

std::unique_ptr<OptimizerParamState> RMSprop::make_param_state() const { return std::make_unique<RMSpropParamState>(); }

}  // namespace torch::optim
