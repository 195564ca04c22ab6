#pragma once
// Schedulers that scale the rate over a fixed number of epochs: ConstantLR,
// LinearLR, PolynomialLR.
#include "ember/optim/schedulers/lr_scheduler.h"

namespace torch::optim {

// lr * factor until total_iters, then lr.
class ConstantLR : public LRScheduler {
 public:
  ConstantLR(Optimizer& optimizer, double factor = 1.0 / 3, int64_t total_iters = 5);

 protected:
  std::vector<double> get_lrs() override;
  std::optional<std::vector<double>> closed_form_lrs() override;

 private:
  double factor_;
  int64_t total_iters_;
};

// The factor moves linearly from start_factor to end_factor over total_iters.
class LinearLR : public LRScheduler {
 public:
  LinearLR(Optimizer& optimizer, double start_factor = 1.0 / 3, double end_factor = 1.0, int64_t total_iters = 5);

 protected:
  std::vector<double> get_lrs() override;
  std::optional<std::vector<double>> closed_form_lrs() override;

 private:
  double start_factor_;
  double end_factor_;
  int64_t total_iters_;
};

// lr * (1 - epoch / total_iters)^power, reaching 0 at total_iters.
class PolynomialLR : public LRScheduler {
 public:
  PolynomialLR(Optimizer& optimizer, int64_t total_iters = 5, double power = 1.0);

 protected:
  std::vector<double> get_lrs() override;
  std::optional<std::vector<double>> closed_form_lrs() override;

 private:
  int64_t total_iters_;
  double power_;
};

}  // namespace torch::optim
