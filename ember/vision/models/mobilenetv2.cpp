#include "ember/vision/models/mobilenetv2.h"

#include <algorithm>
#include <cmath>

#include "ember/core/error.h"
#include "ember/nn/modules/activation_extra.h"
#include "ember/nn/modules/batchnorm.h"
#include "ember/nn/modules/conv.h"
#include "ember/nn/modules/dropout.h"
#include "ember/nn/modules/linear.h"
#include "ember/ops/all_ops.h"
#include "ember/vision/models/_utils.h"
#include "ember/vision/models/weights.h"

namespace torch::vision::models {

namespace {

ops::ActivationLayer relu6_layer() {
  return
      [](std::optional<bool> inplace) { return nn::AnyModule(nn::ReLU6(nn::ReLU6Options(inplace.value_or(false)))); };
}

}  // namespace

namespace mobilenetv2 {

InvertedResidualImpl::InvertedResidualImpl(int64_t inp_, int64_t oup_, int64_t stride_, int64_t expand_ratio_,
                                           std::optional<ops::NormLayer> norm_layer_)
    : inp(inp_), oup(oup_), stride(stride_), expand_ratio(expand_ratio_), norm_layer(std::move(norm_layer_)) {
  reset();
}

void InvertedResidualImpl::reset() {
  EMBER_CHECK(stride == 1 || stride == 2, "InvertedResidual: stride should be 1 or 2 instead of ", stride);
  const ops::NormLayer norm = norm_layer ? *norm_layer : ops::batch_norm2d_layer();
  const auto hidden_dim = static_cast<int64_t>(std::nearbyint(static_cast<double>(inp * expand_ratio)));
  use_res_connect = stride == 1 && inp == oup;
  out_channels = oup;
  nn::Sequential layers;
  if (expand_ratio != 1) {
    layers->push_back(ops::Conv2dNormActivation(ops::Conv2dNormActivationOptions(inp, hidden_dim)
                                                    .kernel_size(1)
                                                    .norm_layer(norm)
                                                    .activation_layer(relu6_layer())));
  }
  layers->push_back(ops::Conv2dNormActivation(ops::Conv2dNormActivationOptions(hidden_dim, hidden_dim)
                                                  .stride(stride)
                                                  .groups(hidden_dim)
                                                  .norm_layer(norm)
                                                  .activation_layer(relu6_layer())));
  layers->push_back(nn::Conv2d(nn::Conv2dOptions(hidden_dim, oup, 1).stride(1).padding(0).bias(false)));
  layers->push_back(norm(oup));
  conv = register_module("conv", layers);
}

Tensor InvertedResidualImpl::forward(const Tensor& x) {
  return use_res_connect ? x + conv->forward(x) : conv->forward(x);
}

}  // namespace mobilenetv2

MobileNetV2Impl::MobileNetV2Impl(const MobileNetV2Options& options_) : options(options_) { reset(); }

void MobileNetV2Impl::reset() {
  const ops::NormLayer norm = options.norm_layer() ? *options.norm_layer() : ops::batch_norm2d_layer();
  const std::vector<std::vector<int64_t>> setting =
      options.inverted_residual_setting().value_or(std::vector<std::vector<int64_t>>{
          {1, 16, 1, 1}, {6, 24, 2, 2}, {6, 32, 3, 2}, {6, 64, 4, 2}, {6, 96, 3, 1}, {6, 160, 3, 2}, {6, 320, 1, 1}});
  EMBER_CHECK(
      !setting.empty() && std::all_of(setting.begin(), setting.end(), [](const auto& r) { return r.size() == 4; }),
      "MobileNetV2: inverted_residual_setting should be non-empty or a 4-element list");
  const double w = options.width_mult();
  const int64_t round = options.round_nearest();
  int64_t input_channel = _make_divisible(32 * w, round);
  last_channel = _make_divisible(1280 * std::max(1.0, w), round);
  nn::Sequential f;
  f->push_back(ops::Conv2dNormActivation(
      ops::Conv2dNormActivationOptions(3, input_channel).stride(2).norm_layer(norm).activation_layer(relu6_layer())));
  for (const auto& row : setting) {
    const int64_t t = row[0], c = row[1], n = row[2], s = row[3];
    const int64_t output_channel = _make_divisible(static_cast<double>(c) * w, round);
    for (int64_t i = 0; i < n; ++i) {
      f->push_back(mobilenetv2::InvertedResidual(input_channel, output_channel, i == 0 ? s : 1, t, norm));
      input_channel = output_channel;
    }
  }
  f->push_back(ops::Conv2dNormActivation(ops::Conv2dNormActivationOptions(input_channel, last_channel)
                                             .kernel_size(1)
                                             .norm_layer(norm)
                                             .activation_layer(relu6_layer())));
  features = register_module("features", f);
  classifier = register_module(
      "classifier", nn::Sequential(nn::Dropout(options.dropout()), nn::Linear(last_channel, options.num_classes())));
  detail::init_cnn_weights(*this, detail::LinearInit::kNormal001);
}

Tensor MobileNetV2Impl::forward(const Tensor& x) {
  detail::check_image_batch(x, "MobileNetV2");
  Tensor y = features->forward(x);
  y = adaptive_avg_pool2d(y, {1, 1}).flatten(1);
  return classifier->forward(y);
}

MobileNetV2 mobilenet_v2(std::optional<Weights> weights, bool, const MobileNetV2Kwargs& kwargs) {
  detail::verify_weights(weights, "MobileNet_V2_Weights", "mobilenet_v2");
  MobileNetV2 model(MobileNetV2Options()
                        .num_classes(detail::num_classes_for(weights, kwargs.num_classes(), "mobilenet_v2"))
                        .width_mult(kwargs.width_mult())
                        .inverted_residual_setting(kwargs.inverted_residual_setting())
                        .round_nearest(kwargs.round_nearest())
                        .norm_layer(kwargs.norm_layer())
                        .dropout(kwargs.dropout()));
  if (weights) detail::load_weights(*model, *weights, "mobilenet_v2");
  return model;
}

}  // namespace torch::vision::models
