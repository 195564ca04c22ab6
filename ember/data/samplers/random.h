#pragma once
// RandomSampler: a fresh random permutation of 0..size-1 each epoch, drawn
// from the global generator so torch::manual_seed makes the order reproducible.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "ember/core/tensor.h"
#include "ember/data/samplers/base.h"

namespace torch::data::samplers {

class RandomSampler : public Sampler<> {
 public:
  // Like LibTorch, draws a first permutation here and a new one on each reset.
  explicit RandomSampler(int64_t size, ScalarType index_dtype = kInt64);

  void reset(std::optional<size_t> new_size = std::nullopt) override;
  std::optional<std::vector<size_t>> next(size_t batch_size) override;
  void save(serialize::OutputArchive& archive) const override;
  void load(serialize::InputArchive& archive) override;

  // The position within the current permutation.
  size_t index() const noexcept { return index_; }

 private:
  Tensor indices_;  // int64 permutation; index_dtype only decides the default when resized
  ScalarType index_dtype_;
  size_t index_ = 0;
};

}  // namespace torch::data::samplers
