#pragma once
// torchvision.models.detection.faster_rcnn: FasterRCNN over any backbone
// with out_channels, and its heads TwoMLPHead, FastRCNNConvFCHead and
// FastRCNNPredictor. Every keyword of torchvision's constructor is a setter
// of FasterRCNNOptions with the same name and default.
#include <array>
#include <cstdint>
#include <optional>
#include <ostream>
#include <tuple>
#include <vector>

#include "ember/core/arg.h"
#include "ember/core/tensor.h"
#include "ember/nn/cloneable.h"
#include "ember/nn/modules/container/any.h"
#include "ember/nn/modules/container/sequential.h"
#include "ember/nn/modules/linear.h"
#include "ember/nn/pimpl.h"
#include "ember/vision/models/detection/backbone.h"
#include "ember/vision/models/detection/generalized_rcnn.h"
#include "ember/vision/ops/misc.h"
#include "ember/vision/ops/poolers.h"

namespace torch::vision::models::detection::faster_rcnn {

class TwoMLPHeadImpl : public nn::Cloneable<TwoMLPHeadImpl> {
 public:
  TwoMLPHeadImpl(int64_t in_channels, int64_t representation_size);
  void reset() override;
  void pretty_print(std::ostream& stream) const override { stream << "TwoMLPHead"; }
  Tensor forward(const Tensor& x);
  int64_t in_channels, representation_size;
  nn::Linear fc6{nullptr}, fc7{nullptr};
};
TORCH_MODULE(TwoMLPHead);

// Convolutions (Conv2dNormActivation) then a Flatten and Linear+ReLU layers.
class FastRCNNConvFCHeadImpl : public nn::SequentialImpl {
 public:
  FastRCNNConvFCHeadImpl(std::array<int64_t, 3> input_size, std::vector<int64_t> conv_layers,
                         std::vector<int64_t> fc_layers, std::optional<ops::NormLayer> norm_layer = std::nullopt);
  void pretty_print(std::ostream& stream) const override { stream << "FastRCNNConvFCHead"; }
};
TORCH_MODULE(FastRCNNConvFCHead);

class FastRCNNPredictorImpl : public nn::Cloneable<FastRCNNPredictorImpl> {
 public:
  FastRCNNPredictorImpl(int64_t in_channels, int64_t num_classes);
  void reset() override;
  void pretty_print(std::ostream& stream) const override { stream << "FastRCNNPredictor"; }
  // (class scores [N, num_classes], box deltas [N, 4 * num_classes]).
  std::tuple<Tensor, Tensor> forward(const Tensor& x);
  int64_t in_channels, num_classes;
  nn::Linear cls_score{nullptr}, bbox_pred{nullptr};
};
TORCH_MODULE(FastRCNNPredictor);

struct FasterRCNNOptions {
  /* implicit */ FasterRCNNOptions(Backbone backbone, std::optional<int64_t> num_classes = std::nullopt)  // NOLINT
      : backbone_(std::move(backbone)), num_classes_(num_classes) {}
  TORCH_ARG(Backbone, backbone);
  TORCH_ARG(std::optional<int64_t>, num_classes);
  // transform parameters
  TORCH_ARG(std::vector<int64_t>, min_size) = {800};
  TORCH_ARG(int64_t, max_size) = 1333;
  TORCH_ARG(std::optional<std::vector<double>>, image_mean) = std::nullopt;
  TORCH_ARG(std::optional<std::vector<double>>, image_std) = std::nullopt;
  TORCH_ARG(int64_t, size_divisible) = 32;
  TORCH_ARG(std::optional<transform::ImageSize>, fixed_size) = std::nullopt;
  TORCH_ARG(bool, _skip_resize) = false;
  // RPN parameters
  TORCH_ARG(rpn::AnchorGenerator, rpn_anchor_generator) = nullptr;
  TORCH_ARG(rpn::RPNHead, rpn_head) = nullptr;
  TORCH_ARG(int64_t, rpn_pre_nms_top_n_train) = 2000;
  TORCH_ARG(int64_t, rpn_pre_nms_top_n_test) = 1000;
  TORCH_ARG(int64_t, rpn_post_nms_top_n_train) = 2000;
  TORCH_ARG(int64_t, rpn_post_nms_top_n_test) = 1000;
  TORCH_ARG(double, rpn_nms_thresh) = 0.7;
  TORCH_ARG(double, rpn_fg_iou_thresh) = 0.7;
  TORCH_ARG(double, rpn_bg_iou_thresh) = 0.3;
  TORCH_ARG(int64_t, rpn_batch_size_per_image) = 256;
  TORCH_ARG(double, rpn_positive_fraction) = 0.5;
  TORCH_ARG(double, rpn_score_thresh) = 0.0;
  // Box parameters
  TORCH_ARG(ops::MultiScaleRoIAlign, box_roi_pool) = nullptr;
  TORCH_ARG(nn::AnyModule, box_head) = {};
  TORCH_ARG(nn::AnyModule, box_predictor) = {};
  TORCH_ARG(double, box_score_thresh) = 0.05;
  TORCH_ARG(double, box_nms_thresh) = 0.5;
  TORCH_ARG(int64_t, box_detections_per_img) = 100;
  TORCH_ARG(double, box_fg_iou_thresh) = 0.5;
  TORCH_ARG(double, box_bg_iou_thresh) = 0.5;
  TORCH_ARG(int64_t, box_batch_size_per_image) = 512;
  TORCH_ARG(double, box_positive_fraction) = 0.25;
  TORCH_ARG(roi_heads::BoxWeights, bbox_reg_weights) = std::nullopt;
};

class FasterRCNNImpl : public generalized_rcnn::GeneralizedRCNNImpl {
 public:
  FasterRCNNImpl(Backbone backbone, std::optional<int64_t> num_classes = std::nullopt)
      : FasterRCNNImpl(FasterRCNNOptions(std::move(backbone), num_classes)) {}
  explicit FasterRCNNImpl(const FasterRCNNOptions& options_);
  void pretty_print(std::ostream& stream) const override { stream << "FasterRCNN"; }
  FasterRCNNOptions options;
};
TORCH_MODULE(FasterRCNN);

// The default anchors: sizes (32, ..., 512), one per FPN level, ratios (0.5, 1, 2).
rpn::AnchorGenerator _default_anchorgen();

}  // namespace torch::vision::models::detection::faster_rcnn

namespace torch::vision::models::detection {
using faster_rcnn::FasterRCNN;
using faster_rcnn::FasterRCNNImpl;
using faster_rcnn::FasterRCNNOptions;
}  // namespace torch::vision::models::detection
