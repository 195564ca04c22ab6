#pragma once
// DataLoaderBase: turns batch requests (from a sampler, supplied by the
// derived loader) into batches, on the iterating thread or on worker threads.
//
// Note [DataLoader threading]
// With workers > 0 the iterating ("main") thread keeps up to max_jobs
// requests in flight in a detail::WorkerPool: it pushes each request under a
// sequence number; each worker owns a copy of the dataset, pops a job, calls
// get_batch and stores the result under its sequence number. The pool's
// queues are guarded by one mutex; workers wait on one condition variable,
// the main thread on another. The sampler and the counters are touched only
// by the main thread. With enforce_ordering the main thread waits for the
// oldest sequence number, so batches come in sampler order for any worker
// count. A new epoch (begin()) first drains every job in flight, so no stale
// batch survives it. The pool is not a template: the threads, queues and
// waits are compiled once in worker_pool.cpp, and this header stays cheap
// for every program that names a loader; requests and batches cross it as
// type-erased Payloads.
#include <cstddef>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "ember/core/error.h"
#include "ember/data/dataloader/worker_pool.h"
#include "ember/data/dataloader_options.h"
#include "ember/data/iterator.h"
#include "ember/data/worker_exception.h"

namespace torch::data {

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
  void join() { pool_.reset(); }

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
    std::vector<detail::WorkerPool::Work> work;
    work.reserve(options_.workers);
    for (size_t w = 0; w < options_.workers; ++w)
      work.emplace_back([copy = dataset](std::unique_ptr<detail::Payload> request) mutable {
        auto& r = static_cast<Boxed<BatchRequest>&>(*request);
        return std::unique_ptr<detail::Payload>(new Boxed<Batch>(copy.get_batch(std::move(r.value))));
      });
    pool_ = std::make_unique<detail::WorkerPool>(options_, std::move(work));
  }

 private:
  template <typename T>
  struct Boxed : detail::Payload {
    explicit Boxed(T v) : value(std::move(v)) {}
    T value;
  };

  void reset() {
    if (pool_) pool_->drain();
    reset_sampler();
    exhausted_ = false;
    prefetch();
  }

  std::optional<Batch> next() {
    if (main_thread_dataset_) {
      std::optional<BatchRequest> request = get_batch_request();
      if (!request) return std::nullopt;
      return main_thread_dataset_->get_batch(std::move(*request));
    }
    if (!pool_) return std::nullopt;  // joined
    prefetch();
    if (pool_->in_flight() == 0) return std::nullopt;
    detail::WorkerPool::Result result = pool_->pop();
    prefetch();  // keep the workers busy while the caller uses this batch
    if (result.error) throw WorkerException(result.error);
    return std::move(static_cast<Boxed<Batch>&>(*result.batch).value);
  }

  // Requests batches until max_jobs are in flight or the sampler runs dry.
  void prefetch() {
    if (!pool_) return;
    while (!exhausted_ && pool_->in_flight() < options_.max_jobs) {
      std::optional<BatchRequest> request = get_batch_request();
      if (!request) {
        exhausted_ = true;
        break;
      }
      pool_->push(std::unique_ptr<detail::Payload>(new Boxed<BatchRequest>(std::move(*request))));
    }
  }

  FullDataLoaderOptions options_;
  std::unique_ptr<Dataset> main_thread_dataset_;
  std::unique_ptr<detail::WorkerPool> pool_;
  bool exhausted_ = false;  // the sampler ran dry this epoch (main thread only)
};

}  // namespace torch::data
