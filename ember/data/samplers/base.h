#pragma once
// Sampler: yields the index batches a DataLoader requests from its dataset
// (torch::data::samplers::Sampler). Samplers run on the loader's main thread.
#include <cstddef>
#include <optional>
#include <vector>

#include "ember/core/namespace.h"

namespace torch::data::samplers {

template <typename BatchRequest = std::vector<size_t>>
class Sampler {
 public:
  using BatchRequestType = BatchRequest;

  virtual ~Sampler() = default;

  // Starts a new epoch, optionally over a dataset of a new size.
  virtual void reset(std::optional<size_t> new_size) = 0;
  // The next batch of at most batch_size indices; nullopt when the epoch is over.
  virtual std::optional<BatchRequest> next(size_t batch_size) = 0;
};

}  // namespace torch::data::samplers
