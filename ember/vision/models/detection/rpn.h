#pragma once
// torchvision.models.detection.rpn: RPNHead and RegionProposalNetwork —
// objectness and box deltas per anchor, decoded proposals filtered per
// level (pre-NMS top-n, clipping, small boxes, score threshold, NMS per
// level, post-NMS top-n), and in training the objectness and box losses
// over a balanced sample of anchors.
#include <cstdint>
#include <map>
#include <ostream>
#include <string>
#include <tuple>
#include <vector>

#include "ember/core/arg.h"
#include "ember/core/ordered_dict.h"
#include "ember/core/tensor.h"
#include "ember/nn/cloneable.h"
#include "ember/nn/modules/container/sequential.h"
#include "ember/nn/modules/conv.h"
#include "ember/nn/pimpl.h"
#include "ember/vision/models/detection/anchor_utils.h"
#include "ember/vision/models/detection/box_coder.h"
#include "ember/vision/models/detection/image_list.h"
#include "ember/vision/models/detection/matcher.h"
#include "ember/vision/models/detection/types.h"

namespace torch::vision::models::detection::rpn {

using anchor_utils::AnchorGenerator;
using anchor_utils::AnchorGeneratorImpl;
using anchor_utils::AnchorGeneratorOptions;
using image_list::ImageList;

class RPNHeadImpl : public nn::Cloneable<RPNHeadImpl> {
 public:
  RPNHeadImpl(int64_t in_channels, int64_t num_anchors, int64_t conv_depth = 1);
  void reset() override;
  void pretty_print(std::ostream& stream) const override { stream << "RPNHead"; }
  // Per feature map: objectness logits [N, A, H, W] and deltas [N, 4A, H, W].
  std::tuple<std::vector<Tensor>, std::vector<Tensor>> forward(const std::vector<Tensor>& x);

  int64_t in_channels, num_anchors, conv_depth;
  nn::Sequential conv{nullptr};
  nn::Conv2d cls_logits{nullptr}, bbox_pred{nullptr};
};
TORCH_MODULE(RPNHead);

// Flattens per-level [N, A*C, H, W] predictions into [N * sum(HWA), C] and
// [N * sum(HWA), 4], anchor-major within each location as torchvision.
std::tuple<Tensor, Tensor> concat_box_prediction_layers(const std::vector<Tensor>& box_cls,
                                                        const std::vector<Tensor>& box_regression);

// {"training": n, "testing": n}, as torchvision's pre/post_nms_top_n dicts.
using TopN = std::map<std::string, int64_t>;

struct RegionProposalNetworkOptions {
  RegionProposalNetworkOptions(AnchorGenerator anchor_generator, RPNHead head, double fg_iou_thresh,
                               double bg_iou_thresh, int64_t batch_size_per_image, double positive_fraction,
                               std::map<std::string, int64_t> pre_nms_top_n,
                               std::map<std::string, int64_t> post_nms_top_n, double nms_thresh)
      : anchor_generator_(std::move(anchor_generator)),
        head_(std::move(head)),
        fg_iou_thresh_(fg_iou_thresh),
        bg_iou_thresh_(bg_iou_thresh),
        batch_size_per_image_(batch_size_per_image),
        positive_fraction_(positive_fraction),
        pre_nms_top_n_(std::move(pre_nms_top_n)),
        post_nms_top_n_(std::move(post_nms_top_n)),
        nms_thresh_(nms_thresh) {}
  TORCH_ARG(AnchorGenerator, anchor_generator);
  TORCH_ARG(RPNHead, head);
  TORCH_ARG(double, fg_iou_thresh);
  TORCH_ARG(double, bg_iou_thresh);
  TORCH_ARG(int64_t, batch_size_per_image);
  TORCH_ARG(double, positive_fraction);
  // {"training": n, "testing": n}
  TORCH_ARG(TopN, pre_nms_top_n);
  TORCH_ARG(TopN, post_nms_top_n);
  TORCH_ARG(double, nms_thresh);
  TORCH_ARG(double, score_thresh) = 0.0;
};

class RegionProposalNetworkImpl : public nn::Cloneable<RegionProposalNetworkImpl> {
 public:
  explicit RegionProposalNetworkImpl(const RegionProposalNetworkOptions& options_);
  void reset() override;
  void pretty_print(std::ostream& stream) const override { stream << "RegionProposalNetwork"; }

  int64_t pre_nms_top_n() const;
  int64_t post_nms_top_n() const;
  std::tuple<std::vector<Tensor>, std::vector<Tensor>> assign_targets_to_anchors(
      const std::vector<Tensor>& anchors, const std::vector<Target>& targets) const;
  std::tuple<std::vector<Tensor>, std::vector<Tensor>> filter_proposals(
      const Tensor& proposals, const Tensor& objectness, const std::vector<std::pair<int64_t, int64_t>>& image_shapes,
      const std::vector<int64_t>& num_anchors_per_level) const;
  std::tuple<Tensor, Tensor> compute_loss(const Tensor& objectness, const Tensor& pred_bbox_deltas,
                                          const std::vector<Tensor>& labels,
                                          const std::vector<Tensor>& regression_targets) const;
  // The proposals (one Tensor[K, 4] per image) and, in training, the losses
  // {loss_objectness, loss_rpn_box_reg}.
  std::tuple<std::vector<Tensor>, Losses> forward(const ImageList& images,
                                                  const OrderedDict<std::string, Tensor>& features,
                                                  const std::optional<std::vector<Target>>& targets = std::nullopt);

  RegionProposalNetworkOptions options;
  AnchorGenerator anchor_generator{nullptr};
  RPNHead head{nullptr};
  _utils::BoxCoder box_coder{{1.0, 1.0, 1.0, 1.0}};
  _utils::Matcher proposal_matcher{0.7, 0.3, true};
  _utils::BalancedPositiveNegativeSampler fg_bg_sampler{256, 0.5};
  double nms_thresh = 0.7, score_thresh = 0.0, min_size = 1e-3;
};
TORCH_MODULE(RegionProposalNetwork);

}  // namespace torch::vision::models::detection::rpn
