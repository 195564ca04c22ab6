#include "ember/vision/models/mobilenetv3.h"

#include "ember/core/error.h"
#include "ember/nn/modules/activation.h"
#include "ember/nn/modules/batchnorm.h"
#include "ember/nn/modules/dropout.h"
#include "ember/nn/modules/linear.h"
#include "ember/ops/all_ops.h"
#include "ember/vision/models/_utils.h"
#include "ember/vision/models/weights.h"

namespace torch::vision::models {

namespace {

ops::ActivationLayer hardswish_layer() {
  return [](std::optional<bool> inplace) {
    return nn::AnyModule(nn::Hardswish(nn::HardswishOptions(inplace.value_or(false))));
  };
}

ops::ActivationLayer hardsigmoid_layer() {
  return [](std::optional<bool>) { return nn::AnyModule(nn::Hardsigmoid()); };
}

ops::NormLayer default_norm() {
  return [](int64_t n) { return nn::AnyModule(nn::BatchNorm2d(nn::BatchNorm2dOptions(n).eps(0.001).momentum(0.01))); };
}

}  // namespace

namespace mobilenetv3 {

InvertedResidualConfig::InvertedResidualConfig(int64_t input_channels_, int64_t kernel_, int64_t expanded_channels_,
                                               int64_t out_channels_, bool use_se_, const std::string& activation,
                                               int64_t stride_, int64_t dilation_, double width_mult)
    : input_channels(adjust_channels(static_cast<double>(input_channels_), width_mult)),
      kernel(kernel_),
      expanded_channels(adjust_channels(static_cast<double>(expanded_channels_), width_mult)),
      out_channels(adjust_channels(static_cast<double>(out_channels_), width_mult)),
      use_se(use_se_),
      use_hs(activation == "HS"),
      stride(stride_),
      dilation(dilation_) {}

int64_t InvertedResidualConfig::adjust_channels(double channels, double width_mult) {
  return _make_divisible(channels * width_mult, 8);
}

InvertedResidualImpl::InvertedResidualImpl(const InvertedResidualConfig& cnf_, ops::NormLayer norm_layer_)
    : cnf(cnf_), norm_layer(std::move(norm_layer_)) {
  reset();
}

void InvertedResidualImpl::reset() {
  EMBER_CHECK(cnf.stride == 1 || cnf.stride == 2, "InvertedResidual: illegal stride value ", cnf.stride);
  use_res_connect = cnf.stride == 1 && cnf.input_channels == cnf.out_channels;
  const ops::ActivationLayer act = cnf.use_hs ? hardswish_layer() : ops::relu_layer();
  nn::Sequential layers;
  if (cnf.expanded_channels != cnf.input_channels) {
    layers->push_back(
        ops::Conv2dNormActivation(ops::Conv2dNormActivationOptions(cnf.input_channels, cnf.expanded_channels)
                                      .kernel_size(1)
                                      .norm_layer(norm_layer)
                                      .activation_layer(act)));
  }
  layers->push_back(
      ops::Conv2dNormActivation(ops::Conv2dNormActivationOptions(cnf.expanded_channels, cnf.expanded_channels)
                                    .kernel_size(cnf.kernel)
                                    .stride(cnf.dilation > 1 ? 1 : cnf.stride)
                                    .dilation(cnf.dilation)
                                    .groups(cnf.expanded_channels)
                                    .norm_layer(norm_layer)
                                    .activation_layer(act)));
  if (cnf.use_se) {
    const int64_t squeeze = _make_divisible(static_cast<double>(cnf.expanded_channels / 4), 8);
    layers->push_back(ops::SqueezeExcitation(
        ops::SqueezeExcitationOptions(cnf.expanded_channels, squeeze).scale_activation(hardsigmoid_layer())));
  }
  layers->push_back(ops::Conv2dNormActivation(ops::Conv2dNormActivationOptions(cnf.expanded_channels, cnf.out_channels)
                                                  .kernel_size(1)
                                                  .norm_layer(norm_layer)
                                                  .activation_layer(std::nullopt)));
  block = register_module("block", layers);
  out_channels = cnf.out_channels;
}

Tensor InvertedResidualImpl::forward(const Tensor& x) {
  Tensor result = block->forward(x);
  return use_res_connect ? result + x : result;
}

}  // namespace mobilenetv3

MobileNetV3Impl::MobileNetV3Impl(const MobileNetV3Options& options_) : options(options_) { reset(); }

void MobileNetV3Impl::reset() {
  const auto& setting = options.inverted_residual_setting();
  EMBER_CHECK(!setting.empty(), "MobileNetV3: The inverted_residual_setting should not be empty");
  const ops::NormLayer norm = options.norm_layer() ? *options.norm_layer() : default_norm();
  nn::Sequential layers;
  layers->push_back(ops::Conv2dNormActivation(ops::Conv2dNormActivationOptions(3, setting.front().input_channels)
                                                  .kernel_size(3)
                                                  .stride(2)
                                                  .norm_layer(norm)
                                                  .activation_layer(hardswish_layer())));
  for (const auto& cnf : setting) layers->push_back(mobilenetv3::InvertedResidual(cnf, norm));
  const int64_t last_in = setting.back().out_channels;
  const int64_t last_out = 6 * last_in;
  layers->push_back(ops::Conv2dNormActivation(ops::Conv2dNormActivationOptions(last_in, last_out)
                                                  .kernel_size(1)
                                                  .norm_layer(norm)
                                                  .activation_layer(hardswish_layer())));
  features = register_module("features", layers);
  avgpool = register_module("avgpool", nn::AdaptiveAvgPool2d(nn::AdaptiveAvgPool2dOptions({1, 1})));
  classifier =
      register_module("classifier", nn::Sequential(nn::Linear(last_out, options.last_channel()),
                                                   nn::Hardswish(nn::HardswishOptions(true)),
                                                   nn::Dropout(nn::DropoutOptions(options.dropout()).inplace(true)),
                                                   nn::Linear(options.last_channel(), options.num_classes())));
  detail::init_cnn_weights(*this, detail::LinearInit::kNormal001);
}

Tensor MobileNetV3Impl::forward(const Tensor& x) {
  detail::check_image_batch(x, "MobileNetV3");
  Tensor y = avgpool(features->forward(x)).flatten(1);
  return classifier->forward(y);
}

std::pair<std::vector<mobilenetv3::InvertedResidualConfig>, int64_t> _mobilenet_v3_conf(const std::string& arch,
                                                                                        double width_mult,
                                                                                        bool reduced_tail,
                                                                                        bool dilated) {
  const int64_t rd = reduced_tail ? 2 : 1;
  const int64_t dil = dilated ? 2 : 1;
  auto c = [&](int64_t in, int64_t k, int64_t exp, int64_t out, bool se, const char* act, int64_t s, int64_t d) {
    return mobilenetv3::InvertedResidualConfig(in, k, exp, out, se, act, s, d, width_mult);
  };
  if (arch == "mobilenet_v3_large") {
    return {
        {c(16, 3, 16, 16, false, "RE", 1, 1), c(16, 3, 64, 24, false, "RE", 2, 1), c(24, 3, 72, 24, false, "RE", 1, 1),
         c(24, 5, 72, 40, true, "RE", 2, 1), c(40, 5, 120, 40, true, "RE", 1, 1), c(40, 5, 120, 40, true, "RE", 1, 1),
         c(40, 3, 240, 80, false, "HS", 2, 1), c(80, 3, 200, 80, false, "HS", 1, 1),
         c(80, 3, 184, 80, false, "HS", 1, 1), c(80, 3, 184, 80, false, "HS", 1, 1),
         c(80, 3, 480, 112, true, "HS", 1, 1), c(112, 3, 672, 112, true, "HS", 1, 1),
         c(112, 5, 672, 160 / rd, true, "HS", 2, dil), c(160 / rd, 5, 960 / rd, 160 / rd, true, "HS", 1, dil),
         c(160 / rd, 5, 960 / rd, 160 / rd, true, "HS", 1, dil)},
        mobilenetv3::InvertedResidualConfig::adjust_channels(static_cast<double>(1280 / rd), width_mult)};
  }
  EMBER_CHECK(arch == "mobilenet_v3_small", "_mobilenet_v3_conf: Unsupported model type ", arch);
  return {{c(16, 3, 16, 16, true, "RE", 2, 1), c(16, 3, 72, 24, false, "RE", 2, 1), c(24, 3, 88, 24, false, "RE", 1, 1),
           c(24, 5, 96, 40, true, "HS", 2, 1), c(40, 5, 240, 40, true, "HS", 1, 1), c(40, 5, 240, 40, true, "HS", 1, 1),
           c(40, 5, 120, 48, true, "HS", 1, 1), c(48, 5, 144, 48, true, "HS", 1, 1),
           c(48, 5, 288, 96 / rd, true, "HS", 2, dil), c(96 / rd, 5, 576 / rd, 96 / rd, true, "HS", 1, dil),
           c(96 / rd, 5, 576 / rd, 96 / rd, true, "HS", 1, dil)},
          mobilenetv3::InvertedResidualConfig::adjust_channels(static_cast<double>(1024 / rd), width_mult)};
}

namespace {

MobileNetV3 build_v3(const char* arch, const char* enum_name, const std::optional<Weights>& weights,
                     const MobileNetV3Kwargs& kwargs) {
  detail::verify_weights(weights, enum_name, arch);
  auto [setting, last_channel] = _mobilenet_v3_conf(arch, kwargs.width_mult(), kwargs.reduced_tail(), kwargs.dilated());
  MobileNetV3 model(MobileNetV3Options(std::move(setting), last_channel)
                        .num_classes(detail::num_classes_for(weights, kwargs.num_classes(), arch))
                        .norm_layer(kwargs.norm_layer())
                        .dropout(kwargs.dropout()));
  if (weights) detail::load_weights(*model, *weights, arch);
  return model;
}

}  // namespace

MobileNetV3 mobilenet_v3_large(std::optional<Weights> weights, bool, const MobileNetV3Kwargs& kwargs) {
  return build_v3("mobilenet_v3_large", "MobileNet_V3_Large_Weights", weights, kwargs);
}

MobileNetV3 mobilenet_v3_small(std::optional<Weights> weights, bool, const MobileNetV3Kwargs& kwargs) {
  return build_v3("mobilenet_v3_small", "MobileNet_V3_Small_Weights", weights, kwargs);
}

}  // namespace torch::vision::models
