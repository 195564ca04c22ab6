// ssdlite320_mobilenet_v3_large (ssdlite.py of torchvision 0.14).
#include "ember/core/error.h"
#include "ember/nn/modules/batchnorm.h"
#include "ember/vision/models/detection/backbone_utils.h"
#include "ember/vision/models/detection/ssd_builders.h"
#include "ember/vision/models/detection/ssd_builders_common.h"
#include "ember/vision/models/mobilenetv3.h"

namespace torch::vision::models::detection {

namespace {

ops::NormLayer ssdlite_batch_norm() {
  return [](int64_t channels) {
    return nn::AnyModule(nn::BatchNorm2d(nn::BatchNormOptions(channels).eps(0.001).momentum(0.03)));
  };
}

}  // namespace

ssd::SSD ssdlite320_mobilenet_v3_large(std::optional<Weights> weights, bool progress,
                                       std::optional<int64_t> num_classes, std::optional<Weights> weights_backbone,
                                       std::optional<int64_t> trainable_backbone_layers,
                                       std::optional<ops::NormLayer> norm_layer, const SSDLiteKwargs& kwargs) {
  const char* builder = "ssdlite320_mobilenet_v3_large";
  const int64_t classes = ssd_builders_detail::preamble(builder, weights, "SSDLite320_MobileNet_V3_Large_Weights",
                                                        weights_backbone, "MobileNet_V3_Large_Weights", num_classes);
  const int64_t trainable = backbone_utils::_validate_trainable_layers(
      weights.has_value() || weights_backbone.has_value(), trainable_backbone_layers, 6, 6);
  // Without a pretrained backbone the tail is reduced (Table 6 of the MobileNetV3 paper).
  const bool reduce_tail = !weights_backbone.has_value();
  const ops::NormLayer norm = norm_layer ? *norm_layer : ssdlite_batch_norm();
  MobileNetV3 net =
      mobilenet_v3_large(weights_backbone, progress, MobileNetV3Kwargs().norm_layer(norm).reduced_tail(reduce_tail));
  if (!weights_backbone) ssdlite::_normal_init(*net);
  Backbone backbone = ssdlite::_mobilenet_extractor(net->features, trainable, norm);
  const std::pair<int64_t, int64_t> size{320, 320};
  anchor_utils::DefaultBoxGenerator anchors(
      anchor_utils::DefaultBoxGeneratorOptions(std::vector<std::vector<int64_t>>(6, {2, 3}))
          .min_ratio(0.2)
          .max_ratio(0.95));
  const std::vector<int64_t> out_channels = _utils::retrieve_out_channels(backbone, size);
  const std::vector<int64_t> num_anchors = anchors->num_anchors_per_location();
  EMBER_CHECK(out_channels.size() == anchors->options.aspect_ratios().size(), builder,
              ": The length of the output channels from the backbone (", out_channels.size(),
              ") do not match the length of the anchor generator aspect ratios (",
              anchors->options.aspect_ratios().size(), ")");
  ssd::SSDOptions options(backbone, anchors, size, classes);
  options.head(nn::AnyModule(ssdlite::SSDLiteHead(out_channels, num_anchors, classes, norm)))
      .score_thresh(0.001)
      .nms_thresh(0.55)
      .detections_per_img(300)
      .topk_candidates(300)
      // From [0, 1] to [-1, 1].
      .image_mean(std::vector<double>{0.5, 0.5, 0.5})
      .image_std(std::vector<double>{0.5, 0.5, 0.5});
  ssd::SSD model(ssd_builders_detail::apply_kwargs(std::move(options), kwargs));
  if (weights) models::detail::load_weights(*model, *weights, builder);
  return model;
}

}  // namespace torch::vision::models::detection
