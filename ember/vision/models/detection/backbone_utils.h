#pragma once
// torchvision.models.detection.backbone_utils.BackboneWithFPN: a feature
// pyramid over the intermediate layers of a backbone — children "body" (an
// IntermediateLayerGetter over the backbone's top-level layers) and "fpn"
// (a FeaturePyramidNetwork), so the state_dict matches torchvision's.
#include <cstdint>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "ember/core/ordered_dict.h"
#include "ember/core/tensor.h"
#include "ember/nn/module.h"
#include "ember/nn/pimpl.h"
#include "ember/vision/models/detection/backbone.h"
#include "ember/vision/models/intermediate_layer_getter.h"
#include "ember/vision/ops/feature_pyramid_network.h"
#include "ember/vision/ops/misc.h"

namespace torch::vision::models::detection::backbone_utils {

class BackboneWithFPNImpl : public nn::Module {
 public:
  // backbone: its top-level layers in order; extra_blocks: nullptr means
  // LastLevelMaxPool, as torchvision.
  BackboneWithFPNImpl(const ::torch::vision::models::_utils::NamedLayers& backbone,
                      ::torch::vision::models::_utils::ReturnLayers return_layers,
                      std::vector<int64_t> in_channels_list, int64_t out_channels,
                      std::shared_ptr<ops::ExtraFPNBlockImpl> extra_blocks = nullptr,
                      std::optional<ops::NormLayer> norm_layer = std::nullopt);
  BackboneWithFPNImpl(const nn::Sequential& backbone, ::torch::vision::models::_utils::ReturnLayers return_layers,
                      std::vector<int64_t> in_channels_list, int64_t out_channels,
                      std::shared_ptr<ops::ExtraFPNBlockImpl> extra_blocks = nullptr,
                      std::optional<ops::NormLayer> norm_layer = std::nullopt);
  void pretty_print(std::ostream& stream) const override { stream << "BackboneWithFPN"; }
  OrderedDict<std::string, Tensor> forward(const Tensor& x);

  ::torch::vision::models::_utils::IntermediateLayerGetter body{nullptr};
  ops::FeaturePyramidNetwork fpn{nullptr};
  int64_t out_channels;

 private:
  void init(std::vector<int64_t> in_channels_list, std::shared_ptr<ops::ExtraFPNBlockImpl> extra_blocks,
            std::optional<ops::NormLayer> norm_layer);
};
TORCH_MODULE(BackboneWithFPN);

// _resnet_fpn_extractor over a ResNet given as its top-level layers (conv1,
// bn1, relu, maxpool, layer1..layer4, ...) and its final `inplanes`: freezes
// (requires_grad false) every parameter outside the last trainable_layers of
// layer4, layer3, layer2, layer1, conv1 (and bn1 when 5), and returns the
// FPN over returned_layers (default 1..4) with 256 channels.
BackboneWithFPN _resnet_fpn_extractor(const ::torch::vision::models::_utils::NamedLayers& backbone, int64_t inplanes,
                                      int64_t trainable_layers,
                                      std::optional<std::vector<int64_t>> returned_layers = std::nullopt,
                                      std::shared_ptr<ops::ExtraFPNBlockImpl> extra_blocks = nullptr,
                                      std::optional<ops::NormLayer> norm_layer = std::nullopt);

// _mobilenet_extractor over MobileNetV2/V3's `features`: cn_indices are the
// blocks with `_is_cn` (the stage starts), block_out_channels each block's
// out_channels. Freezes the blocks before the last trainable_layers stages;
// with fpn, a BackboneWithFPN over returned_layers (default the last two
// stages) with 256 channels, else Sequential(features, Conv2d(last, 256, 1)).
Backbone _mobilenet_extractor(const nn::Sequential& features, const std::vector<int64_t>& cn_indices,
                              const std::vector<int64_t>& block_out_channels, bool fpn, int64_t trainable_layers,
                              std::optional<std::vector<int64_t>> returned_layers = std::nullopt,
                              std::shared_ptr<ops::ExtraFPNBlockImpl> extra_blocks = nullptr,
                              std::optional<ops::NormLayer> norm_layer = std::nullopt);

// The trainable backbone layers a builder uses: max_value when no weights are
// loaded, default_value when unset; raises outside [0, max_value].
int64_t _validate_trainable_layers(bool is_trained, std::optional<int64_t> trainable_backbone_layers, int64_t max_value,
                                   int64_t default_value);

}  // namespace torch::vision::models::detection::backbone_utils
