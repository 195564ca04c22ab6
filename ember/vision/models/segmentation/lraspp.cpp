#include "ember/vision/models/segmentation/lraspp.h"

#include "ember/core/error.h"
#include "ember/nn/functional/upsampling.h"
#include "ember/nn/modules/activation.h"
#include "ember/nn/modules/batchnorm.h"
#include "ember/nn/modules/pooling.h"
#include "ember/ops/all_ops.h"
#include "ember/vision/models/segmentation/simple_segmentation_model.h"

namespace torch::vision::models::segmentation::lraspp {

namespace {

Tensor upsample_to(const Tensor& x, int64_t h, int64_t w) {
  namespace F = nn::functional;
  return F::interpolate(
      x, F::InterpolateFuncOptions().size(std::vector<int64_t>{h, w}).mode(enumtype::kBilinear()).align_corners(false));
}

}  // namespace

LRASPPHeadImpl::LRASPPHeadImpl(int64_t low_channels, int64_t high_channels, int64_t num_classes,
                               int64_t inter_channels) {
  EMBER_CHECK(low_channels > 0 && high_channels > 0 && num_classes > 0 && inter_channels > 0,
              "LRASPPHead: bad channels low=", low_channels, ", high=", high_channels, ", num_classes=", num_classes,
              ", inter=", inter_channels);
  cbr =
      register_module("cbr", nn::Sequential(nn::Conv2d(nn::Conv2dOptions(high_channels, inter_channels, 1).bias(false)),
                                            nn::BatchNorm2d(inter_channels), nn::ReLU(nn::ReLUOptions(true))));
  scale = register_module(
      "scale",
      nn::Sequential(nn::AdaptiveAvgPool2d(1),
                     nn::Conv2d(nn::Conv2dOptions(high_channels, inter_channels, 1).bias(false)), nn::Sigmoid()));
  low_classifier = register_module("low_classifier", nn::Conv2d(nn::Conv2dOptions(low_channels, num_classes, 1)));
  high_classifier = register_module("high_classifier", nn::Conv2d(nn::Conv2dOptions(inter_channels, num_classes, 1)));
}

Tensor LRASPPHeadImpl::forward(const OrderedDict<std::string, Tensor>& input) {
  const Tensor* low = input.find("low");
  const Tensor* high = input.find("high");
  EMBER_CHECK(low != nullptr && high != nullptr, "LRASPPHead: expected 'low' and 'high' feature maps");
  const Tensor x = cbr->forward(*high) * scale->forward(*high);
  return low_classifier(*low) + high_classifier(upsample_to(x, low->size(-2), low->size(-1)));
}

LRASPPImpl::LRASPPImpl(FeatureBackbone backbone_, int64_t low_channels, int64_t high_channels, int64_t num_classes,
                       int64_t inter_channels)
    : backbone(std::move(backbone_)) {
  EMBER_CHECK(!backbone.is_empty(), "LRASPP: backbone is required");
  register_module("backbone", backbone.ptr());
  classifier = register_module("classifier", LRASPPHead(low_channels, high_channels, num_classes, inter_channels));
}

std::map<std::string, Tensor> LRASPPImpl::forward(const Tensor& input) {
  _utils::check_input(input, "LRASPP");
  const Tensor out = classifier(backbone(input));
  return {{"out", upsample_to(out, input.size(-2), input.size(-1))}};
}

}  // namespace torch::vision::models::segmentation::lraspp
