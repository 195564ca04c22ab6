#pragma once
// The input checks every detection model's forward makes, as torchvision's:
// images a non-empty list of floating [C, H, W] tensors, targets present in
// training with boxes of shape [N, 4], and no degenerate box after the
// transform. Errors name the model.
#include <optional>
#include <utility>
#include <vector>

#include "ember/core/tensor.h"
#include "ember/vision/models/detection/types.h"

namespace torch::vision::models::detection::detail {

// Returns each image's (height, width).
std::vector<std::pair<int64_t, int64_t>> check_images_and_targets(const char* model, const std::vector<Tensor>& images,
                                                                  const std::optional<std::vector<Target>>& targets,
                                                                  bool training);
void check_degenerate_boxes(const char* model, const std::vector<Target>& targets);

}  // namespace torch::vision::models::detection::detail
