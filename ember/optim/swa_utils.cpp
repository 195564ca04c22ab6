#include "ember/optim/swa_utils.h"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "ember/autograd/grad_mode.h"
#include "ember/ops/elementwise/operators.h"

namespace torch::optim::swa_utils {

Tensor swa_avg_fn(const Tensor& averaged, const Tensor& current, const Tensor& num_averaged) {
  return averaged + (current - averaged) / (num_averaged + 1);
}

AvgFn get_ema_avg_fn(double decay) {
  EMBER_CHECK(decay >= 0.0 && decay <= 1.0, "get_ema_avg_fn: decay must be in [0, 1], got ", decay);
  return [decay](const Tensor& averaged, const Tensor& current, const Tensor&) {
    return averaged * decay + current * (1.0 - decay);
  };
}

namespace detail {

void update_averaged(nn::Module& averaged, const nn::Module& model, Tensor& n_averaged, const AvgFn& avg_fn,
                     bool use_buffers) {
  std::vector<Tensor> mine = averaged.parameters();
  std::vector<Tensor> theirs = model.parameters();
  if (use_buffers) {
    auto b = averaged.buffers();
    mine.insert(mine.end(), b.begin(), b.end());
    b = model.buffers();
    theirs.insert(theirs.end(), b.begin(), b.end());
  }
  // PyTorch zips silently; a different architecture is almost surely a mistake.
  EMBER_CHECK(mine.size() == theirs.size(), "AveragedModel.update_parameters: the model has ", theirs.size(),
              " tensors to average but the averaged copy has ", mine.size());
  NoGradGuard no_grad;
  const bool first = n_averaged.item<int64_t>() == 0;
  for (size_t i = 0; i < mine.size(); ++i) {
    EMBER_CHECK(mine[i].sizes() == theirs[i].sizes(), "AveragedModel.update_parameters: tensor ", i, " has shape ",
                shape_str(theirs[i].sizes()), " in the model but ", shape_str(mine[i].sizes()),
                " in the averaged copy");
    const Tensor current = theirs[i].detach().to(mine[i].device());
    Tensor target = mine[i].detach();
    if (first)
      target.copy_(current);
    else
      target.copy_(avg_fn(target, current, n_averaged));
  }
  n_averaged.add_(1);
}

BatchNormState prepare_update_bn(nn::Module& model) {
  BatchNormState state;
  NoGradGuard no_grad;
  // The root may live on the stack (modules() would need it in a shared_ptr).
  auto visit = [&state](nn::Module* m) {
    if (auto* bn = dynamic_cast<nn::detail::BatchNormTag*>(m))
      state.momenta.emplace_back(bn, bn->batch_norm_options().momentum());
  };
  visit(&model);
  for (const auto& m : model.modules(/*include_self=*/false)) visit(m.get());
  if (state.momenta.empty()) return state;
  state.was_training = model.is_training();
  model.train();
  for (auto& [bn, momentum] : state.momenta) {
    // PyTorch replaces running_mean/var by fresh zeros/ones and zeroes
    // num_batches_tracked; in place keeps the module's member handles valid.
    bn->reset_batch_norm_running_stats();
    bn->batch_norm_options().momentum(std::nullopt);
  }
  return state;
}

void finish_update_bn(nn::Module& model, const BatchNormState& state) {
  for (const auto& [bn, momentum] : state.momenta) bn->batch_norm_options().momentum(momentum);
  model.train(state.was_training);
}

}  // namespace detail

SWALR::SWALR(Optimizer& optimizer, double swa_lr, int64_t anneal_epochs, const std::string& anneal_strategy)
    : SWALR(optimizer, std::vector<double>(optimizer.param_groups().size(), swa_lr), anneal_epochs, anneal_strategy) {}

SWALR::SWALR(Optimizer& optimizer, std::vector<double> swa_lrs, int64_t anneal_epochs,
             const std::string& anneal_strategy)
    : LRScheduler(optimizer), swa_lrs_(std::move(swa_lrs)), anneal_epochs_(anneal_epochs) {
  EMBER_CHECK(swa_lrs_.size() == optimizer.param_groups().size(), "SWALR: expected ", optimizer.param_groups().size(),
              " values for swa_lr, got ", swa_lrs_.size());
  EMBER_CHECK(anneal_strategy == "cos" || anneal_strategy == "linear",
              "SWALR: anneal_strategy must by one of 'cos' or 'linear', instead got ", anneal_strategy);
  EMBER_CHECK(anneal_epochs >= 0, "SWALR: anneal_epochs must be equal or greater than 0, got ", anneal_epochs);
  cosine_ = anneal_strategy == "cos";
  initial_step();
}

double SWALR::anneal(double t) const { return cosine_ ? (1 - std::cos(std::numbers::pi * t)) / 2 : t; }

// PyTorch's get_lr: recovers the lr the annealing started from out of the
// current lr (the previous step's alpha), then moves alpha one step on.
std::vector<double> SWALR::get_lrs() {
  int64_t step = last_epoch_;  // PyTorch's _step_count - 1
  if (anneal_epochs_ == 0) step = std::max<int64_t>(1, step);
  const double span = static_cast<double>(std::max<int64_t>(1, anneal_epochs_));
  const double prev_alpha = anneal(std::clamp(static_cast<double>(step - 1) / span, 0.0, 1.0));
  const double alpha = anneal(std::clamp(static_cast<double>(step) / span, 0.0, 1.0));
  std::vector<double> lrs = get_current_lrs();
  for (size_t i = 0; i < lrs.size(); ++i) {
    const double prev_lr = prev_alpha == 1 ? swa_lrs_[i] : (lrs[i] - prev_alpha * swa_lrs_[i]) / (1 - prev_alpha);
    lrs[i] = swa_lrs_[i] * alpha + prev_lr * (1 - alpha);
  }
  return lrs;
}

}  // namespace torch::optim::swa_utils
