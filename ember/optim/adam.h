#pragma once
// Adam with L2 weight decay folded into the gradient, and the AMSGrad
// variant (torch.optim.Adam).
#include <tuple>

#include "ember/optim/optimizer.h"

namespace torch::optim {

struct AdamOptions : public OptimizerCloneableOptions<AdamOptions> {
  AdamOptions(double lr = 1e-3);  // NOLINT: implicit, as LibTorch
  using betas_t = std::tuple<double, double>;
  EMBER_OPTIM_ARG(double, lr) = 1e-3;
  EMBER_OPTIM_ARG(betas_t, betas) = std::make_tuple(0.9, 0.999);
  EMBER_OPTIM_ARG(double, eps) = 1e-8;
  EMBER_OPTIM_ARG(double, weight_decay) = 0;
  EMBER_OPTIM_ARG(bool, amsgrad) = false;

 public:
  double get_lr() const override { return lr(); }
  void set_lr(double lr) override { this->lr(lr); }
  void visit(StateVisitor& v) override;
};
EMBER_OPTIM_CLONEABLE_INSTANCE(OptimizerCloneableOptions, AdamOptions);

// Shared by Adam and AdamW.
struct AdamParamState : public OptimizerCloneableParamState<AdamParamState> {
  EMBER_OPTIM_ARG(int64_t, step) = 0;
  EMBER_OPTIM_ARG(Tensor, exp_avg);
  EMBER_OPTIM_ARG(Tensor, exp_avg_sq);
  EMBER_OPTIM_ARG(Tensor, max_exp_avg_sq) = {};

 public:
  void visit(StateVisitor& v) override;
};
EMBER_OPTIM_CLONEABLE_INSTANCE(OptimizerCloneableParamState, AdamParamState);

class Adam : public Optimizer {
 public:
  explicit Adam(std::vector<OptimizerParamGroup> param_groups, AdamOptions defaults = {});
  explicit Adam(std::vector<Tensor> params, AdamOptions defaults = {});
  Tensor step(LossClosure closure = nullptr) override;
  std::unique_ptr<OptimizerParamState> make_param_state() const override;
};

namespace detail {
// The Adam moment updates and bias-corrected step on `p` (state.step already
// incremented); weight decay is the caller's business.
void adam_update(Tensor& p, const Tensor& grad, AdamParamState& state, double lr, double beta1, double beta2,
                 double eps, bool amsgrad);
// Validates Adam-family hyper-parameters; `name` starts the error messages.
void check_adam_options(const char* name, double lr, double eps, const std::tuple<double, double>& betas,
                        double weight_decay);
// The state of `p` for the Adam family, zero moments on first use.
void init_adam_state(AdamParamState& st, const Tensor& p, bool amsgrad);
}  // namespace detail

}  // namespace torch::optim
