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
#include "ember/vision/models/intermediate_layer_getter.h"
#include "ember/vision/ops/feature_pyramid_network.h"
#include "ember/vision/ops/misc.h"

namespace torch::vision::models::detection::backbone_utils {

class BackboneWithFPNImpl : public nn::Module {
 public:
  // backbone: its top-level layers in order; extra_blocks: nullptr means
  // LastLevelMaxPool, as torchvision.
  BackboneWithFPNImpl(const _utils::NamedLayers& backbone, _utils::ReturnLayers return_layers,
                      std::vector<int64_t> in_channels_list, int64_t out_channels,
                      std::shared_ptr<ops::ExtraFPNBlockImpl> extra_blocks = nullptr,
                      std::optional<ops::NormLayer> norm_layer = std::nullopt);
  BackboneWithFPNImpl(const nn::Sequential& backbone, _utils::ReturnLayers return_layers,
                      std::vector<int64_t> in_channels_list, int64_t out_channels,
                      std::shared_ptr<ops::ExtraFPNBlockImpl> extra_blocks = nullptr,
                      std::optional<ops::NormLayer> norm_layer = std::nullopt);
  void pretty_print(std::ostream& stream) const override { stream << "BackboneWithFPN"; }
  OrderedDict<std::string, Tensor> forward(const Tensor& x);

  _utils::IntermediateLayerGetter body{nullptr};
  ops::FeaturePyramidNetwork fpn{nullptr};
  int64_t out_channels;

 private:
  void init(std::vector<int64_t> in_channels_list, std::shared_ptr<ops::ExtraFPNBlockImpl> extra_blocks,
            std::optional<ops::NormLayer> norm_layer);
};
TORCH_MODULE(BackboneWithFPN);

}  // namespace torch::vision::models::detection::backbone_utils
