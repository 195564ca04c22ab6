#include "ember/vision/models/detection/rpn.h"

#include <algorithm>

#include "ember/core/error.h"
#include "ember/nn/init.h"
#include "ember/ops/all_ops.h"
#include "ember/vision/ops/boxes.h"
#include "ember/vision/ops/misc.h"

namespace torch::vision::models::detection::rpn {

namespace {

using indexing::Slice;
namespace vops = ::torch::vision::ops;

Tensor permute_and_flatten(const Tensor& layer, int64_t n, int64_t c, int64_t h, int64_t w) {
  return layer.view({n, -1, c, h, w}).permute({0, 3, 4, 1, 2}).reshape({n, -1, c});
}

int64_t mode_value(const std::map<std::string, int64_t>& m, bool training, const char* what) {
  const char* key = training ? "training" : "testing";
  auto it = m.find(key);
  EMBER_CHECK(it != m.end(), "RegionProposalNetwork: ", what, " has no '", key, "' entry");
  return it->second;
}

}  // namespace

RPNHeadImpl::RPNHeadImpl(int64_t in_channels, int64_t num_anchors, int64_t conv_depth)
    : in_channels(in_channels), num_anchors(num_anchors), conv_depth(conv_depth) {
  reset();
}

void RPNHeadImpl::reset() {
  EMBER_CHECK(in_channels > 0 && num_anchors > 0 && conv_depth >= 0, "RPNHead: bad in_channels=", in_channels,
              ", num_anchors=", num_anchors, " or conv_depth=", conv_depth);
  conv = register_module("conv", nn::Sequential());
  for (int64_t i = 0; i < conv_depth; ++i)
    conv->push_back(vops::Conv2dNormActivation(
        vops::Conv2dNormActivationOptions(in_channels, in_channels).kernel_size(3).norm_layer(std::nullopt)));
  cls_logits = register_module("cls_logits", nn::Conv2d(nn::Conv2dOptions(in_channels, num_anchors, 1).stride(1)));
  bbox_pred = register_module("bbox_pred", nn::Conv2d(nn::Conv2dOptions(in_channels, num_anchors * 4, 1).stride(1)));
  for (const auto& m : modules(/*include_self=*/false))
    if (auto* c = dynamic_cast<nn::Conv2dImpl*>(m.get())) {
      nn::init::normal_(c->weight, 0.0, 0.01);
      if (c->bias.defined()) nn::init::constant_(c->bias, 0);
    }
}

std::tuple<std::vector<Tensor>, std::vector<Tensor>> RPNHeadImpl::forward(const std::vector<Tensor>& x) {
  std::vector<Tensor> logits, bbox_reg;
  for (const Tensor& feature : x) {
    EMBER_CHECK(feature.dim() == 4 && feature.size(1) == in_channels, "RPNHead: expected features of shape [N, ",
                in_channels, ", H, W], got ", feature.sizes());
    const Tensor t = conv_depth > 0 ? conv->forward(feature) : feature;
    logits.push_back(cls_logits(t));
    bbox_reg.push_back(bbox_pred(t));
  }
  return {std::move(logits), std::move(bbox_reg)};
}

std::tuple<Tensor, Tensor> concat_box_prediction_layers(const std::vector<Tensor>& box_cls,
                                                        const std::vector<Tensor>& box_regression) {
  EMBER_CHECK(!box_cls.empty() && box_cls.size() == box_regression.size(),
              "concat_box_prediction_layers: ", box_cls.size(), " classification maps for ", box_regression.size(),
              " regression maps");
  std::vector<Tensor> cls_flat, reg_flat;
  for (size_t i = 0; i < box_cls.size(); ++i) {
    const Tensor& c = box_cls[i];
    const Tensor& r = box_regression[i];
    EMBER_CHECK(c.dim() == 4 && r.dim() == 4 && r.size(1) % 4 == 0 && r.size(1) > 0,
                "concat_box_prediction_layers: bad shapes ", c.sizes(), " and ", r.sizes());
    const int64_t n = c.size(0), h = c.size(2), w = c.size(3);
    const int64_t a = r.size(1) / 4;
    EMBER_CHECK(c.size(1) % a == 0, "concat_box_prediction_layers: ", c.size(1), " channels for ", a, " anchors");
    cls_flat.push_back(permute_and_flatten(c, n, c.size(1) / a, h, w));
    reg_flat.push_back(permute_and_flatten(r, n, 4, h, w));
  }
  return {cat(cls_flat, 1).flatten(0, -2), cat(reg_flat, 1).reshape({-1, 4})};
}

RegionProposalNetworkImpl::RegionProposalNetworkImpl(const RegionProposalNetworkOptions& options_) : options(options_) {
  reset();
}

void RegionProposalNetworkImpl::reset() {
  EMBER_CHECK(!options.anchor_generator().is_empty() && !options.head().is_empty(),
              "RegionProposalNetwork: anchor_generator and head are required");
  anchor_generator = register_module("anchor_generator", options.anchor_generator());
  head = register_module("head", options.head());
  proposal_matcher = _utils::Matcher(options.fg_iou_thresh(), options.bg_iou_thresh(), true);
  fg_bg_sampler = _utils::BalancedPositiveNegativeSampler(options.batch_size_per_image(), options.positive_fraction());
  nms_thresh = options.nms_thresh();
  score_thresh = options.score_thresh();
  // Both modes must be present, as torchvision indexes the dicts.
  mode_value(options.pre_nms_top_n(), true, "pre_nms_top_n");
  mode_value(options.pre_nms_top_n(), false, "pre_nms_top_n");
  mode_value(options.post_nms_top_n(), true, "post_nms_top_n");
  mode_value(options.post_nms_top_n(), false, "post_nms_top_n");
}

int64_t RegionProposalNetworkImpl::pre_nms_top_n() const {
  return mode_value(options.pre_nms_top_n(), is_training(), "pre_nms_top_n");
}
int64_t RegionProposalNetworkImpl::post_nms_top_n() const {
  return mode_value(options.post_nms_top_n(), is_training(), "post_nms_top_n");
}

std::tuple<std::vector<Tensor>, std::vector<Tensor>> RegionProposalNetworkImpl::assign_targets_to_anchors(
    const std::vector<Tensor>& anchors, const std::vector<Target>& targets) const {
  EMBER_CHECK(anchors.size() == targets.size(), "RegionProposalNetwork: ", targets.size(), " targets for ",
              anchors.size(), " images");
  std::vector<Tensor> labels, matched_gt_boxes;
  for (size_t i = 0; i < anchors.size(); ++i) {
    const Tensor& a = anchors[i];
    auto it = targets[i].find("boxes");
    EMBER_CHECK(it != targets[i].end(), "RegionProposalNetwork: target ", i, " has no boxes");
    const Tensor& gt = it->second;
    if (gt.numel() == 0) {
      matched_gt_boxes.push_back(zeros(a.sizes(), TensorOptions().dtype(kFloat)));
      labels.push_back(zeros({a.size(0)}, TensorOptions().dtype(kFloat)));
      continue;
    }
    const Tensor matched_idxs = proposal_matcher(vops::box_iou(gt, a));
    matched_gt_boxes.push_back(gt.index({matched_idxs.clamp_min(0)}));
    Tensor l = (matched_idxs >= 0).to(kFloat);
    l.masked_fill_(matched_idxs == _utils::Matcher::BELOW_LOW_THRESHOLD, 0.0);
    l.masked_fill_(matched_idxs == _utils::Matcher::BETWEEN_THRESHOLDS, -1.0);
    labels.push_back(l);
  }
  return {std::move(labels), std::move(matched_gt_boxes)};
}

std::tuple<std::vector<Tensor>, std::vector<Tensor>> RegionProposalNetworkImpl::filter_proposals(
    const Tensor& proposals, const Tensor& objectness_in, const std::vector<std::pair<int64_t, int64_t>>& image_shapes,
    const std::vector<int64_t>& num_anchors_per_level) const {
  const int64_t num_images = proposals.size(0);
  const Tensor objectness = objectness_in.detach().reshape({num_images, -1});
  std::vector<Tensor> levels_v;
  for (size_t i = 0; i < num_anchors_per_level.size(); ++i)
    levels_v.push_back(full({num_anchors_per_level[i]}, static_cast<int64_t>(i), TensorOptions().dtype(kLong)));
  const Tensor levels = cat(levels_v, 0).reshape({1, -1}).expand_as(objectness);
  // The top pre_nms_top_n anchors of each level.
  std::vector<Tensor> top;
  int64_t offset = 0;
  for (const Tensor& ob : split(objectness, num_anchors_per_level, 1)) {
    const int64_t n = ob.size(1);
    const int64_t k = std::min(n, pre_nms_top_n());
    top.push_back(std::get<1>(ob.topk(k, 1)) + offset);
    offset += n;
  }
  const Tensor top_n_idx = cat(top, 1);
  const Tensor batch_idx = arange(num_images, TensorOptions().dtype(kLong)).unsqueeze(1);
  const Tensor obj = objectness.index({batch_idx, top_n_idx});
  const Tensor lvl_all = levels.index({batch_idx, top_n_idx});
  const Tensor props = proposals.index({batch_idx, top_n_idx});
  const Tensor prob = sigmoid(obj);
  std::vector<Tensor> final_boxes, final_scores;
  for (int64_t i = 0; i < num_images; ++i) {
    Tensor boxes = vops::clip_boxes_to_image(props.select(0, i), image_shapes.at(static_cast<size_t>(i)));
    Tensor scores = prob.select(0, i), lvl = lvl_all.select(0, i);
    Tensor keep = vops::remove_small_boxes(boxes, min_size);
    boxes = boxes.index({keep});
    scores = scores.index({keep});
    lvl = lvl.index({keep});
    keep = nonzero(scores >= score_thresh).select(1, 0);
    boxes = boxes.index({keep});
    scores = scores.index({keep});
    lvl = lvl.index({keep});
    keep = vops::batched_nms(boxes, scores, lvl, nms_thresh);
    keep = keep.slice(0, 0, std::min(keep.size(0), post_nms_top_n()));
    final_boxes.push_back(boxes.index({keep}));
    final_scores.push_back(scores.index({keep}));
  }
  return {std::move(final_boxes), std::move(final_scores)};
}

std::tuple<Tensor, Tensor> RegionProposalNetworkImpl::compute_loss(
    const Tensor& objectness, const Tensor& pred_bbox_deltas, const std::vector<Tensor>& labels,
    const std::vector<Tensor>& regression_targets) const {
  auto [pos, neg] = fg_bg_sampler(labels);
  const Tensor pos_inds = nonzero(cat(pos, 0)).select(1, 0);
  const Tensor neg_inds = nonzero(cat(neg, 0)).select(1, 0);
  const Tensor inds = cat({pos_inds, neg_inds}, 0);
  const Tensor obj = objectness.flatten();
  const Tensor all_labels = cat(labels, 0);
  const Tensor targets = cat(regression_targets, 0);
  const Tensor box_loss =
      smooth_l1_loss(pred_bbox_deltas.index({pos_inds}), targets.index({pos_inds}), Reduction::Sum, 1.0 / 9) /
      static_cast<double>(inds.numel());
  const Tensor objectness_loss = binary_cross_entropy_with_logits(obj.index({inds}), all_labels.index({inds}));
  return {objectness_loss, box_loss};
}

std::tuple<std::vector<Tensor>, Losses> RegionProposalNetworkImpl::forward(
    const ImageList& images, const OrderedDict<std::string, Tensor>& features_dict,
    const std::optional<std::vector<Target>>& targets) {
  const std::vector<Tensor> features = features_dict.values();
  EMBER_CHECK(!features.empty(), "RegionProposalNetwork: no feature maps");
  auto [objectness_l, deltas_l] = head->forward(features);
  const std::vector<Tensor> anchors = anchor_generator->forward(images, features);
  const auto num_images = static_cast<int64_t>(anchors.size());
  std::vector<int64_t> num_anchors_per_level;
  for (const Tensor& o : objectness_l) num_anchors_per_level.push_back(o.size(1) * o.size(2) * o.size(3));
  auto [objectness, pred_bbox_deltas] = concat_box_prediction_layers(objectness_l, deltas_l);
  EMBER_CHECK(anchors.at(0).size(0) * num_images == pred_bbox_deltas.size(0),
              "RegionProposalNetwork: ", anchors.at(0).size(0), " anchors per image for ",
              pred_bbox_deltas.size(0) / std::max<int64_t>(num_images, 1),
              " predictions; the anchor generator and the head disagree on the anchors per location");
  const Tensor proposals = box_coder.decode(pred_bbox_deltas.detach(), anchors).view({num_images, -1, 4});
  auto [boxes, scores] = filter_proposals(proposals, objectness, images.image_sizes, num_anchors_per_level);
  Losses losses;
  if (is_training()) {
    EMBER_CHECK(targets.has_value(), "RegionProposalNetwork: targets should not be None");
    auto [labels, matched_gt_boxes] = assign_targets_to_anchors(anchors, *targets);
    const std::vector<Tensor> regression_targets = box_coder.encode(matched_gt_boxes, anchors);
    auto [loss_objectness, loss_rpn_box_reg] = compute_loss(objectness, pred_bbox_deltas, labels, regression_targets);
    losses["loss_objectness"] = loss_objectness;
    losses["loss_rpn_box_reg"] = loss_rpn_box_reg;
  }
  return {std::move(boxes), std::move(losses)};
}

}  // namespace torch::vision::models::detection::rpn
