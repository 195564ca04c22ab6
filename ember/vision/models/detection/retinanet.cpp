#include "ember/vision/models/detection/retinanet.h"

#include <algorithm>
#include <cmath>

#include "ember/core/error.h"
#include "ember/nn/init.h"
#include "ember/ops/all_ops.h"
#include "ember/vision/models/detection/input_checks.h"
#include "ember/vision/ops/boxes.h"
#include "ember/vision/ops/focal_loss.h"

namespace torch::vision::models::detection::retinanet {

namespace {

namespace vops = ::torch::vision::ops;

// Four Conv2dNormActivation(in, in) layers, weights N(0, 0.01), biases 0.
nn::Sequential conv_tower(int64_t in_channels, const std::optional<ops::NormLayer>& norm_layer) {
  nn::Sequential conv;
  for (int i = 0; i < 4; ++i)
    conv->push_back(
        vops::Conv2dNormActivation(vops::Conv2dNormActivationOptions(in_channels, in_channels).norm_layer(norm_layer)));
  for (const auto& m : conv->modules(/*include_self=*/false))
    if (auto* c = dynamic_cast<nn::Conv2dImpl*>(m.get())) {
      nn::init::normal_(c->weight, 0.0, 0.01);
      if (c->bias.defined()) nn::init::constant_(c->bias, 0);
    }
  return conv;
}

// [N, A*C, H, W] per level -> [N, sum HWA, C].
Tensor flatten_levels(const std::vector<Tensor>& levels, int64_t c) {
  std::vector<Tensor> out;
  for (const Tensor& l : levels) {
    const int64_t n = l.size(0), h = l.size(2), w = l.size(3);
    out.push_back(l.view({n, -1, c, h, w}).permute({0, 3, 4, 1, 2}).reshape({n, -1, c}));
  }
  return cat(out, 1);
}

void check_features(const std::vector<Tensor>& x, int64_t in_channels, const char* op) {
  EMBER_CHECK(!x.empty(), op, ": no feature maps");
  for (const Tensor& f : x)
    EMBER_CHECK(f.dim() == 4 && f.size(1) == in_channels, op, ": expected features of shape [N, ", in_channels,
                ", H, W], got ", f.sizes());
}

Tensor sum_list(const std::vector<Tensor>& xs) {
  Tensor res = xs.at(0);
  for (size_t i = 1; i < xs.size(); ++i) res = res + xs[i];
  return res;
}

const Tensor& target_field(const Target& t, const char* key) {
  auto it = t.find(key);
  EMBER_CHECK(it != t.end(), "RetinaNet: a target has no ", key);
  return it->second;
}

}  // namespace

RetinaNetClassificationHeadImpl::RetinaNetClassificationHeadImpl(int64_t in_channels, int64_t num_anchors,
                                                                 int64_t num_classes, double prior_probability,
                                                                 std::optional<ops::NormLayer> norm_layer)
    : in_channels(in_channels),
      num_anchors(num_anchors),
      num_classes(num_classes),
      prior_probability(prior_probability),
      norm_layer(std::move(norm_layer)) {
  reset();
}

void RetinaNetClassificationHeadImpl::reset() {
  EMBER_CHECK(in_channels > 0 && num_anchors > 0 && num_classes > 0,
              "RetinaNetClassificationHead: bad in_channels=", in_channels, ", num_anchors=", num_anchors,
              " or num_classes=", num_classes);
  EMBER_CHECK(prior_probability > 0 && prior_probability < 1,
              "RetinaNetClassificationHead: prior_probability=", prior_probability, " is not in (0, 1)");
  conv = register_module("conv", conv_tower(in_channels, norm_layer));
  cls_logits = register_module(
      "cls_logits", nn::Conv2d(nn::Conv2dOptions(in_channels, num_anchors * num_classes, 3).stride(1).padding(1)));
  nn::init::normal_(cls_logits->weight, 0.0, 0.01);
  nn::init::constant_(cls_logits->bias, -std::log((1 - prior_probability) / prior_probability));
}

Tensor RetinaNetClassificationHeadImpl::forward(const std::vector<Tensor>& x) {
  check_features(x, in_channels, "RetinaNetClassificationHead");
  std::vector<Tensor> levels;
  for (const Tensor& f : x) levels.push_back(cls_logits(conv->forward(f)));
  return flatten_levels(levels, num_classes);
}

Tensor RetinaNetClassificationHeadImpl::compute_loss(const std::vector<Target>& targets,
                                                     const HeadOutputs& head_outputs,
                                                     const std::vector<Tensor>& matched_idxs) const {
  const Tensor& cls_logits_all = head_outputs.at("cls_logits");
  std::vector<Tensor> losses;
  for (size_t i = 0; i < targets.size(); ++i) {
    const Tensor logits = cls_logits_all[static_cast<int64_t>(i)];
    const Tensor& m = matched_idxs[i];
    const Tensor fg = m >= 0;
    const int64_t num_foreground = fg.sum().item<int64_t>();
    Tensor gt_classes_target = zeros_like(logits);
    const Tensor fg_idx = nonzero(fg).select(1, 0);
    const Tensor labels = target_field(targets[i], "labels").index({m.index({fg_idx})});
    EMBER_CHECK(labels.numel() == 0 || labels.max().item<int64_t>() < logits.size(-1), "RetinaNet: target label ",
                labels.numel() ? labels.max().item<int64_t>() : 0, " is out of range for ", logits.size(-1),
                " classes");
    gt_classes_target.index_put_({fg_idx, labels}, 1.0);
    const Tensor valid = nonzero(m != _utils::Matcher::BETWEEN_THRESHOLDS).select(1, 0);
    losses.push_back(vops::sigmoid_focal_loss(logits.index({valid}), gt_classes_target.index({valid}), 0.25, 2, "sum") /
                     static_cast<double>(std::max<int64_t>(1, num_foreground)));
  }
  return sum_list(losses) / static_cast<double>(targets.size());
}

RetinaNetRegressionHeadImpl::RetinaNetRegressionHeadImpl(int64_t in_channels, int64_t num_anchors,
                                                         std::optional<ops::NormLayer> norm_layer)
    : in_channels(in_channels), num_anchors(num_anchors), norm_layer(std::move(norm_layer)) {
  reset();
}

void RetinaNetRegressionHeadImpl::reset() {
  EMBER_CHECK(in_channels > 0 && num_anchors > 0, "RetinaNetRegressionHead: bad in_channels=", in_channels,
              " or num_anchors=", num_anchors);
  conv = register_module("conv", conv_tower(in_channels, norm_layer));
  bbox_reg =
      register_module("bbox_reg", nn::Conv2d(nn::Conv2dOptions(in_channels, num_anchors * 4, 3).stride(1).padding(1)));
  nn::init::normal_(bbox_reg->weight, 0.0, 0.01);
  nn::init::zeros_(bbox_reg->bias);
}

Tensor RetinaNetRegressionHeadImpl::forward(const std::vector<Tensor>& x) {
  check_features(x, in_channels, "RetinaNetRegressionHead");
  std::vector<Tensor> levels;
  for (const Tensor& f : x) levels.push_back(bbox_reg(conv->forward(f)));
  return flatten_levels(levels, 4);
}

Tensor RetinaNetRegressionHeadImpl::compute_loss(const std::vector<Target>& targets, const HeadOutputs& head_outputs,
                                                 const std::vector<Tensor>& anchors,
                                                 const std::vector<Tensor>& matched_idxs) const {
  const Tensor& bbox_regression = head_outputs.at("bbox_regression");
  std::vector<Tensor> losses;
  for (size_t i = 0; i < targets.size(); ++i) {
    const Tensor fg = nonzero(matched_idxs[i] >= 0).select(1, 0);
    const int64_t num_foreground = fg.numel();
    const Tensor matched_gt = target_field(targets[i], "boxes").index({matched_idxs[i].index({fg})});
    const Tensor reg = bbox_regression[static_cast<int64_t>(i)].index({fg});
    const Tensor anc = anchors[i].index({fg});
    losses.push_back(_utils::_box_loss(_loss_type, box_coder, anc, matched_gt, reg) /
                     static_cast<double>(std::max<int64_t>(1, num_foreground)));
  }
  return sum_list(losses) / static_cast<double>(std::max<size_t>(1, targets.size()));
}

RetinaNetHeadImpl::RetinaNetHeadImpl(int64_t in_channels, int64_t num_anchors, int64_t num_classes,
                                     std::optional<ops::NormLayer> norm_layer)
    : in_channels(in_channels), num_anchors(num_anchors), num_classes(num_classes), norm_layer(std::move(norm_layer)) {
  reset();
}

void RetinaNetHeadImpl::reset() {
  classification_head = register_module(
      "classification_head", RetinaNetClassificationHead(in_channels, num_anchors, num_classes, 0.01, norm_layer));
  regression_head = register_module("regression_head", RetinaNetRegressionHead(in_channels, num_anchors, norm_layer));
}

Losses RetinaNetHeadImpl::compute_loss(const std::vector<Target>& targets, const HeadOutputs& head_outputs,
                                       const std::vector<Tensor>& anchors,
                                       const std::vector<Tensor>& matched_idxs) const {
  return {{"classification", classification_head->compute_loss(targets, head_outputs, matched_idxs)},
          {"bbox_regression", regression_head->compute_loss(targets, head_outputs, anchors, matched_idxs)}};
}

HeadOutputs RetinaNetHeadImpl::forward(const std::vector<Tensor>& x) {
  return {{"cls_logits", classification_head(x)}, {"bbox_regression", regression_head(x)}};
}

anchor_utils::AnchorGenerator _default_anchorgen() {
  std::vector<std::vector<int64_t>> sizes;
  for (const int64_t x : {32, 64, 128, 256, 512})
    sizes.push_back({x, static_cast<int64_t>(static_cast<double>(x) * std::pow(2.0, 1.0 / 3)),
                     static_cast<int64_t>(static_cast<double>(x) * std::pow(2.0, 2.0 / 3))});
  return anchor_utils::AnchorGenerator(sizes, std::vector<std::vector<double>>(sizes.size(), {0.5, 1.0, 2.0}));
}

RetinaNetImpl::RetinaNetImpl(const RetinaNetOptions& options_) : options(options_) {
  const RetinaNetOptions& o = options;
  EMBER_CHECK(!o.backbone().is_empty(), "RetinaNet: backbone is required");
  EMBER_CHECK(o.backbone().out_channels() > 0, "RetinaNet: backbone.out_channels=", o.backbone().out_channels(),
              " is not positive");
  EMBER_CHECK(o.num_classes() > 0, "RetinaNet: num_classes=", o.num_classes(), " is not positive");
  backbone = o.backbone();
  register_module("backbone", backbone.ptr());
  anchor_generator = o.anchor_generator().is_empty() ? _default_anchorgen() : o.anchor_generator();
  register_module("anchor_generator", anchor_generator);
  head = o.head().is_empty() ? RetinaNetHead(backbone.out_channels(),
                                             anchor_generator->num_anchors_per_location().at(0), o.num_classes())
                             : o.head();
  register_module("head", head);
  proposal_matcher = o.proposal_matcher().value_or(_utils::Matcher(o.fg_iou_thresh(), o.bg_iou_thresh(), true));
  transform = register_module("transform", transform::GeneralizedRCNNTransform(
                                               transform::GeneralizedRCNNTransformOptions(
                                                   o.min_size(), o.max_size(),
                                                   o.image_mean().value_or(std::vector<double>{0.485, 0.456, 0.406}),
                                                   o.image_std().value_or(std::vector<double>{0.229, 0.224, 0.225}))
                                                   .size_divisible(o.size_divisible())
                                                   .fixed_size(o.fixed_size())
                                                   ._skip_resize(o._skip_resize())));
  score_thresh = o.score_thresh();
  nms_thresh = o.nms_thresh();
  detections_per_img = o.detections_per_img();
  topk_candidates = o.topk_candidates();
}

Losses RetinaNetImpl::compute_loss(const std::vector<Target>& targets, const HeadOutputs& head_outputs,
                                   const std::vector<Tensor>& anchors) const {
  std::vector<Tensor> matched_idxs;
  for (size_t i = 0; i < anchors.size(); ++i) {
    const Tensor& boxes = target_field(targets[i], "boxes");
    if (boxes.numel() == 0) {
      matched_idxs.push_back(full({anchors[i].size(0)}, -1, TensorOptions().dtype(kLong)));
      continue;
    }
    matched_idxs.push_back(proposal_matcher(vops::box_iou(boxes, anchors[i])));
  }
  return head->compute_loss(targets, head_outputs, anchors, matched_idxs);
}

std::vector<Detection> RetinaNetImpl::postprocess_detections(
    const std::map<std::string, std::vector<Tensor>>& head_outputs, const std::vector<std::vector<Tensor>>& anchors,
    const std::vector<transform::ImageSize>& image_shapes) const {
  const auto& class_logits = head_outputs.at("cls_logits");
  const auto& box_regression = head_outputs.at("bbox_regression");
  std::vector<Detection> detections;
  for (size_t index = 0; index < image_shapes.size(); ++index) {
    const auto idx = static_cast<int64_t>(index);
    std::vector<Tensor> image_boxes, image_scores, image_labels;
    for (size_t level = 0; level < class_logits.size(); ++level) {
      const Tensor logits = class_logits[level][idx];
      const Tensor reg = box_regression[level][idx];
      const Tensor& anc = anchors[index][level];
      const int64_t num_classes = logits.size(-1);
      Tensor scores = sigmoid(logits).flatten();
      const Tensor keep = scores > score_thresh;
      scores = scores.index({keep});
      Tensor topk_idxs = nonzero(keep).select(1, 0);
      const int64_t num_topk = std::min(topk_idxs.size(0), topk_candidates);
      auto [top_scores, idxs] = scores.topk(num_topk);
      topk_idxs = topk_idxs.index({idxs});
      const Tensor anchor_idxs = floor_divide(topk_idxs, num_classes);
      const Tensor labels = remainder(topk_idxs, num_classes);
      Tensor boxes = box_coder.decode_single(reg.index({anchor_idxs}), anc.index({anchor_idxs}));
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

DetectionOutput RetinaNetImpl::forward(const std::vector<Tensor>& images,
                                       const std::optional<std::vector<Target>>& targets_in) {
  const auto original_image_sizes = detail::check_images_and_targets("RetinaNet", images, targets_in, is_training());
  auto [image_list, targets] = transform->forward(images, targets_in);
  if (targets) detail::check_degenerate_boxes("RetinaNet", *targets);
  const std::vector<Tensor> features = backbone(image_list.tensors).values();
  const HeadOutputs head_outputs = head->forward(features);
  const std::vector<Tensor> anchors = anchor_generator->forward(image_list, features);
  DetectionOutput out;
  if (is_training()) {
    out.losses = compute_loss(*targets, head_outputs, anchors);
    return out;
  }
  std::vector<int64_t> per_level;
  int64_t hw = 0;
  for (const Tensor& f : features) {
    per_level.push_back(f.size(2) * f.size(3));
    hw += per_level.back();
  }
  const int64_t a = head_outputs.at("cls_logits").size(1) / hw;
  for (int64_t& n : per_level) n *= a;
  std::map<std::string, std::vector<Tensor>> split_outputs;
  for (const auto& [k, v] : head_outputs) split_outputs[k] = split(v, per_level, 1);
  std::vector<std::vector<Tensor>> split_anchors;
  for (const Tensor& anc : anchors) {
    EMBER_CHECK(anc.size(0) == head_outputs.at("cls_logits").size(1), "RetinaNet: ", anc.size(0), " anchors for ",
                head_outputs.at("cls_logits").size(1), " predictions; the anchor generator and the head disagree");
    split_anchors.push_back(split(anc, per_level, 0));
  }
  out.detections = transform->postprocess(postprocess_detections(split_outputs, split_anchors, image_list.image_sizes),
                                          image_list.image_sizes, original_image_sizes);
  return out;
}

}  // namespace torch::vision::models::detection::retinanet
