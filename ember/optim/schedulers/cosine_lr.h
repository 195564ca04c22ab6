#pragma once
// Cosine annealing: CosineAnnealingLR (SGDR without restarts, chainable form)
// and CosineAnnealingWarmRestarts.
#include "ember/optim/schedulers/lr_scheduler.h"

namespace torch::optim {

class CosineAnnealingLR : public LRScheduler {
 public:
  CosineAnnealingLR(Optimizer& optimizer, int64_t T_max, double eta_min = 0);

 protected:
  std::vector<double> get_lrs() override;
  std::optional<std::vector<double>> closed_form_lrs() override;

 private:
  int64_t T_max_;
  double eta_min_;
};

// Restarts every T_i epochs, with T_0, T_0 * T_mult, T_0 * T_mult^2, ...
class CosineAnnealingWarmRestarts : public LRScheduler {
 public:
  CosineAnnealingWarmRestarts(Optimizer& optimizer, int64_t T_0, int64_t T_mult = 1, double eta_min = 0);
  void step() override;
  // PyTorch's step(epoch): a fractional epoch places the rate inside a cycle.
  void step(double epoch);

 protected:
  std::vector<double> get_lrs() override;
  void step_to(int64_t epoch) override { step(static_cast<double>(epoch)); }

 private:
  int64_t T_0_;
  double T_i_;
  int64_t T_mult_;
  double eta_min_;
  double T_cur_ = -1;
};

}  // namespace torch::optim
