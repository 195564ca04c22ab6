#pragma once
// StreamSampler: for stream datasets, requests batch sizes (not indices)
// until epoch_size examples have been asked for.
#include <algorithm>
#include <cstddef>
#include <optional>

#include "ember/data/samplers/base.h"

namespace torch::data::samplers {

// A batch request that is just a size.
struct BatchSize : CustomBatchRequest {
  BatchSize(size_t size) : size_(size) {}  // NOLINT: implicit like LibTorch
  size_t size() const noexcept override { return size_; }
  operator size_t() const noexcept { return size_; }  // NOLINT
  size_t size_;
};

class StreamSampler : public Sampler<BatchSize> {
 public:
  explicit StreamSampler(size_t epoch_size) : epoch_size_(epoch_size) {}

  void reset(std::optional<size_t> new_size = std::nullopt) override {
    if (new_size) epoch_size_ = *new_size;
    examples_retrieved_so_far_ = 0;
  }
  std::optional<BatchSize> next(size_t batch_size) override {
    if (examples_retrieved_so_far_ >= epoch_size_) return std::nullopt;
    const size_t n = std::min(batch_size, epoch_size_ - examples_retrieved_so_far_);
    examples_retrieved_so_far_ += n;
    return BatchSize(n);
  }
  void save(serialize::OutputArchive& archive) const override;
  void load(serialize::InputArchive& archive) override;

 private:
  size_t examples_retrieved_so_far_ = 0;
  size_t epoch_size_;
};

}  // namespace torch::data::samplers
