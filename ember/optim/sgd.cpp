#include "ember/optim/sgd.h"

#include "ember/autograd/grad_mode.h"
#include "ember/core/error.h"
#include "ember/ops/all_ops.h"
#include "ember/ops/factory/factory.h"

namespace torch::optim {

SGDOptions::SGDOptions(double lr) : lr_(lr) {}

void SGDOptions::visit(StateVisitor& v) {
  v.real("lr", lr_);
  v.real("momentum", momentum_);
  v.real("dampening", dampening_);
  v.real("weight_decay", weight_decay_);
  v.flag("nesterov", nesterov_);
}

namespace {
std::unique_ptr<OptimizerOptions> checked(const SGDOptions& o) {
  EMBER_CHECK(o.lr() >= 0, "SGD: Invalid learning rate: ", o.lr());
  EMBER_CHECK(o.momentum() >= 0, "SGD: Invalid momentum value: ", o.momentum());
  EMBER_CHECK(o.weight_decay() >= 0, "SGD: Invalid weight_decay value: ", o.weight_decay());
  EMBER_CHECK(!o.nesterov() || (o.momentum() > 0 && o.dampening() == 0),
              "SGD: Nesterov momentum requires a momentum and zero dampening");
  return std::make_unique<SGDOptions>(o);
}
}  // namespace

SGD::SGD(std::vector<OptimizerParamGroup> param_groups, SGDOptions defaults)
    : Optimizer(std::move(param_groups), checked(defaults)) {}

SGD::SGD(std::vector<Tensor> params, SGDOptions defaults)
    : SGD(std::vector<OptimizerParamGroup>{OptimizerParamGroup(std::move(params))}, std::move(defaults)) {}

Tensor SGD::step(LossClosure closure) {
  NoGradGuard no_grad;
  Tensor loss = evaluate_closure(closure);
  for (auto& group : param_groups_) {
    const auto& o = static_cast<const SGDOptions&>(group.options());
    for (auto& p : group.params()) {
      const Tensor& grad = p.grad();
      if (!grad.defined()) continue;
      Tensor d_p = grad;
      if (o.weight_decay() != 0) d_p = d_p.add(p, o.weight_decay());
      if (o.momentum() != 0) {
        auto& st = state_for<SGDParamState>(p, [](SGDParamState&) {});
        Tensor& buf = st.momentum_buffer();
        if (!buf.defined()) {
          buf = d_p.clone().detach();
        } else {
          buf.mul_(o.momentum()).add_(d_p, 1 - o.dampening());
        }
        d_p = o.nesterov() ? d_p.add(buf, o.momentum()) : buf;
      }
      p.add_(d_p, -o.lr());
    }
  }
  return loss;
}

std::unique_ptr<OptimizerParamState> SGD::make_param_state() const { return std::make_unique<SGDParamState>(); }

}  // namespace torch::optim
