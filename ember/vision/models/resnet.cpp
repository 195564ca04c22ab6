#include "ember/vision/models/resnet.h"

#include "ember/core/error.h"
#include "ember/nn/modules/activation.h"
#include "ember/nn/modules/batchnorm.h"
#include "ember/nn/modules/pooling.h"
#include "ember/ops/all_ops.h"
#include "ember/vision/models/_utils.h"
#include "ember/vision/models/weights.h"

namespace torch::vision::models {

namespace {

nn::Conv2d conv3x3(int64_t in, int64_t out, int64_t stride = 1, int64_t groups = 1, int64_t dilation = 1) {
  return nn::Conv2d(
      nn::Conv2dOptions(in, out, 3).stride(stride).padding(dilation).groups(groups).bias(false).dilation(dilation));
}

nn::Conv2d conv1x1(int64_t in, int64_t out, int64_t stride = 1) {
  return nn::Conv2d(nn::Conv2dOptions(in, out, 1).stride(stride).bias(false));
}

ops::NormLayer norm_or_batch_norm(const std::optional<ops::NormLayer>& norm_layer) {
  return norm_layer ? *norm_layer : ops::batch_norm2d_layer();
}

nn::AnyModule relu() { return nn::AnyModule(nn::ReLU(nn::ReLUOptions(true))); }

// The weight of a norm layer (to zero it for zero_init_residual), if it has one.
void zero_norm_weight(const nn::AnyModule& norm) {
  auto params = norm.ptr()->named_parameters(false);
  if (const Tensor* w = params.find("weight")) {
    NoGradGuard no_grad;
    w->zero_();
  }
}

}  // namespace

BasicBlockImpl::BasicBlockImpl(const BlockOptions& options_) : options(options_) { reset(); }

void BasicBlockImpl::reset() {
  EMBER_CHECK(options.groups() == 1 && options.base_width() == 64,
              "BasicBlock only supports groups=1 and base_width=64, got groups=", options.groups(),
              " and base_width=", options.base_width());
  EMBER_CHECK(options.dilation() <= 1, "Dilation > 1 not supported in BasicBlock, got ", options.dilation());
  const ops::NormLayer norm = norm_or_batch_norm(options.norm_layer());
  conv1 = register_module("conv1", conv3x3(options.inplanes(), options.planes(), options.stride()));
  bn1 = norm(options.planes());
  register_module("bn1", bn1.ptr());
  relu = models::relu();
  register_module("relu", relu.ptr());
  conv2 = register_module("conv2", conv3x3(options.planes(), options.planes()));
  bn2 = norm(options.planes());
  register_module("bn2", bn2.ptr());
  downsample = options.downsample();
  if (downsample) register_module("downsample", *downsample);
}

Tensor BasicBlockImpl::forward(const Tensor& x) {
  Tensor out = relu.forward(bn1.forward(conv1(x)));
  out = bn2.forward(conv2(out));
  out = out + (downsample ? (*downsample)->forward(x) : x);
  return relu.forward(out);
}

BottleneckImpl::BottleneckImpl(const BlockOptions& options_) : options(options_) { reset(); }

void BottleneckImpl::reset() {
  const ops::NormLayer norm = norm_or_batch_norm(options.norm_layer());
  // Python: int(planes * (base_width / 64.0)) * groups.
  const int64_t width =
      static_cast<int64_t>(static_cast<double>(options.planes()) * (static_cast<double>(options.base_width()) / 64.0)) *
      options.groups();
  conv1 = register_module("conv1", conv1x1(options.inplanes(), width));
  bn1 = norm(width);
  register_module("bn1", bn1.ptr());
  conv2 = register_module("conv2", conv3x3(width, width, options.stride(), options.groups(), options.dilation()));
  bn2 = norm(width);
  register_module("bn2", bn2.ptr());
  conv3 = register_module("conv3", conv1x1(width, options.planes() * expansion));
  bn3 = norm(options.planes() * expansion);
  register_module("bn3", bn3.ptr());
  relu = models::relu();
  register_module("relu", relu.ptr());
  downsample = options.downsample();
  if (downsample) register_module("downsample", *downsample);
}

Tensor BottleneckImpl::forward(const Tensor& x) {
  Tensor out = relu.forward(bn1.forward(conv1(x)));
  out = relu.forward(bn2.forward(conv2(out)));
  out = bn3.forward(conv3(out));
  out = out + (downsample ? (*downsample)->forward(x) : x);
  return relu.forward(out);
}

ResNetImpl::ResNetImpl(const ResNetOptions& options_) : options(options_) { reset(); }

void ResNetImpl::reset() {
  EMBER_CHECK(options.layers().size() == 4, "ResNet: layers must have 4 entries, got ", options.layers().size());
  const std::vector<bool> dilate =
      options.replace_stride_with_dilation().value_or(std::vector<bool>{false, false, false});
  EMBER_CHECK(dilate.size() == 3, "ResNet: replace_stride_with_dilation should be None or a 3-element tuple, got ",
              dilate.size(), " elements");
  EMBER_CHECK(options.groups() > 0 && options.width_per_group() > 0,
              "ResNet: groups and width_per_group must be positive, got ", options.groups(), " and ",
              options.width_per_group());
  inplanes_ = 64;
  dilation_ = 1;
  const ops::NormLayer norm = norm_or_batch_norm(options.norm_layer());
  conv1 = register_module("conv1", nn::Conv2d(nn::Conv2dOptions(3, inplanes_, 7).stride(2).padding(3).bias(false)));
  bn1 = norm(inplanes_);
  register_module("bn1", bn1.ptr());
  relu = models::relu();
  register_module("relu", relu.ptr());
  maxpool = nn::AnyModule(nn::MaxPool2d(nn::MaxPool2dOptions(3).stride(2).padding(1)));
  register_module("maxpool", maxpool.ptr());
  layer1 = register_module("layer1", make_layer(64, options.layers()[0], 1, false));
  layer2 = register_module("layer2", make_layer(128, options.layers()[1], 2, dilate[0]));
  layer3 = register_module("layer3", make_layer(256, options.layers()[2], 2, dilate[1]));
  layer4 = register_module("layer4", make_layer(512, options.layers()[3], 2, dilate[2]));
  avgpool = nn::AnyModule(nn::AdaptiveAvgPool2d(nn::AdaptiveAvgPool2dOptions({1, 1})));
  register_module("avgpool", avgpool.ptr());
  const int64_t expansion = options.block() == ResNetBlock::BasicBlock ? 1 : 4;
  fc = register_module("fc", nn::Linear(512 * expansion, options.num_classes()));

  detail::init_cnn_weights(*this, detail::LinearInit::kDefault);
  // Zero the last norm of each residual branch, so each block starts as an
  // identity (https://arxiv.org/abs/1706.02677).
  if (options.zero_init_residual()) {
    for (const auto& m : modules(/*include_self=*/false)) {
      if (auto* b = m->as<BottleneckImpl>()) zero_norm_weight(b->bn3);
      if (auto* b = m->as<BasicBlockImpl>()) zero_norm_weight(b->bn2);
    }
  }
}

nn::Sequential ResNetImpl::make_layer(int64_t planes, int64_t blocks, int64_t stride, bool dilate) {
  EMBER_CHECK(blocks > 0, "ResNet: every layer needs at least one block, got ", blocks);
  const ops::NormLayer norm = norm_or_batch_norm(options.norm_layer());
  const bool basic = options.block() == ResNetBlock::BasicBlock;
  const int64_t expansion = basic ? 1 : 4;
  const int64_t previous_dilation = dilation_;
  if (dilate) {
    dilation_ *= stride;
    stride = 1;
  }
  std::optional<nn::Sequential> downsample;
  if (stride != 1 || inplanes_ != planes * expansion) {
    downsample = nn::Sequential(conv1x1(inplanes_, planes * expansion, stride));
    (*downsample)->push_back(norm(planes * expansion));
  }
  nn::Sequential layer;
  auto block = [&](BlockOptions o) {
    o.groups(options.groups()).base_width(options.width_per_group()).norm_layer(norm);
    if (basic) {
      layer->push_back(BasicBlock(o));
    } else {
      layer->push_back(Bottleneck(o));
    }
  };
  block(BlockOptions(inplanes_, planes).stride(stride).downsample(downsample).dilation(previous_dilation));
  inplanes_ = planes * expansion;
  for (int64_t i = 1; i < blocks; ++i) block(BlockOptions(inplanes_, planes).dilation(dilation_));
  return layer;
}

Tensor ResNetImpl::forward(const Tensor& x) {
  detail::check_image_batch(x, "ResNet");
  Tensor y = maxpool.forward(relu.forward(bn1.forward(conv1(x))));
  y = layer4->forward(layer3->forward(layer2->forward(layer1->forward(y))));
  y = avgpool.forward(y).flatten(1);
  return fc(y);
}

namespace {

// groups/width_per_group: the values ResNeXt and Wide ResNet fix (Python's
// _ovewrite_named_param: the user may repeat them, not change them); nullopt
// for the plain ResNets, which take the user's.
ResNet build(const char* builder, const char* enum_name, ResNetBlock block, std::vector<int64_t> layers,
             const std::optional<Weights>& weights, const ResNetKwargs& kwargs,
             std::optional<int64_t> groups = std::nullopt, std::optional<int64_t> width_per_group = std::nullopt) {
  detail::verify_weights(weights, enum_name, builder);
  if (groups) {
    EMBER_CHECK(!kwargs.groups() || *kwargs.groups() == *groups, builder, ": the parameter 'groups' expected value ",
                *groups, " but got ", kwargs.groups().value_or(0), " instead");
    EMBER_CHECK(!kwargs.width_per_group() || *kwargs.width_per_group() == *width_per_group, builder,
                ": the parameter 'width_per_group' expected value ", *width_per_group, " but got ",
                kwargs.width_per_group().value_or(0), " instead");
  }
  ResNetOptions o(block, std::move(layers));
  o.num_classes(detail::num_classes_for(weights, kwargs.num_classes(), builder))
      .zero_init_residual(kwargs.zero_init_residual())
      .groups(groups.value_or(kwargs.groups().value_or(1)))
      .width_per_group(width_per_group.value_or(kwargs.width_per_group().value_or(64)))
      .replace_stride_with_dilation(kwargs.replace_stride_with_dilation())
      .norm_layer(kwargs.norm_layer());
  ResNet model(o);
  if (weights) detail::load_weights(*model, *weights, builder);
  return model;
}

}  // namespace

ResNet resnet18(std::optional<Weights> weights, bool, const ResNetKwargs& kwargs) {
  return build("resnet18", "ResNet18_Weights", ResNetBlock::BasicBlock, {2, 2, 2, 2}, weights, kwargs);
}
ResNet resnet34(std::optional<Weights> weights, bool, const ResNetKwargs& kwargs) {
  return build("resnet34", "ResNet34_Weights", ResNetBlock::BasicBlock, {3, 4, 6, 3}, weights, kwargs);
}
ResNet resnet50(std::optional<Weights> weights, bool, const ResNetKwargs& kwargs) {
  return build("resnet50", "ResNet50_Weights", ResNetBlock::Bottleneck, {3, 4, 6, 3}, weights, kwargs);
}
ResNet resnet101(std::optional<Weights> weights, bool, const ResNetKwargs& kwargs) {
  return build("resnet101", "ResNet101_Weights", ResNetBlock::Bottleneck, {3, 4, 23, 3}, weights, kwargs);
}
ResNet resnet152(std::optional<Weights> weights, bool, const ResNetKwargs& kwargs) {
  return build("resnet152", "ResNet152_Weights", ResNetBlock::Bottleneck, {3, 8, 36, 3}, weights, kwargs);
}
ResNet resnext50_32x4d(std::optional<Weights> weights, bool, const ResNetKwargs& kwargs) {
  return build("resnext50_32x4d", "ResNeXt50_32X4D_Weights", ResNetBlock::Bottleneck, {3, 4, 6, 3}, weights, kwargs, 32,
               4);
}
ResNet resnext101_32x8d(std::optional<Weights> weights, bool, const ResNetKwargs& kwargs) {
  return build("resnext101_32x8d", "ResNeXt101_32X8D_Weights", ResNetBlock::Bottleneck, {3, 4, 23, 3}, weights, kwargs,
               32, 8);
}
ResNet resnext101_64x4d(std::optional<Weights> weights, bool, const ResNetKwargs& kwargs) {
  return build("resnext101_64x4d", "ResNeXt101_64X4D_Weights", ResNetBlock::Bottleneck, {3, 4, 23, 3}, weights, kwargs,
               64, 4);
}
ResNet wide_resnet50_2(std::optional<Weights> weights, bool, const ResNetKwargs& kwargs) {
  return build("wide_resnet50_2", "Wide_ResNet50_2_Weights", ResNetBlock::Bottleneck, {3, 4, 6, 3}, weights, kwargs, 1,
               128);
}
ResNet wide_resnet101_2(std::optional<Weights> weights, bool, const ResNetKwargs& kwargs) {
  return build("wide_resnet101_2", "Wide_ResNet101_2_Weights", ResNetBlock::Bottleneck, {3, 4, 23, 3}, weights, kwargs,
               1, 128);
}

}  // namespace torch::vision::models
