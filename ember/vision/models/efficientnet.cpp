#include "ember/vision/models/efficientnet.h"

#include <cmath>

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

ops::ActivationLayer silu_layer() {
  return [](std::optional<bool>) { return nn::AnyModule(nn::SiLU()); };
}

ops::NormLayer batch_norm(double eps, double momentum) {
  return
      [=](int64_t n) { return nn::AnyModule(nn::BatchNorm2d(nn::BatchNorm2dOptions(n).eps(eps).momentum(momentum))); };
}

}  // namespace

MBConvConfig::MBConvConfig(double expand_ratio_, int64_t kernel_, int64_t stride_, int64_t input_channels_,
                           int64_t out_channels_, int64_t num_layers_, double width_mult, double depth_mult)
    : expand_ratio(expand_ratio_),
      kernel(kernel_),
      stride(stride_),
      input_channels(adjust_channels(static_cast<double>(input_channels_), width_mult)),
      out_channels(adjust_channels(static_cast<double>(out_channels_), width_mult)),
      num_layers(adjust_depth(num_layers_, depth_mult)) {}

int64_t MBConvConfig::adjust_channels(double channels, double width_mult, std::optional<int64_t> min_value) {
  return _make_divisible(channels * width_mult, 8, min_value);
}

int64_t MBConvConfig::adjust_depth(int64_t num_layers, double depth_mult) {
  return static_cast<int64_t>(std::ceil(static_cast<double>(num_layers) * depth_mult));
}

MBConvConfig FusedMBConvConfig(double expand_ratio, int64_t kernel, int64_t stride, int64_t input_channels,
                               int64_t out_channels, int64_t num_layers) {
  MBConvConfig c(expand_ratio, kernel, stride, input_channels, out_channels, num_layers);
  c.fused = true;
  return c;
}

MBConvImpl::MBConvImpl(const MBConvConfig& cnf_, double stochastic_depth_prob_, ops::NormLayer norm_layer_)
    : cnf(cnf_), stochastic_depth_prob(stochastic_depth_prob_), norm_layer(std::move(norm_layer_)) {
  reset();
}

void MBConvImpl::reset() {
  const char* name = cnf.fused ? "FusedMBConv" : "MBConv";
  EMBER_CHECK(cnf.stride == 1 || cnf.stride == 2, name, ": illegal stride value ", cnf.stride);
  use_res_connect = cnf.stride == 1 && cnf.input_channels == cnf.out_channels;
  const int64_t expanded = MBConvConfig::adjust_channels(static_cast<double>(cnf.input_channels), cnf.expand_ratio);
  auto cna = [&](int64_t in, int64_t out) { return ops::Conv2dNormActivationOptions(in, out).norm_layer(norm_layer); };
  nn::Sequential layers;
  if (cnf.fused) {
    if (expanded != cnf.input_channels) {
      layers->push_back(ops::Conv2dNormActivation(
          cna(cnf.input_channels, expanded).kernel_size(cnf.kernel).stride(cnf.stride).activation_layer(silu_layer())));
      layers->push_back(
          ops::Conv2dNormActivation(cna(expanded, cnf.out_channels).kernel_size(1).activation_layer(std::nullopt)));
    } else {
      layers->push_back(ops::Conv2dNormActivation(cna(cnf.input_channels, cnf.out_channels)
                                                      .kernel_size(cnf.kernel)
                                                      .stride(cnf.stride)
                                                      .activation_layer(silu_layer())));
    }
  } else {
    if (expanded != cnf.input_channels) {
      layers->push_back(
          ops::Conv2dNormActivation(cna(cnf.input_channels, expanded).kernel_size(1).activation_layer(silu_layer())));
    }
    layers->push_back(ops::Conv2dNormActivation(cna(expanded, expanded)
                                                    .kernel_size(cnf.kernel)
                                                    .stride(cnf.stride)
                                                    .groups(expanded)
                                                    .activation_layer(silu_layer())));
    const int64_t squeeze = std::max<int64_t>(1, cnf.input_channels / 4);
    layers->push_back(
        ops::SqueezeExcitation(ops::SqueezeExcitationOptions(expanded, squeeze).activation(silu_layer())));
    layers->push_back(
        ops::Conv2dNormActivation(cna(expanded, cnf.out_channels).kernel_size(1).activation_layer(std::nullopt)));
  }
  block = register_module("block", layers);
  stochastic_depth = register_module("stochastic_depth", ops::StochasticDepth(stochastic_depth_prob, "row"));
  out_channels = cnf.out_channels;
}

Tensor MBConvImpl::forward(const Tensor& x) {
  Tensor result = block->forward(x);
  if (use_res_connect) result = stochastic_depth(result) + x;
  return result;
}

EfficientNetImpl::EfficientNetImpl(const EfficientNetOptions& options_) : options(options_) { reset(); }

void EfficientNetImpl::reset() {
  const auto& setting = options.inverted_residual_setting();
  EMBER_CHECK(!setting.empty(), "EfficientNet: The inverted_residual_setting should not be empty");
  const ops::NormLayer norm = options.norm_layer() ? *options.norm_layer() : ops::batch_norm2d_layer();
  nn::Sequential layers;
  layers->push_back(ops::Conv2dNormActivation(ops::Conv2dNormActivationOptions(3, setting.front().input_channels)
                                                  .kernel_size(3)
                                                  .stride(2)
                                                  .norm_layer(norm)
                                                  .activation_layer(silu_layer())));
  int64_t total_blocks = 0;
  for (const auto& cnf : setting) total_blocks += cnf.num_layers;
  int64_t block_id = 0;
  for (const auto& cnf : setting) {
    nn::Sequential stage;
    for (int64_t i = 0; i < cnf.num_layers; ++i) {
      MBConvConfig block_cnf = cnf;
      if (i > 0) {
        block_cnf.input_channels = block_cnf.out_channels;
        block_cnf.stride = 1;
      }
      // Stochastic depth grows linearly with the block's depth in the network.
      const double sd_prob =
          options.stochastic_depth_prob() * static_cast<double>(block_id) / static_cast<double>(total_blocks);
      stage->push_back(MBConv(block_cnf, sd_prob, norm));
      ++block_id;
    }
    layers->push_back(stage);
  }
  const int64_t last_in = setting.back().out_channels;
  const int64_t last_out = options.last_channel().value_or(4 * last_in);
  layers->push_back(ops::Conv2dNormActivation(ops::Conv2dNormActivationOptions(last_in, last_out)
                                                  .kernel_size(1)
                                                  .norm_layer(norm)
                                                  .activation_layer(silu_layer())));
  features = register_module("features", layers);
  avgpool = register_module("avgpool", nn::AdaptiveAvgPool2d(nn::AdaptiveAvgPool2dOptions({1, 1})));
  classifier =
      register_module("classifier", nn::Sequential(nn::Dropout(nn::DropoutOptions(options.dropout()).inplace(true)),
                                                   nn::Linear(last_out, options.num_classes())));
  detail::init_cnn_weights(*this, detail::LinearInit::kUniformFanOut);
}

Tensor EfficientNetImpl::forward(const Tensor& x) {
  detail::check_image_batch(x, "EfficientNet");
  Tensor y = avgpool(features->forward(x)).flatten(1);
  return classifier->forward(y);
}

std::pair<std::vector<MBConvConfig>, std::optional<int64_t>> _efficientnet_conf(const std::string& arch,
                                                                                double width_mult, double depth_mult) {
  using F = MBConvConfig;
  if (arch.rfind("efficientnet_b", 0) == 0) {
    auto b = [&](double e, int64_t k, int64_t s, int64_t in, int64_t out, int64_t n) {
      return MBConvConfig(e, k, s, in, out, n, width_mult, depth_mult);
    };
    return {{b(1, 3, 1, 32, 16, 1), b(6, 3, 2, 16, 24, 2), b(6, 5, 2, 24, 40, 2), b(6, 3, 2, 40, 80, 3),
             b(6, 5, 1, 80, 112, 3), b(6, 5, 2, 112, 192, 4), b(6, 3, 1, 192, 320, 1)},
            std::nullopt};
  }
  if (arch.rfind("efficientnet_v2_s", 0) == 0) {
    return {{FusedMBConvConfig(1, 3, 1, 24, 24, 2), FusedMBConvConfig(4, 3, 2, 24, 48, 4),
             FusedMBConvConfig(4, 3, 2, 48, 64, 4), F(4, 3, 2, 64, 128, 6), F(6, 3, 1, 128, 160, 9),
             F(6, 3, 2, 160, 256, 15)},
            1280};
  }
  if (arch.rfind("efficientnet_v2_m", 0) == 0) {
    return {{FusedMBConvConfig(1, 3, 1, 24, 24, 3), FusedMBConvConfig(4, 3, 2, 24, 48, 5),
             FusedMBConvConfig(4, 3, 2, 48, 80, 5), F(4, 3, 2, 80, 160, 7), F(6, 3, 1, 160, 176, 14),
             F(6, 3, 2, 176, 304, 18), F(6, 3, 1, 304, 512, 5)},
            1280};
  }
  EMBER_CHECK(arch.rfind("efficientnet_v2_l", 0) == 0, "_efficientnet_conf: Unsupported model type ", arch);
  return {{FusedMBConvConfig(1, 3, 1, 32, 32, 4), FusedMBConvConfig(4, 3, 2, 32, 64, 7),
           FusedMBConvConfig(4, 3, 2, 64, 96, 7), F(4, 3, 2, 96, 192, 10), F(6, 3, 1, 192, 224, 19),
           F(6, 3, 2, 224, 384, 25), F(6, 3, 1, 384, 640, 7)},
          1280};
}

namespace {

// norm_eps nullopt: plain BatchNorm2d; otherwise BatchNorm2d(eps, momentum).
EfficientNet build(const char* arch, const char* enum_name, double width_mult, double depth_mult, double dropout,
                   std::optional<std::pair<double, double>> norm, const std::optional<Weights>& weights,
                   const EfficientNetKwargs& kwargs) {
  detail::verify_weights(weights, enum_name, arch);
  auto [setting, last_channel] = _efficientnet_conf(arch, width_mult, depth_mult);
  std::optional<ops::NormLayer> norm_layer = kwargs.norm_layer();
  if (!norm_layer && norm) norm_layer = batch_norm(norm->first, norm->second);
  EfficientNet model(EfficientNetOptions(std::move(setting), dropout)
                         .stochastic_depth_prob(kwargs.stochastic_depth_prob())
                         .num_classes(detail::num_classes_for(weights, kwargs.num_classes(), arch))
                         .norm_layer(norm_layer)
                         .last_channel(last_channel));
  if (weights) detail::load_weights(*model, *weights, arch);
  return model;
}

constexpr std::pair<double, double> kNormB5{0.001, 0.01};
constexpr std::pair<double, double> kNormV2{1e-3, 0.1};

}  // namespace

#define EMBER_EFFICIENTNET_DEFINE(name, Enum, w, d, p, norm)                                  \
  EfficientNet name(std::optional<Weights> weights, bool, const EfficientNetKwargs& kwargs) { \
    return build(#name, #Enum, w, d, p, norm, weights, kwargs);                               \
  }
EMBER_EFFICIENTNET_DEFINE(efficientnet_b0, EfficientNet_B0_Weights, 1.0, 1.0, 0.2, std::nullopt)
EMBER_EFFICIENTNET_DEFINE(efficientnet_b1, EfficientNet_B1_Weights, 1.0, 1.1, 0.2, std::nullopt)
EMBER_EFFICIENTNET_DEFINE(efficientnet_b2, EfficientNet_B2_Weights, 1.1, 1.2, 0.3, std::nullopt)
EMBER_EFFICIENTNET_DEFINE(efficientnet_b3, EfficientNet_B3_Weights, 1.2, 1.4, 0.3, std::nullopt)
EMBER_EFFICIENTNET_DEFINE(efficientnet_b4, EfficientNet_B4_Weights, 1.4, 1.8, 0.4, std::nullopt)
EMBER_EFFICIENTNET_DEFINE(efficientnet_b5, EfficientNet_B5_Weights, 1.6, 2.2, 0.4, kNormB5)
EMBER_EFFICIENTNET_DEFINE(efficientnet_b6, EfficientNet_B6_Weights, 1.8, 2.6, 0.5, kNormB5)
EMBER_EFFICIENTNET_DEFINE(efficientnet_b7, EfficientNet_B7_Weights, 2.0, 3.1, 0.5, kNormB5)
EMBER_EFFICIENTNET_DEFINE(efficientnet_v2_s, EfficientNet_V2_S_Weights, 1.0, 1.0, 0.2, kNormV2)
EMBER_EFFICIENTNET_DEFINE(efficientnet_v2_m, EfficientNet_V2_M_Weights, 1.0, 1.0, 0.3, kNormV2)
EMBER_EFFICIENTNET_DEFINE(efficientnet_v2_l, EfficientNet_V2_L_Weights, 1.0, 1.0, 0.4, kNormV2)
#undef EMBER_EFFICIENTNET_DEFINE

}  // namespace torch::vision::models
