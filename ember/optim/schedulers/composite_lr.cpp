#include "ember/optim/schedulers/composite_lr.h"

#include <algorithm>

#include "ember/core/error.h"

namespace torch::optim {

SequentialLR::SequentialLR(Optimizer& optimizer, std::vector<std::shared_ptr<LRScheduler>> schedulers,
                           std::vector<int64_t> milestones)
    : LRScheduler(optimizer), schedulers_(std::move(schedulers)), milestones_(std::move(milestones)) {
  EMBER_CHECK(!schedulers_.empty(), "SequentialLR: expects at least one scheduler");
  for (size_t i = 0; i < schedulers_.size(); ++i) {
    EMBER_CHECK(schedulers_[i] != nullptr, "SequentialLR: scheduler ", i, " is null");
    EMBER_CHECK(&schedulers_[i]->optimizer() == &optimizer,
                "SequentialLR: Sequential Schedulers expects all schedulers to belong to the same optimizer, but "
                "got schedulers at index ",
                i, " to be different than the optimizer passed in.");
  }
  EMBER_CHECK(milestones_.size() == schedulers_.size() - 1,
              "SequentialLR: Sequential Schedulers expects number of schedulers provided to be one more than the "
              "number of milestone points, but got number of schedulers ",
              schedulers_.size(), " and the number of milestones to be equal to ", milestones_.size());
  // Undo the constructor steps of the schedulers, then start the first one.
  for (auto& group : optimizer.param_groups()) group.options().set_lr(*group.initial_lr());
  for (auto& s : schedulers_) s->last_epoch_ -= 1;
  schedulers_[0]->initial_step();
  last_lrs_ = schedulers_[0]->get_last_lr();
  last_epoch_ = 0;
}

void SequentialLR::step() {
  ++last_epoch_;
  const auto idx =
      static_cast<size_t>(std::upper_bound(milestones_.begin(), milestones_.end(), last_epoch_) - milestones_.begin());
  auto& scheduler = *schedulers_[idx];
  if (idx > 0 && milestones_[idx - 1] == last_epoch_) {
    scheduler.step_to(0);
  } else {
    scheduler.step();
  }
  last_lrs_ = scheduler.get_last_lr();
  ++step_count_;
}

Optimizer& ChainedScheduler::optimizer_of(const std::vector<std::shared_ptr<LRScheduler>>& schedulers) {
  EMBER_CHECK(!schedulers.empty() && schedulers[0] != nullptr, "ChainedScheduler: expects at least one scheduler");
  return schedulers[0]->optimizer();
}

ChainedScheduler::ChainedScheduler(std::vector<std::shared_ptr<LRScheduler>> schedulers)
    : LRScheduler(optimizer_of(schedulers)), schedulers_(std::move(schedulers)) {
  for (size_t i = 1; i < schedulers_.size(); ++i) {
    EMBER_CHECK(schedulers_[i] != nullptr && &schedulers_[i]->optimizer() == &optimizer(),
                "ChainedScheduler: ChainedScheduler expects all schedulers to belong to the same optimizer, but got "
                "schedulers at index 0 and ",
                i, " to be different");
  }
  last_lrs_ = get_current_lrs();
}

void ChainedScheduler::step() {
  for (auto& s : schedulers_) s->step();
  last_lrs_ = get_current_lrs();
  ++step_count_;
}

}  // namespace torch::optim
