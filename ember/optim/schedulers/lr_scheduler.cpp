#include "ember/optim/schedulers/lr_scheduler.h"

#include "ember/core/error.h"

namespace torch::optim {

LRScheduler::LRScheduler(Optimizer& optimizer) : optimizer_(optimizer) {
  for (auto& group : optimizer_.param_groups()) {
    if (!group.initial_lr()) group.set_initial_lr(group.options().get_lr());
    base_lrs_.push_back(*group.initial_lr());
  }
  last_lrs_ = get_current_lrs();
}

void LRScheduler::step() {
  ++last_epoch_;
  set_optimizer_lrs(get_lrs());
  ++step_count_;
}

void LRScheduler::initial_step() {
  step_count_ = 0;
  step();
  step_count_ = 0;
}

void LRScheduler::step_to(int64_t epoch) {
  last_epoch_ = epoch;
  auto closed = closed_form_lrs();
  set_optimizer_lrs(closed ? *closed : get_lrs());
  ++step_count_;
}

std::vector<double> LRScheduler::get_current_lrs() const {
  std::vector<double> lrs;
  for (const auto& group : optimizer_.param_groups()) lrs.push_back(group.options().get_lr());
  return lrs;
}

void LRScheduler::set_optimizer_lrs(const std::vector<double>& lrs) {
  auto& groups = optimizer_.param_groups();
  EMBER_CHECK(lrs.size() == groups.size(), "LRScheduler: got ", lrs.size(), " learning rates for ", groups.size(),
              " param groups");
  for (size_t i = 0; i < groups.size(); ++i) groups[i].options().set_lr(lrs[i]);
  last_lrs_ = lrs;
}

}  // namespace torch::optim
