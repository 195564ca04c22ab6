#pragma once
// torchvision.models.detection.roi_heads: RoIHeads (the box branch of
// Faster R-CNN: proposals matched and sampled in training, pooled with
// MultiScaleRoIAlign, run through the box head and predictor, then either
// fastrcnn_loss or postprocess_detections; and Mask R-CNN's mask branch),
// with the mask helpers (maskrcnn_loss, maskrcnn_inference,
// paste_masks_in_image, ...).
#include <array>
#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "ember/core/arg.h"
#include "ember/core/ordered_dict.h"
#include "ember/core/tensor.h"
#include "ember/nn/cloneable.h"
#include "ember/nn/modules/container/any.h"
#include "ember/nn/pimpl.h"
#include "ember/vision/models/detection/box_coder.h"
#include "ember/vision/models/detection/matcher.h"
#include "ember/vision/models/detection/types.h"
#include "ember/vision/ops/poolers.h"

namespace torch::vision::models::detection::roi_heads {

using ImageSize = std::pair<int64_t, int64_t>;

// Cross-entropy over the sampled proposals plus smooth-L1 (beta 1/9) of the
// positives' class-specific box deltas, normalised by the sample count.
std::tuple<Tensor, Tensor> fastrcnn_loss(const Tensor& class_logits, const Tensor& box_regression,
                                         const std::vector<Tensor>& labels,
                                         const std::vector<Tensor>& regression_targets);

using BoxWeights = std::optional<std::array<double, 4>>;

// Mask R-CNN's helpers (roi_heads_masks.cpp).
Tensor project_masks_on_boxes(const Tensor& gt_masks, const Tensor& boxes, const Tensor& matched_idxs, int64_t M);
Tensor maskrcnn_loss(const Tensor& mask_logits, const std::vector<Tensor>& proposals,
                     const std::vector<Tensor>& gt_masks, const std::vector<Tensor>& gt_labels,
                     const std::vector<Tensor>& mask_matched_idxs);
// Per image, the probability mask of each detection's label: [K_i, 1, M, M].
std::vector<Tensor> maskrcnn_inference(const Tensor& x, const std::vector<Tensor>& labels);
Tensor expand_boxes(const Tensor& boxes, double scale);
std::tuple<Tensor, double> expand_masks(const Tensor& mask, int64_t padding);
Tensor paste_mask_in_image(const Tensor& mask, const Tensor& box, int64_t im_h, int64_t im_w);
// masks [K, 1, M, M] pasted at boxes [K, 4] into [K, 1, im_h, im_w].
Tensor paste_masks_in_image(const Tensor& masks, const Tensor& boxes, ImageSize img_shape, int64_t padding = 1);

// Keypoint R-CNN's helpers (roi_heads_keypoints.cpp).
// (heatmaps: the linear index in the heatmap of each keypoint, valid: 0/1).
std::tuple<Tensor, Tensor> keypoints_to_heatmap(const Tensor& keypoints, const Tensor& rois, int64_t heatmap_size);
// (keypoints [R, K, 3] float32 with visibility 1, scores [R, K] float32).
std::tuple<Tensor, Tensor> heatmaps_to_keypoints(const Tensor& maps, const Tensor& rois);
Tensor keypointrcnn_loss(const Tensor& keypoint_logits, const std::vector<Tensor>& proposals,
                         const std::vector<Tensor>& gt_keypoints, const std::vector<Tensor>& keypoint_matched_idxs);
std::tuple<std::vector<Tensor>, std::vector<Tensor>> keypointrcnn_inference(const Tensor& x,
                                                                            const std::vector<Tensor>& boxes);

struct RoIHeadsOptions {
  // box_head: Tensor -> Tensor (TwoMLPHead, FastRCNNConvFCHead, ...);
  // box_predictor: Tensor -> std::tuple<Tensor, Tensor> (FastRCNNPredictor).
  RoIHeadsOptions(ops::MultiScaleRoIAlign box_roi_pool, nn::AnyModule box_head, nn::AnyModule box_predictor,
                  double fg_iou_thresh, double bg_iou_thresh, int64_t batch_size_per_image, double positive_fraction,
                  std::optional<std::array<double, 4>> bbox_reg_weights, double score_thresh, double nms_thresh,
                  int64_t detections_per_img)
      : box_roi_pool_(std::move(box_roi_pool)),
        box_head_(std::move(box_head)),
        box_predictor_(std::move(box_predictor)),
        fg_iou_thresh_(fg_iou_thresh),
        bg_iou_thresh_(bg_iou_thresh),
        batch_size_per_image_(batch_size_per_image),
        positive_fraction_(positive_fraction),
        bbox_reg_weights_(bbox_reg_weights),
        score_thresh_(score_thresh),
        nms_thresh_(nms_thresh),
        detections_per_img_(detections_per_img) {}
  TORCH_ARG(ops::MultiScaleRoIAlign, box_roi_pool);
  TORCH_ARG(nn::AnyModule, box_head);
  TORCH_ARG(nn::AnyModule, box_predictor);
  TORCH_ARG(double, fg_iou_thresh);
  TORCH_ARG(double, bg_iou_thresh);
  TORCH_ARG(int64_t, batch_size_per_image);
  TORCH_ARG(double, positive_fraction);
  // nullopt: (10, 10, 5, 5).
  TORCH_ARG(BoxWeights, bbox_reg_weights);
  TORCH_ARG(double, score_thresh);
  TORCH_ARG(double, nms_thresh);
  TORCH_ARG(int64_t, detections_per_img);
  // Mask R-CNN's branch; all three or none. mask_head: Tensor -> Tensor,
  // mask_predictor: Tensor -> Tensor (mask logits [K, num_classes, M, M]).
  TORCH_ARG(ops::MultiScaleRoIAlign, mask_roi_pool) = nullptr;
  TORCH_ARG(nn::AnyModule, mask_head) = {};
  TORCH_ARG(nn::AnyModule, mask_predictor) = {};
  // Keypoint R-CNN's branch; all three or none (Tensor -> Tensor each).
  TORCH_ARG(ops::MultiScaleRoIAlign, keypoint_roi_pool) = nullptr;
  TORCH_ARG(nn::AnyModule, keypoint_head) = {};
  TORCH_ARG(nn::AnyModule, keypoint_predictor) = {};
};

class RoIHeadsImpl : public nn::Cloneable<RoIHeadsImpl> {
 public:
  explicit RoIHeadsImpl(const RoIHeadsOptions& options_);
  void reset() override;
  void pretty_print(std::ostream& stream) const override { stream << "RoIHeads"; }
  bool has_mask() const;
  // Installs Mask R-CNN's branch after construction, as MaskRCNN does.
  void set_mask_branch(ops::MultiScaleRoIAlign mask_roi_pool, nn::AnyModule mask_head, nn::AnyModule mask_predictor);
  bool has_keypoint() const;
  void set_keypoint_branch(ops::MultiScaleRoIAlign keypoint_roi_pool, nn::AnyModule keypoint_head,
                           nn::AnyModule keypoint_predictor);

  std::tuple<std::vector<Tensor>, std::vector<Tensor>> assign_targets_to_proposals(
      const std::vector<Tensor>& proposals, const std::vector<Tensor>& gt_boxes,
      const std::vector<Tensor>& gt_labels) const;
  std::vector<Tensor> subsample(const std::vector<Tensor>& labels) const;
  // proposals, matched_idxs, labels, regression_targets.
  std::tuple<std::vector<Tensor>, std::vector<Tensor>, std::vector<Tensor>, std::vector<Tensor>>
  select_training_samples(const std::vector<Tensor>& proposals, const std::vector<Target>& targets) const;
  // boxes, scores, labels per image.
  std::tuple<std::vector<Tensor>, std::vector<Tensor>, std::vector<Tensor>> postprocess_detections(
      const Tensor& class_logits, const Tensor& box_regression, const std::vector<Tensor>& proposals,
      const std::vector<ImageSize>& image_shapes) const;
  std::tuple<std::vector<Detection>, Losses> forward(const OrderedDict<std::string, Tensor>& features,
                                                     const std::vector<Tensor>& proposals,
                                                     const std::vector<ImageSize>& image_shapes,
                                                     const std::optional<std::vector<Target>>& targets = std::nullopt);

  RoIHeadsOptions options;
  ops::MultiScaleRoIAlign box_roi_pool{nullptr};
  nn::AnyModule box_head, box_predictor;
  ops::MultiScaleRoIAlign mask_roi_pool{nullptr};
  nn::AnyModule mask_head, mask_predictor;
  ops::MultiScaleRoIAlign keypoint_roi_pool{nullptr};
  nn::AnyModule keypoint_head, keypoint_predictor;
  _utils::Matcher proposal_matcher{0.5, 0.5, false};
  _utils::BalancedPositiveNegativeSampler fg_bg_sampler{512, 0.25};
  _utils::BoxCoder box_coder{{10.0, 10.0, 5.0, 5.0}};
  double score_thresh = 0.05, nms_thresh = 0.5;
  int64_t detections_per_img = 100;
};
TORCH_MODULE(RoIHeads);

}  // namespace torch::vision::models::detection::roi_heads
