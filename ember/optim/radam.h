#pragma once
// RAdam: Adam with a rectified adaptive learning rate (torch.optim.RAdam).
#include <tuple>

#include "ember/optim/optimizer.h"

namespace torch::optim {

struct RAdamOptions : public OptimizerCloneableOptions<RAdamOptions> {
  RAdamOptions(double lr = 1e-3);  // NOLINT: implicit, as the other options
  using betas_t = std::tuple<double, double>;
  EMBER_OPTIM_ARG(double, lr) = 1e-3;
  EMBER_OPTIM_ARG(betas_t, betas) = std::make_tuple(0.9, 0.999);
  EMBER_OPTIM_ARG(double, eps) = 1e-8;
  EMBER_OPTIM_ARG(double, weight_decay) = 0;

 public:
  double get_lr() const override { return lr(); }
  void set_lr(double lr) override { this->lr(lr); }
  void visit(StateVisitor& v) override;
};
EMBER_OPTIM_CLONEABLE_INSTANCE(OptimizerCloneableOptions, RAdamOptions);

struct RAdamParamState : public OptimizerCloneableParamState<RAdamParamState> {
  EMBER_OPTIM_ARG(int64_t, step) = 0;
  EMBER_OPTIM_ARG(Tensor, exp_avg);
  EMBER_OPTIM_ARG(Tensor, exp_avg_sq);

 public:
  void visit(StateVisitor& v) override;
};
EMBER_OPTIM_CLONEABLE_INSTANCE(OptimizerCloneableParamState, RAdamParamState);

class RAdam : public Optimizer {
 public:
  explicit RAdam(std::vector<OptimizerParamGroup> param_groups, RAdamOptions defaults = {});
  explicit RAdam(std::vector<Tensor> params, RAdamOptions defaults = {});
  Tensor step(LossClosure closure = nullptr) override;
  std::unique_ptr<OptimizerParamState> make_param_state() const override;
};

}  // namespace torch::optim
