#pragma once
// torchvision.models.mobilenetv2: MobileNetV2 (features.N.conv..., classifier.1).
#include <cstdint>
#include <optional>
#include <vector>

#include "ember/core/arg.h"
#include "ember/core/tensor.h"
#include "ember/nn/cloneable.h"
#include "ember/nn/modules/container/sequential.h"
#include "ember/nn/pimpl.h"
#include "ember/vision/models/weights_enums.h"
#include "ember/vision/ops/misc.h"

namespace torch::vision::models {

namespace mobilenetv2 {

// The inverted residual: 1x1 expansion (unless expand_ratio is 1), 3x3
// depthwise, 1x1 linear projection; a skip connection when shapes allow.
class InvertedResidualImpl : public nn::Cloneable<InvertedResidualImpl> {
 public:
  InvertedResidualImpl(int64_t inp, int64_t oup, int64_t stride, int64_t expand_ratio,
                       std::optional<ops::NormLayer> norm_layer = std::nullopt);
  void reset() override;
  void pretty_print(std::ostream& stream) const override { stream << "InvertedResidual"; }
  Tensor forward(const Tensor& x);
  int64_t inp, oup, stride, expand_ratio;
  std::optional<ops::NormLayer> norm_layer;
  bool use_res_connect = false;
  int64_t out_channels = 0;
  nn::Sequential conv{nullptr};
};
TORCH_MODULE(InvertedResidual);

}  // namespace mobilenetv2

struct MobileNetV2Options {
  TORCH_ARG(int64_t, num_classes) = 1000;
  TORCH_ARG(double, width_mult) = 1.0;
  // Rows of (t, c, n, s): expansion, channels, repeats, first stride.
  TORCH_ARG(std::optional<std::vector<std::vector<int64_t>>>, inverted_residual_setting) = std::nullopt;
  TORCH_ARG(int64_t, round_nearest) = 8;
  TORCH_ARG(std::optional<ops::NormLayer>, norm_layer) = std::nullopt;
  TORCH_ARG(double, dropout) = 0.2;
};

class MobileNetV2Impl : public nn::Cloneable<MobileNetV2Impl> {
 public:
  explicit MobileNetV2Impl(const MobileNetV2Options& options_ = {});
  void reset() override;
  void pretty_print(std::ostream& stream) const override { stream << "MobileNetV2"; }
  Tensor forward(const Tensor& x);
  MobileNetV2Options options;
  int64_t last_channel = 0;
  nn::Sequential features{nullptr}, classifier{nullptr};
};
TORCH_MODULE(MobileNetV2);

// The builder's keyword arguments: MobileNetV2Options, num_classes nullopt
// meaning 1000 or the weights' category count.
struct MobileNetV2Kwargs {
  TORCH_ARG(std::optional<int64_t>, num_classes) = std::nullopt;
  TORCH_ARG(double, width_mult) = 1.0;
  TORCH_ARG(std::optional<std::vector<std::vector<int64_t>>>, inverted_residual_setting) = std::nullopt;
  TORCH_ARG(int64_t, round_nearest) = 8;
  TORCH_ARG(std::optional<ops::NormLayer>, norm_layer) = std::nullopt;
  TORCH_ARG(double, dropout) = 0.2;
};

MobileNetV2 mobilenet_v2(std::optional<Weights> weights = std::nullopt, bool progress = true,
                         const MobileNetV2Kwargs& kwargs = {});

}  // namespace torch::vision::models
