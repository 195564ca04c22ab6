#pragma once
// torchvision.models.mobilenetv3: MobileNetV3 large and small, with the
// builders' width_mult, reduced_tail and dilated (the segmentation variant).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ember/core/arg.h"
#include "ember/core/tensor.h"
#include "ember/nn/cloneable.h"
#include "ember/nn/modules/container/sequential.h"
#include "ember/nn/modules/pooling.h"
#include "ember/nn/pimpl.h"
#include "ember/vision/models/weights_enums.h"
#include "ember/vision/ops/misc.h"

namespace torch::vision::models {

namespace mobilenetv3 {

// One row of the paper's Tables 1 and 2, channels already scaled by width_mult.
struct InvertedResidualConfig {
  InvertedResidualConfig(int64_t input_channels, int64_t kernel, int64_t expanded_channels, int64_t out_channels,
                         bool use_se, const std::string& activation, int64_t stride, int64_t dilation,
                         double width_mult);
  static int64_t adjust_channels(double channels, double width_mult);
  int64_t input_channels, kernel, expanded_channels, out_channels;
  bool use_se, use_hs;
  int64_t stride, dilation;
};

class InvertedResidualImpl : public nn::Cloneable<InvertedResidualImpl> {
 public:
  InvertedResidualImpl(const InvertedResidualConfig& cnf, ops::NormLayer norm_layer);
  void reset() override;
  void pretty_print(std::ostream& stream) const override { stream << "InvertedResidual"; }
  Tensor forward(const Tensor& x);
  InvertedResidualConfig cnf;
  ops::NormLayer norm_layer;
  bool use_res_connect = false;
  int64_t out_channels = 0;
  nn::Sequential block{nullptr};
};
TORCH_MODULE(InvertedResidual);

}  // namespace mobilenetv3

struct MobileNetV3Options {
  MobileNetV3Options(std::vector<mobilenetv3::InvertedResidualConfig> inverted_residual_setting, int64_t last_channel)
      : inverted_residual_setting_(std::move(inverted_residual_setting)), last_channel_(last_channel) {}
  TORCH_ARG(std::vector<mobilenetv3::InvertedResidualConfig>, inverted_residual_setting);
  TORCH_ARG(int64_t, last_channel);
  TORCH_ARG(int64_t, num_classes) = 1000;
  // nullopt: BatchNorm2d(eps=0.001, momentum=0.01).
  TORCH_ARG(std::optional<ops::NormLayer>, norm_layer) = std::nullopt;
  TORCH_ARG(double, dropout) = 0.2;
};

class MobileNetV3Impl : public nn::Cloneable<MobileNetV3Impl> {
 public:
  explicit MobileNetV3Impl(const MobileNetV3Options& options_);
  void reset() override;
  void pretty_print(std::ostream& stream) const override { stream << "MobileNetV3"; }
  Tensor forward(const Tensor& x);
  MobileNetV3Options options;
  nn::Sequential features{nullptr}, classifier{nullptr};
  nn::AdaptiveAvgPool2d avgpool{nullptr};
};
TORCH_MODULE(MobileNetV3);

// _mobilenet_v3_conf: the setting and last_channel of "mobilenet_v3_large" or "mobilenet_v3_small".
std::pair<std::vector<mobilenetv3::InvertedResidualConfig>, int64_t> _mobilenet_v3_conf(const std::string& arch,
                                                                                        double width_mult = 1.0,
                                                                                        bool reduced_tail = false,
                                                                                        bool dilated = false);

struct MobileNetV3Kwargs {
  TORCH_ARG(std::optional<int64_t>, num_classes) = std::nullopt;
  TORCH_ARG(double, width_mult) = 1.0;
  // Halve the channels of the last blocks (for detection/segmentation backbones).
  TORCH_ARG(bool, reduced_tail) = false;
  // Dilate the last blocks instead of striding (segmentation).
  TORCH_ARG(bool, dilated) = false;
  TORCH_ARG(std::optional<ops::NormLayer>, norm_layer) = std::nullopt;
  TORCH_ARG(double, dropout) = 0.2;
};

MobileNetV3 mobilenet_v3_large(std::optional<Weights> weights = std::nullopt, bool progress = true,
                               const MobileNetV3Kwargs& kwargs = {});
MobileNetV3 mobilenet_v3_small(std::optional<Weights> weights = std::nullopt, bool progress = true,
                               const MobileNetV3Kwargs& kwargs = {});

}  // namespace torch::vision::models
