#pragma once
// torchvision.models.detection.ssd: SSD over any multi-scale backbone, its
// head (SSDScoringHead: one 3x3 conv per feature map, for the classes and
// the boxes), the hard-negative-mining loss and the postprocessing; and
// _utils.retrieve_out_channels.
#include <cstdint>
#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "ember/core/arg.h"
#include "ember/core/tensor.h"
#include "ember/nn/cloneable.h"
#include "ember/nn/modules/container/any.h"
#include "ember/nn/modules/container/modulelist.h"
#include "ember/nn/pimpl.h"
#include "ember/vision/models/detection/anchor_utils.h"
#include "ember/vision/models/detection/backbone.h"
#include "ember/vision/models/detection/box_coder.h"
#include "ember/vision/models/detection/matcher.h"
#include "ember/vision/models/detection/transform.h"
#include "ember/vision/models/detection/types.h"

namespace torch::vision::models::detection::ssd {

using HeadOutputs = std::map<std::string, Tensor>;

// Runs module_list[i] on feature map i and flattens to [N, sum HWA, num_columns].
class SSDScoringHeadImpl : public nn::Module {
 public:
  // Each layer: Tensor -> Tensor.
  SSDScoringHeadImpl(std::vector<nn::AnyModule> layers, int64_t num_columns);
  void pretty_print(std::ostream& stream) const override { stream << "SSDScoringHead"; }
  Tensor forward(const std::vector<Tensor>& x);

  nn::ModuleList module_list{nullptr};
  int64_t num_columns;

 private:
  std::vector<nn::AnyModule> layers_;
};
TORCH_MODULE(SSDScoringHead);

class SSDClassificationHeadImpl : public SSDScoringHeadImpl {
 public:
  SSDClassificationHeadImpl(const std::vector<int64_t>& in_channels, const std::vector<int64_t>& num_anchors,
                            int64_t num_classes);
  void pretty_print(std::ostream& stream) const override { stream << "SSDClassificationHead"; }
};
TORCH_MODULE(SSDClassificationHead);

class SSDRegressionHeadImpl : public SSDScoringHeadImpl {
 public:
  SSDRegressionHeadImpl(const std::vector<int64_t>& in_channels, const std::vector<int64_t>& num_anchors);
  void pretty_print(std::ostream& stream) const override { stream << "SSDRegressionHead"; }
};
TORCH_MODULE(SSDRegressionHead);

class SSDHeadImpl : public nn::Module {
 public:
  SSDHeadImpl(const std::vector<int64_t>& in_channels, const std::vector<int64_t>& num_anchors, int64_t num_classes);
  void pretty_print(std::ostream& stream) const override { stream << "SSDHead"; }
  // {"bbox_regression", "cls_logits"}
  HeadOutputs forward(const std::vector<Tensor>& x);

  SSDClassificationHead classification_head{nullptr};
  SSDRegressionHead regression_head{nullptr};
};
TORCH_MODULE(SSDHead);

struct SSDOptions {
  // size: (width, height) the images are resized to, as torchvision's.
  SSDOptions(Backbone backbone, anchor_utils::DefaultBoxGenerator anchor_generator, std::pair<int64_t, int64_t> size,
             int64_t num_classes)
      : backbone_(std::move(backbone)),
        anchor_generator_(std::move(anchor_generator)),
        size_(size),
        num_classes_(num_classes) {}
  TORCH_ARG(Backbone, backbone);
  TORCH_ARG(anchor_utils::DefaultBoxGenerator, anchor_generator);
  TORCH_ARG(transform::ImageSize, size);
  TORCH_ARG(int64_t, num_classes);
  TORCH_ARG(std::optional<std::vector<double>>, image_mean) = std::nullopt;
  TORCH_ARG(std::optional<std::vector<double>>, image_std) = std::nullopt;
  // Any module with forward(const std::vector<Tensor>&) -> HeadOutputs (SSDHead, SSDLiteHead).
  TORCH_ARG(nn::AnyModule, head) = {};
  TORCH_ARG(double, score_thresh) = 0.01;
  TORCH_ARG(double, nms_thresh) = 0.45;
  TORCH_ARG(int64_t, detections_per_img) = 200;
  TORCH_ARG(double, iou_thresh) = 0.5;
  TORCH_ARG(int64_t, topk_candidates) = 400;
  TORCH_ARG(double, positive_fraction) = 0.25;
  TORCH_ARG(bool, _skip_resize) = false;
};

class SSDImpl : public nn::Module {
 public:
  explicit SSDImpl(const SSDOptions& options_);
  void pretty_print(std::ostream& stream) const override { stream << "SSD"; }
  Losses compute_loss(const std::vector<Target>& targets, const HeadOutputs& head_outputs,
                      const std::vector<Tensor>& anchors, const std::vector<Tensor>& matched_idxs) const;
  std::vector<Detection> postprocess_detections(const HeadOutputs& head_outputs,
                                                const std::vector<Tensor>& image_anchors,
                                                const std::vector<transform::ImageSize>& image_shapes) const;
  DetectionOutput forward(const std::vector<Tensor>& images,
                          const std::optional<std::vector<Target>>& targets = std::nullopt);
  // AnyModule users may omit targets (evaluation), as with forward(images).
  FORWARD_HAS_DEFAULT_ARGS({1, ::torch::nn::AnyValue(std::optional<std::vector<Target>>())})

  SSDOptions options;
  Backbone backbone;
  anchor_utils::DefaultBoxGenerator anchor_generator{nullptr};
  nn::AnyModule head;
  _utils::BoxCoder box_coder{{10.0, 10.0, 5.0, 5.0}};
  _utils::SSDMatcher proposal_matcher{0.5};
  transform::GeneralizedRCNNTransform transform{nullptr};
  double score_thresh, nms_thresh, neg_to_pos_ratio;
  int64_t detections_per_img, topk_candidates;
};
TORCH_MODULE(SSD);

}  // namespace torch::vision::models::detection::ssd

namespace torch::vision::models::detection::_utils {
// The channels of each feature map the backbone returns for a zero image of
// size (width, height), measured in eval mode without gradients.
std::vector<int64_t> retrieve_out_channels(const Backbone& model, std::pair<int64_t, int64_t> size);
}  // namespace torch::vision::models::detection::_utils

namespace torch::vision::models::detection {
using ssd::SSD;
using ssd::SSDImpl;
using ssd::SSDOptions;
}  // namespace torch::vision::models::detection
