// RAFT's feature and context encoders: ResidualBlock, BottleneckBlock and
// FeatureEncoder (torchvision.models.optical_flow.raft).
#include "ember/autograd/grad_mode.h"
#include "ember/core/error.h"
#include "ember/nn/init.h"
#include "ember/nn/modules/activation.h"
#include "ember/nn/modules/batchnorm.h"
#include "ember/nn/modules/instancenorm.h"
#include "ember/nn/modules/linear.h"
#include "ember/ops/all_ops.h"
#include "ember/vision/models/optical_flow/raft.h"

namespace torch::vision::models::optical_flow {

namespace {

ops::Conv2dNormActivation conv_norm(int64_t in, int64_t out, const OptionalNormLayer& norm, int64_t kernel,
                                    int64_t stride, bool relu) {
  auto o = ops::Conv2dNormActivationOptions(in, out).kernel_size(kernel).stride(stride).norm_layer(norm).bias(true);
  if (!relu) o.activation_layer(std::nullopt);
  return ops::Conv2dNormActivation(o);
}

void check_channels(const Tensor& x, int64_t c, const char* op) {
  EMBER_CHECK(x.defined() && x.dim() == 4 && x.size(1) == c, op, ": expected an (N, ", c, ", H, W) input, got shape ",
              x.defined() ? x.sizes() : IntArrayRef{});
}

}  // namespace

ops::NormLayer instance_norm2d_layer() {
  return [](int64_t n) { return nn::AnyModule(nn::InstanceNorm2d(nn::InstanceNormOptions(n))); };
}

ops::NormLayer batch_norm2d_layer() {
  return [](int64_t n) { return nn::AnyModule(nn::BatchNorm2d(n)); };
}

ResidualBlockImpl::ResidualBlockImpl(const ResidualBlockOptions& options_) : options(options_) { reset(); }

void ResidualBlockImpl::reset() {
  const auto& o = options;
  EMBER_CHECK(o.in_channels() > 0 && o.out_channels() > 0 && o.stride() > 0,
              "ResidualBlock: channels and stride must be positive, got ", o.in_channels(), ", ", o.out_channels(),
              ", ", o.stride());
  convnormrelu1 = register_module("convnormrelu1",
                                  conv_norm(o.in_channels(), o.out_channels(), o.norm_layer(), 3, o.stride(), true));
  convnormrelu2 =
      register_module("convnormrelu2", conv_norm(o.out_channels(), o.out_channels(), o.norm_layer(), 3, 1, true));
  if (o.stride() == 1 && !o.always_project()) {
    downsample = nn::AnyModule(nn::Identity());
  } else {
    downsample = nn::AnyModule(conv_norm(o.in_channels(), o.out_channels(), o.norm_layer(), 1, o.stride(), false));
  }
  register_module("downsample", downsample.ptr());
}

Tensor ResidualBlockImpl::forward(const Tensor& x) {
  check_channels(x, options.in_channels(), "ResidualBlock");
  const Tensor y = convnormrelu2->forward(convnormrelu1->forward(x));
  return relu(downsample.forward(x) + y);
}

BottleneckBlockImpl::BottleneckBlockImpl(const ResidualBlockOptions& options_) : options(options_) { reset(); }

void BottleneckBlockImpl::reset() {
  const auto& o = options;
  EMBER_CHECK(o.in_channels() > 0 && o.out_channels() >= 4 && o.stride() > 0,
              "BottleneckBlock: expected positive in_channels and stride and out_channels >= 4, got ", o.in_channels(),
              ", ", o.out_channels(), ", ", o.stride());
  const int64_t mid = o.out_channels() / 4;
  convnormrelu1 = register_module("convnormrelu1", conv_norm(o.in_channels(), mid, o.norm_layer(), 1, 1, true));
  convnormrelu2 = register_module("convnormrelu2", conv_norm(mid, mid, o.norm_layer(), 3, o.stride(), true));
  convnormrelu3 = register_module("convnormrelu3", conv_norm(mid, o.out_channels(), o.norm_layer(), 1, 1, true));
  if (o.stride() == 1) {
    downsample = nn::AnyModule(nn::Identity());
  } else {
    downsample = nn::AnyModule(conv_norm(o.in_channels(), o.out_channels(), o.norm_layer(), 1, o.stride(), false));
  }
  register_module("downsample", downsample.ptr());
}

Tensor BottleneckBlockImpl::forward(const Tensor& x) {
  check_channels(x, options.in_channels(), "BottleneckBlock");
  const Tensor y = convnormrelu3->forward(convnormrelu2->forward(convnormrelu1->forward(x)));
  return relu(downsample.forward(x) + y);
}

BlockFactory residual_block() {
  return [](int64_t in, int64_t out, const OptionalNormLayer& norm, int64_t stride) {
    return nn::AnyModule(ResidualBlock(ResidualBlockOptions(in, out).norm_layer(norm).stride(stride)));
  };
}

BlockFactory bottleneck_block() {
  return [](int64_t in, int64_t out, const OptionalNormLayer& norm, int64_t stride) {
    return nn::AnyModule(BottleneckBlock(ResidualBlockOptions(in, out).norm_layer(norm).stride(stride)));
  };
}

FeatureEncoderImpl::FeatureEncoderImpl(const FeatureEncoderOptions& options_) : options(options_) { reset(); }

void FeatureEncoderImpl::reset() {
  const auto& layers = options.layers();
  const auto& strides = options.strides();
  EMBER_CHECK(layers.size() == 5, "FeatureEncoder: The expected number of layers is 5, instead got ", layers.size());
  EMBER_CHECK(strides.size() == 4, "FeatureEncoder: The expected number of strides is 4, instead got ", strides.size());
  const auto& norm = options.norm_layer();
  convnormrelu = register_module("convnormrelu", conv_norm(3, layers[0], norm, 7, strides[0], true));
  auto make_2_blocks = [&](int64_t in, int64_t out, int64_t first_stride) {
    nn::Sequential seq;
    seq->push_back(options.block()(in, out, norm, first_stride));
    seq->push_back(options.block()(out, out, norm, 1));
    return seq;
  };
  layer1 = register_module("layer1", make_2_blocks(layers[0], layers[1], strides[1]));
  layer2 = register_module("layer2", make_2_blocks(layers[1], layers[2], strides[2]));
  layer3 = register_module("layer3", make_2_blocks(layers[2], layers[3], strides[3]));
  conv = register_module("conv", nn::Conv2d(nn::Conv2dOptions(layers[3], layers[4], 1)));
  NoGradGuard no_grad;
  for (const auto& m : modules(/*include_self=*/false)) {
    if (auto* c = m->as<nn::Conv2dImpl>()) nn::init::kaiming_normal_(c->weight, 0, kFanOut, kReLU);
  }
  output_dim = layers[4];
  downsample_factor = 1;
  for (int64_t s : strides) downsample_factor *= s == 2 ? 2 : 1;
}

Tensor FeatureEncoderImpl::forward(const Tensor& x) {
  check_channels(x, 3, "FeatureEncoder");
  Tensor y = convnormrelu->forward(x);
  y = layer3->forward(layer2->forward(layer1->forward(y)));
  return conv->forward(y);
}

}  // namespace torch::vision::models::optical_flow
