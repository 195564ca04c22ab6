#include "ember/vision/models/detection/generalized_rcnn.h"

#include <sstream>

#include "ember/core/error.h"
#include "ember/ops/all_ops.h"

namespace torch::vision::models::detection::generalized_rcnn {

namespace {

using indexing::Slice;

std::string box_list(const Tensor& box) {
  std::ostringstream s;
  const Tensor b = box.to(kDouble).contiguous();
  s << "[";
  for (int64_t i = 0; i < b.numel(); ++i) s << (i ? ", " : "") << b[i].item<double>();
  s << "]";
  return s.str();
}

}  // namespace

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
  EMBER_CHECK(!images.empty(), model_name_, ": no images");
  if (is_training()) {
    EMBER_CHECK(targets_in.has_value(), model_name_, ": targets should not be none when in training mode");
    EMBER_CHECK(targets_in->size() == images.size(), model_name_, ": ", targets_in->size(), " targets for ",
                images.size(), " images");
    for (const Target& t : *targets_in) {
      auto it = t.find("boxes");
      EMBER_CHECK(it != t.end() && it->second.defined(), model_name_, ": a target has no boxes");
      EMBER_CHECK(it->second.dim() == 2 && it->second.size(-1) == 4, model_name_,
                  ": Expected target boxes to be a tensor of shape [N, 4], got ", it->second.sizes(), ".");
    }
  }
  std::vector<transform::ImageSize> original_image_sizes;
  for (const Tensor& img : images) {
    EMBER_CHECK(img.defined() && img.dim() == 3, model_name_,
                ": images is expected to be a list of 3d tensors of shape [C, H, W], got ",
                img.defined() ? img.sizes() : IntArrayRef{});
    EMBER_CHECK(img.is_floating_point(), model_name_,
                ": Expected input images to be of floating type (in range [0, 1]), but found type ", img.scalar_type(),
                " instead");
    original_image_sizes.emplace_back(img.size(-2), img.size(-1));
  }
  auto [image_list, targets] = transform->forward(images, targets_in);
  if (targets) {
    for (size_t idx = 0; idx < targets->size(); ++idx) {
      const Tensor& boxes = (*targets)[idx].at("boxes");
      const Tensor degenerate =
          boxes.index({Slice(), Slice(2, std::nullopt)}) <= boxes.index({Slice(), Slice(std::nullopt, 2)});
      if (degenerate.any().item<bool>()) {
        const int64_t bb = nonzero(degenerate.any(1)).select(1, 0)[0].item<int64_t>();
        EMBER_ERROR(model_name_, ": All bounding boxes should have positive height and width. Found invalid box ",
                    box_list(boxes[bb]), " for target at index ", idx, ".");
      }
    }
  }
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
