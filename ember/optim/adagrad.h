#pragma once
// Adagrad (torch.optim.Adagrad): per-coordinate step sizes from the running
// sum of squared gradients, with learning-rate decay.
#include "ember/optim/optimizer.h"

namespace torch::optim {

struct AdagradOptions : public OptimizerCloneableOptions<AdagradOptions> {
  AdagradOptions(double lr = 1e-2);  // NOLINT: implicit, as LibTorch
  EMBER_OPTIM_ARG(double, lr) = 1e-2;
  EMBER_OPTIM_ARG(double, lr_decay) = 0;
  EMBER_OPTIM_ARG(double, weight_decay) = 0;
  EMBER_OPTIM_ARG(double, initial_accumulator_value) = 0;
  EMBER_OPTIM_ARG(double, eps) = 1e-10;

 public:
  double get_lr() const override { return lr(); }
  void set_lr(double lr) override { this->lr(lr); }
  void visit(StateVisitor& v) override;
};
EMBER_OPTIM_CLONEABLE_INSTANCE(OptimizerCloneableOptions, AdagradOptions);

struct AdagradParamState : public OptimizerCloneableParamState<AdagradParamState> {
  EMBER_OPTIM_ARG(Tensor, sum);
  EMBER_OPTIM_ARG(int64_t, step) = 0;

 public:
  void visit(StateVisitor& v) override;
};
EMBER_OPTIM_CLONEABLE_INSTANCE(OptimizerCloneableParamState, AdagradParamState);

class Adagrad : public Optimizer {
 public:
  explicit Adagrad(std::vector<OptimizerParamGroup> param_groups, AdagradOptions defaults = {});
  explicit Adagrad(std::vector<Tensor> params, AdagradOptions defaults = {});
  Tensor step(LossClosure closure = nullptr) override;
  std::unique_ptr<OptimizerParamState> make_param_state() const override;
};

}  // namespace torch::optim
