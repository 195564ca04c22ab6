#pragma once
// torchvision.models.efficientnet: EfficientNet B0-B7 (MBConv) and V2 S/M/L
// (FusedMBConv then MBConv), with StochasticDepth on the residual branches.
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "ember/core/arg.h"
#include "ember/core/tensor.h"
#include "ember/nn/cloneable.h"
#include "ember/nn/modules/container/sequential.h"
#include "ember/nn/modules/pooling.h"
#include "ember/nn/pimpl.h"
#include "ember/vision/models/weights_enums.h"
#include "ember/vision/ops/misc.h"
#include "ember/vision/ops/stochastic_depth.h"

namespace torch::vision::models {

// One stage of the network: _MBConvConfig (fused selects FusedMBConv).
struct MBConvConfig {
  // MBConvConfig: channels scaled by width_mult, layers by depth_mult.
  MBConvConfig(double expand_ratio, int64_t kernel, int64_t stride, int64_t input_channels, int64_t out_channels,
               int64_t num_layers, double width_mult = 1.0, double depth_mult = 1.0);
  static int64_t adjust_channels(double channels, double width_mult, std::optional<int64_t> min_value = std::nullopt);
  static int64_t adjust_depth(int64_t num_layers, double depth_mult);
  double expand_ratio;
  int64_t kernel, stride, input_channels, out_channels, num_layers;
  bool fused = false;
};

// FusedMBConvConfig: no scaling.
MBConvConfig FusedMBConvConfig(double expand_ratio, int64_t kernel, int64_t stride, int64_t input_channels,
                               int64_t out_channels, int64_t num_layers);

class MBConvImpl : public nn::Cloneable<MBConvImpl> {
 public:
  MBConvImpl(const MBConvConfig& cnf, double stochastic_depth_prob, ops::NormLayer norm_layer);
  void reset() override;
  void pretty_print(std::ostream& stream) const override { stream << (cnf.fused ? "FusedMBConv" : "MBConv"); }
  Tensor forward(const Tensor& x);
  MBConvConfig cnf;
  double stochastic_depth_prob;
  ops::NormLayer norm_layer;
  bool use_res_connect = false;
  int64_t out_channels = 0;
  nn::Sequential block{nullptr};
  ops::StochasticDepth stochastic_depth{nullptr};
};
TORCH_MODULE(MBConv);
// FusedMBConv is MBConv built from a config with fused set.
using FusedMBConv = MBConv;

struct EfficientNetOptions {
  EfficientNetOptions(std::vector<MBConvConfig> inverted_residual_setting, double dropout)
      : inverted_residual_setting_(std::move(inverted_residual_setting)), dropout_(dropout) {}
  TORCH_ARG(std::vector<MBConvConfig>, inverted_residual_setting);
  TORCH_ARG(double, dropout);
  TORCH_ARG(double, stochastic_depth_prob) = 0.2;
  TORCH_ARG(int64_t, num_classes) = 1000;
  TORCH_ARG(std::optional<ops::NormLayer>, norm_layer) = std::nullopt;
  TORCH_ARG(std::optional<int64_t>, last_channel) = std::nullopt;
};

class EfficientNetImpl : public nn::Cloneable<EfficientNetImpl> {
 public:
  explicit EfficientNetImpl(const EfficientNetOptions& options_);
  void reset() override;
  void pretty_print(std::ostream& stream) const override { stream << "EfficientNet"; }
  Tensor forward(const Tensor& x);
  EfficientNetOptions options;
  nn::Sequential features{nullptr}, classifier{nullptr};
  nn::AdaptiveAvgPool2d avgpool{nullptr};
};
TORCH_MODULE(EfficientNet);

// _efficientnet_conf: the stages and last_channel of "efficientnet_b0".."_b7" (with
// their width/depth multipliers) or "efficientnet_v2_s"/"_m"/"_l".
std::pair<std::vector<MBConvConfig>, std::optional<int64_t>> _efficientnet_conf(const std::string& arch,
                                                                                double width_mult = 1.0,
                                                                                double depth_mult = 1.0);

struct EfficientNetKwargs {
  TORCH_ARG(std::optional<int64_t>, num_classes) = std::nullopt;
  TORCH_ARG(double, stochastic_depth_prob) = 0.2;
  // nullopt: the builder's (BatchNorm2d, with eps 1e-3 for B5-B7 and V2).
  TORCH_ARG(std::optional<ops::NormLayer>, norm_layer) = std::nullopt;
};

#define EMBER_EFFICIENTNET_BUILDER(name)                                                 \
  EfficientNet name(std::optional<Weights> weights = std::nullopt, bool progress = true, \
                    const EfficientNetKwargs& kwargs = {})
EMBER_EFFICIENTNET_BUILDER(efficientnet_b0);
EMBER_EFFICIENTNET_BUILDER(efficientnet_b1);
EMBER_EFFICIENTNET_BUILDER(efficientnet_b2);
EMBER_EFFICIENTNET_BUILDER(efficientnet_b3);
EMBER_EFFICIENTNET_BUILDER(efficientnet_b4);
EMBER_EFFICIENTNET_BUILDER(efficientnet_b5);
EMBER_EFFICIENTNET_BUILDER(efficientnet_b6);
EMBER_EFFICIENTNET_BUILDER(efficientnet_b7);
EMBER_EFFICIENTNET_BUILDER(efficientnet_v2_s);
EMBER_EFFICIENTNET_BUILDER(efficientnet_v2_m);
EMBER_EFFICIENTNET_BUILDER(efficientnet_v2_l);
#undef EMBER_EFFICIENTNET_BUILDER

}  // namespace torch::vision::models
