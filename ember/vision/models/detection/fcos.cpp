#include "ember/vision/models/detection/fcos.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "ember/core/error.h"
#include "ember/nn/init.h"
#include "ember/nn/modules/activation.h"
#include "ember/nn/modules/normalization.h"
#include "ember/ops/all_ops.h"
#include "ember/vision/models/detection/input_checks.h"
#include "ember/vision/ops/box_losses.h"
#include "ember/vision/ops/boxes.h"
#include "ember/vision/ops/focal_loss.h"

namespace torch::vision::models::detection::fcos {

namespace {

using indexing::Slice;
namespace vops = ::torch::vision::ops;

// num_convs x (Conv2d 3x3, norm, ReLU), conv weights N(0, 0.01), biases 0.
nn::Sequential conv_tower(int64_t in_channels, int64_t num_convs, const std::optional<ops::NormLayer>& norm_layer) {
  EMBER_CHECK(norm_layer || in_channels % 32 == 0, "FCOSHead: in_channels=", in_channels,
              " is not divisible by GroupNorm's 32 groups");
  nn::Sequential conv;
  for (int64_t i = 0; i < num_convs; ++i) {
    nn::Conv2d c(nn::Conv2dOptions(in_channels, in_channels, 3).stride(1).padding(1));
    nn::init::normal_(c->weight, 0.0, 0.01);
    nn::init::constant_(c->bias, 0);
    conv->push_back(c);
    if (norm_layer)
      conv->push_back((*norm_layer)(in_channels));
    else
      conv->push_back(nn::GroupNorm(32, in_channels));
    conv->push_back(nn::ReLU());
  }
  return conv;
}

Tensor flatten_level(const Tensor& l, int64_t c) {
  const int64_t n = l.size(0), h = l.size(2), w = l.size(3);
  return l.view({n, -1, c, h, w}).permute({0, 3, 4, 1, 2}).reshape({n, -1, c});
}

void check_features(const std::vector<Tensor>& x, int64_t in_channels, const char* op) {
  EMBER_CHECK(!x.empty(), op, ": no feature maps");
  for (const Tensor& f : x)
    EMBER_CHECK(f.dim() == 4 && f.size(1) == in_channels, op, ": expected features of shape [N, ", in_channels,
                ", H, W], got ", f.sizes());
}

const Tensor& target_field(const Target& t, const char* key) {
  auto it = t.find(key);
  EMBER_CHECK(it != t.end(), "FCOS: a target has no ", key);
  return it->second;
}

}  // namespace

FCOSClassificationHeadImpl::FCOSClassificationHeadImpl(int64_t in_channels, int64_t num_anchors, int64_t num_classes,
                                                       int64_t num_convs, double prior_probability,
                                                       std::optional<ops::NormLayer> norm_layer)
    : in_channels(in_channels),
      num_anchors(num_anchors),
      num_classes(num_classes),
      num_convs(num_convs),
      prior_probability(prior_probability),
      norm_layer(std::move(norm_layer)) {
  reset();
}

void FCOSClassificationHeadImpl::reset() {
  EMBER_CHECK(in_channels > 0 && num_anchors > 0 && num_classes > 0 && num_convs >= 0,
              "FCOSClassificationHead: bad in_channels=", in_channels, ", num_anchors=", num_anchors,
              ", num_classes=", num_classes, " or num_convs=", num_convs);
  EMBER_CHECK(prior_probability > 0 && prior_probability < 1,
              "FCOSClassificationHead: prior_probability=", prior_probability, " is not in (0, 1)");
  conv = register_module("conv", conv_tower(in_channels, num_convs, norm_layer));
  cls_logits = register_module(
      "cls_logits", nn::Conv2d(nn::Conv2dOptions(in_channels, num_anchors * num_classes, 3).stride(1).padding(1)));
  nn::init::normal_(cls_logits->weight, 0.0, 0.01);
  nn::init::constant_(cls_logits->bias, -std::log((1 - prior_probability) / prior_probability));
}

Tensor FCOSClassificationHeadImpl::forward(const std::vector<Tensor>& x) {
  check_features(x, in_channels, "FCOSClassificationHead");
  std::vector<Tensor> levels;
  for (const Tensor& f : x)
    levels.push_back(flatten_level(cls_logits(num_convs > 0 ? conv->forward(f) : f), num_classes));
  return cat(levels, 1);
}

FCOSRegressionHeadImpl::FCOSRegressionHeadImpl(int64_t in_channels, int64_t num_anchors, int64_t num_convs,
                                               std::optional<ops::NormLayer> norm_layer)
    : in_channels(in_channels), num_anchors(num_anchors), num_convs(num_convs), norm_layer(std::move(norm_layer)) {
  reset();
}

void FCOSRegressionHeadImpl::reset() {
  EMBER_CHECK(in_channels > 0 && num_anchors > 0 && num_convs >= 0, "FCOSRegressionHead: bad in_channels=", in_channels,
              ", num_anchors=", num_anchors, " or num_convs=", num_convs);
  conv = register_module("conv", conv_tower(in_channels, num_convs, norm_layer));
  bbox_reg =
      register_module("bbox_reg", nn::Conv2d(nn::Conv2dOptions(in_channels, num_anchors * 4, 3).stride(1).padding(1)));
  bbox_ctrness =
      register_module("bbox_ctrness", nn::Conv2d(nn::Conv2dOptions(in_channels, num_anchors, 3).stride(1).padding(1)));
  for (nn::Conv2d* c : {&bbox_reg, &bbox_ctrness}) {
    nn::init::normal_((*c)->weight, 0.0, 0.01);
    nn::init::zeros_((*c)->bias);
  }
}

std::tuple<Tensor, Tensor> FCOSRegressionHeadImpl::forward(const std::vector<Tensor>& x) {
  check_features(x, in_channels, "FCOSRegressionHead");
  std::vector<Tensor> regs, ctrs;
  for (const Tensor& f : x) {
    const Tensor feat = num_convs > 0 ? conv->forward(f) : f;
    regs.push_back(flatten_level(relu(bbox_reg(feat)), 4));
    ctrs.push_back(flatten_level(bbox_ctrness(feat), 1));
  }
  return {cat(regs, 1), cat(ctrs, 1)};
}

FCOSHeadImpl::FCOSHeadImpl(int64_t in_channels, int64_t num_anchors, int64_t num_classes, int64_t num_convs)
    : in_channels(in_channels), num_anchors(num_anchors), num_classes(num_classes), num_convs(num_convs) {
  reset();
}

void FCOSHeadImpl::reset() {
  classification_head =
      register_module("classification_head", FCOSClassificationHead(in_channels, num_anchors, num_classes, num_convs));
  regression_head = register_module("regression_head", FCOSRegressionHead(in_channels, num_anchors, num_convs));
}

HeadOutputs FCOSHeadImpl::forward(const std::vector<Tensor>& x) {
  auto [reg, ctr] = regression_head(x);
  return {{"cls_logits", classification_head(x)}, {"bbox_regression", reg}, {"bbox_ctrness", ctr}};
}

Losses FCOSHeadImpl::compute_loss(const std::vector<Target>& targets, const HeadOutputs& head_outputs,
                                  const std::vector<Tensor>& anchors_in,
                                  const std::vector<Tensor>& matched_idxs) const {
  const Tensor& cls_logits = head_outputs.at("cls_logits");
  const Tensor& bbox_regression = head_outputs.at("bbox_regression");
  const Tensor& bbox_ctrness = head_outputs.at("bbox_ctrness");
  std::vector<Tensor> all_classes, all_boxes;
  for (size_t i = 0; i < targets.size(); ++i) {
    const Tensor& labels = target_field(targets[i], "labels");
    const Tensor& boxes = target_field(targets[i], "boxes");
    const Tensor& m = matched_idxs[i];
    Tensor gt_classes, gt_boxes;
    if (labels.numel() == 0) {
      gt_classes = zeros({m.size(0)}, labels.options());
      gt_boxes = zeros({m.size(0), 4}, boxes.options());
    } else {
      gt_classes = labels.index({m.clamp_min(0)});
      gt_boxes = boxes.index({m.clamp_min(0)});
    }
    gt_classes.masked_fill_(m < 0, -1);
    all_classes.push_back(gt_classes);
    all_boxes.push_back(gt_boxes);
  }
  const Tensor gt_boxes_all = stack(all_boxes), gt_classes_all = stack(all_classes), anchors = stack(anchors_in);
  EMBER_CHECK(gt_classes_all.numel() == 0 || gt_classes_all.max().item<int64_t>() < cls_logits.size(-1),
              "FCOS: target label ", gt_classes_all.numel() ? gt_classes_all.max().item<int64_t>() : 0,
              " is out of range for ", cls_logits.size(-1), " classes");
  const Tensor fg = gt_classes_all >= 0;
  const double num_foreground = std::max(1.0, static_cast<double>(fg.sum().item<int64_t>()));
  Tensor gt_classes_targets = zeros_like(cls_logits);
  const Tensor fg_idx = nonzero(fg);
  const Tensor fg_img = fg_idx.select(1, 0), fg_anchor = fg_idx.select(1, 1);
  gt_classes_targets.index_put_({fg_img, fg_anchor, gt_classes_all.index({fg_img, fg_anchor})}, 1.0);
  const Tensor loss_cls = vops::sigmoid_focal_loss(cls_logits, gt_classes_targets, 0.25, 2, "sum");
  const Tensor pred_boxes = box_coder.decode(bbox_regression, anchors);
  const Tensor loss_bbox_reg = vops::generalized_box_iou_loss(pred_boxes.index({fg_img, fg_anchor}),
                                                              gt_boxes_all.index({fg_img, fg_anchor}), "sum");
  const Tensor reg_targets = box_coder.encode(anchors, gt_boxes_all);
  Tensor gt_ctrness;
  if (reg_targets.size(0) == 0) {
    gt_ctrness = zeros({0, reg_targets.size(1)}, reg_targets.options());
  } else {
    const Tensor lr = reg_targets.index({Slice(), Slice(), Slice(0, std::nullopt, 2)});
    const Tensor tb = reg_targets.index({Slice(), Slice(), Slice(1, std::nullopt, 2)});
    gt_ctrness =
        sqrt((std::get<0>(lr.min(-1)) / std::get<0>(lr.max(-1))) * (std::get<0>(tb.min(-1)) / std::get<0>(tb.max(-1))));
  }
  const Tensor pred_ctrness = bbox_ctrness.squeeze(2);
  const Tensor loss_ctrness =
      binary_cross_entropy_with_logits(pred_ctrness.index({fg_img, fg_anchor}), gt_ctrness.index({fg_img, fg_anchor}),
                                       std::nullopt, std::nullopt, Reduction::Sum);
  return {{"classification", loss_cls / num_foreground},
          {"bbox_regression", loss_bbox_reg / num_foreground},
          {"bbox_ctrness", loss_ctrness / num_foreground}};
}

FCOSImpl::FCOSImpl(const FCOSOptions& options_) : options(options_) {
  const FCOSOptions& o = options;
  EMBER_CHECK(!o.backbone().is_empty(), "FCOS: backbone is required");
  EMBER_CHECK(o.backbone().out_channels() > 0, "FCOS: backbone.out_channels=", o.backbone().out_channels(),
              " is not positive");
  backbone = o.backbone();
  register_module("backbone", backbone.ptr());
  anchor_generator = o.anchor_generator();
  if (anchor_generator.is_empty())
    anchor_generator = anchor_utils::AnchorGenerator(std::vector<std::vector<int64_t>>{{8}, {16}, {32}, {64}, {128}},
                                                     std::vector<std::vector<double>>(5, {1.0}));
  EMBER_CHECK(anchor_generator->num_anchors_per_location().at(0) == 1,
              "FCOS: anchor_generator.num_anchors_per_location()[0] should be 1 instead of ",
              anchor_generator->num_anchors_per_location().at(0));
  register_module("anchor_generator", anchor_generator);
  head = o.head().is_empty() ? FCOSHead(backbone.out_channels(), 1, o.num_classes()) : o.head();
  register_module("head", head);
  transform = register_module("transform", transform::GeneralizedRCNNTransform(
                                               transform::GeneralizedRCNNTransformOptions(
                                                   o.min_size(), o.max_size(),
                                                   o.image_mean().value_or(std::vector<double>{0.485, 0.456, 0.406}),
                                                   o.image_std().value_or(std::vector<double>{0.229, 0.224, 0.225}))
                                                   .size_divisible(o.size_divisible())
                                                   .fixed_size(o.fixed_size())
                                                   ._skip_resize(o._skip_resize())));
  center_sampling_radius = o.center_sampling_radius();
  score_thresh = o.score_thresh();
  nms_thresh = o.nms_thresh();
  detections_per_img = o.detections_per_img();
  topk_candidates = o.topk_candidates();
}

Losses FCOSImpl::compute_loss(const std::vector<Target>& targets, const HeadOutputs& head_outputs,
                              const std::vector<Tensor>& anchors,
                              const std::vector<int64_t>& num_anchors_per_level) const {
  std::vector<Tensor> matched_idxs;
  for (size_t i = 0; i < anchors.size(); ++i) {
    const Tensor& a = anchors[i];
    const Tensor& gt = target_field(targets[i], "boxes");
    if (gt.numel() == 0) {
      matched_idxs.push_back(full({a.size(0)}, -1, TensorOptions().dtype(kLong)));
      continue;
    }
    const Tensor gt_centers = (gt.index({Slice(), Slice(0, 2)}) + gt.index({Slice(), Slice(2, std::nullopt)})) / 2;
    const Tensor anchor_centers = (a.index({Slice(), Slice(0, 2)}) + a.index({Slice(), Slice(2, std::nullopt)})) / 2;
    const Tensor anchor_sizes = a.select(1, 2) - a.select(1, 0);
    Tensor match = std::get<0>((anchor_centers.unsqueeze(1) - gt_centers.unsqueeze(0)).abs().max(2)) <
                   center_sampling_radius * anchor_sizes.unsqueeze(1);
    const Tensor x = anchor_centers.select(1, 0).unsqueeze(1), y = anchor_centers.select(1, 1).unsqueeze(1);
    const Tensor x0 = gt.select(1, 0).unsqueeze(0), y0 = gt.select(1, 1).unsqueeze(0);
    const Tensor x1 = gt.select(1, 2).unsqueeze(0), y1 = gt.select(1, 3).unsqueeze(0);
    const Tensor dist = stack({x - x0, y - y0, x1 - x, y1 - y}, 2);
    match = match & (std::get<0>(dist.min(2)) > 0);
    Tensor lower = anchor_sizes * 4;
    lower.index_put_({Slice(0, num_anchors_per_level.front())}, 0);
    Tensor upper = anchor_sizes * 8;
    upper.index_put_({Slice(-num_anchors_per_level.back(), std::nullopt)}, std::numeric_limits<double>::infinity());
    const Tensor max_dist = std::get<0>(dist.max(2));
    match = match & ((max_dist > lower.unsqueeze(1)) & (max_dist < upper.unsqueeze(1)));
    const Tensor gt_areas = (gt.select(1, 2) - gt.select(1, 0)) * (gt.select(1, 3) - gt.select(1, 1));
    const Tensor scored = match.to(kFloat) * (1e8 - gt_areas.unsqueeze(0));
    auto [min_values, matched_idx] = scored.max(1);
    matched_idx.masked_fill_(min_values < 1e-5, -1);
    matched_idxs.push_back(matched_idx);
  }
  return head->compute_loss(targets, head_outputs, anchors, matched_idxs);
}

std::vector<Detection> FCOSImpl::postprocess_detections(const std::map<std::string, std::vector<Tensor>>& head_outputs,
                                                        const std::vector<std::vector<Tensor>>& anchors,
                                                        const std::vector<transform::ImageSize>& image_shapes) const {
  const auto& class_logits = head_outputs.at("cls_logits");
  const auto& box_regression = head_outputs.at("bbox_regression");
  const auto& box_ctrness = head_outputs.at("bbox_ctrness");
  std::vector<Detection> detections;
  for (size_t index = 0; index < image_shapes.size(); ++index) {
    const auto idx = static_cast<int64_t>(index);
    std::vector<Tensor> image_boxes, image_scores, image_labels;
    for (size_t level = 0; level < class_logits.size(); ++level) {
      const Tensor logits = class_logits[level][idx];
      const int64_t num_classes = logits.size(-1);
      Tensor scores = sqrt(sigmoid(logits) * sigmoid(box_ctrness[level][idx])).flatten();
      const Tensor keep = scores > score_thresh;
      scores = scores.index({keep});
      Tensor topk_idxs = nonzero(keep).select(1, 0);
      auto [top_scores, idxs] = scores.topk(std::min(topk_idxs.size(0), topk_candidates));
      topk_idxs = topk_idxs.index({idxs});
      const Tensor anchor_idxs = floor_divide(topk_idxs, num_classes);
      const Tensor labels = remainder(topk_idxs, num_classes);
      const Tensor boxes =
          box_coder.decode(box_regression[level][idx].index({anchor_idxs}), anchors[index][level].index({anchor_idxs}));
      image_boxes.push_back(vops::clip_boxes_to_image(boxes, image_shapes[index]));
      image_scores.push_back(top_scores);
      image_labels.push_back(labels);
    }
    const Tensor boxes = cat(image_boxes, 0), scores = cat(image_scores, 0), labels = cat(image_labels, 0);
    Tensor keep = vops::batched_nms(boxes, scores, labels, nms_thresh);
    keep = keep.slice(0, 0, std::min(keep.size(0), detections_per_img));
    detections.push_back(
        {{"boxes", boxes.index({keep})}, {"scores", scores.index({keep})}, {"labels", labels.index({keep})}});
  }
  return detections;
}

DetectionOutput FCOSImpl::forward(const std::vector<Tensor>& images,
                                  const std::optional<std::vector<Target>>& targets_in) {
  const auto original_image_sizes = detail::check_images_and_targets("FCOS", images, targets_in, is_training());
  auto [image_list, targets] = transform->forward(images, targets_in);
  if (targets) detail::check_degenerate_boxes("FCOS", *targets);
  const std::vector<Tensor> features = backbone(image_list.tensors).values();
  const HeadOutputs head_outputs = head->forward(features);
  const std::vector<Tensor> anchors = anchor_generator->forward(image_list, features);
  std::vector<int64_t> per_level;
  for (const Tensor& f : features) per_level.push_back(f.size(2) * f.size(3));
  EMBER_CHECK(anchors.at(0).size(0) == head_outputs.at("cls_logits").size(1), "FCOS: ", anchors.at(0).size(0),
              " anchors for ", head_outputs.at("cls_logits").size(1),
              " predictions; the anchor generator and the head disagree");
  DetectionOutput out;
  if (is_training()) {
    out.losses = compute_loss(*targets, head_outputs, anchors, per_level);
    return out;
  }
  std::map<std::string, std::vector<Tensor>> split_outputs;
  for (const auto& [k, v] : head_outputs) split_outputs[k] = split(v, per_level, 1);
  std::vector<std::vector<Tensor>> split_anchors;
  for (const Tensor& anc : anchors) split_anchors.push_back(split(anc, per_level, 0));
  out.detections = transform->postprocess(postprocess_detections(split_outputs, split_anchors, image_list.image_sizes),
                                          image_list.image_sizes, original_image_sizes);
  return out;
}

}  // namespace torch::vision::models::detection::fcos
