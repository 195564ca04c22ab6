#pragma once
// The worker thread of one Gloo process group: collectives run on it in the
// order they were issued, so async_op calls overlap the caller's work and
// every rank still runs the same sequence of collectives.
#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>

#include "ember/core/namespace.h"

namespace torch::distributed::gloo_detail {

class WorkQueue {
 public:
  WorkQueue();
  // Runs what is queued, then stops.
  ~WorkQueue();
  WorkQueue(const WorkQueue&) = delete;
  WorkQueue& operator=(const WorkQueue&) = delete;
  void push(std::function<void()> job);

 private:
  void run();
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<std::function<void()>> jobs_;
  bool stop_ = false;
  std::thread thread_;
};

}  // namespace torch::distributed::gloo_detail
