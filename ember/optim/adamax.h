#pragma once
// Adamax: Adam with the infinity norm (torch.optim.Adamax).
#include <tuple>

#include "ember/optim/optimizer.h"

namespace torch::optim {

struct AdamaxOptions : public OptimizerCloneableOptions<AdamaxOptions> {
  AdamaxOptions(double lr = 2e-3);  // NOLINT: implicit, as the other options
  using betas_t = std::tuple<double, double>;
  EMBER_OPTIM_ARG(double, lr) = 2e-3;
  EMBER_OPTIM_ARG(betas_t, betas) = std::make_tuple(0.9, 0.999);
  EMBER_OPTIM_ARG(double, eps) = 1e-8;
  EMBER_OPTIM_ARG(double, weight_decay) = 0;

 public:
  double get_lr() const override { return lr(); }
  void set_lr(double lr) override { this->lr(lr); }
  void visit(StateVisitor& v) override;
};
EMBER_OPTIM_CLONEABLE_INSTANCE(OptimizerCloneableOptions, AdamaxOptions);

struct AdamaxParamState : public OptimizerCloneableParamState<AdamaxParamState> {
  EMBER_OPTIM_ARG(int64_t, step) = 0;
  EMBER_OPTIM_ARG(Tensor, exp_avg);
  EMBER_OPTIM_ARG(Tensor, exp_inf);

 public:
  void visit(StateVisitor& v) override;
};
EMBER_OPTIM_CLONEABLE_INSTANCE(OptimizerCloneableParamState, AdamaxParamState);

class Adamax : public Optimizer {
 public:
  explicit Adamax(std::vector<OptimizerParamGroup> param_groups, AdamaxOptions defaults = {});
  explicit Adamax(std::vector<Tensor> params, AdamaxOptions defaults = {});
  Tensor step(LossClosure closure = nullptr) override;
  std::unique_ptr<OptimizerParamState> make_param_state() const override;
};

}  // namespace torch::optim
