#include "ember/vision/models/detection/ssd.h"

#include <algorithm>
#include <limits>

#include "ember/autograd/grad_mode.h"
#include "ember/core/error.h"
#include "ember/nn/init.h"
#include "ember/nn/modules/conv.h"
#include "ember/ops/all_ops.h"
#include "ember/vision/models/detection/input_checks.h"
#include "ember/vision/ops/boxes.h"

namespace torch::vision::models::detection {

namespace ssd {

namespace {

namespace vops = ::torch::vision::ops;

// One 3x3 conv per level, xavier_uniform_ weights and zero biases (_xavier_init).
std::vector<nn::AnyModule> level_convs(const std::vector<int64_t>& in_channels, const std::vector<int64_t>& num_anchors,
                                       int64_t columns, const char* op) {
  EMBER_CHECK(!in_channels.empty() && in_channels.size() == num_anchors.size(), op, ": ", in_channels.size(),
              " input channel counts for ", num_anchors.size(), " anchor counts");
  std::vector<nn::AnyModule> layers;
  for (size_t i = 0; i < in_channels.size(); ++i) {
    EMBER_CHECK(in_channels[i] > 0 && num_anchors[i] > 0, op, ": bad in_channels=", in_channels[i],
                " or num_anchors=", num_anchors[i]);
    nn::Conv2d c(nn::Conv2dOptions(in_channels[i], columns * num_anchors[i], 3).padding(1));
    nn::init::xavier_uniform_(c->weight);
    nn::init::constant_(c->bias, 0.0);
    layers.emplace_back(c);
  }
  return layers;
}

const Tensor& target_field(const Target& t, const char* key) {
  auto it = t.find(key);
  EMBER_CHECK(it != t.end(), "SSD: a target has no ", key);
  return it->second;
}

}  // namespace

SSDScoringHeadImpl::SSDScoringHeadImpl(std::vector<nn::AnyModule> layers, int64_t num_columns)
    : num_columns(num_columns), layers_(std::move(layers)) {
  EMBER_CHECK(num_columns > 0, "SSDScoringHead: num_columns=", num_columns, " is not positive");
  module_list = register_module("module_list", nn::ModuleList());
  for (const nn::AnyModule& l : layers_) module_list->push_back(l.ptr());
}

Tensor SSDScoringHeadImpl::forward(const std::vector<Tensor>& x) {
  EMBER_CHECK(x.size() == layers_.size(), "SSDScoringHead: ", x.size(), " feature maps for ", layers_.size(),
              " layers");
  std::vector<Tensor> all;
  for (size_t i = 0; i < x.size(); ++i) {
    const Tensor r = layers_[i].forward<Tensor>(x[i]);
    EMBER_CHECK(r.dim() == 4 && r.size(1) % num_columns == 0, "SSDScoringHead: layer ", i, " output of shape ",
                r.sizes(), " is not [N, A * ", num_columns, ", H, W]");
    const int64_t n = r.size(0), h = r.size(2), w = r.size(3);
    all.push_back(r.view({n, -1, num_columns, h, w}).permute({0, 3, 4, 1, 2}).reshape({n, -1, num_columns}));
  }
  return cat(all, 1);
}

SSDClassificationHeadImpl::SSDClassificationHeadImpl(const std::vector<int64_t>& in_channels,
                                                     const std::vector<int64_t>& num_anchors, int64_t num_classes)
    : SSDScoringHeadImpl(level_convs(in_channels, num_anchors, num_classes, "SSDClassificationHead"), num_classes) {}

SSDRegressionHeadImpl::SSDRegressionHeadImpl(const std::vector<int64_t>& in_channels,
                                             const std::vector<int64_t>& num_anchors)
    : SSDScoringHeadImpl(level_convs(in_channels, num_anchors, 4, "SSDRegressionHead"), 4) {}

SSDHeadImpl::SSDHeadImpl(const std::vector<int64_t>& in_channels, const std::vector<int64_t>& num_anchors,
                         int64_t num_classes) {
  classification_head =
      register_module("classification_head", SSDClassificationHead(in_channels, num_anchors, num_classes));
  regression_head = register_module("regression_head", SSDRegressionHead(in_channels, num_anchors));
}

HeadOutputs SSDHeadImpl::forward(const std::vector<Tensor>& x) {
  return {{"bbox_regression", regression_head(x)}, {"cls_logits", classification_head(x)}};
}

SSDImpl::SSDImpl(const SSDOptions& options_) : options(options_) {
  const SSDOptions& o = options;
  EMBER_CHECK(!o.backbone().is_empty() && !o.anchor_generator().is_empty(),
              "SSD: backbone and anchor_generator are required");
  EMBER_CHECK(o.size().first > 0 && o.size().second > 0, "SSD: bad size (", o.size().first, ", ", o.size().second, ")");
  EMBER_CHECK(o.positive_fraction() > 0 && o.positive_fraction() <= 1, "SSD: positive_fraction=", o.positive_fraction(),
              " is not in (0, 1]");
  backbone = o.backbone();
  register_module("backbone", backbone.ptr());
  anchor_generator = register_module("anchor_generator", o.anchor_generator());
  head = o.head();
  if (head.is_empty()) {
    const std::vector<int64_t> out_channels = _utils::retrieve_out_channels(backbone, o.size());
    EMBER_CHECK(out_channels.size() == anchor_generator->options.aspect_ratios().size(),
                "SSD: The length of the output channels from the backbone (", out_channels.size(),
                ") do not match the length of the anchor generator aspect ratios (",
                anchor_generator->options.aspect_ratios().size(), ")");
    head = nn::AnyModule(SSDHead(out_channels, anchor_generator->num_anchors_per_location(), o.num_classes()));
  }
  register_module("head", head.ptr());
  proposal_matcher = _utils::SSDMatcher(o.iou_thresh());
  const auto [w, h] = o.size();
  transform = register_module("transform", transform::GeneralizedRCNNTransform(
                                               transform::GeneralizedRCNNTransformOptions(
                                                   std::min(w, h), std::max(w, h),
                                                   o.image_mean().value_or(std::vector<double>{0.485, 0.456, 0.406}),
                                                   o.image_std().value_or(std::vector<double>{0.229, 0.224, 0.225}))
                                                   .size_divisible(1)
                                                   .fixed_size(o.size())
                                                   ._skip_resize(o._skip_resize())));
  score_thresh = o.score_thresh();
  nms_thresh = o.nms_thresh();
  detections_per_img = o.detections_per_img();
  topk_candidates = o.topk_candidates();
  neg_to_pos_ratio = (1.0 - o.positive_fraction()) / o.positive_fraction();
}

Losses SSDImpl::compute_loss(const std::vector<Target>& targets, const HeadOutputs& head_outputs,
                             const std::vector<Tensor>& anchors, const std::vector<Tensor>& matched_idxs) const {
  const Tensor& bbox_regression = head_outputs.at("bbox_regression");
  const Tensor& cls_logits = head_outputs.at("cls_logits");
  int64_t num_foreground = 0;
  std::vector<Tensor> bbox_loss, cls_targets;
  for (size_t i = 0; i < targets.size(); ++i) {
    const auto idx = static_cast<int64_t>(i);
    const Tensor fg = nonzero(matched_idxs[i] >= 0).select(1, 0);
    const Tensor fg_matched = matched_idxs[i].index({fg});
    num_foreground += fg_matched.numel();
    const Tensor matched_gt = target_field(targets[i], "boxes").index({fg_matched});
    const Tensor reg = bbox_regression[idx].index({fg});
    const Tensor anc = anchors[i].index({fg});
    bbox_loss.push_back(smooth_l1_loss(reg, box_coder.encode_single(matched_gt, anc), Reduction::Sum));
    const Tensor& labels = target_field(targets[i], "labels");
    Tensor gt_classes = zeros({cls_logits.size(1)}, labels.options());
    gt_classes.index_put_({fg}, labels.index({fg_matched}));
    cls_targets.push_back(gt_classes);
  }
  const Tensor bbox = stack(bbox_loss);
  const Tensor cls_t = stack(cls_targets);
  const int64_t num_classes = cls_logits.size(-1);
  const Tensor cls_loss =
      cross_entropy_loss(cls_logits.view({-1, num_classes}), cls_t.view({-1}), std::nullopt, Reduction::None)
          .view(cls_t.sizes());
  const Tensor fg_mask = cls_t > 0;
  const Tensor num_negative = neg_to_pos_ratio * fg_mask.sum(1, /*keepdim=*/true);
  // Hard negative mining: the highest-loss negatives, neg_to_pos_ratio per positive.
  Tensor negative_loss = cls_loss.detach().clone();
  negative_loss.masked_fill_(fg_mask, -std::numeric_limits<double>::infinity());
  const Tensor order = std::get<1>(negative_loss.sort(1, /*descending=*/true));
  const Tensor background = std::get<1>(order.sort(1)) < num_negative;
  const auto n = static_cast<double>(std::max<int64_t>(1, num_foreground));
  return {{"bbox_regression", bbox.sum() / n},
          {"classification", (cls_loss.index({fg_mask}).sum() + cls_loss.index({background}).sum()) / n}};
}

std::vector<Detection> SSDImpl::postprocess_detections(const HeadOutputs& head_outputs,
                                                       const std::vector<Tensor>& image_anchors,
                                                       const std::vector<transform::ImageSize>& image_shapes) const {
  const Tensor& bbox_regression = head_outputs.at("bbox_regression");
  const Tensor pred_scores = softmax(head_outputs.at("cls_logits"), -1);
  const int64_t num_classes = pred_scores.size(-1);
  std::vector<Detection> detections;
  for (size_t i = 0; i < image_shapes.size(); ++i) {
    const auto idx = static_cast<int64_t>(i);
    const Tensor boxes =
        vops::clip_boxes_to_image(box_coder.decode_single(bbox_regression[idx], image_anchors[i]), image_shapes[i]);
    const Tensor scores = pred_scores[idx];
    std::vector<Tensor> image_boxes, image_scores, image_labels;
    for (int64_t label = 1; label < num_classes; ++label) {
      Tensor score = scores.select(1, label);
      const Tensor keep = score > score_thresh;
      score = score.index({keep});
      Tensor box = boxes.index({keep});
      auto [top, idxs] = score.topk(std::min(score.size(0), topk_candidates));
      image_boxes.push_back(box.index({idxs}));
      image_scores.push_back(top);
      image_labels.push_back(full({top.size(0)}, label, TensorOptions().dtype(kLong)));
    }
    const Tensor b = cat(image_boxes, 0), s = cat(image_scores, 0), l = cat(image_labels, 0);
    Tensor keep = vops::batched_nms(b, s, l, nms_thresh);
    keep = keep.slice(0, 0, std::min(keep.size(0), detections_per_img));
    detections.push_back({{"boxes", b.index({keep})}, {"scores", s.index({keep})}, {"labels", l.index({keep})}});
  }
  return detections;
}

DetectionOutput SSDImpl::forward(const std::vector<Tensor>& images,
                                 const std::optional<std::vector<Target>>& targets_in) {
  const auto original_image_sizes = detail::check_images_and_targets("SSD", images, targets_in, is_training());
  auto [image_list, targets] = transform->forward(images, targets_in);
  if (targets) detail::check_degenerate_boxes("SSD", *targets);
  const std::vector<Tensor> features = backbone(image_list.tensors).values();
  const HeadOutputs head_outputs = head.forward<HeadOutputs>(features);
  const std::vector<Tensor> anchors = anchor_generator->forward(image_list, features);
  EMBER_CHECK(anchors.at(0).size(0) == head_outputs.at("cls_logits").size(1), "SSD: ", anchors.at(0).size(0),
              " default boxes for ", head_outputs.at("cls_logits").size(1),
              " predictions; the anchor generator and the head disagree");
  DetectionOutput out;
  if (is_training()) {
    std::vector<Tensor> matched_idxs;
    for (size_t i = 0; i < anchors.size(); ++i) {
      const Tensor& boxes = target_field((*targets)[i], "boxes");
      if (boxes.numel() == 0) {
        matched_idxs.push_back(full({anchors[i].size(0)}, -1, TensorOptions().dtype(kLong)));
        continue;
      }
      matched_idxs.push_back(proposal_matcher(vops::box_iou(boxes, anchors[i])));
    }
    out.losses = compute_loss(*targets, head_outputs, anchors, matched_idxs);
    return out;
  }
  out.detections = transform->postprocess(postprocess_detections(head_outputs, anchors, image_list.image_sizes),
                                          image_list.image_sizes, original_image_sizes);
  return out;
}

}  // namespace ssd

std::vector<int64_t> _utils::retrieve_out_channels(const Backbone& model, std::pair<int64_t, int64_t> size) {
  EMBER_CHECK(!model.is_empty(), "retrieve_out_channels: the backbone is null");
  nn::Module& m = *model.ptr();
  const bool in_training = m.is_training();
  m.eval();
  std::vector<int64_t> out;
  {
    NoGradGuard guard;
    const auto params = m.parameters();
    auto opts = TensorOptions().dtype(params.empty() ? kFloat : params[0].scalar_type());
    for (const Tensor& f : model(zeros({1, 3, size.second, size.first}, opts)).values()) out.push_back(f.size(1));
  }
  if (in_training) m.train();
  return out;
}

}  // namespace torch::vision::models::detection
