#pragma once
// torchvision.models.detection._utils._box_loss: RetinaNet's box regression
// loss, summed over the boxes.
#include <map>
#include <string>

#include "ember/core/tensor.h"
#include "ember/vision/models/detection/box_coder.h"

namespace torch::vision::models::detection::_utils {

// type: "l1", "smooth_l1" (cnf "beta", default 1), "giou", "diou", "ciou"
// (cnf "eps", default 1e-7).
Tensor _box_loss(const std::string& type, const BoxCoder& box_coder, const Tensor& anchors_per_image,
                 const Tensor& matched_gt_boxes_per_image, const Tensor& bbox_regression_per_image,
                 const std::map<std::string, double>& cnf = {});

}  // namespace torch::vision::models::detection::_utils
