#include "ember/optim/schedulers/step_lr.h"

#include <algorithm>
#include <cmath>

#include "ember/core/error.h"

namespace torch::optim {

namespace {
std::vector<double> scaled(std::vector<double> lrs, double factor) {
  for (double& lr : lrs) lr *= factor;
  return lrs;
}
}  // namespace

StepLR::StepLR(Optimizer& optimizer, unsigned step_size, double gamma)
    : LRScheduler(optimizer), step_size_(step_size), gamma_(gamma) {
  EMBER_CHECK(step_size > 0, "StepLR: step_size must be positive, got ", step_size);
  initial_step();
}

std::vector<double> StepLR::get_lrs() {
  if (last_epoch_ == 0 || last_epoch_ % step_size_ != 0) return get_current_lrs();
  return scaled(get_current_lrs(), gamma_);
}

std::optional<std::vector<double>> StepLR::closed_form_lrs() {
  std::vector<double> lrs;
  for (double base : base_lrs_) lrs.push_back(base * std::pow(gamma_, static_cast<double>(last_epoch_ / step_size_)));
  return lrs;
}

MultiStepLR::MultiStepLR(Optimizer& optimizer, std::vector<int64_t> milestones, double gamma)
    : LRScheduler(optimizer), milestones_(std::move(milestones)), gamma_(gamma) {
  std::sort(milestones_.begin(), milestones_.end());
  initial_step();
}

std::vector<double> MultiStepLR::get_lrs() {
  const auto hits = std::count(milestones_.begin(), milestones_.end(), last_epoch_);
  if (hits == 0) return get_current_lrs();
  return scaled(get_current_lrs(), std::pow(gamma_, static_cast<double>(hits)));
}

std::optional<std::vector<double>> MultiStepLR::closed_form_lrs() {
  const auto passed = std::upper_bound(milestones_.begin(), milestones_.end(), last_epoch_) - milestones_.begin();
  std::vector<double> lrs;
  for (double base : base_lrs_) lrs.push_back(base * std::pow(gamma_, static_cast<double>(passed)));
  return lrs;
}

ExponentialLR::ExponentialLR(Optimizer& optimizer, double gamma) : LRScheduler(optimizer), gamma_(gamma) {
  initial_step();
}

std::vector<double> ExponentialLR::get_lrs() {
  if (last_epoch_ == 0) return get_current_lrs();
  return scaled(get_current_lrs(), gamma_);
}

std::optional<std::vector<double>> ExponentialLR::closed_form_lrs() {
  std::vector<double> lrs;
  for (double base : base_lrs_) lrs.push_back(base * std::pow(gamma_, static_cast<double>(last_epoch_)));
  return lrs;
}

}  // namespace torch::optim
