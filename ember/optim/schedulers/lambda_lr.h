#pragma once
// Schedulers driven by user functions of the epoch: LambdaLR (lr = base_lr *
// f(epoch)) and MultiplicativeLR (lr *= f(epoch)).
#include <functional>

#include "ember/optim/schedulers/lr_scheduler.h"

namespace torch::optim {

using LrLambda = std::function<double(int64_t epoch)>;

class LambdaLR : public LRScheduler {
 public:
  LambdaLR(Optimizer& optimizer, LrLambda lr_lambda);
  // One function per param group.
  LambdaLR(Optimizer& optimizer, std::vector<LrLambda> lr_lambdas);

 protected:
  std::vector<double> get_lrs() override;

 private:
  std::vector<LrLambda> lr_lambdas_;
};

class MultiplicativeLR : public LRScheduler {
 public:
  MultiplicativeLR(Optimizer& optimizer, LrLambda lr_lambda);
  MultiplicativeLR(Optimizer& optimizer, std::vector<LrLambda> lr_lambdas);

 protected:
  std::vector<double> get_lrs() override;

 private:
  std::vector<LrLambda> lr_lambdas_;
};

}  // namespace torch::optim
