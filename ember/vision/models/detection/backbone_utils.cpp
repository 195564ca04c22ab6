#include "ember/vision/models/detection/backbone_utils.h"

#include "ember/core/error.h"

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

}  // namespace torch::vision::models::detection::backbone_utils
