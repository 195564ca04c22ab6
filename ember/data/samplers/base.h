#pragma once
// Sampler: yields the index batches a DataLoader requests from its dataset
// (torch::data::samplers::Sampler). Samplers run on the loader's main thread.
#include <cstddef>
#include <optional>
#include <vector>

#include "ember/core/error.h"

namespace torch::serialize {
class OutputArchive;
class InputArchive;
}  // namespace torch::serialize

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
  // Writes and restores the position within the epoch (LibTorch's Sampler::save / load, used by
  // `archive << sampler`). The built-in samplers implement both; a sampler that does not raises.
  virtual void save(serialize::OutputArchive& archive) const;
  virtual void load(serialize::InputArchive& archive);
};

template <typename BatchRequest>
void Sampler<BatchRequest>::save(serialize::OutputArchive&) const {
  EMBER_ERROR("Sampler::save: this sampler does not implement saving its state");
}
template <typename BatchRequest>
void Sampler<BatchRequest>::load(serialize::InputArchive&) {
  EMBER_ERROR("Sampler::load: this sampler does not implement loading its state");
}

// The base of batch requests other than index lists (LibTorch's CustomBatchRequest): a sampler
// of them reports how many examples each asks for.
struct CustomBatchRequest {
  CustomBatchRequest() = default;
  CustomBatchRequest(const CustomBatchRequest&) = default;
  CustomBatchRequest(CustomBatchRequest&&) noexcept = default;
  CustomBatchRequest& operator=(const CustomBatchRequest&) = default;
  CustomBatchRequest& operator=(CustomBatchRequest&&) noexcept = default;
  virtual ~CustomBatchRequest() = default;
  virtual size_t size() const = 0;
};

}  // namespace torch::data::samplers
