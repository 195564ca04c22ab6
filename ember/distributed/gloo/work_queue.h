#pragma once
// The worker thread of one Gloo process group: collectives run on it in the
// order they were issued, so async_op calls overlap the caller's work and
// every rank still runs the same sequence of collectives.
// Note [Running a waited-for job inline]
// A caller that waits for a job which is next in line and not yet started
// runs it on its own thread instead (run_if_next): a blocking collective then
// costs no thread hand-off, and the order is unchanged because only the head
// of the queue may be taken, and only while no other job runs.
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>

#include "ember/core/namespace.h"

namespace torch::distributed::gloo_detail {

// Marks, on this thread, that the caller waits for the ops it queues at once
// (a blocking collective): push() then leaves the worker asleep, and the wait
// runs the job here. An op nobody waits for still runs: the next woken push,
// or the queue's destructor, runs everything queued before it.
class CallerWaits {
 public:
  explicit CallerWaits(bool waits);
  ~CallerWaits();
  CallerWaits(const CallerWaits&) = delete;
  CallerWaits& operator=(const CallerWaits&) = delete;
  static bool active();

 private:
  bool previous_;
};

class WorkQueue {
 public:
  WorkQueue();
  // Runs what is queued, then stops.
  ~WorkQueue();
  WorkQueue(const WorkQueue&) = delete;
  WorkQueue& operator=(const WorkQueue&) = delete;
  // Returns the job's id. The worker is woken unless CallerWaits is active.
  uint64_t push(std::function<void()> job);
  // Runs job `id` here if it is next and nothing runs; false otherwise, and
  // then wakes the worker (a job queued by CallerWaits may be ahead of it).
  bool run_if_next(uint64_t id);

 private:
  struct Job {
    uint64_t id;
    std::function<void()> fn;
  };
  void run();
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<Job> jobs_;
  uint64_t next_id_ = 0;
  bool busy_ = false;
  bool stop_ = false;
  std::thread thread_;
};

}  // namespace torch::distributed::gloo_detail
