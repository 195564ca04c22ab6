#pragma once
// NAdam: Adam with Nesterov momentum and momentum decay (torch.optim.NAdam).
#include <tuple>

#include "ember/optim/optimizer.h"

namespace torch::optim {

struct NAdamOptions : public OptimizerCloneableOptions<NAdamOptions> {
  NAdamOptions(double lr = 2e-3);  // NOLINT: implicit, as the other options
  using betas_t = std::tuple<double, double>;
  EMBER_OPTIM_ARG(double, lr) = 2e-3;
  EMBER_OPTIM_ARG(betas_t, betas) = std::make_tuple(0.9, 0.999);
  EMBER_OPTIM_ARG(double, eps) = 1e-8;
  EMBER_OPTIM_ARG(double, weight_decay) = 0;
  EMBER_OPTIM_ARG(double, momentum_decay) = 4e-3;

 public:
  double get_lr() const override { return lr(); }
  void set_lr(double lr) override { this->lr(lr); }
  void visit(StateVisitor& v) override;
};
EMBER_OPTIM_CLONEABLE_INSTANCE(OptimizerCloneableOptions, NAdamOptions);

struct NAdamParamState : public OptimizerCloneableParamState<NAdamParamState> {
  EMBER_OPTIM_ARG(int64_t, step) = 0;
  // Product of the momentum coefficients so far; float32 precision as PyTorch
  // keeps it in a float32 tensor (Note [NAdam mu_product]).
  EMBER_OPTIM_ARG(double, mu_product) = 1.0;
  EMBER_OPTIM_ARG(Tensor, exp_avg);
  EMBER_OPTIM_ARG(Tensor, exp_avg_sq);

 public:
  void visit(StateVisitor& v) override;
};
EMBER_OPTIM_CLONEABLE_INSTANCE(OptimizerCloneableParamState, NAdamParamState);

class NAdam : public Optimizer {
 public:
  explicit NAdam(std::vector<OptimizerParamGroup> param_groups, NAdamOptions defaults = {});
  explicit NAdam(std::vector<Tensor> params, NAdamOptions defaults = {});
  Tensor step(LossClosure closure = nullptr) override;
  std::unique_ptr<OptimizerParamState> make_param_state() const override;
};

}  // namespace torch::optim
