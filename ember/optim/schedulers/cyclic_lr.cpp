#include "ember/optim/schedulers/cyclic_lr.h"

#include <cmath>
#include <numbers>

#include "ember/core/error.h"
#include "ember/optim/schedulers/momentum_access.h"

namespace torch::optim {

namespace {

// One value per param group from a single value or a per-group list.
std::vector<double> per_group(const char* scheduler, const char* name, const Optimizer& optimizer,
                              std::vector<double> values) {
  const size_t n = optimizer.param_groups().size();
  if (values.size() == 1) return std::vector<double>(n, values[0]);
  EMBER_CHECK(values.size() == n, scheduler, ": expected ", n, " values for ", name, ", got ", values.size());
  return values;
}

// CyclicLR starts every group at base_lr before the base class records the
// groups' initial_lr (PyTorch sets group['lr'] before calling its base).
Optimizer& start_at(Optimizer& optimizer, const std::vector<double>& base_lr) {
  const auto lrs = per_group("CyclicLR", "base_lr", optimizer, base_lr);
  for (size_t i = 0; i < lrs.size(); ++i) optimizer.param_groups()[i].options().set_lr(lrs[i]);
  return optimizer;
}

// OneCycleLR overwrites initial_lr with max_lr / div_factor.
Optimizer& set_initial(Optimizer& optimizer, const std::vector<double>& max_lr, double div_factor) {
  const auto lrs = per_group("OneCycleLR", "max_lr", optimizer, max_lr);
  for (size_t i = 0; i < lrs.size(); ++i) optimizer.param_groups()[i].set_initial_lr(lrs[i] / div_factor);
  return optimizer;
}

}  // namespace

CyclicLR::CyclicLR(Optimizer& optimizer, std::vector<double> base_lr, std::vector<double> max_lr, double step_size_up,
                   std::optional<double> step_size_down, Mode mode, double gamma,
                   std::function<double(double)> scale_fn, ScaleMode scale_mode, bool cycle_momentum,
                   std::vector<double> base_momentum, std::vector<double> max_momentum)
    : LRScheduler(start_at(optimizer, base_lr)),
      max_lrs_(per_group("CyclicLR", "max_lr", optimizer, std::move(max_lr))),
      mode_(mode),
      gamma_(gamma),
      scale_fn_(std::move(scale_fn)),
      scale_mode_(scale_fn_ ? scale_mode : (mode == Mode::exp_range ? ScaleMode::iterations : ScaleMode::cycle)),
      cycle_momentum_(cycle_momentum) {
  const double down = step_size_down.value_or(step_size_up);
  total_size_ = step_size_up + down;
  step_ratio_ = step_size_up / total_size_;
  if (cycle_momentum_) {
    EMBER_CHECK(detail::momentum_kind(optimizer.defaults()) == detail::MomentumKind::kMomentum,
                "CyclicLR: optimizer must support momentum with `cycle_momentum` option enabled");
    const auto base = per_group("CyclicLR", "base_momentum", optimizer, std::move(base_momentum));
    for (size_t i = 0; i < base.size(); ++i) detail::set_momentum(optimizer.param_groups()[i].options(), base[i]);
    base_momentums_ = base;
    max_momentums_ = per_group("CyclicLR", "max_momentum", optimizer, std::move(max_momentum));
  }
  base_lrs_ = per_group("CyclicLR", "base_lr", optimizer, std::move(base_lr));
  initial_step();
}

double CyclicLR::scale(double x) const {
  if (scale_fn_) return scale_fn_(x);
  switch (mode_) {
    case Mode::triangular:
      return 1.;
    case Mode::triangular2:
      return 1 / std::pow(2., x - 1);
    case Mode::exp_range:
      return std::pow(gamma_, x);
  }
  return 1.;
}

std::vector<double> CyclicLR::get_lrs() {
  const auto e = static_cast<double>(last_epoch_);
  const double cycle = std::floor(1 + e / total_size_);
  const double x = 1. + e / total_size_ - cycle;
  const double scale_factor = x <= step_ratio_ ? x / step_ratio_ : (x - 1) / (step_ratio_ - 1);
  const double s = scale(scale_mode_ == ScaleMode::cycle ? cycle : e);
  std::vector<double> lrs;
  for (size_t i = 0; i < base_lrs_.size(); ++i) {
    const double base_height = (max_lrs_[i] - base_lrs_[i]) * scale_factor;
    lrs.push_back(base_lrs_[i] + base_height * s);
  }
  if (cycle_momentum_) {
    for (size_t i = 0; i < base_momentums_.size(); ++i) {
      const double base_height = (max_momentums_[i] - base_momentums_[i]) * scale_factor;
      detail::set_momentum(optimizer().param_groups()[i].options(), max_momentums_[i] - base_height * s);
    }
  }
  return lrs;
}

OneCycleLR::OneCycleLR(Optimizer& optimizer, std::vector<double> max_lr, std::optional<int64_t> total_steps,
                       std::optional<int64_t> epochs, std::optional<int64_t> steps_per_epoch, double pct_start,
                       AnnealStrategy anneal_strategy, bool cycle_momentum, std::vector<double> base_momentum,
                       std::vector<double> max_momentum, double div_factor, double final_div_factor, bool three_phase)
    : LRScheduler(set_initial(optimizer, max_lr, div_factor)),
      anneal_strategy_(anneal_strategy),
      cycle_momentum_(cycle_momentum) {
  EMBER_CHECK(total_steps || (epochs && steps_per_epoch),
              "OneCycleLR: You must define either total_steps OR (epochs AND steps_per_epoch)");
  if (total_steps) {
    EMBER_CHECK(*total_steps > 0, "OneCycleLR: Expected positive integer total_steps, but got ", *total_steps);
    total_steps_ = *total_steps;
  } else {
    EMBER_CHECK(*epochs > 0, "OneCycleLR: Expected positive integer epochs, but got ", *epochs);
    EMBER_CHECK(*steps_per_epoch > 0, "OneCycleLR: Expected positive integer steps_per_epoch, but got ",
                *steps_per_epoch);
    total_steps_ = *epochs * *steps_per_epoch;
  }
  EMBER_CHECK(pct_start >= 0 && pct_start <= 1, "OneCycleLR: Expected float between 0 and 1 pct_start, but got ",
              pct_start);
  const auto total = static_cast<double>(total_steps_);
  if (three_phase) {
    phases_ = {{pct_start * total - 1, Point::initial, Point::max, Point::max_momentum, Point::base_momentum},
               {2 * pct_start * total - 2, Point::max, Point::initial, Point::base_momentum, Point::max_momentum},
               {total - 1, Point::initial, Point::min, Point::max_momentum, Point::max_momentum}};
  } else {
    phases_ = {{pct_start * total - 1, Point::initial, Point::max, Point::max_momentum, Point::base_momentum},
               {total - 1, Point::max, Point::min, Point::base_momentum, Point::max_momentum}};
  }
  max_lrs_ = per_group("OneCycleLR", "max_lr", optimizer, std::move(max_lr));
  for (double m : max_lrs_) {
    initial_lrs_.push_back(m / div_factor);
    min_lrs_.push_back(m / div_factor / final_div_factor);
  }
  if (cycle_momentum_) {
    EMBER_CHECK(detail::momentum_kind(optimizer.defaults()) != detail::MomentumKind::kNone,
                "OneCycleLR: optimizer must support momentum with `cycle_momentum` option enabled");
    max_momentums_ = per_group("OneCycleLR", "max_momentum", optimizer, std::move(max_momentum));
    base_momentums_ = per_group("OneCycleLR", "base_momentum", optimizer, std::move(base_momentum));
    for (size_t i = 0; i < max_momentums_.size(); ++i)
      detail::set_momentum(optimizer.param_groups()[i].options(), max_momentums_[i]);
  }
  initial_step();
}

double OneCycleLR::value(Point point, size_t group) const {
  switch (point) {
    case Point::initial:
      return initial_lrs_[group];
    case Point::max:
      return max_lrs_[group];
    case Point::min:
      return min_lrs_[group];
    case Point::base_momentum:
      return base_momentums_[group];
    case Point::max_momentum:
      return max_momentums_[group];
  }
  return 0;
}

double OneCycleLR::anneal(double start, double end, double pct) const {
  if (anneal_strategy_ == AnnealStrategy::cos) {
    const double cos_out = std::cos(std::numbers::pi * pct) + 1;
    return end + (start - end) / 2.0 * cos_out;
  }
  return (end - start) * pct + start;
}

std::vector<double> OneCycleLR::get_lrs() {
  EMBER_CHECK(last_epoch_ <= total_steps_, "OneCycleLR: Tried to step ", last_epoch_ + 1,
              " times. The specified number of total steps is ", total_steps_);
  const auto step_num = static_cast<double>(last_epoch_);
  std::vector<double> lrs;
  for (size_t g = 0; g < num_groups(); ++g) {
    double start_step = 0;
    double lr = 0, momentum = 0;
    for (size_t i = 0; i < phases_.size(); ++i) {
      const Phase& phase = phases_[i];
      if (step_num <= phase.end_step || i == phases_.size() - 1) {
        const double pct = (step_num - start_step) / (phase.end_step - start_step);
        lr = anneal(value(phase.start_lr, g), value(phase.end_lr, g), pct);
        if (cycle_momentum_) momentum = anneal(value(phase.start_momentum, g), value(phase.end_momentum, g), pct);
        break;
      }
      start_step = phase.end_step;
    }
    lrs.push_back(lr);
    if (cycle_momentum_) detail::set_momentum(optimizer().param_groups()[g].options(), momentum);
  }
  return lrs;
}

}  // namespace torch::optim
