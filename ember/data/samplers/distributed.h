#pragma once
// Distributed samplers: each of num_replicas processes sees its own slice
// (rank) of the dataset. With allow_duplicates the slices are padded by
// wrapping around so every replica gets ceil(size / num_replicas) samples;
// without, the remainder is dropped.
#include <cstddef>
#include <optional>
#include <vector>

#include "ember/core/error.h"
#include "ember/data/samplers/base.h"

namespace torch::data::samplers {

template <typename BatchRequest = std::vector<size_t>>
class DistributedSampler : public Sampler<BatchRequest> {
 public:
  DistributedSampler(size_t size, size_t num_replicas = 1, size_t rank = 0, bool allow_duplicates = true)
      : size_(size), num_replicas_(num_replicas), rank_(rank), allow_duplicates_(allow_duplicates) {
    EMBER_CHECK(num_replicas >= 1, "DistributedSampler: num_replicas must be positive");
    EMBER_CHECK(rank < num_replicas, "DistributedSampler: rank ", rank, " out of range for ", num_replicas,
                " replicas");
  }

  // The epoch seeds DistributedRandomSampler's shuffle, so all replicas agree.
  void set_epoch(size_t epoch) { epoch_ = epoch; }
  size_t epoch() const { return epoch_; }

 protected:
  size_t local_sample_count() const {
    return allow_duplicates_ ? (size_ + num_replicas_ - 1) / num_replicas_ : size_ / num_replicas_;
  }

  size_t size_;
  size_t num_replicas_;
  size_t rank_;
  size_t epoch_ = 0;
  bool allow_duplicates_;
};

// Shuffles all indices with std::mt19937(epoch) (the same on every replica)
// and returns this rank's contiguous slice.
class DistributedRandomSampler : public DistributedSampler<> {
 public:
  DistributedRandomSampler(size_t size, size_t num_replicas = 1, size_t rank = 0, bool allow_duplicates = true);

  void reset(std::optional<size_t> new_size = std::nullopt) override;
  std::optional<std::vector<size_t>> next(size_t batch_size) override;
  void save(serialize::OutputArchive& archive) const override;
  void load(serialize::InputArchive& archive) override;

  size_t index() const noexcept { return sample_index_; }

 private:
  void populate_indices();

  size_t begin_index_ = 0;
  size_t end_index_ = 0;
  size_t sample_index_ = 0;
  std::vector<size_t> all_indices_;
};

// This rank's contiguous slice of 0..size-1 in order (wrapping around when padded).
class DistributedSequentialSampler : public DistributedSampler<> {
 public:
  DistributedSequentialSampler(size_t size, size_t num_replicas = 1, size_t rank = 0, bool allow_duplicates = true);

  void reset(std::optional<size_t> new_size = std::nullopt) override;
  std::optional<std::vector<size_t>> next(size_t batch_size) override;
  void save(serialize::OutputArchive& archive) const override;
  void load(serialize::InputArchive& archive) override;

  size_t index() const noexcept { return sample_index_; }

 private:
  void populate_indices();

  size_t begin_index_ = 0;
  size_t end_index_ = 0;
  size_t sample_index_ = 0;
};

}  // namespace torch::data::samplers
