// WorkerPool (Note [DataLoader threading]).
#include "ember/data/dataloader/worker_pool.h"

#include <condition_variable>
#include <deque>
#include <map>
#include <mutex>
#include <thread>
#include <utility>

#include "ember/core/error.h"

namespace torch::data::detail {

namespace {
struct Job {
  size_t seq;
  std::unique_ptr<Payload> request;
};
}  // namespace

// Everything the worker threads share with the iterating thread; jobs,
// results and quit are guarded by mu. next_seq and expected_seq are the
// iterating thread's alone.
struct WorkerPool::State {
  std::mutex mu;
  std::condition_variable jobs_cv;
  std::condition_variable results_cv;
  std::deque<Job> jobs;
  std::map<size_t, Result> results;
  bool quit = false;
  size_t next_seq = 0;
  size_t expected_seq = 0;
  std::vector<std::thread> threads;

  void worker_loop(const Work& work) {
    for (;;) {
      Job job;
      {
        std::unique_lock<std::mutex> lock(mu);
        jobs_cv.wait(lock, [&] { return quit || !jobs.empty(); });
        if (quit) return;
        job = std::move(jobs.front());
        jobs.pop_front();
      }
      Result result;
      try {
        result.batch = work(std::move(job.request));
      } catch (...) {
        result.error = std::current_exception();
      }
      {
        std::lock_guard<std::mutex> lock(mu);
        results.emplace(job.seq, std::move(result));
      }
      results_cv.notify_one();
    }
  }
};

WorkerPool::WorkerPool(const FullDataLoaderOptions& options, std::vector<Work> work)
    : options_(options), state_(std::make_unique<State>()) {
  state_->threads.reserve(work.size());
  for (Work& w : work)
    state_->threads.emplace_back([state = state_.get(), w = std::move(w)] { state->worker_loop(w); });
}

WorkerPool::~WorkerPool() { join(); }

void WorkerPool::join() {
  {
    std::lock_guard<std::mutex> lock(state_->mu);
    state_->quit = true;
  }
  state_->jobs_cv.notify_all();
  for (std::thread& t : state_->threads)
    if (t.joinable()) t.join();
  state_->threads.clear();
}

void WorkerPool::push(std::unique_ptr<Payload> request) {
  {
    std::lock_guard<std::mutex> lock(state_->mu);
    state_->jobs.push_back(Job{state_->next_seq++, std::move(request)});
  }
  ++in_flight_;
  state_->jobs_cv.notify_one();
}

WorkerPool::Result WorkerPool::pop() {
  EMBER_CHECK(in_flight_ > 0, "DataLoader: no batch requested from the workers");
  State& s = *state_;
  std::unique_lock<std::mutex> lock(s.mu);
  const auto ready = [&] {
    return options_.enforce_ordering ? s.results.count(s.expected_seq) != 0 : !s.results.empty();
  };
  if (options_.timeout) {
    EMBER_CHECK(s.results_cv.wait_for(lock, *options_.timeout, ready),
                "DataLoader: Timeout while waiting for the next batch (timeout was ", options_.timeout->count(),
                " ms)");
  } else {
    s.results_cv.wait(lock, ready);
  }
  auto it = options_.enforce_ordering ? s.results.find(s.expected_seq) : s.results.begin();
  Result result = std::move(it->second);
  s.results.erase(it);
  if (options_.enforce_ordering) ++s.expected_seq;
  --in_flight_;
  return result;
}

void WorkerPool::drain() {
  State& s = *state_;
  std::unique_lock<std::mutex> lock(s.mu);
  in_flight_ -= s.jobs.size();
  s.jobs.clear();
  s.results_cv.wait(lock, [&] { return s.results.size() == in_flight_; });
  s.results.clear();
  in_flight_ = 0;
  s.next_seq = s.expected_seq = 0;
}

}  // namespace torch::data::detail
