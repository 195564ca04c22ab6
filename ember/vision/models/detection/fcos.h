#pragma once
// torchvision.models.detection.fcos: FCOS over any backbone with
// out_channels — FCOSHead (classification; box regression with
// centerness), the centre-sampling anchor assignment, its focal / GIoU /
// centerness losses, and the postprocessing (sqrt(cls * ctrness) scores,
// per-level top-k, class-wise NMS).
#include <cstdint>
#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <tuple>
#include <vector>

#include "ember/core/arg.h"
#include "ember/core/tensor.h"
#include "ember/nn/cloneable.h"
#include "ember/nn/modules/container/any.h"
#include "ember/nn/modules/container/sequential.h"
#include "ember/nn/modules/conv.h"
#include "ember/nn/pimpl.h"
#include "ember/vision/models/detection/anchor_utils.h"
#include "ember/vision/models/detection/backbone.h"
#include "ember/vision/models/detection/box_coder.h"
#include "ember/vision/models/detection/transform.h"
#include "ember/vision/models/detection/types.h"
#include "ember/vision/ops/misc.h"

namespace torch::vision::models::detection::fcos {

using HeadOutputs = std::map<std::string, Tensor>;

class FCOSClassificationHeadImpl : public nn::Cloneable<FCOSClassificationHeadImpl> {
 public:
  // norm_layer nullopt: GroupNorm(32, channels), as torchvision.
  FCOSClassificationHeadImpl(int64_t in_channels, int64_t num_anchors, int64_t num_classes, int64_t num_convs = 4,
                             double prior_probability = 0.01, std::optional<ops::NormLayer> norm_layer = std::nullopt);
  void reset() override;
  void pretty_print(std::ostream& stream) const override { stream << "FCOSClassificationHead"; }
  Tensor forward(const std::vector<Tensor>& x);

  int64_t in_channels, num_anchors, num_classes, num_convs;
  double prior_probability;
  std::optional<ops::NormLayer> norm_layer;
  nn::Sequential conv{nullptr};
  nn::Conv2d cls_logits{nullptr};
};
TORCH_MODULE(FCOSClassificationHead);

class FCOSRegressionHeadImpl : public nn::Cloneable<FCOSRegressionHeadImpl> {
 public:
  FCOSRegressionHeadImpl(int64_t in_channels, int64_t num_anchors, int64_t num_convs = 4,
                         std::optional<ops::NormLayer> norm_layer = std::nullopt);
  void reset() override;
  void pretty_print(std::ostream& stream) const override { stream << "FCOSRegressionHead"; }
  // (box regression [N, HWA, 4] after ReLU, centerness logits [N, HWA, 1]).
  std::tuple<Tensor, Tensor> forward(const std::vector<Tensor>& x);

  int64_t in_channels, num_anchors, num_convs;
  std::optional<ops::NormLayer> norm_layer;
  nn::Sequential conv{nullptr};
  nn::Conv2d bbox_reg{nullptr}, bbox_ctrness{nullptr};
};
TORCH_MODULE(FCOSRegressionHead);

class FCOSHeadImpl : public nn::Cloneable<FCOSHeadImpl> {
 public:
  FCOSHeadImpl(int64_t in_channels, int64_t num_anchors, int64_t num_classes, int64_t num_convs = 4);
  void reset() override;
  void pretty_print(std::ostream& stream) const override { stream << "FCOSHead"; }
  // {"classification", "bbox_regression", "bbox_ctrness"}
  Losses compute_loss(const std::vector<Target>& targets, const HeadOutputs& head_outputs,
                      const std::vector<Tensor>& anchors, const std::vector<Tensor>& matched_idxs) const;
  // {"cls_logits", "bbox_regression", "bbox_ctrness"}
  HeadOutputs forward(const std::vector<Tensor>& x);

  int64_t in_channels, num_anchors, num_classes, num_convs;
  _utils::BoxLinearCoder box_coder{true};
  FCOSClassificationHead classification_head{nullptr};
  FCOSRegressionHead regression_head{nullptr};
};
TORCH_MODULE(FCOSHead);

struct FCOSOptions {
  FCOSOptions(Backbone backbone, int64_t num_classes) : backbone_(std::move(backbone)), num_classes_(num_classes) {}
  TORCH_ARG(Backbone, backbone);
  TORCH_ARG(int64_t, num_classes);
  TORCH_ARG(std::vector<int64_t>, min_size) = {800};
  TORCH_ARG(int64_t, max_size) = 1333;
  TORCH_ARG(std::optional<std::vector<double>>, image_mean) = std::nullopt;
  TORCH_ARG(std::optional<std::vector<double>>, image_std) = std::nullopt;
  TORCH_ARG(anchor_utils::AnchorGenerator, anchor_generator) = nullptr;
  TORCH_ARG(FCOSHead, head) = nullptr;
  TORCH_ARG(double, center_sampling_radius) = 1.5;
  TORCH_ARG(double, score_thresh) = 0.2;
  TORCH_ARG(double, nms_thresh) = 0.6;
  TORCH_ARG(int64_t, detections_per_img) = 100;
  TORCH_ARG(int64_t, topk_candidates) = 1000;
  // GeneralizedRCNNTransform keywords
  TORCH_ARG(int64_t, size_divisible) = 32;
  TORCH_ARG(std::optional<transform::ImageSize>, fixed_size) = std::nullopt;
  TORCH_ARG(bool, _skip_resize) = false;
};

class FCOSImpl : public nn::Module {
 public:
  FCOSImpl(Backbone backbone, int64_t num_classes) : FCOSImpl(FCOSOptions(std::move(backbone), num_classes)) {}
  explicit FCOSImpl(const FCOSOptions& options_);
  void pretty_print(std::ostream& stream) const override { stream << "FCOS"; }
  Losses compute_loss(const std::vector<Target>& targets, const HeadOutputs& head_outputs,
                      const std::vector<Tensor>& anchors, const std::vector<int64_t>& num_anchors_per_level) const;
  std::vector<Detection> postprocess_detections(const std::map<std::string, std::vector<Tensor>>& head_outputs,
                                                const std::vector<std::vector<Tensor>>& anchors,
                                                const std::vector<transform::ImageSize>& image_shapes) const;
  DetectionOutput forward(const std::vector<Tensor>& images,
                          const std::optional<std::vector<Target>>& targets = std::nullopt);
  // AnyModule users may omit targets (evaluation), as with forward(images).
  FORWARD_HAS_DEFAULT_ARGS({1, ::torch::nn::AnyValue(std::optional<std::vector<Target>>())})

  FCOSOptions options;
  Backbone backbone;
  anchor_utils::AnchorGenerator anchor_generator{nullptr};
  FCOSHead head{nullptr};
  _utils::BoxLinearCoder box_coder{true};
  transform::GeneralizedRCNNTransform transform{nullptr};
  double center_sampling_radius, score_thresh, nms_thresh;
  int64_t detections_per_img, topk_candidates;
};
TORCH_MODULE(FCOS);

}  // namespace torch::vision::models::detection::fcos

namespace torch::vision::models::detection {
using fcos::FCOS;
using fcos::FCOSImpl;
using fcos::FCOSOptions;
}  // namespace torch::vision::models::detection
