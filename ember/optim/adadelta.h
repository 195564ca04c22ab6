#pragma once
// Adadelta (torch.optim.Adadelta).
#include "ember/optim/optimizer.h"

namespace torch::optim {

struct AdadeltaOptions : public OptimizerCloneableOptions<AdadeltaOptions> {
  AdadeltaOptions(double lr = 1.0);  // NOLINT: implicit, as the other options
  EMBER_OPTIM_ARG(double, lr) = 1.0;
  EMBER_OPTIM_ARG(double, rho) = 0.9;
  EMBER_OPTIM_ARG(double, eps) = 1e-6;
  EMBER_OPTIM_ARG(double, weight_decay) = 0;

 public:
  double get_lr() const override { return lr(); }
  void set_lr(double lr) override { this->lr(lr); }
  void visit(StateVisitor& v) override;
};
EMBER_OPTIM_CLONEABLE_INSTANCE(OptimizerCloneableOptions, AdadeltaOptions);

struct AdadeltaParamState : public OptimizerCloneableParamState<AdadeltaParamState> {
  EMBER_OPTIM_ARG(int64_t, step) = 0;
  EMBER_OPTIM_ARG(Tensor, square_avg);
  EMBER_OPTIM_ARG(Tensor, acc_delta);

 public:
  void visit(StateVisitor& v) override;
};
EMBER_OPTIM_CLONEABLE_INSTANCE(OptimizerCloneableParamState, AdadeltaParamState);

class Adadelta : public Optimizer {
 public:
  explicit Adadelta(std::vector<OptimizerParamGroup> param_groups, AdadeltaOptions defaults = {});
  explicit Adadelta(std::vector<Tensor> params, AdadeltaOptions defaults = {});
  Tensor step(LossClosure closure = nullptr) override;
  std::unique_ptr<OptimizerParamState> make_param_state() const override;
};

}  // namespace torch::optim
