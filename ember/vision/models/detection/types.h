#pragma once
// The containers the detection models exchange, as torchvision's Python
// dicts: a target or a detection is a dict of tensors ("boxes", "labels",
// "scores", ...), and the losses are a dict of scalars.
#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "ember/core/tensor.h"

namespace torch::vision::models::detection {

using Target = std::map<std::string, Tensor>;
using Detection = std::map<std::string, Tensor>;
using Losses = std::map<std::string, Tensor>;

// What a detection model's forward returns. torchvision's eager forward
// returns the losses in training and the detections in evaluation; scripted,
// it returns the (losses, detections) pair. This holds both, so that
// `auto [losses, detections] = model(images)` works, as do `out[0]["boxes"]`
// (the i-th image's detections) and `out["loss_classifier"]` (a loss).
struct DetectionOutput {
  Losses losses;
  std::vector<Detection> detections;

  const Detection& operator[](size_t i) const { return detections.at(i); }
  const Tensor& operator[](const std::string& loss) const { return losses.at(loss); }
};

}  // namespace torch::vision::models::detection
