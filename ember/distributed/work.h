#pragma once
// Work: the handle of one asynchronous collective or point-to-point op
// (torch.distributed.Work, what async_op=True returns).
#include <condition_variable>
#include <exception>
#include <functional>
#include <mutex>
#include <string>
#include <vector>

#include "ember/core/tensor.h"
#include "ember/distributed/types.h"

namespace torch::distributed {

class Work {
 public:
  explicit Work(std::string op = "", std::vector<Tensor> result = {});
  virtual ~Work();
  Work(const Work&) = delete;
  Work& operator=(const Work&) = delete;

  virtual bool is_completed();
  bool is_success();
  std::exception_ptr exception();
  // Blocks until the op finishes and raises its ember::Error if it failed.
  // With a timeout (non-zero), raises when the op is not done by then.
  virtual bool wait(std::chrono::milliseconds timeout = kNoTimeout);
  std::vector<Tensor> result();
  // The sender of a recv from any source (-1 otherwise).
  virtual int64_t source_rank();
  // CPU ops have no stream to synchronize with.
  void synchronize() {}
  const std::string& op() const { return op_; }

  // Marks the op done (with its error, if any); runs the callbacks added with then().
  void finish(std::exception_ptr error = nullptr);
  // Runs f once the op has finished (at once when it already has), on the finishing thread.
  void then(std::function<void(Work&)> f);

 protected:
  std::mutex mu_;
  std::condition_variable cv_;
  bool completed_ = false;
  std::exception_ptr error_;
  std::string op_;
  std::vector<Tensor> result_;
  std::vector<std::function<void(Work&)>> callbacks_;
};

}  // namespace torch::distributed
