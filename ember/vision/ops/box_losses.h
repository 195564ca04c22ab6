#pragma once
// torchvision.ops' box regression losses, elementwise over matching boxes
// Tensor[..., 4] (x1, y1, x2, y2); reduction is "none", "mean" or "sum".
#include <string>

#include "ember/core/tensor.h"

namespace torch::vision::ops {

Tensor generalized_box_iou_loss(const Tensor& boxes1, const Tensor& boxes2, const std::string& reduction = "none",
                                double eps = 1e-7);
Tensor distance_box_iou_loss(const Tensor& boxes1, const Tensor& boxes2, const std::string& reduction = "none",
                             double eps = 1e-7);
// eps is used by the alpha term only; the distance part keeps torchvision's 1e-7.
Tensor complete_box_iou_loss(const Tensor& boxes1, const Tensor& boxes2, const std::string& reduction = "none",
                             double eps = 1e-7);

}  // namespace torch::vision::ops
