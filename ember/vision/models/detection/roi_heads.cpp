#include "ember/vision/models/detection/roi_heads.h"

#include <algorithm>

#include "ember/core/error.h"
#include "ember/ops/all_ops.h"
#include "ember/vision/ops/boxes.h"

namespace torch::vision::models::detection::roi_heads {

namespace {

using indexing::Slice;
namespace vops = ::torch::vision::ops;

const Tensor& field(const Target& t, const char* key, size_t i) {
  auto it = t.find(key);
  EMBER_CHECK(it != t.end(), "RoIHeads: Every element of targets should have a ", key, " key (target ", i, ")");
  return it->second;
}

}  // namespace

std::tuple<Tensor, Tensor> fastrcnn_loss(const Tensor& class_logits, const Tensor& box_regression,
                                         const std::vector<Tensor>& labels_in,
                                         const std::vector<Tensor>& regression_targets_in) {
  const Tensor labels = cat(labels_in, 0);
  const Tensor regression_targets = cat(regression_targets_in, 0);
  EMBER_CHECK(class_logits.dim() == 2 && class_logits.size(0) == labels.size(0),
              "fastrcnn_loss: class_logits of shape ", class_logits.sizes(), " for ", labels.size(0), " labels");
  const Tensor classification_loss = cross_entropy_loss(class_logits, labels);
  const Tensor pos = nonzero(labels > 0).select(1, 0);
  const Tensor labels_pos = labels.index({pos});
  const int64_t n = class_logits.size(0);
  const Tensor reg = box_regression.reshape({n, box_regression.size(-1) / 4, 4});
  const Tensor box_loss =
      smooth_l1_loss(reg.index({pos, labels_pos}), regression_targets.index({pos}), Reduction::Sum, 1.0 / 9) /
      static_cast<double>(labels.numel());
  return {classification_loss, box_loss};
}

RoIHeadsImpl::RoIHeadsImpl(const RoIHeadsOptions& options_) : options(options_) { reset(); }

void RoIHeadsImpl::reset() {
  EMBER_CHECK(
      !options.box_roi_pool().is_empty() && !options.box_head().is_empty() && !options.box_predictor().is_empty(),
      "RoIHeads: box_roi_pool, box_head and box_predictor are required");
  box_roi_pool = register_module("box_roi_pool", options.box_roi_pool());
  box_head = options.box_head();
  box_predictor = options.box_predictor();
  register_module("box_head", box_head.ptr());
  register_module("box_predictor", box_predictor.ptr());
  proposal_matcher = _utils::Matcher(options.fg_iou_thresh(), options.bg_iou_thresh(), false);
  fg_bg_sampler = _utils::BalancedPositiveNegativeSampler(options.batch_size_per_image(), options.positive_fraction());
  box_coder = _utils::BoxCoder(options.bbox_reg_weights().value_or(std::array<double, 4>{10.0, 10.0, 5.0, 5.0}));
  score_thresh = options.score_thresh();
  nms_thresh = options.nms_thresh();
  detections_per_img = options.detections_per_img();
  const int given = static_cast<int>(!options.mask_roi_pool().is_empty()) +
                    static_cast<int>(!options.mask_head().is_empty()) +
                    static_cast<int>(!options.mask_predictor().is_empty());
  EMBER_CHECK(given == 0 || given == 3, "RoIHeads: mask_roi_pool, mask_head and mask_predictor go together");
  if (given == 3) set_mask_branch(options.mask_roi_pool(), options.mask_head(), options.mask_predictor());
  const int kp = static_cast<int>(!options.keypoint_roi_pool().is_empty()) +
                 static_cast<int>(!options.keypoint_head().is_empty()) +
                 static_cast<int>(!options.keypoint_predictor().is_empty());
  EMBER_CHECK(kp == 0 || kp == 3, "RoIHeads: keypoint_roi_pool, keypoint_head and keypoint_predictor go together");
  if (kp == 3) set_keypoint_branch(options.keypoint_roi_pool(), options.keypoint_head(), options.keypoint_predictor());
}

bool RoIHeadsImpl::has_keypoint() const {
  return !keypoint_roi_pool.is_empty() && !keypoint_head.is_empty() && !keypoint_predictor.is_empty();
}

void RoIHeadsImpl::set_keypoint_branch(ops::MultiScaleRoIAlign keypoint_roi_pool_, nn::AnyModule keypoint_head_,
                                       nn::AnyModule keypoint_predictor_) {
  EMBER_CHECK(!keypoint_roi_pool_.is_empty() && !keypoint_head_.is_empty() && !keypoint_predictor_.is_empty(),
              "RoIHeads: keypoint_roi_pool, keypoint_head and keypoint_predictor are required");
  EMBER_CHECK(!has_keypoint(), "RoIHeads: the keypoint branch is already set");
  keypoint_roi_pool = register_module("keypoint_roi_pool", std::move(keypoint_roi_pool_));
  keypoint_head = std::move(keypoint_head_);
  keypoint_predictor = std::move(keypoint_predictor_);
  register_module("keypoint_head", keypoint_head.ptr());
  register_module("keypoint_predictor", keypoint_predictor.ptr());
}

bool RoIHeadsImpl::has_mask() const {
  return !mask_roi_pool.is_empty() && !mask_head.is_empty() && !mask_predictor.is_empty();
}

void RoIHeadsImpl::set_mask_branch(ops::MultiScaleRoIAlign mask_roi_pool_, nn::AnyModule mask_head_,
                                   nn::AnyModule mask_predictor_) {
  EMBER_CHECK(!mask_roi_pool_.is_empty() && !mask_head_.is_empty() && !mask_predictor_.is_empty(),
              "RoIHeads: mask_roi_pool, mask_head and mask_predictor are required");
  EMBER_CHECK(!has_mask(), "RoIHeads: the mask branch is already set");
  mask_roi_pool = register_module("mask_roi_pool", std::move(mask_roi_pool_));
  mask_head = std::move(mask_head_);
  mask_predictor = std::move(mask_predictor_);
  register_module("mask_head", mask_head.ptr());
  register_module("mask_predictor", mask_predictor.ptr());
}

std::tuple<std::vector<Tensor>, std::vector<Tensor>> RoIHeadsImpl::assign_targets_to_proposals(
    const std::vector<Tensor>& proposals, const std::vector<Tensor>& gt_boxes,
    const std::vector<Tensor>& gt_labels) const {
  std::vector<Tensor> matched_idxs, labels;
  for (size_t i = 0; i < proposals.size(); ++i) {
    const int64_t n = proposals[i].size(0);
    if (gt_boxes[i].numel() == 0) {
      matched_idxs.push_back(zeros({n}, TensorOptions().dtype(kLong)));
      labels.push_back(zeros({n}, TensorOptions().dtype(kLong)));
      continue;
    }
    const Tensor m = proposal_matcher(vops::box_iou(gt_boxes[i], proposals[i]));
    const Tensor clamped = m.clamp_min(0);
    Tensor l = gt_labels[i].index({clamped}).to(kLong);
    l.masked_fill_(m == _utils::Matcher::BELOW_LOW_THRESHOLD, 0);
    l.masked_fill_(m == _utils::Matcher::BETWEEN_THRESHOLDS, -1);
    matched_idxs.push_back(clamped);
    labels.push_back(l);
  }
  return {std::move(matched_idxs), std::move(labels)};
}

std::vector<Tensor> RoIHeadsImpl::subsample(const std::vector<Tensor>& labels) const {
  auto [pos, neg] = fg_bg_sampler(labels);
  std::vector<Tensor> sampled;
  for (size_t i = 0; i < pos.size(); ++i) sampled.push_back(nonzero(bitwise_or(pos[i], neg[i])).select(1, 0));
  return sampled;
}

std::tuple<std::vector<Tensor>, std::vector<Tensor>, std::vector<Tensor>, std::vector<Tensor>>
RoIHeadsImpl::select_training_samples(const std::vector<Tensor>& proposals_in,
                                      const std::vector<Target>& targets) const {
  EMBER_CHECK(!proposals_in.empty() && proposals_in.size() == targets.size(), "RoIHeads: ", targets.size(),
              " targets for ", proposals_in.size(), " images");
  const ScalarType dtype = proposals_in[0].scalar_type();
  std::vector<Tensor> gt_boxes, gt_labels, proposals;
  for (size_t i = 0; i < targets.size(); ++i) {
    gt_boxes.push_back(field(targets[i], "boxes", i).to(dtype));
    gt_labels.push_back(field(targets[i], "labels", i));
    // The ground truth joins the proposals (add_gt_proposals).
    proposals.push_back(cat({proposals_in[i], gt_boxes.back()}, 0));
  }
  auto [matched_idxs, labels] = assign_targets_to_proposals(proposals, gt_boxes, gt_labels);
  const std::vector<Tensor> sampled = subsample(labels);
  std::vector<Tensor> matched_gt_boxes;
  for (size_t i = 0; i < proposals.size(); ++i) {
    proposals[i] = proposals[i].index({sampled[i]});
    labels[i] = labels[i].index({sampled[i]});
    matched_idxs[i] = matched_idxs[i].index({sampled[i]});
    Tensor gt = gt_boxes[i];
    if (gt.numel() == 0) gt = zeros({1, 4}, TensorOptions().dtype(dtype));
    matched_gt_boxes.push_back(gt.index({matched_idxs[i]}));
  }
  std::vector<Tensor> regression_targets = box_coder.encode(matched_gt_boxes, proposals);
  return {std::move(proposals), std::move(matched_idxs), std::move(labels), std::move(regression_targets)};
}

std::tuple<std::vector<Tensor>, std::vector<Tensor>, std::vector<Tensor>> RoIHeadsImpl::postprocess_detections(
    const Tensor& class_logits, const Tensor& box_regression, const std::vector<Tensor>& proposals,
    const std::vector<ImageSize>& image_shapes) const {
  const int64_t num_classes = class_logits.size(-1);
  std::vector<int64_t> per_image;
  for (const Tensor& p : proposals) per_image.push_back(p.size(0));
  const Tensor pred_boxes = box_coder.decode(box_regression, proposals);
  const Tensor pred_scores = softmax(class_logits, -1);
  const auto boxes_list = split(pred_boxes, per_image, 0);
  const auto scores_list = split(pred_scores, per_image, 0);
  std::vector<Tensor> all_boxes, all_scores, all_labels;
  for (size_t i = 0; i < boxes_list.size(); ++i) {
    Tensor boxes = vops::clip_boxes_to_image(boxes_list[i], image_shapes.at(i));
    Tensor scores = scores_list[i];
    Tensor labels = arange(num_classes, TensorOptions().dtype(kLong)).view({1, -1}).expand_as(scores);
    // Drop the background class.
    boxes = boxes.index({Slice(), Slice(1, std::nullopt)}).reshape({-1, 4});
    scores = scores.index({Slice(), Slice(1, std::nullopt)}).reshape({-1});
    labels = labels.index({Slice(), Slice(1, std::nullopt)}).reshape({-1});
    Tensor keep = nonzero(scores > score_thresh).select(1, 0);
    boxes = boxes.index({keep});
    scores = scores.index({keep});
    labels = labels.index({keep});
    keep = vops::remove_small_boxes(boxes, 1e-2);
    boxes = boxes.index({keep});
    scores = scores.index({keep});
    labels = labels.index({keep});
    keep = vops::batched_nms(boxes, scores, labels, nms_thresh);
    keep = keep.slice(0, 0, std::min(keep.size(0), detections_per_img));
    all_boxes.push_back(boxes.index({keep}));
    all_scores.push_back(scores.index({keep}));
    all_labels.push_back(labels.index({keep}));
  }
  return {std::move(all_boxes), std::move(all_scores), std::move(all_labels)};
}

std::tuple<std::vector<Detection>, Losses> RoIHeadsImpl::forward(const OrderedDict<std::string, Tensor>& features,
                                                                 const std::vector<Tensor>& proposals_in,
                                                                 const std::vector<ImageSize>& image_shapes,
                                                                 const std::optional<std::vector<Target>>& targets) {
  if (targets) {
    for (size_t i = 0; i < targets->size(); ++i) {
      if (has_mask()) field((*targets)[i], "masks", i);
      const Tensor& boxes = field((*targets)[i], "boxes", i);
      EMBER_CHECK(boxes.is_floating_point(), "RoIHeads: target boxes must of float type, instead got ",
                  boxes.scalar_type());
      const Tensor& labels = field((*targets)[i], "labels", i);
      EMBER_CHECK(labels.scalar_type() == kLong, "RoIHeads: target labels must of int64 type, instead got ",
                  labels.scalar_type());
      if (has_keypoint()) {
        const Tensor& kp = field((*targets)[i], "keypoints", i);
        EMBER_CHECK(kp.scalar_type() == kFloat, "RoIHeads: target keypoints must of float type, instead got ",
                    kp.scalar_type());
        EMBER_CHECK(kp.dim() == 3 && kp.size(0) == boxes.size(0) && kp.size(2) == 3,
                    "RoIHeads: expected target keypoints of shape [", boxes.size(0), ", K, 3], got ", kp.sizes());
      }
    }
  }
  std::vector<Tensor> proposals = proposals_in;
  std::vector<Tensor> labels, regression_targets, matched_idxs;
  if (is_training()) {
    EMBER_CHECK(targets.has_value(), "RoIHeads: targets should not be None");
    std::tie(proposals, matched_idxs, labels, regression_targets) = select_training_samples(proposals, *targets);
  }
  Tensor box_features = box_roi_pool->forward(features, proposals, image_shapes);
  box_features = box_head.forward<Tensor>(box_features);
  auto [class_logits, box_regression] = box_predictor.forward<std::tuple<Tensor, Tensor>>(box_features);
  std::vector<Detection> result;
  Losses losses;
  if (is_training()) {
    auto [loss_classifier, loss_box_reg] = fastrcnn_loss(class_logits, box_regression, labels, regression_targets);
    losses["loss_classifier"] = loss_classifier;
    losses["loss_box_reg"] = loss_box_reg;
  } else {
    auto [boxes, scores, out_labels] = postprocess_detections(class_logits, box_regression, proposals, image_shapes);
    for (size_t i = 0; i < boxes.size(); ++i)
      result.push_back({{"boxes", boxes[i]}, {"labels", out_labels[i]}, {"scores", scores[i]}});
  }
  if (has_mask()) {
    std::vector<Tensor> mask_proposals, pos_matched_idxs;
    if (is_training()) {
      for (size_t i = 0; i < proposals.size(); ++i) {
        const Tensor pos = nonzero(labels[i] > 0).select(1, 0);
        mask_proposals.push_back(proposals[i].index({pos}));
        pos_matched_idxs.push_back(matched_idxs[i].index({pos}));
      }
    } else {
      for (const Detection& r : result) mask_proposals.push_back(r.at("boxes"));
    }
    Tensor mask_features = mask_roi_pool->forward(features, mask_proposals, image_shapes);
    mask_features = mask_head.forward<Tensor>(mask_features);
    const Tensor mask_logits = mask_predictor.forward<Tensor>(mask_features);
    if (is_training()) {
      std::vector<Tensor> gt_masks, gt_labels;
      for (size_t i = 0; i < targets->size(); ++i) {
        gt_masks.push_back(field((*targets)[i], "masks", i));
        gt_labels.push_back(field((*targets)[i], "labels", i));
      }
      losses["loss_mask"] = maskrcnn_loss(mask_logits, mask_proposals, gt_masks, gt_labels, pos_matched_idxs);
    } else {
      std::vector<Tensor> det_labels;
      for (const Detection& r : result) det_labels.push_back(r.at("labels"));
      const std::vector<Tensor> probs = maskrcnn_inference(mask_logits, det_labels);
      for (size_t i = 0; i < result.size(); ++i) result[i]["masks"] = probs[i];
    }
  }
  if (has_keypoint()) {
    std::vector<Tensor> kp_proposals, pos_matched_idxs;
    if (is_training()) {
      for (size_t i = 0; i < proposals.size(); ++i) {
        const Tensor pos = nonzero(labels[i] > 0).select(1, 0);
        kp_proposals.push_back(proposals[i].index({pos}));
        pos_matched_idxs.push_back(matched_idxs[i].index({pos}));
      }
    } else {
      for (const Detection& r : result) kp_proposals.push_back(r.at("boxes"));
    }
    Tensor kp_features = keypoint_roi_pool->forward(features, kp_proposals, image_shapes);
    kp_features = keypoint_head.forward<Tensor>(kp_features);
    const Tensor kp_logits = keypoint_predictor.forward<Tensor>(kp_features);
    if (is_training()) {
      std::vector<Tensor> gt_keypoints;
      for (size_t i = 0; i < targets->size(); ++i) gt_keypoints.push_back(field((*targets)[i], "keypoints", i));
      losses["loss_keypoint"] = keypointrcnn_loss(kp_logits, kp_proposals, gt_keypoints, pos_matched_idxs);
    } else {
      auto [kp_probs, kp_scores] = keypointrcnn_inference(kp_logits, kp_proposals);
      for (size_t i = 0; i < result.size(); ++i) {
        result[i]["keypoints"] = kp_probs[i];
        result[i]["keypoints_scores"] = kp_scores[i];
      }
    }
  }
  return {std::move(result), std::move(losses)};
}

}  // namespace torch::vision::models::detection::roi_heads
