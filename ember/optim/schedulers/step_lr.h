#pragma once
// Step-decay schedulers: StepLR, MultiStepLR, ExponentialLR.
#include <vector>

#include "ember/optim/schedulers/lr_scheduler.h"

namespace torch::optim {

// lr *= gamma every step_size epochs.
class StepLR : public LRScheduler {
 public:
  StepLR(Optimizer& optimizer, unsigned step_size, double gamma = 0.1);

 protected:
  std::vector<double> get_lrs() override;
  std::optional<std::vector<double>> closed_form_lrs() override;

 private:
  unsigned step_size_;
  double gamma_;
};

// lr *= gamma at each milestone (a milestone listed k times multiplies by gamma^k).
class MultiStepLR : public LRScheduler {
 public:
  MultiStepLR(Optimizer& optimizer, std::vector<int64_t> milestones, double gamma = 0.1);

 protected:
  std::vector<double> get_lrs() override;
  std::optional<std::vector<double>> closed_form_lrs() override;

 private:
  std::vector<int64_t> milestones_;  // sorted
  double gamma_;
};

// lr *= gamma every epoch.
class ExponentialLR : public LRScheduler {
 public:
  ExponentialLR(Optimizer& optimizer, double gamma);

 protected:
  std::vector<double> get_lrs() override;
  std::optional<std::vector<double>> closed_form_lrs() override;

 private:
  double gamma_;
};

}  // namespace torch::optim
