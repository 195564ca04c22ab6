#pragma once
// Per-batch cyclical schedules: CyclicLR and OneCycleLR. Both also cycle the
// optimizer's momentum (or Adam's beta1) inversely to the rate by default.
#include <functional>
#include <string>

#include "ember/optim/schedulers/lr_scheduler.h"

namespace torch::optim {

class CyclicLR : public LRScheduler {
 public:
  enum class Mode { triangular, triangular2, exp_range };
  enum class ScaleMode { cycle, iterations };

  // Rates (and momenta) may be one value for all groups or one per group.
  CyclicLR(Optimizer& optimizer, std::vector<double> base_lr, std::vector<double> max_lr, double step_size_up = 2000,
           std::optional<double> step_size_down = std::nullopt, Mode mode = Mode::triangular, double gamma = 1.0,
           std::function<double(double)> scale_fn = nullptr, ScaleMode scale_mode = ScaleMode::cycle,
           bool cycle_momentum = true, std::vector<double> base_momentum = {0.8},
           std::vector<double> max_momentum = {0.9});

 protected:
  std::vector<double> get_lrs() override;

 private:
  double scale(double x) const;

  std::vector<double> max_lrs_;
  double total_size_;
  double step_ratio_;
  Mode mode_;
  double gamma_;
  std::function<double(double)> scale_fn_;
  ScaleMode scale_mode_;
  bool cycle_momentum_;
  std::vector<double> base_momentums_;
  std::vector<double> max_momentums_;
};

class OneCycleLR : public LRScheduler {
 public:
  enum class AnnealStrategy { cos, linear };

  // total_steps, or else epochs * steps_per_epoch, sets the cycle length.
  OneCycleLR(Optimizer& optimizer, std::vector<double> max_lr, std::optional<int64_t> total_steps = std::nullopt,
             std::optional<int64_t> epochs = std::nullopt, std::optional<int64_t> steps_per_epoch = std::nullopt,
             double pct_start = 0.3, AnnealStrategy anneal_strategy = AnnealStrategy::cos, bool cycle_momentum = true,
             std::vector<double> base_momentum = {0.85}, std::vector<double> max_momentum = {0.95},
             double div_factor = 25., double final_div_factor = 1e4, bool three_phase = false);

 protected:
  std::vector<double> get_lrs() override;

 private:
  // Which per-group value a phase starts or ends at.
  enum class Point { initial, max, min, base_momentum, max_momentum };
  struct Phase {
    double end_step;
    Point start_lr, end_lr, start_momentum, end_momentum;
  };
  double value(Point point, size_t group) const;
  double anneal(double start, double end, double pct) const;

  int64_t total_steps_;
  std::vector<Phase> phases_;
  AnnealStrategy anneal_strategy_;
  bool cycle_momentum_;
  std::vector<double> initial_lrs_, max_lrs_, min_lrs_, base_momentums_, max_momentums_;
};

}  // namespace torch::optim
