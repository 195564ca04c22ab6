#include "ember/vision/models/segmentation/deeplabv3.h"

#include "ember/core/error.h"
#include "ember/nn/functional/upsampling.h"
#include "ember/nn/modules/activation.h"
#include "ember/nn/modules/batchnorm.h"
#include "ember/nn/modules/conv.h"
#include "ember/nn/modules/dropout.h"
#include "ember/nn/modules/pooling.h"
#include "ember/ops/all_ops.h"

namespace torch::vision::models::segmentation::deeplabv3 {

namespace {

nn::Conv2d conv(int64_t in, int64_t out, int64_t k, int64_t padding = 0, int64_t dilation = 1, bool bias = false) {
  EMBER_CHECK(in > 0 && out > 0, "DeepLabV3: bad channels ", in, " -> ", out);
  return nn::Conv2d(nn::Conv2dOptions(in, out, k).padding(padding).dilation(dilation).bias(bias));
}

}  // namespace

ASPPConvImpl::ASPPConvImpl(int64_t in_channels, int64_t out_channels, int64_t dilation) {
  EMBER_CHECK(dilation > 0, "ASPPConv: dilation=", dilation, " is not positive");
  push_back(conv(in_channels, out_channels, 3, dilation, dilation));
  push_back(nn::BatchNorm2d(out_channels));
  push_back(nn::ReLU());
}

ASPPPoolingImpl::ASPPPoolingImpl(int64_t in_channels, int64_t out_channels) {
  layers_ = nn::Sequential(nn::AdaptiveAvgPool2d(1), conv(in_channels, out_channels, 1), nn::BatchNorm2d(out_channels),
                           nn::ReLU());
  const auto children = layers_->named_children();
  for (const auto& item : children) register_module(item.key(), item.value());
}

Tensor ASPPPoolingImpl::forward(const Tensor& x) {
  namespace F = nn::functional;
  return F::interpolate(layers_->forward(x), F::InterpolateFuncOptions()
                                                 .size(std::vector<int64_t>{x.size(-2), x.size(-1)})
                                                 .mode(enumtype::kBilinear())
                                                 .align_corners(false));
}

ASPPImpl::ASPPImpl(int64_t in_channels, std::vector<int64_t> atrous_rates, int64_t out_channels) {
  convs = register_module("convs", nn::ModuleList());
  nn::Sequential first(conv(in_channels, out_channels, 1), nn::BatchNorm2d(out_channels), nn::ReLU());
  convs->push_back(first);
  branches_.emplace_back(first);
  for (const int64_t rate : atrous_rates) {
    ASPPConv c(in_channels, out_channels, rate);
    convs->push_back(c);
    branches_.emplace_back(c);
  }
  ASPPPooling pooling(in_channels, out_channels);
  convs->push_back(pooling);
  branches_.emplace_back(pooling);
  project = register_module("project",
                            nn::Sequential(conv(static_cast<int64_t>(branches_.size()) * out_channels, out_channels, 1),
                                           nn::BatchNorm2d(out_channels), nn::ReLU(), nn::Dropout(0.5)));
}

Tensor ASPPImpl::forward(const Tensor& x) {
  std::vector<Tensor> res;
  for (nn::AnyModule& b : branches_) res.push_back(b.forward<Tensor>(x));
  return project->forward(cat(res, 1));
}

DeepLabHeadImpl::DeepLabHeadImpl(int64_t in_channels, int64_t num_classes) {
  EMBER_CHECK(num_classes > 0, "DeepLabHead: num_classes=", num_classes, " is not positive");
  push_back(ASPP(in_channels, std::vector<int64_t>{12, 24, 36}));
  push_back(conv(256, 256, 3, 1));
  push_back(nn::BatchNorm2d(256));
  push_back(nn::ReLU());
  push_back(conv(256, num_classes, 1, 0, 1, true));
}

}  // namespace torch::vision::models::segmentation::deeplabv3
