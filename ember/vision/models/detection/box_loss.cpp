#include "ember/vision/models/detection/box_loss.h"

#include "ember/core/error.h"
#include "ember/ops/all_ops.h"
#include "ember/vision/ops/box_losses.h"

namespace torch::vision::models::detection::_utils {

namespace {

double cnf_or(const std::map<std::string, double>& cnf, const char* key, double fallback) {
  auto it = cnf.find(key);
  return it == cnf.end() ? fallback : it->second;
}

}  // namespace

Tensor _box_loss(const std::string& type, const BoxCoder& box_coder, const Tensor& anchors_per_image,
                 const Tensor& matched_gt_boxes_per_image, const Tensor& bbox_regression_per_image,
                 const std::map<std::string, double>& cnf) {
  if (type == "l1")
    return l1_loss(bbox_regression_per_image, box_coder.encode_single(matched_gt_boxes_per_image, anchors_per_image),
                   Reduction::Sum);
  if (type == "smooth_l1")
    return smooth_l1_loss(bbox_regression_per_image,
                          box_coder.encode_single(matched_gt_boxes_per_image, anchors_per_image), Reduction::Sum,
                          cnf_or(cnf, "beta", 1.0));
  EMBER_CHECK(type == "ciou" || type == "diou" || type == "giou", "_box_loss: Unsupported loss: ", type);
  const Tensor boxes = box_coder.decode_single(bbox_regression_per_image, anchors_per_image);
  const double eps = cnf_or(cnf, "eps", 1e-7);
  if (type == "ciou") return ops::complete_box_iou_loss(boxes, matched_gt_boxes_per_image, "sum", eps);
  if (type == "diou") return ops::distance_box_iou_loss(boxes, matched_gt_boxes_per_image, "sum", eps);
  return ops::generalized_box_iou_loss(boxes, matched_gt_boxes_per_image, "sum", eps);
}

}  // namespace torch::vision::models::detection::_utils
