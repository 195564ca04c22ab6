#pragma once
// torchvision.models.regnet: RegNet X and Y (Y adds squeeze-excitation);
// BlockParams.from_init_params computes the stages from the design space's
// (depth, w_0, w_a, w_m, group_width) as torchvision does, in float32.
#include <cstdint>
#include <optional>
#include <vector>

#include "ember/core/arg.h"
#include "ember/core/tensor.h"
#include "ember/nn/cloneable.h"
#include "ember/nn/modules/container/any.h"
#include "ember/nn/modules/container/sequential.h"
#include "ember/nn/modules/linear.h"
#include "ember/nn/modules/pooling.h"
#include "ember/nn/pimpl.h"
#include "ember/vision/models/weights_enums.h"
#include "ember/vision/ops/misc.h"

namespace torch::vision::models {

struct BlockParams {
  BlockParams(std::vector<int64_t> depths, std::vector<int64_t> widths, std::vector<int64_t> group_widths,
              std::vector<double> bottleneck_multipliers, std::vector<int64_t> strides,
              std::optional<double> se_ratio = std::nullopt);
  static BlockParams from_init_params(int64_t depth, int64_t w_0, double w_a, double w_m, int64_t group_width,
                                      double bottleneck_multiplier = 1.0,
                                      std::optional<double> se_ratio = std::nullopt);
  std::vector<int64_t> depths, widths, group_widths;
  std::vector<double> bottleneck_multipliers;
  std::vector<int64_t> strides;
  std::optional<double> se_ratio;
};

// x + f(x) (or proj(x) + f(x)), f the 1x1, grouped 3x3 [+SE], 1x1 bottleneck.
class ResBottleneckBlockImpl : public nn::Cloneable<ResBottleneckBlockImpl> {
 public:
  ResBottleneckBlockImpl(int64_t width_in, int64_t width_out, int64_t stride, ops::NormLayer norm_layer,
                         ops::ActivationLayer activation_layer, int64_t group_width = 1,
                         double bottleneck_multiplier = 1.0, std::optional<double> se_ratio = std::nullopt);
  void reset() override;
  void pretty_print(std::ostream& stream) const override { stream << "ResBottleneckBlock"; }
  Tensor forward(const Tensor& x);
  int64_t width_in, width_out, stride;
  ops::NormLayer norm_layer;
  ops::ActivationLayer activation_layer;
  int64_t group_width;
  double bottleneck_multiplier;
  std::optional<double> se_ratio;
  std::optional<ops::Conv2dNormActivation> proj;
  nn::Sequential f{nullptr};
  nn::AnyModule activation;
};
TORCH_MODULE(ResBottleneckBlock);

struct RegNetOptions {
  /* implicit */ RegNetOptions(BlockParams block_params) : block_params_(std::move(block_params)) {}  // NOLINT
  TORCH_ARG(BlockParams, block_params);
  TORCH_ARG(int64_t, num_classes) = 1000;
  TORCH_ARG(int64_t, stem_width) = 32;
  TORCH_ARG(std::optional<ops::NormLayer>, norm_layer) = std::nullopt;
  TORCH_ARG(std::optional<ops::ActivationLayer>, activation) = std::nullopt;
};

class RegNetImpl : public nn::Cloneable<RegNetImpl> {
 public:
  explicit RegNetImpl(const RegNetOptions& options_);
  void reset() override;
  void pretty_print(std::ostream& stream) const override { stream << "RegNet"; }
  Tensor forward(const Tensor& x);
  RegNetOptions options;
  ops::Conv2dNormActivation stem{nullptr};
  nn::Sequential trunk_output{nullptr};
  nn::AdaptiveAvgPool2d avgpool{nullptr};
  nn::Linear fc{nullptr};
};
TORCH_MODULE(RegNet);

struct RegNetKwargs {
  TORCH_ARG(std::optional<int64_t>, num_classes) = std::nullopt;
  TORCH_ARG(int64_t, stem_width) = 32;
  // nullopt: BatchNorm2d(eps=1e-5, momentum=0.1).
  TORCH_ARG(std::optional<ops::NormLayer>, norm_layer) = std::nullopt;
  TORCH_ARG(std::optional<ops::ActivationLayer>, activation) = std::nullopt;
};

#define EMBER_REGNET_BUILDER(name) \
  RegNet name(std::optional<Weights> weights = std::nullopt, bool progress = true, const RegNetKwargs& kwargs = {})
EMBER_REGNET_BUILDER(regnet_y_400mf);
EMBER_REGNET_BUILDER(regnet_y_800mf);
EMBER_REGNET_BUILDER(regnet_y_1_6gf);
EMBER_REGNET_BUILDER(regnet_y_3_2gf);
EMBER_REGNET_BUILDER(regnet_y_8gf);
EMBER_REGNET_BUILDER(regnet_y_16gf);
EMBER_REGNET_BUILDER(regnet_y_32gf);
EMBER_REGNET_BUILDER(regnet_y_128gf);
EMBER_REGNET_BUILDER(regnet_x_400mf);
EMBER_REGNET_BUILDER(regnet_x_800mf);
EMBER_REGNET_BUILDER(regnet_x_1_6gf);
EMBER_REGNET_BUILDER(regnet_x_3_2gf);
EMBER_REGNET_BUILDER(regnet_x_8gf);
EMBER_REGNET_BUILDER(regnet_x_16gf);
EMBER_REGNET_BUILDER(regnet_x_32gf);
#undef EMBER_REGNET_BUILDER

}  // namespace torch::vision::models
