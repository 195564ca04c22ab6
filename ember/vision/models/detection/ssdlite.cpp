#include "ember/vision/models/detection/ssdlite.h"

#include "ember/core/error.h"
#include "ember/nn/init.h"
#include "ember/nn/modules/activation_extra.h"
#include "ember/nn/modules/conv.h"

namespace torch::vision::models::detection::ssdlite {

namespace {

namespace vops = ::torch::vision::ops;

vops::ActivationLayer relu6_layer() {
  return
      [](std::optional<bool> inplace) { return nn::AnyModule(nn::ReLU6(nn::ReLU6Options(inplace.value_or(false)))); };
}

// _normal_init: conv weights N(0, 0.03), biases 0.
void normal_init(nn::Module& m) {
  for (const auto& child : m.modules())
    if (auto* c = dynamic_cast<nn::Conv2dImpl*>(child.get())) {
      nn::init::normal_(c->weight, 0.0, 0.03);
      if (c->bias.defined()) nn::init::constant_(c->bias, 0.0);
    }
}

std::vector<nn::AnyModule> prediction_blocks(const std::vector<int64_t>& in_channels,
                                             const std::vector<int64_t>& num_anchors, int64_t columns,
                                             const ops::NormLayer& norm_layer, const char* op) {
  EMBER_CHECK(!in_channels.empty() && in_channels.size() == num_anchors.size(), op, ": ", in_channels.size(),
              " input channel counts for ", num_anchors.size(), " anchor counts");
  std::vector<nn::AnyModule> layers;
  for (size_t i = 0; i < in_channels.size(); ++i) {
    EMBER_CHECK(in_channels[i] > 0 && num_anchors[i] > 0, op, ": bad in_channels=", in_channels[i],
                " or num_anchors=", num_anchors[i]);
    nn::Sequential block = _prediction_block(in_channels[i], columns * num_anchors[i], 3, norm_layer);
    normal_init(*block);
    layers.emplace_back(block);
  }
  return layers;
}

}  // namespace

nn::Sequential _prediction_block(int64_t in_channels, int64_t out_channels, int64_t kernel_size,
                                 const ops::NormLayer& norm_layer) {
  return nn::Sequential(vops::Conv2dNormActivation(vops::Conv2dNormActivationOptions(in_channels, in_channels)
                                                       .kernel_size(kernel_size)
                                                       .groups(in_channels)
                                                       .norm_layer(norm_layer)
                                                       .activation_layer(relu6_layer())),
                        nn::Conv2d(nn::Conv2dOptions(in_channels, out_channels, 1)));
}

nn::Sequential _extra_block(int64_t in_channels, int64_t out_channels, const ops::NormLayer& norm_layer) {
  const int64_t mid = out_channels / 2;
  EMBER_CHECK(in_channels > 0 && mid > 0, "_extra_block: bad channels ", in_channels, " -> ", out_channels);
  return nn::Sequential(vops::Conv2dNormActivation(vops::Conv2dNormActivationOptions(in_channels, mid)
                                                       .kernel_size(1)
                                                       .norm_layer(norm_layer)
                                                       .activation_layer(relu6_layer())),
                        vops::Conv2dNormActivation(vops::Conv2dNormActivationOptions(mid, mid)
                                                       .kernel_size(3)
                                                       .stride(2)
                                                       .groups(mid)
                                                       .norm_layer(norm_layer)
                                                       .activation_layer(relu6_layer())),
                        vops::Conv2dNormActivation(vops::Conv2dNormActivationOptions(mid, out_channels)
                                                       .kernel_size(1)
                                                       .norm_layer(norm_layer)
                                                       .activation_layer(relu6_layer())));
}

SSDLiteClassificationHeadImpl::SSDLiteClassificationHeadImpl(const std::vector<int64_t>& in_channels,
                                                             const std::vector<int64_t>& num_anchors,
                                                             int64_t num_classes, const ops::NormLayer& norm_layer)
    : SSDScoringHeadImpl(
          prediction_blocks(in_channels, num_anchors, num_classes, norm_layer, "SSDLiteClassificationHead"),
          num_classes) {}

SSDLiteRegressionHeadImpl::SSDLiteRegressionHeadImpl(const std::vector<int64_t>& in_channels,
                                                     const std::vector<int64_t>& num_anchors,
                                                     const ops::NormLayer& norm_layer)
    : SSDScoringHeadImpl(prediction_blocks(in_channels, num_anchors, 4, norm_layer, "SSDLiteRegressionHead"), 4) {}

SSDLiteHeadImpl::SSDLiteHeadImpl(const std::vector<int64_t>& in_channels, const std::vector<int64_t>& num_anchors,
                                 int64_t num_classes, const ops::NormLayer& norm_layer) {
  classification_head = register_module("classification_head",
                                        SSDLiteClassificationHead(in_channels, num_anchors, num_classes, norm_layer));
  regression_head = register_module("regression_head", SSDLiteRegressionHead(in_channels, num_anchors, norm_layer));
}

HeadOutputs SSDLiteHeadImpl::forward(const std::vector<Tensor>& x) {
  return {{"bbox_regression", regression_head(x)}, {"cls_logits", classification_head(x)}};
}

}  // namespace torch::vision::models::detection::ssdlite
