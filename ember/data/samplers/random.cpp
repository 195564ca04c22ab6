#include "ember/data/samplers/random.h"

#include <algorithm>

#include "ember/ops/factory/random.h"

namespace torch::data::samplers {

namespace {
Tensor permutation(int64_t size, ScalarType dtype) {
  EMBER_CHECK(size >= 0, "RandomSampler: size must be non-negative, got ", size);
  EMBER_CHECK(dtype == kInt64 || dtype == kInt32 || dtype == kInt16,
              "RandomSampler: index dtype must be an integer type, got ", dtype);
  return randperm(size, TensorOptions().dtype(dtype)).to(kInt64);
}
}  // namespace

RandomSampler::RandomSampler(int64_t size, ScalarType index_dtype)
    : indices_(permutation(size, index_dtype)), index_dtype_(index_dtype) {}

void RandomSampler::reset(std::optional<size_t> new_size) {
  const size_t size = new_size.value_or(static_cast<size_t>(indices_.numel()));
  indices_ = permutation(static_cast<int64_t>(size), index_dtype_);
  index_ = 0;
}

std::optional<std::vector<size_t>> RandomSampler::next(size_t batch_size) {
  const size_t remaining = static_cast<size_t>(indices_.numel()) - index_;
  if (remaining == 0) return std::nullopt;
  std::vector<size_t> batch(std::min(batch_size, remaining));
  const int64_t* data = indices_.data_ptr<int64_t>() + index_;
  std::copy(data, data + batch.size(), batch.begin());
  index_ += batch.size();
  return batch;
}

}  // namespace torch::data::samplers
