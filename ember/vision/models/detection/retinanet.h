#pragma once
// torchvision.models.detection.retinanet: RetinaNet over any backbone with
// out_channels, its head (RetinaNetClassificationHead with the sigmoid focal
// loss, RetinaNetRegressionHead with the L1 box loss) and postprocessing
// (per-level score threshold and top-k candidates, class-wise NMS).
#include <cstdint>
#include <map>
#include <optional>
#include <ostream>
#include <string>
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
#include "ember/vision/models/detection/box_loss.h"
#include "ember/vision/models/detection/matcher.h"
#include "ember/vision/models/detection/transform.h"
#include "ember/vision/models/detection/types.h"
#include "ember/vision/ops/misc.h"

namespace torch::vision::models::detection::retinanet {

using HeadOutputs = std::map<std::string, Tensor>;

class RetinaNetClassificationHeadImpl : public nn::Cloneable<RetinaNetClassificationHeadImpl> {
 public:
  RetinaNetClassificationHeadImpl(int64_t in_channels, int64_t num_anchors, int64_t num_classes,
                                  double prior_probability = 0.01,
                                  std::optional<ops::NormLayer> norm_layer = std::nullopt);
  void reset() override;
  void pretty_print(std::ostream& stream) const override { stream << "RetinaNetClassificationHead"; }
  Tensor compute_loss(const std::vector<Target>& targets, const HeadOutputs& head_outputs,
                      const std::vector<Tensor>& matched_idxs) const;
  // [N, sum HWA, num_classes]
  Tensor forward(const std::vector<Tensor>& x);

  int64_t in_channels, num_anchors, num_classes;
  double prior_probability;
  std::optional<ops::NormLayer> norm_layer;
  nn::Sequential conv{nullptr};
  nn::Conv2d cls_logits{nullptr};
};
TORCH_MODULE(RetinaNetClassificationHead);

class RetinaNetRegressionHeadImpl : public nn::Cloneable<RetinaNetRegressionHeadImpl> {
 public:
  RetinaNetRegressionHeadImpl(int64_t in_channels, int64_t num_anchors,
                              std::optional<ops::NormLayer> norm_layer = std::nullopt);
  void reset() override;
  void pretty_print(std::ostream& stream) const override { stream << "RetinaNetRegressionHead"; }
  Tensor compute_loss(const std::vector<Target>& targets, const HeadOutputs& head_outputs,
                      const std::vector<Tensor>& anchors, const std::vector<Tensor>& matched_idxs) const;
  // [N, sum HWA, 4]
  Tensor forward(const std::vector<Tensor>& x);

  int64_t in_channels, num_anchors;
  std::optional<ops::NormLayer> norm_layer;
  nn::Sequential conv{nullptr};
  nn::Conv2d bbox_reg{nullptr};
  _utils::BoxCoder box_coder{{1.0, 1.0, 1.0, 1.0}};
  std::string _loss_type = "l1";
};
TORCH_MODULE(RetinaNetRegressionHead);

class RetinaNetHeadImpl : public nn::Cloneable<RetinaNetHeadImpl> {
 public:
  RetinaNetHeadImpl(int64_t in_channels, int64_t num_anchors, int64_t num_classes,
                    std::optional<ops::NormLayer> norm_layer = std::nullopt);
  void reset() override;
  void pretty_print(std::ostream& stream) const override { stream << "RetinaNetHead"; }
  // {"classification", "bbox_regression"}
  Losses compute_loss(const std::vector<Target>& targets, const HeadOutputs& head_outputs,
                      const std::vector<Tensor>& anchors, const std::vector<Tensor>& matched_idxs) const;
  // {"cls_logits", "bbox_regression"}
  HeadOutputs forward(const std::vector<Tensor>& x);

  int64_t in_channels, num_anchors, num_classes;
  std::optional<ops::NormLayer> norm_layer;
  RetinaNetClassificationHead classification_head{nullptr};
  RetinaNetRegressionHead regression_head{nullptr};
};
TORCH_MODULE(RetinaNetHead);

struct RetinaNetOptions {
  RetinaNetOptions(Backbone backbone, int64_t num_classes)
      : backbone_(std::move(backbone)), num_classes_(num_classes) {}
  TORCH_ARG(Backbone, backbone);
  TORCH_ARG(int64_t, num_classes);
  TORCH_ARG(std::vector<int64_t>, min_size) = {800};
  TORCH_ARG(int64_t, max_size) = 1333;
  TORCH_ARG(std::optional<std::vector<double>>, image_mean) = std::nullopt;
  TORCH_ARG(std::optional<std::vector<double>>, image_std) = std::nullopt;
  TORCH_ARG(anchor_utils::AnchorGenerator, anchor_generator) = nullptr;
  TORCH_ARG(RetinaNetHead, head) = nullptr;
  TORCH_ARG(std::optional<_utils::Matcher>, proposal_matcher) = std::nullopt;
  TORCH_ARG(double, score_thresh) = 0.05;
  TORCH_ARG(double, nms_thresh) = 0.5;
  TORCH_ARG(int64_t, detections_per_img) = 300;
  TORCH_ARG(double, fg_iou_thresh) = 0.5;
  TORCH_ARG(double, bg_iou_thresh) = 0.4;
  TORCH_ARG(int64_t, topk_candidates) = 1000;
  // GeneralizedRCNNTransform keywords
  TORCH_ARG(int64_t, size_divisible) = 32;
  TORCH_ARG(std::optional<transform::ImageSize>, fixed_size) = std::nullopt;
  TORCH_ARG(bool, _skip_resize) = false;
};

class RetinaNetImpl : public nn::Module {
 public:
  RetinaNetImpl(Backbone backbone, int64_t num_classes)
      : RetinaNetImpl(RetinaNetOptions(std::move(backbone), num_classes)) {}
  explicit RetinaNetImpl(const RetinaNetOptions& options_);
  void pretty_print(std::ostream& stream) const override { stream << "RetinaNet"; }
  Losses compute_loss(const std::vector<Target>& targets, const HeadOutputs& head_outputs,
                      const std::vector<Tensor>& anchors) const;
  // Per image, the per-level head outputs and anchors.
  std::vector<Detection> postprocess_detections(const std::map<std::string, std::vector<Tensor>>& head_outputs,
                                                const std::vector<std::vector<Tensor>>& anchors,
                                                const std::vector<transform::ImageSize>& image_shapes) const;
  DetectionOutput forward(const std::vector<Tensor>& images,
                          const std::optional<std::vector<Target>>& targets = std::nullopt);
  // AnyModule users may omit targets (evaluation), as with forward(images).
  FORWARD_HAS_DEFAULT_ARGS({1, ::torch::nn::AnyValue(std::optional<std::vector<Target>>())})

  RetinaNetOptions options;
  Backbone backbone;
  anchor_utils::AnchorGenerator anchor_generator{nullptr};
  RetinaNetHead head{nullptr};
  _utils::Matcher proposal_matcher{0.5, 0.4, true};
  _utils::BoxCoder box_coder{{1.0, 1.0, 1.0, 1.0}};
  transform::GeneralizedRCNNTransform transform{nullptr};
  double score_thresh, nms_thresh;
  int64_t detections_per_img, topk_candidates;
};
TORCH_MODULE(RetinaNet);

// Sizes (x, x 2^(1/3), x 2^(2/3)) for x in 32 .. 512, ratios (0.5, 1, 2).
anchor_utils::AnchorGenerator _default_anchorgen();

}  // namespace torch::vision::models::detection::retinanet

namespace torch::vision::models::detection {
using retinanet::RetinaNet;
using retinanet::RetinaNetImpl;
using retinanet::RetinaNetOptions;
}  // namespace torch::vision::models::detection
