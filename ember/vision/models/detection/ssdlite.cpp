#include "ember/vision/models/detection/ssdlite.h"

#include <algorithm>

#include "ember/core/error.h"
#include "ember/nn/init.h"
#include "ember/nn/modules/activation_extra.h"
#include "ember/nn/modules/conv.h"
#include "ember/vision/models/mobilenetv3.h"

namespace torch::vision::models::detection::ssdlite {

namespace {

namespace vops = ::torch::vision::ops;

vops::ActivationLayer relu6_layer() {
  return
      [](std::optional<bool> inplace) { return nn::AnyModule(nn::ReLU6(nn::ReLU6Options(inplace.value_or(false)))); };
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
    _normal_init(*block);
    layers.emplace_back(block);
  }
  return layers;
}

}  // namespace

void _normal_init(nn::Module& conv) {
  for (const auto& child : conv.modules())
    if (auto* c = dynamic_cast<nn::Conv2dImpl*>(child.get())) {
      nn::init::normal_(c->weight, 0.0, 0.03);
      if (c->bias.defined()) nn::init::constant_(c->bias, 0.0);
    }
}

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

SSDLiteFeatureExtractorMobileNetImpl::SSDLiteFeatureExtractorMobileNetImpl(const nn::Sequential& backbone,
                                                                           int64_t c4_pos,
                                                                           const ops::NormLayer& norm_layer,
                                                                           double width_mult, int64_t min_depth) {
  const char* op = "SSDLiteFeatureExtractorMobileNet";
  EMBER_CHECK(!backbone.is_empty() && backbone->size() >= 2, op, ": the backbone needs at least two layers");
  EMBER_CHECK(c4_pos >= 0 && static_cast<size_t>(c4_pos) + 1 < backbone->size(), op, ": c4_pos=", c4_pos,
              " is outside the backbone's ", backbone->size(), " layers (the last cannot be C4)");
  auto* c4 = backbone->ptr(static_cast<size_t>(c4_pos))->as<mobilenetv3::InvertedResidualImpl>();
  EMBER_CHECK(c4 != nullptr, op, ": backbone[", c4_pos, "] is not a MobileNetV3 InvertedResidual");
  EMBER_CHECK(!c4->use_res_connect, op, ": backbone[c4_pos].use_res_connect should be False");
  EMBER_CHECK(c4->block->size() >= 2 && c4->cnf.expanded_channels != c4->cnf.input_channels, op,
              ": backbone[c4_pos] has no expansion layer to split at (expanded_channels equals input_channels, ",
              c4->cnf.input_channels, ")");
  auto* last = backbone->ptr(backbone->size() - 1)->as<ops::Conv2dNormActivationImpl>();
  EMBER_CHECK(last != nullptr, op, ": the backbone's last layer must be a Conv2dNormActivation");
  EMBER_CHECK(width_mult > 0 && min_depth > 0, op, ": bad width_mult=", width_mult, " or min_depth=", min_depth);

  const std::vector<nn::AnyModule> layers(backbone->begin(), backbone->end());
  const std::vector<nn::AnyModule> block(c4->block->begin(), c4->block->end());
  const auto c4_index = static_cast<size_t>(c4_pos);
  // From the start until the C4 expansion layer (section 6.3 of the MobileNetV3 paper) ...
  nn::Sequential first;
  for (size_t i = 0; i < c4_index; ++i) first->push_back(layers[i]);
  first->push_back(block[0]);
  // ... and from the C4 depthwise conv until the end.
  // Python slices the block (block[1:]), which keeps its children's names "1", "2", ...
  const std::vector<std::string> block_names = c4->block->named_children().keys();
  nn::Sequential c4_rest;
  for (size_t i = 1; i < block.size(); ++i) c4_rest->push_back(block_names[i], block[i]);
  nn::Sequential second;
  second->push_back(c4_rest);
  for (size_t i = c4_index + 1; i < layers.size(); ++i) second->push_back(layers[i]);
  stages_ = {first, second};
  features = register_module("features", nn::Sequential(first, second));

  const auto depth = [&](int64_t d) {
    return std::max(min_depth, static_cast<int64_t>(static_cast<double>(d) * width_mult));
  };
  std::vector<nn::Sequential> extras{
      _extra_block(last->out_channels, depth(512), norm_layer), _extra_block(depth(512), depth(256), norm_layer),
      _extra_block(depth(256), depth(256), norm_layer), _extra_block(depth(256), depth(128), norm_layer)};
  extra = register_module("extra", nn::ModuleList());
  for (nn::Sequential& e : extras) {
    _normal_init(*e);
    extra->push_back(e);
    stages_.push_back(e);
  }
}

OrderedDict<std::string, Tensor> SSDLiteFeatureExtractorMobileNetImpl::forward(const Tensor& x_in) {
  EMBER_CHECK(x_in.dim() == 4, "SSDLiteFeatureExtractorMobileNet: expected [N, C, H, W] images, got ", x_in.sizes());
  OrderedDict<std::string, Tensor> out;
  Tensor x = x_in;
  for (size_t i = 0; i < stages_.size(); ++i) {
    x = stages_[i]->forward(x);
    out.insert(std::to_string(i), x);
  }
  return out;
}

SSDLiteFeatureExtractorMobileNet _mobilenet_extractor(const nn::Sequential& backbone, int64_t trainable_layers,
                                                      const ops::NormLayer& norm_layer) {
  EMBER_CHECK(!backbone.is_empty() && backbone->size() >= 2, "_mobilenet_extractor: the backbone is null or too short");
  // The strided blocks are Python's `_is_cn` ones: C1 .. Cn-1; the first and last layers are C0 and Cn.
  std::vector<size_t> stage_indices{0};
  for (size_t i = 0; i < backbone->size(); ++i)
    if (auto* b = backbone->ptr(i)->as<mobilenetv3::InvertedResidualImpl>(); b != nullptr && b->cnf.stride > 1)
      stage_indices.push_back(i);
  stage_indices.push_back(backbone->size() - 1);
  const auto num_stages = static_cast<int64_t>(stage_indices.size());
  EMBER_CHECK(trainable_layers >= 0 && trainable_layers <= num_stages,
              "_mobilenet_extractor: trainable_layers should be in the range [0, ", num_stages, "], instead got ",
              trainable_layers);
  const size_t freeze_before =
      trainable_layers == 0 ? backbone->size() : stage_indices[static_cast<size_t>(num_stages - trainable_layers)];
  for (size_t i = 0; i < freeze_before; ++i)
    for (const Tensor& p : backbone->ptr(i)->parameters()) p.set_requires_grad(false);
  return SSDLiteFeatureExtractorMobileNet(backbone, static_cast<int64_t>(stage_indices[stage_indices.size() - 2]),
                                          norm_layer);
}

}  // namespace torch::vision::models::detection::ssdlite
