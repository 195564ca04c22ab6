#pragma once
// SequentialSampler: indices 0, 1, ..., size-1 in order.
#include <cstddef>
#include <optional>
#include <vector>

#include "ember/data/samplers/base.h"

namespace torch::data::samplers {

class SequentialSampler : public Sampler<> {
 public:
  explicit SequentialSampler(size_t size) : size_(size) {}

  void reset(std::optional<size_t> new_size = std::nullopt) override;
  std::optional<std::vector<size_t>> next(size_t batch_size) override;
  void save(serialize::OutputArchive& archive) const override;
  void load(serialize::InputArchive& archive) override;

  // The next index to be returned.
  size_t index() const noexcept { return index_; }

 private:
  size_t size_;
  size_t index_ = 0;
};

}  // namespace torch::data::samplers
