// The MobileNetV3-Large-FPN Faster R-CNN builders (faster_rcnn.py of torchvision 0.14).
#include "ember/vision/models/detection/backbone_utils.h"
#include "ember/vision/models/detection/builder_common.h"
#include "ember/vision/models/mobilenetv3.h"

namespace torch::vision::models::detection {

namespace {

// The 320 variant's defaults differ from FasterRCNN's; the kwargs still override them.
struct MobileNetDefaults {
  std::optional<int64_t> min_size, max_size, rpn_top_n_test;
};

FasterRCNN fasterrcnn_mobilenet_v3_large_fpn_impl(const char* builder, const char* enum_name,
                                                  const std::optional<Weights>& weights, bool progress,
                                                  std::optional<int64_t> num_classes,
                                                  std::optional<Weights> weights_backbone,
                                                  std::optional<int64_t> trainable_backbone_layers,
                                                  const FasterRCNNKwargs& kwargs, const MobileNetDefaults& defaults) {
  builder_detail::verify_weights(builder, weights, enum_name);
  const int64_t classes = builder_detail::resolve_num_classes(builder, weights, num_classes, 91);
  if (weights) weights_backbone.reset();
  const bool is_trained = weights.has_value() || weights_backbone.has_value();
  const int64_t trainable = backbone_utils::_validate_trainable_layers(is_trained, trainable_backbone_layers, 6, 3);
  MobileNetV3 net = mobilenet_v3_large(weights_backbone, progress,
                                       MobileNetV3Kwargs().norm_layer(builder_detail::backbone_norm_layer(is_trained)));
  // Stage starts are the strided blocks (_is_cn); features[0] is the stem, the last the 1x1 expansion.
  const auto& setting = net->options.inverted_residual_setting();
  std::vector<int64_t> cn_indices, out_channels{setting.front().input_channels};
  for (size_t i = 0; i < setting.size(); ++i) {
    if (setting[i].stride > 1) cn_indices.push_back(static_cast<int64_t>(i + 1));
    out_channels.push_back(setting[i].out_channels);
  }
  out_channels.push_back(6 * setting.back().out_channels);
  Backbone backbone = backbone_utils::_mobilenet_extractor(net->features, cn_indices, out_channels, true, trainable);
  const std::vector<int64_t> sizes{32, 64, 128, 256, 512};
  rpn::AnchorGenerator anchors(std::vector<std::vector<int64_t>>(3, sizes),
                               std::vector<std::vector<double>>(3, std::vector<double>{0.5, 1.0, 2.0}));
  FasterRCNNOptions options(backbone, classes);
  options.rpn_anchor_generator(anchors).rpn_score_thresh(0.05);
  if (defaults.min_size) options.min_size({*defaults.min_size});
  if (defaults.max_size) options.max_size(*defaults.max_size);
  if (defaults.rpn_top_n_test)
    options.rpn_pre_nms_top_n_test(*defaults.rpn_top_n_test).rpn_post_nms_top_n_test(*defaults.rpn_top_n_test);
  FasterRCNN model(builder_detail::apply_kwargs(std::move(options), kwargs));
  if (weights) builder_detail::load_checkpoint(*model, *weights, builder);
  return model;
}

}  // namespace

FasterRCNN fasterrcnn_mobilenet_v3_large_fpn(const std::optional<Weights>& weights, bool progress,
                                             std::optional<int64_t> num_classes,
                                             std::optional<Weights> weights_backbone,
                                             std::optional<int64_t> trainable_backbone_layers,
                                             const FasterRCNNKwargs& kwargs) {
  return fasterrcnn_mobilenet_v3_large_fpn_impl(
      "fasterrcnn_mobilenet_v3_large_fpn", "FasterRCNN_MobileNet_V3_Large_FPN_Weights", weights, progress, num_classes,
      std::move(weights_backbone), trainable_backbone_layers, kwargs, {});
}

FasterRCNN fasterrcnn_mobilenet_v3_large_320_fpn(const std::optional<Weights>& weights, bool progress,
                                                 std::optional<int64_t> num_classes,
                                                 std::optional<Weights> weights_backbone,
                                                 std::optional<int64_t> trainable_backbone_layers,
                                                 const FasterRCNNKwargs& kwargs) {
  return fasterrcnn_mobilenet_v3_large_fpn_impl(
      "fasterrcnn_mobilenet_v3_large_320_fpn", "FasterRCNN_MobileNet_V3_Large_320_FPN_Weights", weights, progress,
      num_classes, std::move(weights_backbone), trainable_backbone_layers, kwargs, MobileNetDefaults{320, 640, 150});
}

FasterRCNN fasterrcnn_mobilenet_v3_large_320_fpn(const std::string& weights_path, bool progress,
                                                 std::optional<int64_t> num_classes,
                                                 std::optional<Weights> weights_backbone,
                                                 std::optional<int64_t> trainable_backbone_layers,
                                                 const FasterRCNNKwargs& kwargs) {
  return fasterrcnn_mobilenet_v3_large_320_fpn(
      FasterRCNN_MobileNet_V3_Large_320_FPN_Weights::COCO_V1.with_path(weights_path), progress, num_classes,
      std::move(weights_backbone), trainable_backbone_layers, kwargs);
}

}  // namespace torch::vision::models::detection
