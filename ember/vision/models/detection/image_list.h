#pragma once
// torchvision.models.detection.image_list.ImageList: a padded batch of
// images together with each image's size before padding.
#include <cstdint>
#include <utility>
#include <vector>

#include "ember/core/device.h"
#include "ember/core/tensor.h"

namespace torch::vision::models::detection::image_list {

class ImageList {
 public:
  ImageList(Tensor tensors, std::vector<std::pair<int64_t, int64_t>> image_sizes)
      : tensors(std::move(tensors)), image_sizes(std::move(image_sizes)) {}
  ImageList to(Device device) const { return ImageList(tensors.to(device), image_sizes); }

  Tensor tensors;
  std::vector<std::pair<int64_t, int64_t>> image_sizes;
};

}  // namespace torch::vision::models::detection::image_list
