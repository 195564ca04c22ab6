#include "ember/vision/models/regnet.h"

#include <cmath>
#include <set>
#include <string>

#include "ember/core/error.h"
#include "ember/nn/modules/batchnorm.h"
#include "ember/ops/all_ops.h"
#include "ember/vision/models/_utils.h"
#include "ember/vision/models/weights.h"

namespace torch::vision::models {

BlockParams::BlockParams(std::vector<int64_t> depths_, std::vector<int64_t> widths_, std::vector<int64_t> group_widths_,
                         std::vector<double> bottleneck_multipliers_, std::vector<int64_t> strides_,
                         std::optional<double> se_ratio_)
    : depths(std::move(depths_)),
      widths(std::move(widths_)),
      group_widths(std::move(group_widths_)),
      bottleneck_multipliers(std::move(bottleneck_multipliers_)),
      strides(std::move(strides_)),
      se_ratio(se_ratio_) {
  const size_t n = depths.size();
  EMBER_CHECK(
      widths.size() == n && group_widths.size() == n && bottleneck_multipliers.size() == n && strides.size() == n,
      "BlockParams: depths, widths, group_widths, bottleneck_multipliers and strides must have one entry "
      "per stage, got ",
      n, ", ", widths.size(), ", ", group_widths.size(), ", ", bottleneck_multipliers.size(), " and ", strides.size());
}

BlockParams BlockParams::from_init_params(int64_t depth, int64_t w_0, double w_a, double w_m, int64_t group_width,
                                          double bottleneck_multiplier, std::optional<double> se_ratio) {
  constexpr int64_t kQuant = 8;
  constexpr int64_t kStride = 2;
  EMBER_CHECK(w_a >= 0 && w_0 > 0 && w_m > 1 && w_0 % 8 == 0 && depth > 0,
              "BlockParams.from_init_params: Invalid RegNet settings (depth=", depth, ", w_0=", w_0, ", w_a=", w_a,
              ", w_m=", w_m, ")");
  // torchvision computes the quantised widths with float32 tensors; so do we,
  // so that the rounding lands on the same widths.
  const auto f_w_a = static_cast<float>(w_a);
  const auto f_w_0 = static_cast<float>(w_0);
  const auto f_log_w_m = static_cast<float>(std::log(w_m));
  const auto f_w_m = static_cast<float>(w_m);
  std::vector<int64_t> block_widths;
  for (int64_t i = 0; i < depth; ++i) {
    const float widths_cont = static_cast<float>(i) * f_w_a + f_w_0;
    const float capacity = std::nearbyint(std::log(widths_cont / f_w_0) / f_log_w_m);
    const float w = f_w_0 * std::pow(f_w_m, capacity);
    block_widths.push_back(static_cast<int64_t>(std::nearbyint(w / static_cast<float>(kQuant))) * kQuant);
  }
  std::vector<int64_t> stage_widths, split_points;
  for (size_t i = 0; i <= block_widths.size(); ++i) {
    const int64_t w = i < block_widths.size() ? block_widths[i] : 0;
    const int64_t wp = i == 0 ? 0 : block_widths[i - 1];
    if (w != wp) {
      split_points.push_back(static_cast<int64_t>(i));
      if (i < block_widths.size()) stage_widths.push_back(w);
    }
  }
  std::vector<int64_t> stage_depths;
  for (size_t i = 1; i < split_points.size(); ++i) stage_depths.push_back(split_points[i] - split_points[i - 1]);
  const size_t num_stages = std::set<int64_t>(block_widths.begin(), block_widths.end()).size();
  EMBER_CHECK(num_stages == stage_widths.size(),
              "BlockParams.from_init_params: the block widths are not monotonic for these settings");
  std::vector<double> multipliers(num_stages, bottleneck_multiplier);
  std::vector<int64_t> group_widths(num_stages, group_width);
  // _adjust_widths_groups_compatibilty: make each bottleneck width a multiple of its group width.
  for (size_t s = 0; s < num_stages; ++s) {
    const auto w_bot = static_cast<int64_t>(static_cast<double>(stage_widths[s]) * multipliers[s]);
    group_widths[s] = std::min(group_widths[s], w_bot);
    const int64_t ws_bot = _make_divisible(static_cast<double>(w_bot), group_widths[s]);
    stage_widths[s] = static_cast<int64_t>(static_cast<double>(ws_bot) / multipliers[s]);
  }
  return BlockParams(stage_depths, stage_widths, group_widths, multipliers, std::vector<int64_t>(num_stages, kStride),
                     se_ratio);
}

ResBottleneckBlockImpl::ResBottleneckBlockImpl(int64_t width_in_, int64_t width_out_, int64_t stride_,
                                               ops::NormLayer norm_layer_, ops::ActivationLayer activation_layer_,
                                               int64_t group_width_, double bottleneck_multiplier_,
                                               std::optional<double> se_ratio_)
    : width_in(width_in_),
      width_out(width_out_),
      stride(stride_),
      norm_layer(std::move(norm_layer_)),
      activation_layer(std::move(activation_layer_)),
      group_width(group_width_),
      bottleneck_multiplier(bottleneck_multiplier_),
      se_ratio(se_ratio_) {
  reset();
}

void ResBottleneckBlockImpl::reset() {
  EMBER_CHECK(group_width > 0, "ResBottleneckBlock: group_width must be positive, got ", group_width);
  proj.reset();
  if (width_in != width_out || stride != 1) {
    proj = register_module("proj", ops::Conv2dNormActivation(ops::Conv2dNormActivationOptions(width_in, width_out)
                                                                 .kernel_size(1)
                                                                 .stride(stride)
                                                                 .norm_layer(norm_layer)
                                                                 .activation_layer(std::nullopt)));
  }
  // BottleneckTransform: a (1x1), b (grouped 3x3), se, c (1x1, no activation).
  const auto w_b = static_cast<int64_t>(std::nearbyint(static_cast<double>(width_out) * bottleneck_multiplier));
  const int64_t g = w_b / group_width;
  nn::Sequential t;
  t->push_back("a", ops::Conv2dNormActivation(ops::Conv2dNormActivationOptions(width_in, w_b)
                                                  .kernel_size(1)
                                                  .norm_layer(norm_layer)
                                                  .activation_layer(activation_layer)));
  t->push_back("b", ops::Conv2dNormActivation(ops::Conv2dNormActivationOptions(w_b, w_b)
                                                  .kernel_size(3)
                                                  .stride(stride)
                                                  .groups(g)
                                                  .norm_layer(norm_layer)
                                                  .activation_layer(activation_layer)));
  if (se_ratio && *se_ratio != 0.0) {
    const auto width_se_out = static_cast<int64_t>(std::nearbyint(*se_ratio * static_cast<double>(width_in)));
    t->push_back("se",
                 ops::SqueezeExcitation(ops::SqueezeExcitationOptions(w_b, width_se_out).activation(activation_layer)));
  }
  t->push_back("c", ops::Conv2dNormActivation(ops::Conv2dNormActivationOptions(w_b, width_out)
                                                  .kernel_size(1)
                                                  .norm_layer(norm_layer)
                                                  .activation_layer(std::nullopt)));
  f = register_module("f", t);
  activation = activation_layer(true);
  register_module("activation", activation.ptr());
}

Tensor ResBottleneckBlockImpl::forward(const Tensor& x) {
  Tensor y = proj ? (*proj)->forward(x) + f->forward(x) : x + f->forward(x);
  return activation.forward(y);
}

RegNetImpl::RegNetImpl(const RegNetOptions& options_) : options(options_) { reset(); }

void RegNetImpl::reset() {
  const ops::NormLayer norm = options.norm_layer() ? *options.norm_layer() : ops::batch_norm2d_layer();
  const ops::ActivationLayer act = options.activation() ? *options.activation() : ops::relu_layer();
  stem = register_module("stem", ops::Conv2dNormActivation(ops::Conv2dNormActivationOptions(3, options.stem_width())
                                                               .kernel_size(3)
                                                               .stride(2)
                                                               .norm_layer(norm)
                                                               .activation_layer(act)));
  const BlockParams& p = options.block_params();
  int64_t current_width = options.stem_width();
  nn::Sequential trunk;
  for (size_t i = 0; i < p.depths.size(); ++i) {
    // AnyStage: blocks named "block<stage>-<i>".
    nn::Sequential stage;
    const std::string stage_index = std::to_string(i + 1);
    for (int64_t d = 0; d < p.depths[i]; ++d) {
      stage->push_back("block" + stage_index + "-" + std::to_string(d),
                       ResBottleneckBlock(d == 0 ? current_width : p.widths[i], p.widths[i], d == 0 ? p.strides[i] : 1,
                                          norm, act, p.group_widths[i], p.bottleneck_multipliers[i], p.se_ratio));
    }
    trunk->push_back("block" + stage_index, stage);
    current_width = p.widths[i];
  }
  trunk_output = register_module("trunk_output", trunk);
  avgpool = register_module("avgpool", nn::AdaptiveAvgPool2d(nn::AdaptiveAvgPool2dOptions({1, 1})));
  fc = register_module("fc", nn::Linear(current_width, options.num_classes()));
  detail::init_cnn_weights(*this, detail::LinearInit::kNormal001);
}

Tensor RegNetImpl::forward(const Tensor& x) {
  detail::check_image_batch(x, "RegNet");
  Tensor y = trunk_output->forward(stem->forward(x));
  return fc(avgpool(y).flatten(1));
}

namespace {

RegNet build(const char* arch, const char* enum_name, const BlockParams& params, const std::optional<Weights>& weights,
             const RegNetKwargs& kwargs) {
  detail::verify_weights(weights, enum_name, arch);
  RegNet model(RegNetOptions(params)
                   .num_classes(detail::num_classes_for(weights, kwargs.num_classes(), arch))
                   .stem_width(kwargs.stem_width())
                   .norm_layer(kwargs.norm_layer())
                   .activation(kwargs.activation()));
  if (weights) detail::load_weights(*model, *weights, arch);
  return model;
}

}  // namespace

#define EMBER_REGNET_DEFINE(name, Enum, depth, w_0, w_a, w_m, group_width, se)                                     \
  RegNet name(std::optional<Weights> weights, bool, const RegNetKwargs& kwargs) {                                  \
    return build(#name, #Enum, BlockParams::from_init_params(depth, w_0, w_a, w_m, group_width, 1.0, se), weights, \
                 kwargs);                                                                                          \
  }
EMBER_REGNET_DEFINE(regnet_y_400mf, RegNet_Y_400MF_Weights, 16, 48, 27.89, 2.09, 8, 0.25)
EMBER_REGNET_DEFINE(regnet_y_800mf, RegNet_Y_800MF_Weights, 14, 56, 38.84, 2.4, 16, 0.25)
EMBER_REGNET_DEFINE(regnet_y_1_6gf, RegNet_Y_1_6GF_Weights, 27, 48, 20.71, 2.65, 24, 0.25)
EMBER_REGNET_DEFINE(regnet_y_3_2gf, RegNet_Y_3_2GF_Weights, 21, 80, 42.63, 2.66, 24, 0.25)
EMBER_REGNET_DEFINE(regnet_y_8gf, RegNet_Y_8GF_Weights, 17, 192, 76.82, 2.19, 56, 0.25)
EMBER_REGNET_DEFINE(regnet_y_16gf, RegNet_Y_16GF_Weights, 18, 200, 106.23, 2.48, 112, 0.25)
EMBER_REGNET_DEFINE(regnet_y_32gf, RegNet_Y_32GF_Weights, 20, 232, 115.89, 2.53, 232, 0.25)
EMBER_REGNET_DEFINE(regnet_y_128gf, RegNet_Y_128GF_Weights, 27, 456, 160.83, 2.52, 264, 0.25)
EMBER_REGNET_DEFINE(regnet_x_400mf, RegNet_X_400MF_Weights, 22, 24, 24.48, 2.54, 16, std::nullopt)
EMBER_REGNET_DEFINE(regnet_x_800mf, RegNet_X_800MF_Weights, 16, 56, 35.73, 2.28, 16, std::nullopt)
EMBER_REGNET_DEFINE(regnet_x_1_6gf, RegNet_X_1_6GF_Weights, 18, 80, 34.01, 2.25, 24, std::nullopt)
EMBER_REGNET_DEFINE(regnet_x_3_2gf, RegNet_X_3_2GF_Weights, 25, 88, 26.31, 2.25, 48, std::nullopt)
EMBER_REGNET_DEFINE(regnet_x_8gf, RegNet_X_8GF_Weights, 23, 80, 49.56, 2.88, 120, std::nullopt)
EMBER_REGNET_DEFINE(regnet_x_16gf, RegNet_X_16GF_Weights, 22, 216, 55.59, 2.1, 128, std::nullopt)
EMBER_REGNET_DEFINE(regnet_x_32gf, RegNet_X_32GF_Weights, 23, 320, 69.86, 2.0, 168, std::nullopt)
#undef EMBER_REGNET_DEFINE

}  // namespace torch::vision::models
