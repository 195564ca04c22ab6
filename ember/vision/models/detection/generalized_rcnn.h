#pragma once
// torchvision.models.detection.generalized_rcnn.GeneralizedRCNN: transform,
// backbone, RPN and RoI heads chained; the checks on targets (box shapes,
// degenerate boxes) and the mapping of detections back to the input sizes.
#include <optional>
#include <ostream>
#include <vector>

#include "ember/core/tensor.h"
#include "ember/nn/module.h"
#include "ember/nn/modules/container/any.h"
#include "ember/nn/pimpl.h"
#include "ember/vision/models/detection/backbone.h"
#include "ember/vision/models/detection/roi_heads.h"
#include "ember/vision/models/detection/rpn.h"
#include "ember/vision/models/detection/transform.h"
#include "ember/vision/models/detection/types.h"

namespace torch::vision::models::detection::generalized_rcnn {

class GeneralizedRCNNImpl : public nn::Module {
 public:
  GeneralizedRCNNImpl(Backbone backbone, rpn::RegionProposalNetwork rpn, roi_heads::RoIHeads roi_heads,
                      transform::GeneralizedRCNNTransform transform);
  void pretty_print(std::ostream& stream) const override { stream << model_name_; }
  // Training: the loss dict (targets required); evaluation: one dict of
  // boxes, labels and scores per image, in the input images' coordinates.
  DetectionOutput forward(const std::vector<Tensor>& images,
                          const std::optional<std::vector<Target>>& targets = std::nullopt);

  transform::GeneralizedRCNNTransform transform{nullptr};
  Backbone backbone;
  rpn::RegionProposalNetwork rpn{nullptr};
  roi_heads::RoIHeads roi_heads{nullptr};

 protected:
  // AnyModule users may omit targets (evaluation), as with forward(images).
  FORWARD_HAS_DEFAULT_ARGS({1, ::torch::nn::AnyValue(std::optional<std::vector<Target>>())})
  GeneralizedRCNNImpl() = default;
  void init(Backbone backbone, rpn::RegionProposalNetwork rpn, roi_heads::RoIHeads roi_heads,
            transform::GeneralizedRCNNTransform transform);
  // Named in errors ("FasterRCNN: ...").
  const char* model_name_ = "GeneralizedRCNN";
};
TORCH_MODULE(GeneralizedRCNN);

}  // namespace torch::vision::models::detection::generalized_rcnn
