#pragma once
// torchvision.models.detection.keypoint_rcnn: KeypointRCNN (FasterRCNN plus
// the keypoint branch of RoIHeads), KeypointRCNNHeads and
// KeypointRCNNPredictor.
#include <cstdint>
#include <optional>
#include <ostream>
#include <vector>

#include "ember/core/arg.h"
#include "ember/nn/modules/container/any.h"
#include "ember/nn/modules/container/sequential.h"
#include "ember/nn/modules/conv.h"
#include "ember/nn/pimpl.h"
#include "ember/vision/models/detection/faster_rcnn.h"
#include "ember/vision/ops/poolers.h"

namespace torch::vision::models::detection::keypoint_rcnn {

// (Conv2d 3x3, ReLU) per entry of layers.
class KeypointRCNNHeadsImpl : public nn::SequentialImpl {
 public:
  KeypointRCNNHeadsImpl(int64_t in_channels, std::vector<int64_t> layers);
  void pretty_print(std::ostream& stream) const override { stream << "KeypointRCNNHeads"; }
};
TORCH_MODULE(KeypointRCNNHeads);

// ConvTranspose2d (4x4, stride 2) then a 2x bilinear upsampling.
class KeypointRCNNPredictorImpl : public nn::Cloneable<KeypointRCNNPredictorImpl> {
 public:
  KeypointRCNNPredictorImpl(int64_t in_channels, int64_t num_keypoints);
  void reset() override;
  void pretty_print(std::ostream& stream) const override { stream << "KeypointRCNNPredictor"; }
  Tensor forward(const Tensor& x);
  int64_t in_channels, num_keypoints, up_scale = 2, out_channels;
  nn::ConvTranspose2d kps_score_lowres{nullptr};
};
TORCH_MODULE(KeypointRCNNPredictor);

// As MaskRCNNOptions: FasterRCNN's keywords, plus the keypoint branch's.
struct KeypointRCNNOptions {
  /* implicit */ KeypointRCNNOptions(FasterRCNNOptions faster_rcnn) : faster_rcnn_(std::move(faster_rcnn)) {}  // NOLINT
  TORCH_ARG(FasterRCNNOptions, faster_rcnn);
  TORCH_ARG(ops::MultiScaleRoIAlign, keypoint_roi_pool) = nullptr;
  TORCH_ARG(nn::AnyModule, keypoint_head) = {};
  TORCH_ARG(nn::AnyModule, keypoint_predictor) = {};
  // nullopt: 17 (COCO's), unless keypoint_predictor is given.
  TORCH_ARG(std::optional<int64_t>, num_keypoints) = std::nullopt;
};

class KeypointRCNNImpl : public faster_rcnn::FasterRCNNImpl {
 public:
  // torchvision's default min_size for this model, (640, 672, ..., 800), and max_size 1333.
  KeypointRCNNImpl(Backbone backbone, std::optional<int64_t> num_classes = std::nullopt)
      : KeypointRCNNImpl(KeypointRCNNOptions(
            FasterRCNNOptions(std::move(backbone), num_classes).min_size({640, 672, 704, 736, 768, 800}))) {}
  explicit KeypointRCNNImpl(const KeypointRCNNOptions& options_);
  void pretty_print(std::ostream& stream) const override { stream << "KeypointRCNN"; }
  KeypointRCNNOptions keypoint_options;
};
TORCH_MODULE(KeypointRCNN);

}  // namespace torch::vision::models::detection::keypoint_rcnn

namespace torch::vision::models::detection {
using keypoint_rcnn::KeypointRCNN;
using keypoint_rcnn::KeypointRCNNImpl;
using keypoint_rcnn::KeypointRCNNOptions;
}  // namespace torch::vision::models::detection
