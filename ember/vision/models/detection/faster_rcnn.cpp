#include "ember/vision/models/detection/faster_rcnn.h"

#include "ember/core/error.h"
#include "ember/nn/init.h"
#include "ember/nn/modules/activation.h"
#include "ember/nn/modules/linear.h"
#include "ember/ops/all_ops.h"

namespace torch::vision::models::detection::faster_rcnn {

TwoMLPHeadImpl::TwoMLPHeadImpl(int64_t in_channels, int64_t representation_size)
    : in_channels(in_channels), representation_size(representation_size) {
  reset();
}

void TwoMLPHeadImpl::reset() {
  EMBER_CHECK(in_channels > 0 && representation_size > 0, "TwoMLPHead: bad in_channels=", in_channels,
              " or representation_size=", representation_size);
  fc6 = register_module("fc6", nn::Linear(in_channels, representation_size));
  fc7 = register_module("fc7", nn::Linear(representation_size, representation_size));
}

Tensor TwoMLPHeadImpl::forward(const Tensor& x) {
  const Tensor flat = x.flatten(1);
  EMBER_CHECK(flat.size(1) == in_channels, "TwoMLPHead: expected ", in_channels, " features per box, got ",
              flat.size(1));
  return relu(fc7(relu(fc6(flat))));
}

FastRCNNConvFCHeadImpl::FastRCNNConvFCHeadImpl(std::array<int64_t, 3> input_size, std::vector<int64_t> conv_layers,
                                               std::vector<int64_t> fc_layers,
                                               std::optional<ops::NormLayer> norm_layer) {
  const auto [in_channels, in_height, in_width] = input_size;
  EMBER_CHECK(in_channels > 0 && in_height > 0 && in_width > 0, "FastRCNNConvFCHead: bad input_size (", in_channels,
              ", ", in_height, ", ", in_width, ")");
  int64_t previous = in_channels;
  for (const int64_t c : conv_layers) {
    push_back(ops::Conv2dNormActivation(ops::Conv2dNormActivationOptions(previous, c).norm_layer(norm_layer)));
    previous = c;
  }
  push_back(nn::Flatten());
  previous = previous * in_height * in_width;
  for (const int64_t c : fc_layers) {
    push_back(nn::Linear(previous, c));
    push_back(nn::ReLU(nn::ReLUOptions(true)));
    previous = c;
  }
  for (const auto& m : modules(/*include_self=*/false))
    if (auto* conv = dynamic_cast<nn::Conv2dImpl*>(m.get())) {
      nn::init::kaiming_normal_(conv->weight, 0.0, kFanOut, kReLU);
      if (conv->bias.defined()) nn::init::zeros_(conv->bias);
    }
}

FastRCNNPredictorImpl::FastRCNNPredictorImpl(int64_t in_channels, int64_t num_classes)
    : in_channels(in_channels), num_classes(num_classes) {
  reset();
}

void FastRCNNPredictorImpl::reset() {
  EMBER_CHECK(in_channels > 0 && num_classes > 0, "FastRCNNPredictor: bad in_channels=", in_channels,
              " or num_classes=", num_classes);
  cls_score = register_module("cls_score", nn::Linear(in_channels, num_classes));
  bbox_pred = register_module("bbox_pred", nn::Linear(in_channels, num_classes * 4));
}

std::tuple<Tensor, Tensor> FastRCNNPredictorImpl::forward(const Tensor& x) {
  if (x.dim() == 4)
    EMBER_CHECK(x.size(2) == 1 && x.size(3) == 1,
                "FastRCNNPredictor: x has the wrong shape, expecting the last two dimensions to be [1,1] instead of ",
                x.sizes().slice(2));
  const Tensor flat = x.flatten(1);
  return {cls_score(flat), bbox_pred(flat)};
}

rpn::AnchorGenerator _default_anchorgen() {
  return rpn::AnchorGenerator(std::vector<std::vector<int64_t>>{{32}, {64}, {128}, {256}, {512}},
                              std::vector<std::vector<double>>(5, {0.5, 1.0, 2.0}));
}

FasterRCNNImpl::FasterRCNNImpl(const FasterRCNNOptions& options_) : options(options_) {
  model_name_ = "FasterRCNN";
  const FasterRCNNOptions& o = options;
  EMBER_CHECK(!o.backbone().is_empty(), "FasterRCNN: backbone is required");
  if (o.num_classes()) {
    EMBER_CHECK(o.box_predictor().is_empty(), "FasterRCNN: num_classes should be None when box_predictor is specified");
  } else {
    EMBER_CHECK(!o.box_predictor().is_empty(),
                "FasterRCNN: num_classes should not be None when box_predictor is not specified");
  }
  const int64_t out_channels = o.backbone().out_channels();
  EMBER_CHECK(out_channels > 0, "FasterRCNN: backbone.out_channels=", out_channels, " is not positive");
  rpn::AnchorGenerator anchor_generator = o.rpn_anchor_generator();
  if (anchor_generator.is_empty()) anchor_generator = _default_anchorgen();
  rpn::RPNHead rpn_head = o.rpn_head();
  if (rpn_head.is_empty()) rpn_head = rpn::RPNHead(out_channels, anchor_generator->num_anchors_per_location().at(0));
  rpn::RegionProposalNetwork rpn_net(
      rpn::RegionProposalNetworkOptions(
          anchor_generator, rpn_head, o.rpn_fg_iou_thresh(), o.rpn_bg_iou_thresh(), o.rpn_batch_size_per_image(),
          o.rpn_positive_fraction(),
          {{"training", o.rpn_pre_nms_top_n_train()}, {"testing", o.rpn_pre_nms_top_n_test()}},
          {{"training", o.rpn_post_nms_top_n_train()}, {"testing", o.rpn_post_nms_top_n_test()}}, o.rpn_nms_thresh())
          .score_thresh(o.rpn_score_thresh()));
  ops::MultiScaleRoIAlign box_roi_pool = o.box_roi_pool();
  if (box_roi_pool.is_empty())
    box_roi_pool = ops::MultiScaleRoIAlign(ops::MultiScaleRoIAlignOptions({"0", "1", "2", "3"}, 7, 2));
  nn::AnyModule box_head = o.box_head();
  constexpr int64_t representation_size = 1024;
  if (box_head.is_empty()) {
    const int64_t resolution = box_roi_pool->options.output_size().at(0);
    box_head = nn::AnyModule(TwoMLPHead(out_channels * resolution * resolution, representation_size));
  }
  nn::AnyModule box_predictor = o.box_predictor();
  if (box_predictor.is_empty()) box_predictor = nn::AnyModule(FastRCNNPredictor(representation_size, *o.num_classes()));
  roi_heads::RoIHeads heads(
      roi_heads::RoIHeadsOptions(box_roi_pool, box_head, box_predictor, o.box_fg_iou_thresh(), o.box_bg_iou_thresh(),
                                 o.box_batch_size_per_image(), o.box_positive_fraction(), o.bbox_reg_weights(),
                                 o.box_score_thresh(), o.box_nms_thresh(), o.box_detections_per_img()));
  transform::GeneralizedRCNNTransform tr(
      transform::GeneralizedRCNNTransformOptions(o.min_size(), o.max_size(),
                                                 o.image_mean().value_or(std::vector<double>{0.485, 0.456, 0.406}),
                                                 o.image_std().value_or(std::vector<double>{0.229, 0.224, 0.225}))
          .size_divisible(o.size_divisible())
          .fixed_size(o.fixed_size())
          ._skip_resize(o._skip_resize()));
  init(o.backbone(), rpn_net, heads, tr);
}

}  // namespace torch::vision::models::detection::faster_rcnn
