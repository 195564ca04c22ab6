#include "ember/optim/schedulers/lambda_lr.h"

#include "ember/core/error.h"

namespace torch::optim {

namespace {
std::vector<LrLambda> checked(const char* name, const Optimizer& optimizer, std::vector<LrLambda> fns) {
  EMBER_CHECK(fns.size() == optimizer.param_groups().size(), name, ": Expected ", optimizer.param_groups().size(),
              " lr_lambdas, but got ", fns.size());
  for (const auto& f : fns) EMBER_CHECK(f != nullptr, name, ": lr_lambda must not be empty");
  return fns;
}
}  // namespace

LambdaLR::LambdaLR(Optimizer& optimizer, LrLambda lr_lambda)
    : LambdaLR(optimizer, std::vector<LrLambda>(optimizer.param_groups().size(), lr_lambda)) {}

LambdaLR::LambdaLR(Optimizer& optimizer, std::vector<LrLambda> lr_lambdas)
    : LRScheduler(optimizer), lr_lambdas_(checked("LambdaLR", optimizer, std::move(lr_lambdas))) {
  initial_step();
}

std::vector<double> LambdaLR::get_lrs() {
  std::vector<double> lrs;
  for (size_t i = 0; i < base_lrs_.size(); ++i) lrs.push_back(base_lrs_[i] * lr_lambdas_[i](last_epoch_));
  return lrs;
}

MultiplicativeLR::MultiplicativeLR(Optimizer& optimizer, LrLambda lr_lambda)
    : MultiplicativeLR(optimizer, std::vector<LrLambda>(optimizer.param_groups().size(), lr_lambda)) {}

MultiplicativeLR::MultiplicativeLR(Optimizer& optimizer, std::vector<LrLambda> lr_lambdas)
    : LRScheduler(optimizer), lr_lambdas_(checked("MultiplicativeLR", optimizer, std::move(lr_lambdas))) {
  initial_step();
}

std::vector<double> MultiplicativeLR::get_lrs() {
  std::vector<double> lrs = get_current_lrs();
  if (last_epoch_ > 0)
    for (size_t i = 0; i < lrs.size(); ++i) lrs[i] *= lr_lambdas_[i](last_epoch_);
  return lrs;
}

}  // namespace torch::optim
