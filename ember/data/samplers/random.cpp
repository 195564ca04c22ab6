#include "ember/data/samplers/random.h"

#include <algorithm>

#include "ember/data/samplers/sampler_state.h"
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

// The position and the epoch's permutation, under LibTorch's keys.
void RandomSampler::save(serialize::OutputArchive& archive) const {
  detail::write_count(archive, "index", index_);
  archive.write("indices", indices_, /*is_buffer=*/true);
}
void RandomSampler::load(serialize::InputArchive& archive) {
  const size_t index = detail::read_count(archive, "index");
  Tensor indices;
  archive.read("indices", indices, /*is_buffer=*/true);
  EMBER_CHECK(indices.dim() == 1 && !indices.is_floating_point() && !indices.is_complex(),
              "RandomSampler::load: 'indices' must be a 1-D integer tensor, got ", indices.sizes(), " ",
              indices.dtype());
  EMBER_CHECK(index <= static_cast<size_t>(indices.numel()), "RandomSampler::load: index ", index, " is beyond the ",
              indices.numel(), " indices");
  indices_ = indices.to(kInt64).contiguous();
  index_ = index;
}

}  // namespace torch::data::samplers
