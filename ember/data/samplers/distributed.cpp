#include "ember/data/samplers/distributed.h"

#include <algorithm>
#include <numeric>
#include <random>

#include "ember/data/samplers/sampler_state.h"

namespace torch::data::samplers {

DistributedRandomSampler::DistributedRandomSampler(size_t size, size_t num_replicas, size_t rank, bool allow_duplicates)
    : DistributedSampler(size, num_replicas, rank, allow_duplicates) {
  reset(size_);
}

void DistributedRandomSampler::reset(std::optional<size_t> new_size) {
  size_ = new_size.value_or(size_);
  populate_indices();
  std::mt19937 rng(static_cast<std::mt19937::result_type>(epoch_));
  std::shuffle(all_indices_.begin(), all_indices_.end(), rng);
  sample_index_ = begin_index_;
}

std::optional<std::vector<size_t>> DistributedRandomSampler::next(size_t batch_size) {
  if (sample_index_ == end_index_) return std::nullopt;
  const size_t end = std::min(sample_index_ + batch_size, end_index_);
  std::vector<size_t> batch(all_indices_.begin() + sample_index_, all_indices_.begin() + end);
  sample_index_ = end;
  return batch;
}

void DistributedRandomSampler::populate_indices() {
  const size_t local = local_sample_count();
  const size_t count = num_replicas_ == 1 ? size_ : local * num_replicas_;
  all_indices_.resize(count);
  std::iota(all_indices_.begin(), all_indices_.end(), 0);
  // Padding so every replica gets the same number of samples repeats the start, as
  // often as needed: with more replicas than samples the padding is longer than the
  // dataset (size 1 over 4 replicas pads 3), so it wraps instead of running past the end.
  for (size_t i = size_; i < count; ++i) all_indices_[i] = (i - size_) % size_;
  begin_index_ = rank_ * local;
  end_index_ = begin_index_ + local;
  sample_index_ = begin_index_;
}

// The epoch (which decides the shuffle) and the position, under LibTorch's keys; loading
// rebuilds the epoch's shuffle from the epoch.
void DistributedRandomSampler::save(serialize::OutputArchive& archive) const {
  detail::write_count(archive, "sample_index_", sample_index_);
  detail::write_count(archive, "epoch_", epoch_);
}
void DistributedRandomSampler::load(serialize::InputArchive& archive) {
  const size_t sample_index = detail::read_count(archive, "sample_index_");
  epoch_ = detail::read_count(archive, "epoch_");
  reset(size_);
  EMBER_CHECK(sample_index >= begin_index_ && sample_index <= end_index_, "DistributedRandomSampler::load: index ",
              sample_index, " is outside this replica's range [", begin_index_, ", ", end_index_, "]");
  sample_index_ = sample_index;
}

DistributedSequentialSampler::DistributedSequentialSampler(size_t size, size_t num_replicas, size_t rank,
                                                           bool allow_duplicates)
    : DistributedSampler(size, num_replicas, rank, allow_duplicates) {
  populate_indices();
}

void DistributedSequentialSampler::reset(std::optional<size_t> new_size) {
  const size_t size = new_size.value_or(size_);
  if (size != size_) {
    size_ = size;
    populate_indices();
  } else {
    sample_index_ = begin_index_;
  }
}

std::optional<std::vector<size_t>> DistributedSequentialSampler::next(size_t batch_size) {
  if (sample_index_ == end_index_) return std::nullopt;
  const size_t end = std::min(sample_index_ + batch_size, end_index_);
  std::vector<size_t> batch(end - sample_index_);
  std::iota(batch.begin(), batch.end(), sample_index_);
  if (end >= size_) {
    for (size_t& index : batch) index %= size_;
  }
  sample_index_ = end;
  return batch;
}

void DistributedSequentialSampler::save(serialize::OutputArchive& archive) const {
  detail::write_count(archive, "sample_index_", sample_index_);
}
void DistributedSequentialSampler::load(serialize::InputArchive& archive) {
  const size_t sample_index = detail::read_count(archive, "sample_index_");
  EMBER_CHECK(sample_index >= begin_index_ && sample_index <= end_index_, "DistributedSequentialSampler::load: index ",
              sample_index, " is outside this replica's range [", begin_index_, ", ", end_index_, "]");
  sample_index_ = sample_index;
}

void DistributedSequentialSampler::populate_indices() {
  begin_index_ = rank_ * local_sample_count();
  end_index_ = begin_index_ + local_sample_count();
  sample_index_ = begin_index_;
}

}  // namespace torch::data::samplers
