#pragma once
// DataLoaderBase: turns batch requests (from a sampler, supplied by the
// derived loader) into batches, on the iterating thread or on worker threads.
//
// Note [DataLoader threading]
// With workers > 0 the iterating ("main") thread keeps up to max_jobs
// requests in flight: it pushes Jobs (sequence number + request) onto jobs_;
// each worker owns a copy of the dataset, pops a job, calls get_batch and
// stores the Result under its sequence number in results_. jobs_, results_
// and quit_ are guarded by mu_; workers wait on jobs_cv_, the main thread on
// results_cv_. The sampler and the counters (in_flight_, next_seq_,
// expected_seq_, exhausted_) are touched only by the main thread. With
// enforce_ordering the main thread waits for sequence number expected_seq_,
// so batches come in sampler order for any worker count. A new epoch
// (begin()) first drains every job in flight, so no stale batch survives it.
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <exception>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <utility>
#include <vector>

#include "ember/core/error.h"
#include "ember/data/dataloader_options.h"
#include "ember/data/iterator.h"
#include "ember/data/worker_exception.h"

namespace ember::data {

template <typename Dataset, typename Batch, typename BatchRequest>
class DataLoaderBase {
 public:
  using BatchType = Batch;
  using BatchRequestType = BatchRequest;

  explicit DataLoaderBase(DataLoaderOptions options) : options_(options) {
    EMBER_CHECK(options_.batch_size > 0, "DataLoader: batch_size must be positive");
    EMBER_CHECK(options_.workers == 0 || options_.max_jobs > 0,
                "DataLoader: max_jobs must be positive when using worker threads");
  }
  DataLoaderBase(const DataLoaderBase&) = delete;
  DataLoaderBase& operator=(const DataLoaderBase&) = delete;
  virtual ~DataLoaderBase() { join(); }

  // Starts a new epoch (resets the sampler) and returns its first position.
  Iterator<Batch> begin() {
    reset();
    return Iterator<Batch>([this] { return next(); });
  }
  Iterator<Batch> end() { return Iterator<Batch>(); }

  // Stops and joins the worker threads; the loader yields nothing afterwards.
  void join() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      quit_ = true;
    }
    jobs_cv_.notify_all();
    for (std::thread& worker : workers_)
      if (worker.joinable()) worker.join();
    workers_.clear();
  }

  const FullDataLoaderOptions& options() const noexcept { return options_; }

 protected:
  // The next request from the sampler, nullopt at the end of the epoch.
  virtual std::optional<BatchRequest> get_batch_request() = 0;
  virtual void reset_sampler() = 0;

  // Called by the derived constructor: with workers, each gets its own copy
  // of the dataset (datasets need not be thread-safe); without, the main
  // thread keeps the only one.
  void start(Dataset dataset) {
    if (options_.workers == 0) {
      main_thread_dataset_ = std::make_unique<Dataset>(std::move(dataset));
      return;
    }
    workers_.reserve(options_.workers);
    for (size_t w = 0; w < options_.workers; ++w)
      workers_.emplace_back([this, copy = dataset]() mutable { worker_loop(copy); });
  }

 private:
  struct Job {
    size_t seq;
    BatchRequest request;
  };
  struct Result {
    std::optional<Batch> batch;
    std::exception_ptr error;
  };

  void reset() {
    drain();
    reset_sampler();
    next_seq_ = expected_seq_ = 0;
    exhausted_ = false;
    prefetch();
  }

  std::optional<Batch> next() {
    if (!main_thread_dataset_ && workers_.empty()) return std::nullopt;  // joined
    if (main_thread_dataset_) {
      std::optional<BatchRequest> request = get_batch_request();
      if (!request) return std::nullopt;
      return main_thread_dataset_->get_batch(std::move(*request));
    }
    prefetch();
    if (in_flight_ == 0) return std::nullopt;
    Result result = pop_result();
    --in_flight_;
    prefetch();  // keep the workers busy while the caller uses this batch
    if (result.error) throw WorkerException(result.error);
    return std::move(result.batch);
  }

  // Requests batches until max_jobs are in flight or the sampler runs dry.
  void prefetch() {
    if (workers_.empty()) return;
    while (!exhausted_ && in_flight_ < options_.max_jobs) {
      std::optional<BatchRequest> request = get_batch_request();
      if (!request) {
        exhausted_ = true;
        break;
      }
      {
        std::lock_guard<std::mutex> lock(mu_);
        jobs_.push_back(Job{next_seq_++, std::move(*request)});
      }
      ++in_flight_;
      jobs_cv_.notify_one();
    }
  }

  Result pop_result() {
    std::unique_lock<std::mutex> lock(mu_);
    const auto ready = [&] {
      return options_.enforce_ordering ? results_.count(expected_seq_) != 0 : !results_.empty();
    };
    if (options_.timeout) {
      EMBER_CHECK(results_cv_.wait_for(lock, *options_.timeout, ready),
                  "DataLoader: timeout while waiting for the next batch (timeout was ", options_.timeout->count(),
                  " ms)");
    } else {
      results_cv_.wait(lock, ready);
    }
    auto it = options_.enforce_ordering ? results_.find(expected_seq_) : results_.begin();
    Result result = std::move(it->second);
    results_.erase(it);
    if (options_.enforce_ordering) ++expected_seq_;
    return result;
  }

  // Drops queued jobs and waits for (then discards) those being worked on.
  void drain() {
    if (workers_.empty()) return;
    std::unique_lock<std::mutex> lock(mu_);
    in_flight_ -= jobs_.size();
    jobs_.clear();
    results_cv_.wait(lock, [&] { return results_.size() == in_flight_; });
    results_.clear();
    in_flight_ = 0;
  }

  void worker_loop(Dataset& dataset) {
    for (;;) {
      std::optional<Job> job;
      {
        std::unique_lock<std::mutex> lock(mu_);
        jobs_cv_.wait(lock, [&] { return quit_ || !jobs_.empty(); });
        if (quit_) return;
        job.emplace(std::move(jobs_.front()));
        jobs_.pop_front();
      }
      Result result;
      try {
        result.batch = dataset.get_batch(std::move(job->request));
      } catch (...) {
        result.error = std::current_exception();
      }
      {
        std::lock_guard<std::mutex> lock(mu_);
        results_.emplace(job->seq, std::move(result));
      }
      results_cv_.notify_one();
    }
  }

  FullDataLoaderOptions options_;
  std::unique_ptr<Dataset> main_thread_dataset_;
  std::vector<std::thread> workers_;

  // Main thread only (Note [DataLoader threading]).
  size_t in_flight_ = 0;
  size_t next_seq_ = 0;
  size_t expected_seq_ = 0;
  bool exhausted_ = false;

  // Guarded by mu_.
  std::mutex mu_;
  std::condition_variable jobs_cv_;
  std::condition_variable results_cv_;
  std::deque<Job> jobs_;
  std::map<size_t, Result> results_;
  bool quit_ = false;
};

}  // namespace ember::data
