#pragma once
// make_data_loader: the entry point LibTorch programs use
// (`torch::data::make_data_loader<Sampler>(dataset, options)`).
#include <memory>
#include <type_traits>
#include <utility>

#include "ember/core/error.h"
#include "ember/data/dataloader/stateless.h"
#include "ember/data/dataloader_options.h"
#include "ember/data/samplers/random.h"

namespace torch::data {

// A loader with its sampler given explicitly.
template <typename Dataset, typename Sampler, typename = std::enable_if_t<!Dataset::is_stateful>>
std::unique_ptr<StatelessDataLoader<Dataset, Sampler>> make_data_loader(Dataset dataset, Sampler sampler,
                                                                        DataLoaderOptions options) {
  return std::make_unique<StatelessDataLoader<Dataset, Sampler>>(std::move(dataset), std::move(sampler), options);
}

// A loader whose Sampler (RandomSampler unless named) is built from the
// dataset's size. `make_data_loader(dataset, 64)` means batch_size 64.
template <typename Sampler = samplers::RandomSampler, typename Dataset,
          typename = std::enable_if_t<!Dataset::is_stateful>>
std::unique_ptr<StatelessDataLoader<Dataset, Sampler>> make_data_loader(Dataset dataset,
                                                                        DataLoaderOptions options = {}) {
  const std::optional<size_t> size = dataset.size();
  EMBER_CHECK(size.has_value(), "make_data_loader: Expected the dataset to be sized in order to construct the Sampler");
  return make_data_loader(std::move(dataset), Sampler(*size), options);
}

}  // namespace torch::data
