#include "ember/distributed/gloo/work_queue.h"

namespace torch::distributed::gloo_detail {

namespace {
thread_local bool t_caller_waits = false;
}  // namespace

CallerWaits::CallerWaits(bool waits) : previous_(t_caller_waits) { t_caller_waits = waits; }
CallerWaits::~CallerWaits() { t_caller_waits = previous_; }
bool CallerWaits::active() { return t_caller_waits; }

WorkQueue::WorkQueue() : thread_([this] { run(); }) {}

WorkQueue::~WorkQueue() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  thread_.join();
}

uint64_t WorkQueue::push(std::function<void()> job) {
  uint64_t id;
  {
    std::lock_guard<std::mutex> lock(mu_);
    id = next_id_++;
    jobs_.push_back({id, std::move(job)});
  }
  if (!CallerWaits::active()) cv_.notify_all();
  return id;
}

bool WorkQueue::run_if_next(uint64_t id) {
  std::function<void()> fn;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (busy_ || jobs_.empty() || jobs_.front().id != id) {
      cv_.notify_all();
      return false;
    }
    fn = std::move(jobs_.front().fn);
    jobs_.pop_front();
    busy_ = true;
  }
  fn();  // jobs catch their own errors and report them through their Work
  {
    std::lock_guard<std::mutex> lock(mu_);
    busy_ = false;
  }
  cv_.notify_all();
  return true;
}

void WorkQueue::run() {
  for (;;) {
    std::function<void()> fn;
    {
      std::unique_lock<std::mutex> lock(mu_);
      cv_.wait(lock, [&] { return (stop_ && !busy_) || (!jobs_.empty() && !busy_); });
      if (jobs_.empty()) return;
      fn = std::move(jobs_.front().fn);
      jobs_.pop_front();
      busy_ = true;
    }
    fn();
    {
      std::lock_guard<std::mutex> lock(mu_);
      busy_ = false;
    }
    cv_.notify_all();
  }
}

}  // namespace torch::distributed::gloo_detail
