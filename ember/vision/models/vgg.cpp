#include "ember/vision/models/vgg.h"

#include "ember/core/error.h"
#include "ember/nn/modules/activation.h"
#include "ember/nn/modules/batchnorm.h"
#include "ember/nn/modules/conv.h"
#include "ember/nn/modules/dropout.h"
#include "ember/nn/modules/linear.h"
#include "ember/vision/models/_utils.h"
#include "ember/vision/models/weights.h"

namespace torch::vision::models {

namespace vgg {

const std::map<std::string, VGGConfig>& cfgs() {
  static const std::map<std::string, VGGConfig> table = {
      {"A", {64, "M", 128, "M", 256, 256, "M", 512, 512, "M", 512, 512, "M"}},
      {"B", {64, 64, "M", 128, 128, "M", 256, 256, "M", 512, 512, "M", 512, 512, "M"}},
      {"D", {64, 64, "M", 128, 128, "M", 256, 256, 256, "M", 512, 512, 512, "M", 512, 512, 512, "M"}},
      {"E", {64, 64, "M", 128, 128, "M", 256, 256, 256, 256, "M", 512, 512, 512, 512, "M", 512, 512, 512, 512, "M"}},
  };
  return table;
}

nn::Sequential make_layers(const VGGConfig& cfg, bool batch_norm) {
  nn::Sequential layers;
  int64_t in_channels = 3;
  for (const VGGLayer& v : cfg) {
    if (const auto* s = std::get_if<std::string>(&v)) {
      EMBER_CHECK(*s == "M", "make_layers: a cfg entry is a channel count or \"M\", got \"", *s, "\"");
      layers->push_back(nn::MaxPool2d(nn::MaxPool2dOptions(2).stride(2)));
      continue;
    }
    const int64_t channels = std::get<int64_t>(v);
    EMBER_CHECK(channels > 0, "make_layers: channel counts must be positive, got ", channels);
    layers->push_back(nn::Conv2d(nn::Conv2dOptions(in_channels, channels, 3).padding(1)));
    if (batch_norm) layers->push_back(nn::BatchNorm2d(channels));
    layers->push_back(nn::ReLU(nn::ReLUOptions(true)));
    in_channels = channels;
  }
  return layers;
}

}  // namespace vgg

VGGImpl::VGGImpl(const VGGOptions& options_) : options(options_) {
  EMBER_CHECK(!options.features().is_empty(), "VGG: features is null");
  EMBER_CHECK(options.num_classes() > 0, "VGG: num_classes must be positive, got ", options.num_classes());
  EMBER_CHECK(options.dropout() >= 0 && options.dropout() <= 1, "VGG: dropout probability has to be between 0 and 1, ",
              "but got ", options.dropout());
  features = register_module("features", options.features());
  avgpool = register_module("avgpool", nn::AdaptiveAvgPool2d(nn::AdaptiveAvgPool2dOptions({7, 7})));
  const double p = options.dropout();
  classifier = register_module(
      "classifier", nn::Sequential(nn::Linear(512 * 7 * 7, 4096), nn::ReLU(nn::ReLUOptions(true)), nn::Dropout(p),
                                   nn::Linear(4096, 4096), nn::ReLU(nn::ReLUOptions(true)), nn::Dropout(p),
                                   nn::Linear(4096, options.num_classes())));
  if (options.init_weights()) detail::init_cnn_weights(*this, detail::LinearInit::kNormal001);
}

VGGImpl::VGGImpl(nn::Sequential features, int64_t num_classes, bool init_weights, double dropout)
    : VGGImpl(VGGOptions(std::move(features)).num_classes(num_classes).init_weights(init_weights).dropout(dropout)) {}

Tensor VGGImpl::forward(const Tensor& x) {
  detail::check_image_batch(x, "VGG");
  Tensor y = features->forward(x);
  EMBER_CHECK(y.dim() == 4 && y.size(1) == 512, "VGG: features must return [N, 512, H, W], got ", y.sizes());
  y = avgpool(y).flatten(1);
  return classifier->forward(y);
}

namespace {

VGG build(const char* builder, const char* cfg, bool batch_norm, const char* enum_name,
          const std::optional<Weights>& weights, const VGGKwargs& kwargs) {
  detail::verify_weights(weights, enum_name, builder);
  VGGOptions options(vgg::make_layers(vgg::cfgs().at(cfg), batch_norm));
  options.dropout(kwargs.dropout()).num_classes(kwargs.num_classes().value_or(1000));
  if (weights) {
    options.init_weights(false);
    // IMAGENET1K_FEATURES has no categories (Python: None) and keeps num_classes.
    if (!weights->meta.categories.empty())
      options.num_classes(detail::num_classes_for(weights, kwargs.num_classes(), builder));
  }
  VGG model(options);
  if (weights) detail::load_weights(*model, *weights, builder);
  return model;
}

}  // namespace

#define EMBER_VGG_BUILDER(fn, cfg, bn, Enum)                              \
  VGG fn(std::optional<Weights> weights, bool, const VGGKwargs& kwargs) { \
    return build(#fn, cfg, bn, #Enum, weights, kwargs);                   \
  }
EMBER_VGG_BUILDER(vgg11, "A", false, VGG11_Weights)
EMBER_VGG_BUILDER(vgg11_bn, "A", true, VGG11_BN_Weights)
EMBER_VGG_BUILDER(vgg13, "B", false, VGG13_Weights)
EMBER_VGG_BUILDER(vgg13_bn, "B", true, VGG13_BN_Weights)
EMBER_VGG_BUILDER(vgg16, "D", false, VGG16_Weights)
EMBER_VGG_BUILDER(vgg16_bn, "D", true, VGG16_BN_Weights)
EMBER_VGG_BUILDER(vgg19, "E", false, VGG19_Weights)
EMBER_VGG_BUILDER(vgg19_bn, "E", true, VGG19_BN_Weights)
#undef EMBER_VGG_BUILDER

}  // namespace torch::vision::models
