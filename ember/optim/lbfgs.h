#pragma once
// L-BFGS with optional strong-Wolfe line search (torch.optim.LBFGS). The
// closure is required: it re-evaluates the loss and its gradients.
#include <deque>
#include <optional>
#include <string>

#include "ember/optim/optimizer.h"

namespace torch::optim {

struct LBFGSOptions : public OptimizerCloneableOptions<LBFGSOptions> {
  LBFGSOptions(double lr = 1);  // NOLINT: implicit, as LibTorch
  EMBER_OPTIM_ARG(double, lr) = 1;
  EMBER_OPTIM_ARG(int64_t, max_iter) = 20;
  // Defaults to max_iter * 5 / 4 when the optimizer is built.
  EMBER_OPTIM_ARG(std::optional<int64_t>, max_eval) = std::nullopt;
  EMBER_OPTIM_ARG(double, tolerance_grad) = 1e-7;
  EMBER_OPTIM_ARG(double, tolerance_change) = 1e-9;
  EMBER_OPTIM_ARG(int64_t, history_size) = 100;
  // Either nullopt or "strong_wolfe".
  EMBER_OPTIM_ARG(std::optional<std::string>, line_search_fn) = std::nullopt;

 public:
  double get_lr() const override { return lr(); }
  void set_lr(double lr) override { this->lr(lr); }
  void visit(StateVisitor& v) override;
};
EMBER_OPTIM_CLONEABLE_INSTANCE(OptimizerCloneableOptions, LBFGSOptions);

// Kept on the first parameter, as PyTorch.
struct LBFGSParamState : public OptimizerCloneableParamState<LBFGSParamState> {
  EMBER_OPTIM_ARG(int64_t, func_evals) = 0;
  EMBER_OPTIM_ARG(int64_t, n_iter) = 0;
  EMBER_OPTIM_ARG(double, t) = 0;
  EMBER_OPTIM_ARG(double, prev_loss) = 0;
  EMBER_OPTIM_ARG(Tensor, d) = {};
  EMBER_OPTIM_ARG(Tensor, H_diag) = {};
  EMBER_OPTIM_ARG(Tensor, prev_flat_grad) = {};
  EMBER_OPTIM_ARG(std::deque<Tensor>, old_dirs);
  EMBER_OPTIM_ARG(std::deque<Tensor>, old_stps);
  EMBER_OPTIM_ARG(std::deque<Tensor>, ro);
  // Scratch for the two-loop recursion (rewritten before being read).
  EMBER_OPTIM_ARG(std::optional<std::vector<Tensor>>, al) = std::nullopt;

 public:
  void visit(StateVisitor& v) override;
};
EMBER_OPTIM_CLONEABLE_INSTANCE(OptimizerCloneableParamState, LBFGSParamState);

class LBFGS : public Optimizer {
 public:
  explicit LBFGS(std::vector<OptimizerParamGroup> param_groups, LBFGSOptions defaults = {});
  explicit LBFGS(std::vector<Tensor> params, LBFGSOptions defaults = {});
  Tensor step(LossClosure closure) override;
  std::unique_ptr<OptimizerParamState> make_param_state() const override;
  bool state_tensors_shaped_like_params() const override { return false; }  // flat vectors over all parameters

 private:
  int64_t numel();
  Tensor gather_flat_grad();
  void add_grad(double step_size, const Tensor& update);
  std::vector<Tensor> clone_param();
  void set_param(const std::vector<Tensor>& params_data);
  // Loss and flat gradient at x + t * d; parameters are restored to x.
  std::pair<double, Tensor> directional_evaluate(const LossClosure& closure, const std::vector<Tensor>& x, double t,
                                                 const Tensor& d);

  std::optional<int64_t> numel_cache_;
};

}  // namespace torch::optim
