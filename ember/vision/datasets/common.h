#pragma once
// What the vision datasets share: the sample type (an image tensor and an
// int64 target), the optional transforms, and the refusal to download.
#include <functional>
#include <optional>

#include "ember/core/error.h"
#include "ember/core/tensor.h"
#include "ember/data/example.h"

namespace torch::vision::datasets {

// transform(image) and target_transform(target), as torchvision's keywords.
using Transform = std::function<Tensor(Tensor)>;

namespace detail {

inline data::Example<> make_example(Tensor image, Tensor target, const std::optional<Transform>& transform,
                                    const std::optional<Transform>& target_transform) {
  if (transform && *transform) image = (*transform)(std::move(image));
  if (target_transform && *target_transform) target = (*target_transform)(std::move(target));
  return {std::move(image), std::move(target)};
}

inline void refuse_download(const char* dataset, bool download) {
  EMBER_CHECK(!download, dataset,
              ": download=true is not supported: Ember downloads nothing; place the dataset's files under root");
}

}  // namespace detail
}  // namespace torch::vision::datasets
