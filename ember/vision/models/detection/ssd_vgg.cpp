#include "ember/vision/models/detection/ssd_vgg.h"

#include <vector>

#include "ember/core/error.h"
#include "ember/nn/functional/loss.h"
#include "ember/nn/init.h"
#include "ember/nn/modules/activation.h"
#include "ember/nn/modules/conv.h"
#include "ember/nn/modules/pooling.h"
#include "ember/ops/all_ops.h"

namespace torch::vision::models::detection::ssd {

namespace {

std::vector<size_t> maxpool_positions(const nn::Sequential& backbone) {
  std::vector<size_t> pos;
  for (size_t i = 0; i < backbone->size(); ++i)
    if (backbone->ptr(i)->as<nn::MaxPool2dImpl>() != nullptr) pos.push_back(i);
  return pos;
}

nn::Conv2d conv(int64_t in, int64_t out, int64_t k, int64_t padding = 0, int64_t stride = 1, int64_t dilation = 1) {
  return nn::Conv2d(nn::Conv2dOptions(in, out, k).padding(padding).stride(stride).dilation(dilation));
}

// _xavier_init: xavier_uniform_ weights, zero biases.
void xavier_init(nn::Module& m) {
  for (const auto& child : m.modules())
    if (auto* c = dynamic_cast<nn::Conv2dImpl*>(child.get())) {
      nn::init::xavier_uniform_(c->weight);
      if (c->bias.defined()) nn::init::constant_(c->bias, 0.0);
    }
}

nn::Sequential extra_block(int64_t in, int64_t mid, int64_t out, int64_t k, int64_t padding, int64_t stride) {
  return nn::Sequential(conv(in, mid, 1), nn::ReLU(nn::ReLUOptions(true)), conv(mid, out, k, padding, stride),
                        nn::ReLU(nn::ReLUOptions(true)));
}

}  // namespace

SSDFeatureExtractorVGGImpl::SSDFeatureExtractorVGGImpl(const nn::Sequential& backbone, bool highres) {
  EMBER_CHECK(!backbone.is_empty(), "SSDFeatureExtractorVGG: the backbone is null");
  const std::vector<size_t> pools = maxpool_positions(backbone);
  EMBER_CHECK(pools.size() == 5, "SSDFeatureExtractorVGG: expected VGG features with 5 MaxPool2d layers, got ",
              pools.size());
  const size_t maxpool3 = pools[2], maxpool4 = pools[3];
  EMBER_CHECK(pools[4] + 1 == backbone->size(),
              "SSDFeatureExtractorVGG: VGG features must end with their last MaxPool2d");
  backbone->ptr(maxpool3)->as<nn::MaxPool2dImpl>()->options.ceil_mode(true);
  scale_weight = register_parameter("scale_weight", ones({512}) * 20);
  std::vector<nn::AnyModule> layers(backbone->begin(), backbone->end());
  features = nn::Sequential();
  for (size_t i = 0; i < maxpool4; ++i) features->push_back(layers[i]);
  features = register_module("features", features);
  std::vector<nn::Sequential> extras{extra_block(1024, 256, 512, 3, 1, 2), extra_block(512, 128, 256, 3, 1, 2),
                                     extra_block(256, 128, 256, 3, 0, 1), extra_block(256, 128, 256, 3, 0, 1)};
  if (highres) extras.push_back(extra_block(256, 128, 256, 4, 0, 1));
  for (nn::Sequential& e : extras) xavier_init(*e);
  nn::Sequential fc(nn::MaxPool2d(nn::MaxPool2dOptions(3).stride(1).padding(1).ceil_mode(false)),
                    conv(512, 1024, 3, 6, 1, 6), nn::ReLU(nn::ReLUOptions(true)), conv(1024, 1024, 1),
                    nn::ReLU(nn::ReLUOptions(true)));
  xavier_init(*fc);
  // conv5 (until conv5_3, without maxpool5) then the atrous FC6/FC7.
  nn::Sequential first;
  for (size_t i = maxpool4; i + 1 < layers.size(); ++i) first->push_back(layers[i]);
  first->push_back(fc);
  blocks_.push_back(first);
  blocks_.insert(blocks_.end(), extras.begin(), extras.end());
  extra = register_module("extra", nn::ModuleList());
  for (const nn::Sequential& b : blocks_) extra->push_back(b);
}

OrderedDict<std::string, Tensor> SSDFeatureExtractorVGGImpl::forward(const Tensor& x_in) {
  EMBER_CHECK(x_in.dim() == 4, "SSDFeatureExtractorVGG: expected [N, C, H, W] images, got ", x_in.sizes());
  Tensor x = features->forward(x_in);
  EMBER_CHECK(x.size(1) == 512, "SSDFeatureExtractorVGG: conv4_3 has ", x.size(1), " channels, not 512");
  OrderedDict<std::string, Tensor> out;
  out.insert("0", scale_weight.view({1, -1, 1, 1}) * nn::functional::normalize(x));
  int i = 1;
  for (nn::Sequential& b : blocks_) {
    x = b->forward(x);
    out.insert(std::to_string(i++), x);
  }
  return out;
}

SSDFeatureExtractorVGG _vgg_extractor(const nn::Sequential& backbone, bool highres, int64_t trainable_layers) {
  EMBER_CHECK(!backbone.is_empty(), "_vgg_extractor: the backbone is null");
  std::vector<size_t> stage_indices{0};
  const std::vector<size_t> pools = maxpool_positions(backbone);
  for (size_t i = 0; i + 1 < pools.size(); ++i) stage_indices.push_back(pools[i]);
  const auto num_stages = static_cast<int64_t>(stage_indices.size());
  EMBER_CHECK(trainable_layers >= 0 && trainable_layers <= num_stages,
              "_vgg_extractor: trainable_layers should be in "
              "the range [0, ",
              num_stages, "]. Instead got ", trainable_layers);
  const size_t freeze_before =
      trainable_layers == 0 ? backbone->size() : stage_indices[static_cast<size_t>(num_stages - trainable_layers)];
  for (size_t i = 0; i < freeze_before; ++i)
    for (const Tensor& p : backbone->ptr(i)->parameters()) p.set_requires_grad(false);
  return SSDFeatureExtractorVGG(backbone, highres);
}

}  // namespace torch::vision::models::detection::ssd
