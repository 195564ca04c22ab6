#pragma once
// ReduceLROnPlateauScheduler (LibTorch's name; PyTorch's ReduceLROnPlateau):
// multiplies the rates by `factor` when a metric stops improving for
// `patience` epochs. Driven by step(metric), so it is not an LRScheduler.
#include <cstdint>
#include <vector>

#include "ember/optim/optimizer.h"

namespace torch::optim {

class ReduceLROnPlateauScheduler {
 public:
  enum SchedulerMode { min, max };
  enum ThresholdMode { rel, abs };

  // min_lr: empty (all 0), one value for all groups, or one per group.
  explicit ReduceLROnPlateauScheduler(Optimizer& optimizer, SchedulerMode mode = min, double factor = 0.1,
                                      int64_t patience = 10, double threshold = 1e-4,
                                      ThresholdMode threshold_mode = rel, int64_t cooldown = 0,
                                      const std::vector<double>& min_lr = {}, double eps = 1e-8, bool verbose = false);
  virtual ~ReduceLROnPlateauScheduler() = default;

  void step(double metric);
  std::vector<double> get_last_lr() const { return last_lrs_; }
  int64_t last_epoch() const { return last_epoch_; }
  double best() const { return best_; }
  int64_t num_bad_epochs() const { return num_bad_epochs_; }

 private:
  bool is_better(double a, double best) const;
  void reduce_lr();

  Optimizer& optimizer_;
  SchedulerMode mode_;
  double factor_;
  int64_t patience_;
  double threshold_;
  ThresholdMode threshold_mode_;
  int64_t cooldown_;
  std::vector<double> min_lrs_;
  double eps_;
  bool verbose_;
  double best_;
  int64_t num_bad_epochs_ = 0;
  int64_t cooldown_counter_ = 0;
  int64_t last_epoch_ = 0;
  std::vector<double> last_lrs_;
};

using ReduceLROnPlateau = ReduceLROnPlateauScheduler;

}  // namespace torch::optim
