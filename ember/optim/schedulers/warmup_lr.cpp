#include "ember/optim/schedulers/warmup_lr.h"

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

ConstantLR::ConstantLR(Optimizer& optimizer, double factor, int64_t total_iters)
    : LRScheduler(optimizer), factor_(factor), total_iters_(total_iters) {
  EMBER_CHECK(factor >= 0 && factor <= 1.0,
              "ConstantLR: Constant multiplicative factor expected to be between 0 and 1, got ", factor);
  initial_step();
}

std::vector<double> ConstantLR::get_lrs() {
  if (last_epoch_ == 0) return scaled(get_current_lrs(), factor_);
  if (last_epoch_ != total_iters_) return get_current_lrs();
  return scaled(get_current_lrs(), 1.0 / factor_);
}

std::optional<std::vector<double>> ConstantLR::closed_form_lrs() {
  std::vector<double> lrs;
  const double done = last_epoch_ >= total_iters_ ? 1.0 : 0.0;
  for (double base : base_lrs_) lrs.push_back(base * (factor_ + done * (1 - factor_)));
  return lrs;
}

LinearLR::LinearLR(Optimizer& optimizer, double start_factor, double end_factor, int64_t total_iters)
    : LRScheduler(optimizer), start_factor_(start_factor), end_factor_(end_factor), total_iters_(total_iters) {
  EMBER_CHECK(start_factor >= 0 && start_factor <= 1.0,
              "LinearLR: Starting multiplicative factor expected to be between 0 and 1, got ", start_factor);
  EMBER_CHECK(end_factor >= 0 && end_factor <= 1.0,
              "LinearLR: Ending multiplicative factor expected to be between 0 and 1, got ", end_factor);
  initial_step();
}

std::vector<double> LinearLR::get_lrs() {
  if (last_epoch_ == 0) return scaled(get_current_lrs(), start_factor_);
  if (last_epoch_ > total_iters_) return get_current_lrs();
  const double diff = end_factor_ - start_factor_;
  return scaled(get_current_lrs(), 1. + diff / (static_cast<double>(total_iters_) * start_factor_ +
                                                static_cast<double>(last_epoch_ - 1) * diff));
}

std::optional<std::vector<double>> LinearLR::closed_form_lrs() {
  std::vector<double> lrs;
  const auto e = static_cast<double>(std::min(total_iters_, last_epoch_));
  for (double base : base_lrs_)
    lrs.push_back(base * (start_factor_ + (end_factor_ - start_factor_) * e / static_cast<double>(total_iters_)));
  return lrs;
}

PolynomialLR::PolynomialLR(Optimizer& optimizer, int64_t total_iters, double power)
    : LRScheduler(optimizer), total_iters_(total_iters), power_(power) {
  initial_step();
}

std::vector<double> PolynomialLR::get_lrs() {
  if (last_epoch_ == 0 || last_epoch_ > total_iters_) return get_current_lrs();
  const auto e = static_cast<double>(last_epoch_);
  const auto n = static_cast<double>(total_iters_);
  return scaled(get_current_lrs(), std::pow((1.0 - e / n) / (1.0 - (e - 1) / n), power_));
}

std::optional<std::vector<double>> PolynomialLR::closed_form_lrs() {
  std::vector<double> lrs;
  const auto e = static_cast<double>(std::min(total_iters_, last_epoch_));
  for (double base : base_lrs_) lrs.push_back(base * std::pow(1.0 - e / static_cast<double>(total_iters_), power_));
  return lrs;
}

}  // namespace torch::optim
