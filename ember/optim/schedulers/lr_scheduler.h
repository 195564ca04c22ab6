#pragma once
// LRScheduler: the base of the epoch-indexed learning-rate schedulers
// (torch.optim.lr_scheduler), with LibTorch's LRScheduler(Optimizer&) shape.
#include <cstdint>
#include <optional>
#include <vector>

#include "ember/optim/optimizer.h"

namespace torch::optim {

// Note [Scheduler epochs]
// PyTorch's schedulers take one step in their constructor (last_epoch goes
// from -1 to 0 and epoch 0's rates are applied; for most schedulers that
// leaves the rates unchanged, for LinearLR/ConstantLR/OneCycleLR/CyclicLR it
// does not). C++ constructors cannot call the subclass's get_lrs(), so each
// built-in scheduler calls initial_step() at the end of its constructor. The
// first scheduler attached to a group records the group's initial_lr; every
// scheduler takes its base_lrs from it (PyTorch's group['initial_lr']).
// A user subclass written for LibTorch (overriding get_lrs() and reading
// step_count_, the number of completed step() calls) keeps LibTorch's meaning.
class LRScheduler {
 public:
  explicit LRScheduler(Optimizer& optimizer);
  virtual ~LRScheduler() = default;

  // Advances one epoch and writes the new rates into the optimizer.
  virtual void step();
  // The rates set by the last step (PyTorch's get_last_lr()).
  const std::vector<double>& get_last_lr() const { return last_lrs_; }
  int64_t last_epoch() const { return last_epoch_; }
  const std::vector<double>& base_lrs() const { return base_lrs_; }

 protected:
  friend class SequentialLR;
  friend class ChainedScheduler;

  // The rates for epoch last_epoch_ (already advanced), one per param group.
  virtual std::vector<double> get_lrs() = 0;
  // The rates at `last_epoch_` computed from base_lrs_ alone, for schedulers
  // that have a closed form (used when SequentialLR restarts one at epoch 0).
  virtual std::optional<std::vector<double>> closed_form_lrs() { return std::nullopt; }
  // PyTorch's constructor step (Note [Scheduler epochs]).
  void initial_step();
  // Restarts at `epoch` (PyTorch's step(epoch)): the closed form when there is one.
  virtual void step_to(int64_t epoch);

  std::vector<double> get_current_lrs() const;
  void set_optimizer_lrs(const std::vector<double>& lrs);
  Optimizer& optimizer() { return optimizer_; }
  size_t num_groups() const { return optimizer_.param_groups().size(); }

  unsigned step_count_ = 0;  // LibTorch: step() calls so far
  int64_t last_epoch_ = -1;  // PyTorch: the epoch whose rates are applied
  std::vector<double> base_lrs_;
  std::vector<double> last_lrs_;

 private:
  Optimizer& optimizer_;
};

// Python's `a % b` for b > 0 (non-negative result).
inline int64_t py_mod(int64_t a, int64_t b) { return ((a % b) + b) % b; }

}  // namespace torch::optim
