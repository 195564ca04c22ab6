// ssd300_vgg16 (ssd.py of torchvision 0.14) and the builders' shared preamble.
#include "ember/vision/models/detection/ssd_builders.h"

#include "ember/core/error.h"
#include "ember/vision/models/detection/backbone_utils.h"
#include "ember/vision/models/detection/ssd_builders_common.h"
#include "ember/vision/models/vgg.h"

namespace torch::vision::models::detection {

namespace ssd_builders_detail {

int64_t preamble(const char* builder, const std::optional<Weights>& weights, const char* weights_enum,
                 std::optional<Weights>& weights_backbone, const char* backbone_enum,
                 std::optional<int64_t> num_classes) {
  models::detail::verify_weights(weights, weights_enum, builder);
  if (weights) weights_backbone.reset();
  models::detail::verify_weights(weights_backbone, backbone_enum, builder);
  const int64_t classes =
      weights ? models::detail::num_classes_for(weights, num_classes, builder) : num_classes.value_or(91);
  EMBER_CHECK(classes > 0, builder, ": num_classes must be positive, got ", classes);
  return classes;
}

ssd::SSDOptions apply_kwargs(ssd::SSDOptions options, const SSDKwargs& kwargs) {
  if (kwargs.image_mean()) options.image_mean(kwargs.image_mean());
  if (kwargs.image_std()) options.image_std(kwargs.image_std());
  if (kwargs.score_thresh()) options.score_thresh(*kwargs.score_thresh());
  if (kwargs.nms_thresh()) options.nms_thresh(*kwargs.nms_thresh());
  if (kwargs.detections_per_img()) options.detections_per_img(*kwargs.detections_per_img());
  if (kwargs.iou_thresh()) options.iou_thresh(*kwargs.iou_thresh());
  if (kwargs.topk_candidates()) options.topk_candidates(*kwargs.topk_candidates());
  if (kwargs.positive_fraction()) options.positive_fraction(*kwargs.positive_fraction());
  return options;
}

}  // namespace ssd_builders_detail

ssd::SSD ssd300_vgg16(std::optional<Weights> weights, bool progress, std::optional<int64_t> num_classes,
                      std::optional<Weights> weights_backbone, std::optional<int64_t> trainable_backbone_layers,
                      const SSDKwargs& kwargs) {
  const char* builder = "ssd300_vgg16";
  const int64_t classes = ssd_builders_detail::preamble(builder, weights, "SSD300_VGG16_Weights", weights_backbone,
                                                        "VGG16_Weights", num_classes);
  const int64_t trainable = backbone_utils::_validate_trainable_layers(
      weights.has_value() || weights_backbone.has_value(), trainable_backbone_layers, 5, 4);
  // The backbone more appropriate for SSD: VGG16's features, conv4_3 rescaled, atrous FC6/FC7 and extras.
  VGG vgg = vgg16(weights_backbone, progress);
  Backbone backbone = ssd::_vgg_extractor(vgg->features, false, trainable);
  anchor_utils::DefaultBoxGenerator anchors(
      anchor_utils::DefaultBoxGeneratorOptions({{2}, {2, 3}, {2, 3}, {2, 3}, {2}, {2}})
          .scales(std::vector<double>{0.07, 0.15, 0.33, 0.51, 0.69, 0.87, 1.05})
          .steps(std::vector<int64_t>{8, 16, 32, 64, 100, 300}));
  ssd::SSDOptions options(backbone, anchors, {300, 300}, classes);
  // SSD would measure the extractor's channels with a 300x300 forward of VGG16
  // (retrieve_out_channels, ~30 GFLOPs); they are fixed by SSDFeatureExtractorVGG,
  // and the head is the one SSD builds from them.
  options.head(nn::AnyModule(
      ssd::SSDHead(std::vector<int64_t>{512, 1024, 512, 256, 256, 256}, anchors->num_anchors_per_location(), classes)));
  // VGG16's features take caffe-style input: the mean removed, [0, 255] values.
  options.image_mean(std::vector<double>{0.48235, 0.45882, 0.40784})
      .image_std(std::vector<double>{1.0 / 255.0, 1.0 / 255.0, 1.0 / 255.0});
  ssd::SSD model(ssd_builders_detail::apply_kwargs(std::move(options), kwargs));
  if (weights) models::detail::load_weights(*model, *weights, builder);
  return model;
}

}  // namespace torch::vision::models::detection
