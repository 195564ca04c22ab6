#include "ember/distributed/ddp/future.h"

namespace torch::distributed {

Tensor Future::wait() {
  if (work_) work_->wait();
  work_.reset();
  for (auto& f : then_) value_ = f(value_);
  then_.clear();
  return value_;
}

Future Future::then(std::function<Tensor(const Tensor&)> f) && {
  then_.push_back(std::move(f));
  return std::move(*this);
}

}  // namespace torch::distributed
