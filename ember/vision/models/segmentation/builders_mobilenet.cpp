// deeplabv3_mobilenet_v3_large and lraspp_mobilenet_v3_large (deeplabv3.py, lraspp.py of torchvision 0.14).
#include "ember/core/error.h"
#include "ember/vision/models/intermediate_layer_getter.h"
#include "ember/vision/models/mobilenetv3.h"
#include "ember/vision/models/segmentation/builder_common.h"
#include "ember/vision/models/segmentation/builders.h"

namespace torch::vision::models::segmentation {

namespace {

// The dilated mobilenet_v3_large's features with, per block, its out_channels
// and the stage starts [0] + (blocks with _is_cn: stride > 1) + [last].
struct DilatedFeatures {
  nn::Sequential features{nullptr};
  std::vector<int64_t> out_channels, stage_indices;
};

DilatedFeatures dilated_mobilenet(std::optional<Weights> weights_backbone, bool progress) {
  MobileNetV3 net = mobilenet_v3_large(std::move(weights_backbone), progress, MobileNetV3Kwargs().dilated(true));
  DilatedFeatures f;
  f.features = net->features;
  const auto& setting = net->options.inverted_residual_setting();
  f.out_channels.push_back(setting.front().input_channels);
  f.stage_indices.push_back(0);
  for (size_t i = 0; i < setting.size(); ++i) {
    if (setting[i].stride > 1) f.stage_indices.push_back(static_cast<int64_t>(i + 1));
    f.out_channels.push_back(setting[i].out_channels);
  }
  f.out_channels.push_back(6 * setting.back().out_channels);
  f.stage_indices.push_back(static_cast<int64_t>(f.out_channels.size()) - 1);
  EMBER_CHECK(f.stage_indices.size() >= 4, "mobilenet_v3_large: expected at least 4 stages");
  return f;
}

}  // namespace

DeepLabV3 deeplabv3_mobilenet_v3_large(const std::optional<Weights>& weights, bool progress,
                                       std::optional<int64_t> num_classes, std::optional<bool> aux_loss,
                                       std::optional<Weights> weights_backbone) {
  const auto r = builder_detail::resolve("deeplabv3_mobilenet_v3_large", "DeepLabV3_MobileNet_V3_Large_Weights",
                                         weights, num_classes, aux_loss);
  if (weights) weights_backbone.reset();
  DilatedFeatures f = dilated_mobilenet(std::move(weights_backbone), progress);
  const int64_t out_pos = f.stage_indices.back();                       // C5, output stride 16
  const int64_t aux_pos = f.stage_indices[f.stage_indices.size() - 4];  // C2, output stride 8
  models::_utils::ReturnLayers ret{{std::to_string(out_pos), "out"}};
  if (r.aux_loss) ret[std::to_string(aux_pos)] = "aux";
  models::_utils::IntermediateLayerGetter backbone(f.features, ret);
  nn::AnyModule aux;
  if (r.aux_loss) aux = nn::AnyModule(fcn::FCNHead(f.out_channels[aux_pos], r.num_classes));
  DeepLabV3 model(backbone, nn::AnyModule(deeplabv3::DeepLabHead(f.out_channels[out_pos], r.num_classes)),
                  std::move(aux));
  if (weights) builder_detail::load_checkpoint(*model, *weights, "deeplabv3_mobilenet_v3_large");
  return model;
}

LRASPP lraspp_mobilenet_v3_large(const std::optional<Weights>& weights, bool progress,
                                 std::optional<int64_t> num_classes, std::optional<Weights> weights_backbone) {
  const auto r = builder_detail::resolve("lraspp_mobilenet_v3_large", "LRASPP_MobileNet_V3_Large_Weights", weights,
                                         num_classes, std::nullopt, false);
  if (weights) weights_backbone.reset();
  DilatedFeatures f = dilated_mobilenet(std::move(weights_backbone), progress);
  const int64_t low_pos = f.stage_indices[f.stage_indices.size() - 4];
  const int64_t high_pos = f.stage_indices.back();
  models::_utils::IntermediateLayerGetter backbone(
      f.features, models::_utils::ReturnLayers{{std::to_string(low_pos), "low"}, {std::to_string(high_pos), "high"}});
  LRASPP model(backbone, f.out_channels[low_pos], f.out_channels[high_pos], r.num_classes);
  if (weights) builder_detail::load_checkpoint(*model, *weights, "lraspp_mobilenet_v3_large");
  return model;
}

}  // namespace torch::vision::models::segmentation
