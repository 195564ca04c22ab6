#pragma once
// WorkerPool: the threads, queues and waiting of a DataLoader with workers,
// compiled once in worker_pool.cpp rather than in every program that names a
// loader (Note [DataLoader threading]). DataLoaderBase<Dataset, ...> wraps
// its requests and batches in Payloads and gives each worker a function
// that owns that worker's copy of the dataset.
#include <cstddef>
#include <exception>
#include <functional>
#include <memory>
#include <vector>

#include "ember/data/dataloader_options.h"

namespace torch::data::detail {

// A batch request or a batch, type-erased for the pool.
struct Payload {
  virtual ~Payload() = default;
};

class WorkerPool {
 public:
  // Turns one request into one batch; may throw (the error reaches pop()).
  using Work = std::function<std::unique_ptr<Payload>(std::unique_ptr<Payload>)>;
  struct Result {
    std::unique_ptr<Payload> batch;
    std::exception_ptr error;
  };

  // Starts one thread per element of `work`; `options` gives the ordering
  // and the timeout of pop().
  WorkerPool(const FullDataLoaderOptions& options, std::vector<Work> work);
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;
  ~WorkerPool();  // joins

  // Queues a request under the next sequence number.
  void push(std::unique_ptr<Payload> request);
  // The next result: the one for the oldest request when ordering is
  // enforced, otherwise whichever finished first. Raises ember::Error on
  // timeout. Call only with in_flight() > 0.
  Result pop();
  // Drops queued requests and waits for (then discards) those being worked
  // on; sequence numbers start again from 0.
  void drain();
  // Requests pushed and not yet popped.
  size_t in_flight() const noexcept { return in_flight_; }
  // Stops and joins the threads.
  void join();

 private:
  struct State;
  FullDataLoaderOptions options_;
  size_t in_flight_ = 0;  // touched only by the iterating thread
  std::unique_ptr<State> state_;
};

}  // namespace torch::data::detail
