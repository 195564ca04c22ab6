#include "ember/optim/schedulers/reduce_on_plateau_scheduler.h"

#include <algorithm>
#include <iostream>
#include <limits>

#include "ember/core/error.h"

namespace torch::optim {

ReduceLROnPlateauScheduler::ReduceLROnPlateauScheduler(Optimizer& optimizer, SchedulerMode mode, double factor,
                                                       int64_t patience, double threshold, ThresholdMode threshold_mode,
                                                       int64_t cooldown, const std::vector<double>& min_lr, double eps,
                                                       bool verbose)
    : optimizer_(optimizer),
      mode_(mode),
      factor_(factor),
      patience_(patience),
      threshold_(threshold),
      threshold_mode_(threshold_mode),
      cooldown_(cooldown),
      eps_(eps),
      verbose_(verbose) {
  EMBER_CHECK(factor < 1.0, "ReduceLROnPlateauScheduler: Factor should be < 1.0, got ", factor);
  const size_t n = optimizer.param_groups().size();
  if (min_lr.empty()) {
    min_lrs_.assign(n, 0.0);
  } else if (min_lr.size() == 1) {
    min_lrs_.assign(n, min_lr[0]);
  } else {
    EMBER_CHECK(min_lr.size() == n, "ReduceLROnPlateauScheduler: expected ", n, " min_lrs, got ", min_lr.size());
    min_lrs_ = min_lr;
  }
  best_ = mode_ == min ? std::numeric_limits<double>::infinity() : -std::numeric_limits<double>::infinity();
  for (const auto& group : optimizer_.param_groups()) last_lrs_.push_back(group.options().get_lr());
}

bool ReduceLROnPlateauScheduler::is_better(double a, double best) const {
  if (mode_ == min && threshold_mode_ == rel) return a < best * (1. - threshold_);
  if (mode_ == min && threshold_mode_ == abs) return a < best - threshold_;
  if (mode_ == max && threshold_mode_ == rel) return a > best * (threshold_ + 1.);
  return a > best + threshold_;
}

void ReduceLROnPlateauScheduler::step(double metric) {
  last_epoch_ += 1;
  if (is_better(metric, best_)) {
    best_ = metric;
    num_bad_epochs_ = 0;
  } else {
    num_bad_epochs_ += 1;
  }
  if (cooldown_counter_ > 0) {
    cooldown_counter_ -= 1;
    num_bad_epochs_ = 0;  // ignore bad epochs in cooldown
  }
  if (num_bad_epochs_ > patience_) {
    reduce_lr();
    cooldown_counter_ = cooldown_;
    num_bad_epochs_ = 0;
  }
  last_lrs_.clear();
  for (const auto& group : optimizer_.param_groups()) last_lrs_.push_back(group.options().get_lr());
}

void ReduceLROnPlateauScheduler::reduce_lr() {
  auto& groups = optimizer_.param_groups();
  for (size_t i = 0; i < groups.size(); ++i) {
    const double old_lr = groups[i].options().get_lr();
    const double new_lr = std::max(old_lr * factor_, min_lrs_[i]);
    if (old_lr - new_lr > eps_) {
      groups[i].options().set_lr(new_lr);
      if (verbose_)
        std::cout << "Epoch " << last_epoch_ << ": reducing learning rate of group " << i << " to " << new_lr << ".\n";
    }
  }
}

}  // namespace torch::optim
