#pragma once
// Future: what a DDP communication hook returns (torch.futures.Future[Tensor]):
// an asynchronous Work and the tensor it fills, with continuations applied in
// order when wait() runs.
#include <functional>
#include <memory>
#include <vector>

#include "ember/distributed/work.h"

namespace torch::distributed {

class Future {
 public:
  // An already completed future holding value.
  explicit Future(Tensor value) : value_(std::move(value)) {}
  Future(std::shared_ptr<Work> work, Tensor value) : work_(std::move(work)), value_(std::move(value)) {}
  // Waits for the work (raising its error) and returns the value the continuations made.
  Tensor wait();
  // f(value) runs after the work; its result is the new value.
  Future then(std::function<Tensor(const Tensor&)> f) &&;
  bool done() const { return !work_ || work_->is_completed(); }

 private:
  std::shared_ptr<Work> work_;
  Tensor value_;
  std::vector<std::function<Tensor(const Tensor&)>> then_;
};

}  // namespace torch::distributed
