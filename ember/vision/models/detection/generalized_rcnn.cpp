#include "ember/vision/models/detection/generalized_rcnn.h"

#include "ember/core/error.h"
#include "ember/ops/all_ops.h"
#include "ember/vision/models/detection/input_checks.h"

namespace torch::vision::models::detection::generalized_rcnn {

GeneralizedRCNNImpl::GeneralizedRCNNImpl(Backbone backbone, rpn::RegionProposalNetwork rpn,
                                         roi_heads::RoIHeads roi_heads, transform::GeneralizedRCNNTransform transform) {
  init(std::move(backbone), std::move(rpn), std::move(roi_heads), std::move(transform));
}

void GeneralizedRCNNImpl::init(Backbone backbone_, rpn::RegionProposalNetwork rpn_, roi_heads::RoIHeads roi_heads_,
                               transform::GeneralizedRCNNTransform transform_) {
  EMBER_CHECK(!backbone_.is_empty() && !rpn_.is_empty() && !roi_heads_.is_empty() && !transform_.is_empty(),
              model_name_, ": backbone, rpn, roi_heads and transform are required");
  transform = register_module("transform", std::move(transform_));
  backbone = std::move(backbone_);
  register_module("backbone", backbone.ptr());
  rpn = register_module("rpn", std::move(rpn_));
  roi_heads = register_module("roi_heads", std::move(roi_heads_));
}

DetectionOutput GeneralizedRCNNImpl::forward(const std::vector<Tensor>& images,
                                             const std::optional<std::vector<Target>>& targets_in) {
  const auto original_image_sizes = detail::check_images_and_targets(model_name_, images, targets_in, is_training());
  auto [image_list, targets] = transform->forward(images, targets_in);
  if (targets) detail::check_degenerate_boxes(model_name_, *targets);
  const OrderedDict<std::string, Tensor> features = backbone(image_list.tensors);
  auto [proposals, proposal_losses] = rpn->forward(image_list, features, targets);
  auto [detections, detector_losses] = roi_heads->forward(features, proposals, image_list.image_sizes, targets);
  DetectionOutput out;
  out.detections = transform->postprocess(std::move(detections), image_list.image_sizes, original_image_sizes);
  out.losses = std::move(detector_losses);
  for (auto& [k, v] : proposal_losses) out.losses[k] = v;
  return out;
}

}  // namespace torch::vision::models::detection::generalized_rcnn
