#include "ember/data/samplers/sequential.h"

#include <algorithm>
#include <numeric>

#include "ember/data/samplers/sampler_state.h"

namespace torch::data::samplers {

void SequentialSampler::reset(std::optional<size_t> new_size) {
  if (new_size) size_ = *new_size;
  index_ = 0;
}

std::optional<std::vector<size_t>> SequentialSampler::next(size_t batch_size) {
  const size_t remaining = size_ - index_;
  if (remaining == 0) return std::nullopt;
  std::vector<size_t> batch(std::min(batch_size, remaining));
  std::iota(batch.begin(), batch.end(), index_);
  index_ += batch.size();
  return batch;
}

void SequentialSampler::save(serialize::OutputArchive& archive) const { detail::write_count(archive, "index", index_); }
void SequentialSampler::load(serialize::InputArchive& archive) {
  index_ = detail::read_count(archive, "index");
  EMBER_CHECK(index_ <= size_, "SequentialSampler::load: index ", index_, " is beyond the size ", size_);
}

}  // namespace torch::data::samplers
