#include "ember/distributed/work.h"

#include "ember/core/error.h"

namespace torch::distributed {

const char* reduce_op_name(ReduceOp op) {
  switch (op) {
    case ReduceOp::SUM:
      return "SUM";
    case ReduceOp::AVG:
      return "AVG";
    case ReduceOp::PRODUCT:
      return "PRODUCT";
    case ReduceOp::MIN:
      return "MIN";
    case ReduceOp::MAX:
      return "MAX";
    case ReduceOp::BAND:
      return "BAND";
    case ReduceOp::BOR:
      return "BOR";
    case ReduceOp::BXOR:
      return "BXOR";
  }
  return "?";
}

Work::Work(std::string op, std::vector<Tensor> result) : op_(std::move(op)), result_(std::move(result)) {}
Work::~Work() = default;

bool Work::is_completed() {
  std::lock_guard<std::mutex> lock(mu_);
  return completed_;
}

bool Work::is_success() {
  std::lock_guard<std::mutex> lock(mu_);
  return completed_ && !error_;
}

std::exception_ptr Work::exception() {
  std::lock_guard<std::mutex> lock(mu_);
  return error_;
}

bool Work::wait(std::chrono::milliseconds timeout) {
  std::unique_lock<std::mutex> lock(mu_);
  if (timeout == kNoTimeout) {
    cv_.wait(lock, [&] { return completed_; });
  } else {
    bool done = cv_.wait_for(lock, timeout, [&] { return completed_; });
    EMBER_CHECK(done, "Work.wait: ", op_, " did not complete within ", timeout.count(), " ms");
  }
  if (error_) std::rethrow_exception(error_);
  return true;
}

std::vector<Tensor> Work::result() {
  std::lock_guard<std::mutex> lock(mu_);
  return result_;
}

int64_t Work::source_rank() { return -1; }

void Work::finish(std::exception_ptr error) {
  std::vector<std::function<void(Work&)>> callbacks;
  {
    std::lock_guard<std::mutex> lock(mu_);
    completed_ = true;
    error_ = std::move(error);
    callbacks.swap(callbacks_);
  }
  cv_.notify_all();
  for (auto& f : callbacks) f(*this);
}

void Work::then(std::function<void(Work&)> f) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (!completed_) {
      callbacks_.push_back(std::move(f));
      return;
    }
  }
  f(*this);
}

}  // namespace torch::distributed
