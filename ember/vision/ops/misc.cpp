#include "ember/vision/ops/misc.h"

#include "ember/core/error.h"
#include "ember/nn/modules/activation.h"
#include "ember/nn/modules/batchnorm.h"
#include "ember/nn/modules/conv.h"
#include "ember/nn/modules/dropout.h"
#include "ember/nn/modules/linear.h"
#include "ember/nn/modules/pooling.h"
#include "ember/ops/all_ops.h"

namespace torch::vision::ops {

NormLayer batch_norm2d_layer() {
  return [](int64_t n) { return nn::AnyModule(nn::BatchNorm2d(n)); };
}

NormLayer batch_norm3d_layer() {
  return [](int64_t n) { return nn::AnyModule(nn::BatchNorm3d(n)); };
}

ActivationLayer relu_layer() {
  return [](std::optional<bool> inplace) { return nn::AnyModule(nn::ReLU(nn::ReLUOptions(inplace.value_or(false)))); };
}

ActivationLayer sigmoid_layer() {
  return [](std::optional<bool>) { return nn::AnyModule(nn::Sigmoid()); };
}

FrozenBatchNorm2dImpl::FrozenBatchNorm2dImpl(const FrozenBatchNorm2dOptions& options_) : options(options_) { reset(); }

void FrozenBatchNorm2dImpl::reset() {
  const int64_t n = options.num_features();
  EMBER_CHECK(n >= 0, "FrozenBatchNorm2d: num_features must not be negative, got ", n);
  weight = register_buffer("weight", ones({n}));
  bias = register_buffer("bias", zeros({n}));
  running_mean = register_buffer("running_mean", zeros({n}));
  running_var = register_buffer("running_var", ones({n}));
}

void FrozenBatchNorm2dImpl::pretty_print(std::ostream& stream) const {
  stream << "FrozenBatchNorm2d(" << options.num_features() << ", eps=" << options.eps() << ")";
}

Tensor FrozenBatchNorm2dImpl::forward(const Tensor& x) {
  EMBER_CHECK(x.defined() && x.dim() >= 2 && x.size(1) == options.num_features(),
              "FrozenBatchNorm2d: expected an input with ", options.num_features(), " channels, got shape ",
              x.defined() ? x.sizes() : IntArrayRef{});
  const Tensor scale = weight.reshape({1, -1, 1, 1}) * (running_var.reshape({1, -1, 1, 1}) + options.eps()).rsqrt();
  const Tensor shift = bias.reshape({1, -1, 1, 1}) - running_mean.reshape({1, -1, 1, 1}) * scale;
  return x * scale + shift;
}

namespace {

template <size_t D, typename Conv, typename ConvOptions>
void build_conv_norm_activation(nn::SequentialImpl& seq, const ConvNormActivationOptions<D>& o) {
  ExpandingArray<D> padding(0);
  if (o.padding()) {
    padding = *o.padding();
  } else {
    for (size_t i = 0; i < D; ++i) (*padding)[i] = ((*o.kernel_size())[i] - 1) / 2 * (*o.dilation())[i];
  }
  const bool bias = o.bias().value_or(!o.norm_layer().has_value());
  seq.push_back(Conv(ConvOptions(o.in_channels(), o.out_channels(), o.kernel_size())
                         .stride(o.stride())
                         .padding(padding)
                         .dilation(o.dilation())
                         .groups(o.groups())
                         .bias(bias)));
  if (o.norm_layer()) seq.push_back((*o.norm_layer())(o.out_channels()));
  if (o.activation_layer()) seq.push_back((*o.activation_layer())(o.inplace()));
}

}  // namespace

Conv2dNormActivationImpl::Conv2dNormActivationImpl(const Conv2dNormActivationOptions& options_)
    : options(options_), out_channels(options_.out_channels()) {
  build_conv_norm_activation<2, nn::Conv2d, nn::Conv2dOptions>(*this, options);
}

Conv3dNormActivationImpl::Conv3dNormActivationImpl(const Conv3dNormActivationOptions& options_)
    : options(options_), out_channels(options_.out_channels()) {
  build_conv_norm_activation<3, nn::Conv3d, nn::Conv3dOptions>(*this, options);
}

SqueezeExcitationImpl::SqueezeExcitationImpl(const SqueezeExcitationOptions& options_) : options(options_) { reset(); }

void SqueezeExcitationImpl::reset() {
  avgpool = nn::AnyModule(register_module("avgpool", nn::AdaptiveAvgPool2d(1)));
  fc1 = nn::AnyModule(
      register_module("fc1", nn::Conv2d(nn::Conv2dOptions(options.input_channels(), options.squeeze_channels(), 1))));
  fc2 = nn::AnyModule(
      register_module("fc2", nn::Conv2d(nn::Conv2dOptions(options.squeeze_channels(), options.input_channels(), 1))));
  activation = options.activation()(std::nullopt);
  register_module("activation", activation.ptr());
  scale_activation = options.scale_activation()(std::nullopt);
  register_module("scale_activation", scale_activation.ptr());
}

Tensor SqueezeExcitationImpl::forward(const Tensor& input) {
  Tensor scale = avgpool.forward(input);
  scale = activation.forward(fc1.forward(scale));
  scale = scale_activation.forward(fc2.forward(scale));
  return scale * input;
}

MLPImpl::MLPImpl(const MLPOptions& options_) : options(options_) {
  const auto& hidden = options.hidden_channels();
  EMBER_CHECK(!hidden.empty(), "MLP: hidden_channels must not be empty");
  const bool inplace = options.inplace().value_or(false);
  int64_t in_dim = options.in_channels();
  for (size_t i = 0; i + 1 < hidden.size(); ++i) {
    push_back(nn::Linear(nn::LinearOptions(in_dim, hidden[i]).bias(options.bias())));
    if (options.norm_layer()) push_back((*options.norm_layer())(hidden[i]));
    EMBER_CHECK(options.activation_layer().has_value(), "MLP: activation_layer must be set for hidden layers");
    push_back((*options.activation_layer())(options.inplace()));
    push_back(nn::Dropout(nn::DropoutOptions(options.dropout()).inplace(inplace)));
    in_dim = hidden[i];
  }
  push_back(nn::Linear(nn::LinearOptions(in_dim, hidden.back()).bias(options.bias())));
  push_back(nn::Dropout(nn::DropoutOptions(options.dropout()).inplace(inplace)));
}

void PermuteImpl::pretty_print(std::ostream& stream) const { stream << "Permute(dims=" << IntArrayRef(dims) << ")"; }

Tensor PermuteImpl::forward(const Tensor& x) { return x.permute(dims); }

}  // namespace torch::vision::ops
