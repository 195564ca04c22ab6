#pragma once
// DataLoaderOptions: the chained-setter options of make_data_loader, and
// FullDataLoaderOptions, the same with every default filled in.
#include <chrono>
#include <cstddef>
#include <optional>

#include "ember/core/namespace.h"

namespace torch::data {

// Each option is a getter `x()` and a chaining setter `x(value)`, like TORCH_ARG.
#define EMBER_DATA_ARG(T, name, default_value)       \
 public:                                             \
  auto name(const T& value)->decltype(*this) {       \
    name##_ = value;                                 \
    return *this;                                    \
  }                                                  \
  const T& name() const noexcept { return name##_; } \
                                                     \
 private:                                            \
  T name##_ = default_value

struct DataLoaderOptions {
  DataLoaderOptions() = default;
  DataLoaderOptions(size_t batch_size) : batch_size_(batch_size) {}  // NOLINT: make_data_loader(ds, 64)

  // Examples per batch.
  EMBER_DATA_ARG(size_t, batch_size, 1);
  // Worker threads; 0 means the iterating thread loads each batch itself.
  EMBER_DATA_ARG(size_t, workers, 0);
  // Batches requested ahead of the consumer; defaults to 2 * workers.
  EMBER_DATA_ARG(std::optional<size_t>, max_jobs, std::nullopt);
  // How long to wait for a worker's batch before raising.
  EMBER_DATA_ARG(std::optional<std::chrono::milliseconds>, timeout, std::nullopt);
  // Deliver batches in sampler order whatever the worker count.
  EMBER_DATA_ARG(bool, enforce_ordering, true);
  // Drop the last batch when it is smaller than batch_size.
  EMBER_DATA_ARG(bool, drop_last, false);
};

#undef EMBER_DATA_ARG

struct FullDataLoaderOptions {
  explicit FullDataLoaderOptions(const DataLoaderOptions& o)
      : batch_size(o.batch_size()),
        workers(o.workers()),
        max_jobs(o.max_jobs().value_or(2 * o.workers())),
        timeout(o.timeout()),
        enforce_ordering(o.enforce_ordering()),
        drop_last(o.drop_last()) {}

  size_t batch_size;
  size_t workers;
  size_t max_jobs;
  std::optional<std::chrono::milliseconds> timeout;
  bool enforce_ordering;
  bool drop_last;
};

}  // namespace torch::data
