#pragma once
// RMSprop (torch.optim.RMSprop): eps is added outside the square root; the
// centered variant normalises by the variance estimate.
#include "ember/optim/optimizer.h"

namespace torch::optim {

struct RMSpropOptions : public OptimizerCloneableOptions<RMSpropOptions> {
  RMSpropOptions(double lr = 1e-2);  // NOLINT: implicit, as LibTorch
  EMBER_OPTIM_ARG(double, lr) = 1e-2;
  EMBER_OPTIM_ARG(double, alpha) = 0.99;
  EMBER_OPTIM_ARG(double, eps) = 1e-8;
  EMBER_OPTIM_ARG(double, weight_decay) = 0;
  EMBER_OPTIM_ARG(double, momentum) = 0;
  EMBER_OPTIM_ARG(bool, centered) = false;

 public:
  double get_lr() const override { return lr(); }
  void set_lr(double lr) override { this->lr(lr); }
  void visit(StateVisitor& v) override;
};
EMBER_OPTIM_CLONEABLE_INSTANCE(OptimizerCloneableOptions, RMSpropOptions);

struct RMSpropParamState : public OptimizerCloneableParamState<RMSpropParamState> {
  EMBER_OPTIM_ARG(int64_t, step) = 0;
  EMBER_OPTIM_ARG(Tensor, square_avg);
  EMBER_OPTIM_ARG(Tensor, momentum_buffer) = {};
  EMBER_OPTIM_ARG(Tensor, grad_avg) = {};

 public:
  void visit(StateVisitor& v) override;
};
EMBER_OPTIM_CLONEABLE_INSTANCE(OptimizerCloneableParamState, RMSpropParamState);

class RMSprop : public Optimizer {
 public:
  explicit RMSprop(std::vector<OptimizerParamGroup> param_groups, RMSpropOptions defaults = {});
  explicit RMSprop(std::vector<Tensor> params, RMSpropOptions defaults = {});
  Tensor step(LossClosure closure = nullptr) override;
  std::unique_ptr<OptimizerParamState> make_param_state() const override;
};

}  // namespace torch::optim
