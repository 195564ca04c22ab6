#include "ember/vision/models/detection/backbone_utils.h"

#include "ember/core/error.h"
#include "ember/nn/modules/conv.h"

namespace torch::vision::models::detection::backbone_utils {

BackboneWithFPNImpl::BackboneWithFPNImpl(const _utils::NamedLayers& backbone, _utils::ReturnLayers return_layers,
                                         std::vector<int64_t> in_channels_list, int64_t out_channels,
                                         std::shared_ptr<ops::ExtraFPNBlockImpl> extra_blocks,
                                         std::optional<ops::NormLayer> norm_layer)
    : out_channels(out_channels) {
  body = register_module("body", _utils::IntermediateLayerGetter(backbone, std::move(return_layers)));
  init(std::move(in_channels_list), std::move(extra_blocks), std::move(norm_layer));
}

BackboneWithFPNImpl::BackboneWithFPNImpl(const nn::Sequential& backbone, _utils::ReturnLayers return_layers,
                                         std::vector<int64_t> in_channels_list, int64_t out_channels,
                                         std::shared_ptr<ops::ExtraFPNBlockImpl> extra_blocks,
                                         std::optional<ops::NormLayer> norm_layer)
    : out_channels(out_channels) {
  body = register_module("body", _utils::IntermediateLayerGetter(backbone, std::move(return_layers)));
  init(std::move(in_channels_list), std::move(extra_blocks), std::move(norm_layer));
}

void BackboneWithFPNImpl::init(std::vector<int64_t> in_channels_list,
                               std::shared_ptr<ops::ExtraFPNBlockImpl> extra_blocks,
                               std::optional<ops::NormLayer> norm_layer) {
  EMBER_CHECK(in_channels_list.size() == body->return_layers.size(), "BackboneWithFPN: ", in_channels_list.size(),
              " in_channels for ", body->return_layers.size(), " return_layers");
  EMBER_CHECK(out_channels > 0, "BackboneWithFPN: out_channels=", out_channels, " is not positive");
  if (!extra_blocks) extra_blocks = std::make_shared<ops::LastLevelMaxPoolImpl>();
  fpn = register_module(
      "fpn", ops::FeaturePyramidNetwork(ops::FeaturePyramidNetworkOptions(std::move(in_channels_list), out_channels)
                                            .extra_blocks(std::move(extra_blocks))
                                            .norm_layer(std::move(norm_layer))));
}

OrderedDict<std::string, Tensor> BackboneWithFPNImpl::forward(const Tensor& x) { return fpn(body(x)); }

BackboneWithFPN _resnet_fpn_extractor(const _utils::NamedLayers& backbone, int64_t inplanes, int64_t trainable_layers,
                                      std::optional<std::vector<int64_t>> returned_layers,
                                      std::shared_ptr<ops::ExtraFPNBlockImpl> extra_blocks,
                                      std::optional<ops::NormLayer> norm_layer) {
  EMBER_CHECK(trainable_layers >= 0 && trainable_layers <= 5,
              "_resnet_fpn_extractor: Trainable layers should be in the range [0,5], got ", trainable_layers);
  std::vector<std::string> layers_to_train{"layer4", "layer3", "layer2", "layer1", "conv1"};
  layers_to_train.resize(static_cast<size_t>(trainable_layers));
  if (trainable_layers == 5) layers_to_train.emplace_back("bn1");
  for (const auto& layer : backbone)
    for (const auto& param : layer.value().ptr()->named_parameters()) {
      const std::string name = layer.key() + "." + param.key();
      bool train = false;
      for (const std::string& prefix : layers_to_train) train = train || name.rfind(prefix, 0) == 0;
      if (!train) param.value().set_requires_grad(false);
    }
  const std::vector<int64_t> returned = returned_layers.value_or(std::vector<int64_t>{1, 2, 3, 4});
  EMBER_CHECK(!returned.empty(), "_resnet_fpn_extractor: no returned layers");
  _utils::ReturnLayers return_layers;
  std::vector<int64_t> in_channels_list;
  for (size_t v = 0; v < returned.size(); ++v) {
    const int64_t k = returned[v];
    EMBER_CHECK(k >= 1 && k <= 4, "_resnet_fpn_extractor: Each returned layer should be in the range [1,4]. Got ", k);
    return_layers["layer" + std::to_string(k)] = std::to_string(v);
    in_channels_list.push_back((inplanes / 8) << (k - 1));
  }
  return BackboneWithFPN(backbone, return_layers, in_channels_list, 256, std::move(extra_blocks),
                         std::move(norm_layer));
}

Backbone _mobilenet_extractor(const nn::Sequential& features, const std::vector<int64_t>& cn_indices,
                              const std::vector<int64_t>& block_out_channels, bool fpn, int64_t trainable_layers,
                              std::optional<std::vector<int64_t>> returned_layers,
                              std::shared_ptr<ops::ExtraFPNBlockImpl> extra_blocks,
                              std::optional<ops::NormLayer> norm_layer) {
  EMBER_CHECK(!features.is_empty() && !features->is_empty(), "_mobilenet_extractor: empty features");
  const auto n = static_cast<int64_t>(features->size());
  EMBER_CHECK(static_cast<int64_t>(block_out_channels.size()) == n, "_mobilenet_extractor: ", block_out_channels.size(),
              " out_channels for ", n, " blocks");
  std::vector<int64_t> stage_indices{0};
  for (const int64_t i : cn_indices) {
    EMBER_CHECK(i > 0 && i < n, "_mobilenet_extractor: block index ", i, " is outside the ", n, " blocks");
    stage_indices.push_back(i);
  }
  stage_indices.push_back(n - 1);
  const auto num_stages = static_cast<int64_t>(stage_indices.size());
  EMBER_CHECK(trainable_layers >= 0 && trainable_layers <= num_stages,
              "_mobilenet_extractor: Trainable layers should be in the range [0,", num_stages, "], got ",
              trainable_layers);
  const int64_t freeze_before = trainable_layers == 0 ? n : stage_indices[num_stages - trainable_layers];
  for (int64_t i = 0; i < freeze_before; ++i)
    for (const Tensor& p : features->ptr(static_cast<size_t>(i))->parameters()) p.set_requires_grad(false);
  constexpr int64_t out_channels = 256;
  if (fpn) {
    const std::vector<int64_t> returned =
        returned_layers.value_or(std::vector<int64_t>{num_stages - 2, num_stages - 1});
    _utils::ReturnLayers return_layers;
    std::vector<int64_t> in_channels_list;
    for (size_t v = 0; v < returned.size(); ++v) {
      const int64_t k = returned[v];
      EMBER_CHECK(k >= 0 && k < num_stages, "_mobilenet_extractor: Each returned layer should be in the range [0,",
                  num_stages - 1, "], got ", k);
      return_layers[std::to_string(stage_indices[k])] = std::to_string(v);
      in_channels_list.push_back(block_out_channels[stage_indices[k]]);
    }
    return BackboneWithFPN(features, return_layers, in_channels_list, out_channels, std::move(extra_blocks),
                           std::move(norm_layer));
  }
  nn::Sequential m(features, nn::Conv2d(nn::Conv2dOptions(block_out_channels.back(), out_channels, 1)));
  return Backbone(m, out_channels);
}

int64_t _validate_trainable_layers(bool is_trained, std::optional<int64_t> trainable_backbone_layers, int64_t max_value,
                                   int64_t default_value) {
  // Without weights every layer trains, as torchvision (which also warns when a value was given).
  if (!is_trained) trainable_backbone_layers = max_value;
  const int64_t n = trainable_backbone_layers.value_or(default_value);
  EMBER_CHECK(n >= 0 && n <= max_value,
              "_validate_trainable_layers: Trainable backbone layers should be in the range [0,", max_value, "], got ",
              n);
  return n;
}

}  // namespace torch::vision::models::detection::backbone_utils
