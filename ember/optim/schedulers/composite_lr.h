#pragma once
// Schedulers made of schedulers: SequentialLR (one after another, switching
// at milestones) and ChainedScheduler (all of them every step).
#include <memory>

#include "ember/optim/schedulers/lr_scheduler.h"

namespace torch::optim {

class SequentialLR : public LRScheduler {
 public:
  // The schedulers must drive `optimizer`; milestones.size() == schedulers.size() - 1.
  SequentialLR(Optimizer& optimizer, std::vector<std::shared_ptr<LRScheduler>> schedulers,
               std::vector<int64_t> milestones);
  void step() override;

 protected:
  std::vector<double> get_lrs() override { return get_current_lrs(); }

 private:
  std::vector<std::shared_ptr<LRScheduler>> schedulers_;
  std::vector<int64_t> milestones_;
};

class ChainedScheduler : public LRScheduler {
 public:
  explicit ChainedScheduler(std::vector<std::shared_ptr<LRScheduler>> schedulers);
  void step() override;

 protected:
  std::vector<double> get_lrs() override { return get_current_lrs(); }

 private:
  static Optimizer& optimizer_of(const std::vector<std::shared_ptr<LRScheduler>>& schedulers);

  std::vector<std::shared_ptr<LRScheduler>> schedulers_;
};

}  // namespace torch::optim
