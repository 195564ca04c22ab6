#pragma once
// torchvision.ops.sigmoid_focal_loss (RetinaNet's loss for dense detection).
#include <string>

#include "ember/core/tensor.h"

namespace torch::vision::ops {

// inputs are logits, targets the binary labels (same shape); alpha < 0 disables
// the class weighting.
Tensor sigmoid_focal_loss(const Tensor& inputs, const Tensor& targets, double alpha = 0.25, double gamma = 2,
                          const std::string& reduction = "none");

}  // namespace torch::vision::ops
