#include "ember/optim/schedulers/cosine_lr.h"

#include <cmath>
#include <numbers>

#include "ember/core/error.h"

namespace torch::optim {

namespace {
constexpr double kPi = std::numbers::pi;
}

CosineAnnealingLR::CosineAnnealingLR(Optimizer& optimizer, int64_t T_max, double eta_min)
    : LRScheduler(optimizer), T_max_(T_max), eta_min_(eta_min) {
  EMBER_CHECK(T_max > 0, "CosineAnnealingLR: T_max must be positive, got ", T_max);
  initial_step();
}

// PyTorch's recursive form, so it composes with other schedulers.
std::vector<double> CosineAnnealingLR::get_lrs() {
  std::vector<double> lrs = get_current_lrs();
  if (last_epoch_ == 0) return lrs;
  const auto T = static_cast<double>(T_max_);
  const auto e = static_cast<double>(last_epoch_);
  if (py_mod(last_epoch_ - 1 - T_max_, 2 * T_max_) == 0) {
    for (size_t i = 0; i < lrs.size(); ++i) lrs[i] = lrs[i] + (base_lrs_[i] - eta_min_) * (1 - std::cos(kPi / T)) / 2;
    return lrs;
  }
  for (double& lr : lrs)
    lr = (1 + std::cos(kPi * e / T)) / (1 + std::cos(kPi * (e - 1) / T)) * (lr - eta_min_) + eta_min_;
  return lrs;
}

std::optional<std::vector<double>> CosineAnnealingLR::closed_form_lrs() {
  std::vector<double> lrs;
  for (double base : base_lrs_)
    lrs.push_back(eta_min_ + (base - eta_min_) *
                                 (1 + std::cos(kPi * static_cast<double>(last_epoch_) / static_cast<double>(T_max_))) /
                                 2);
  return lrs;
}

CosineAnnealingWarmRestarts::CosineAnnealingWarmRestarts(Optimizer& optimizer, int64_t T_0, int64_t T_mult,
                                                         double eta_min)
    : LRScheduler(optimizer), T_0_(T_0), T_i_(static_cast<double>(T_0)), T_mult_(T_mult), eta_min_(eta_min) {
  EMBER_CHECK(T_0 > 0, "CosineAnnealingWarmRestarts: Expected positive integer T_0, but got ", T_0);
  EMBER_CHECK(T_mult >= 1, "CosineAnnealingWarmRestarts: Expected integer T_mult >= 1, but got ", T_mult);
  step();  // PyTorch's constructor step: epoch 0
  step_count_ = 0;
}

std::vector<double> CosineAnnealingWarmRestarts::get_lrs() {
  std::vector<double> lrs;
  for (double base : base_lrs_) lrs.push_back(eta_min_ + (base - eta_min_) * (1 + std::cos(kPi * T_cur_ / T_i_)) / 2);
  return lrs;
}

void CosineAnnealingWarmRestarts::step() {
  if (last_epoch_ < 0) {
    step(0.0);
    return;
  }
  T_cur_ = T_cur_ + 1;
  if (T_cur_ >= T_i_) {
    T_cur_ = T_cur_ - T_i_;
    T_i_ = T_i_ * static_cast<double>(T_mult_);
  }
  ++last_epoch_;
  set_optimizer_lrs(get_lrs());
  ++step_count_;
}

void CosineAnnealingWarmRestarts::step(double epoch) {
  EMBER_CHECK(epoch >= 0, "CosineAnnealingWarmRestarts: Expected non-negative epoch, but got ", epoch);
  const auto T0 = static_cast<double>(T_0_);
  if (epoch >= T0) {
    if (T_mult_ == 1) {
      T_cur_ = std::fmod(epoch, T0);
    } else {
      const auto m = static_cast<double>(T_mult_);
      const auto n = static_cast<int64_t>(std::log(epoch / T0 * (m - 1) + 1) / std::log(m));
      T_cur_ = epoch - T0 * (std::pow(m, static_cast<double>(n)) - 1) / (m - 1);
      T_i_ = T0 * std::pow(m, static_cast<double>(n));
    }
  } else {
    T_i_ = T0;
    T_cur_ = epoch;
  }
  last_epoch_ = static_cast<int64_t>(std::floor(epoch));
  set_optimizer_lrs(get_lrs());
  ++step_count_;
}

}  // namespace torch::optim
