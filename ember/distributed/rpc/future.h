#pragma once
// rpc::Future (torch.futures.Future for RPC results): completed once, by a
// value or an error; wait() blocks until then or its deadline; then()
// chains a function run on the completing thread.
#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "ember/distributed/object.h"

namespace torch::distributed::rpc {

class Future {
 public:
  Future();
  // Blocks until completed (raising the error as ember::Error) or the deadline set at the call passes.
  Object wait() const;
  Object value() const { return wait(); }
  bool done() const;
  // f(result) runs when this completes; its return (or exception) completes the returned future.
  Future then(std::function<Object(const Object&)> f) const;

  // The completing side.
  void set_result(Object value) const;
  void set_error(std::string message) const;
  void set_deadline(std::chrono::steady_clock::time_point deadline, std::string what) const;

 private:
  struct State {
    std::mutex mu;
    std::condition_variable cv;
    bool done = false;
    Object value;
    std::optional<std::string> error;
    std::optional<std::chrono::steady_clock::time_point> deadline;
    std::string what;
    std::vector<std::function<void()>> callbacks;
  };
  void complete(std::unique_lock<std::mutex>& lock) const;
  std::shared_ptr<State> s_;
};

}  // namespace torch::distributed::rpc
