#pragma once
// torchvision.models.detection.mask_rcnn: MaskRCNN (FasterRCNN plus the mask
// branch of RoIHeads), MaskRCNNHeads and MaskRCNNPredictor.
#include <cstdint>
#include <optional>
#include <ostream>
#include <vector>

#include "ember/core/arg.h"
#include "ember/nn/modules/container/any.h"
#include "ember/nn/modules/container/sequential.h"
#include "ember/nn/pimpl.h"
#include "ember/vision/models/detection/faster_rcnn.h"
#include "ember/vision/ops/misc.h"
#include "ember/vision/ops/poolers.h"

namespace torch::vision::models::detection::mask_rcnn {

// Conv2dNormActivation(3x3, padding = dilation) per entry of layers.
class MaskRCNNHeadsImpl : public nn::SequentialImpl {
 public:
  MaskRCNNHeadsImpl(int64_t in_channels, std::vector<int64_t> layers, int64_t dilation,
                    std::optional<ops::NormLayer> norm_layer = std::nullopt);
  void pretty_print(std::ostream& stream) const override { stream << "MaskRCNNHeads"; }
};
TORCH_MODULE(MaskRCNNHeads);

// conv5_mask (ConvTranspose2d 2x2 stride 2), relu, mask_fcn_logits (1x1).
class MaskRCNNPredictorImpl : public nn::SequentialImpl {
 public:
  MaskRCNNPredictorImpl(int64_t in_channels, int64_t dim_reduced, int64_t num_classes);
  void pretty_print(std::ostream& stream) const override { stream << "MaskRCNNPredictor"; }
};
TORCH_MODULE(MaskRCNNPredictor);

// FasterRCNN's keywords in faster_rcnn(), plus the mask branch's. Python's
// single keyword list is two structs here, since the setters of one struct
// cannot return the other: MaskRCNNOptions(FasterRCNNOptions(backbone, 91).min_size({600})).mask_head(...).
struct MaskRCNNOptions {
  /* implicit */ MaskRCNNOptions(FasterRCNNOptions faster_rcnn) : faster_rcnn_(std::move(faster_rcnn)) {}  // NOLINT
  TORCH_ARG(FasterRCNNOptions, faster_rcnn);
  TORCH_ARG(ops::MultiScaleRoIAlign, mask_roi_pool) = nullptr;
  TORCH_ARG(nn::AnyModule, mask_head) = {};
  TORCH_ARG(nn::AnyModule, mask_predictor) = {};
};

class MaskRCNNImpl : public faster_rcnn::FasterRCNNImpl {
 public:
  MaskRCNNImpl(Backbone backbone, std::optional<int64_t> num_classes = std::nullopt)
      : MaskRCNNImpl(MaskRCNNOptions(FasterRCNNOptions(std::move(backbone), num_classes))) {}
  explicit MaskRCNNImpl(const MaskRCNNOptions& options_);
  void pretty_print(std::ostream& stream) const override { stream << "MaskRCNN"; }
  MaskRCNNOptions mask_options;
};
TORCH_MODULE(MaskRCNN);

}  // namespace torch::vision::models::detection::mask_rcnn

namespace torch::vision::models::detection {
using mask_rcnn::MaskRCNN;
using mask_rcnn::MaskRCNNImpl;
using mask_rcnn::MaskRCNNOptions;
}  // namespace torch::vision::models::detection
