#pragma once
// Stochastic gradient descent with momentum, dampening, Nesterov momentum and
// L2 weight decay (torch.optim.SGD).
#include "ember/optim/optimizer.h"

namespace torch::optim {

struct SGDOptions : public OptimizerCloneableOptions<SGDOptions> {
  SGDOptions(double lr);  // NOLINT: implicit, as LibTorch (no default lr)
  EMBER_OPTIM_ARG(double, lr);
  EMBER_OPTIM_ARG(double, momentum) = 0;
  EMBER_OPTIM_ARG(double, dampening) = 0;
  EMBER_OPTIM_ARG(double, weight_decay) = 0;
  EMBER_OPTIM_ARG(bool, nesterov) = false;

 public:
  double get_lr() const override { return lr(); }
  void set_lr(double lr) override { this->lr(lr); }
  void visit(StateVisitor& v) override;
};
EMBER_OPTIM_CLONEABLE_INSTANCE(OptimizerCloneableOptions, SGDOptions);

struct SGDParamState : public OptimizerCloneableParamState<SGDParamState> {
  EMBER_OPTIM_ARG(Tensor, momentum_buffer);

 public:
  void visit(StateVisitor& v) override { v.tensor("momentum_buffer", momentum_buffer_); }
};
EMBER_OPTIM_CLONEABLE_INSTANCE(OptimizerCloneableParamState, SGDParamState);

class SGD : public Optimizer {
 public:
  explicit SGD(std::vector<OptimizerParamGroup> param_groups, SGDOptions defaults);
  explicit SGD(std::vector<Tensor> params, SGDOptions defaults);
  Tensor step(LossClosure closure = nullptr) override;
  std::unique_ptr<OptimizerParamState> make_param_state() const override;
};

}  // namespace torch::optim
