#pragma once
// StatelessDataLoader: a loader over a dataset whose batches are chosen by
// a sampler (the loader make_data_loader returns for ordinary datasets).
#include <optional>
#include <utility>

#include "ember/data/dataloader/base.h"

namespace torch::data {

template <typename Dataset, typename Sampler>
class StatelessDataLoader
    : public DataLoaderBase<Dataset, typename Dataset::BatchType, typename Sampler::BatchRequestType> {
  using Super = DataLoaderBase<Dataset, typename Dataset::BatchType, typename Sampler::BatchRequestType>;

 public:
  using typename Super::BatchRequestType;
  using typename Super::BatchType;

  StatelessDataLoader(Dataset dataset, Sampler sampler, DataLoaderOptions options)
      : Super(options), sampler_(std::move(sampler)) {
    this->start(std::move(dataset));
  }
  // Joins before sampler_ goes away (workers never touch it, but keep the
  // threads' lifetime strictly inside the object's).
  ~StatelessDataLoader() override { this->join(); }

 private:
  void reset_sampler() override { sampler_.reset(std::nullopt); }

  std::optional<BatchRequestType> get_batch_request() override {
    std::optional<BatchRequestType> request = sampler_.next(this->options().batch_size);
    if (!request) return std::nullopt;
    if (this->options().drop_last && request_size(*request) < this->options().batch_size) return std::nullopt;
    return request;
  }

  template <typename R>
  static size_t request_size(const R& request) {
    if constexpr (requires { request.size(); }) {
      return request.size();
    } else {
      return static_cast<size_t>(request);
    }
  }

  Sampler sampler_;
};

}  // namespace torch::data
