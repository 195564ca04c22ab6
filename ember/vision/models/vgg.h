#pragma once
// torchvision.models.vgg: VGG 11/13/16/19 with and without batch norm
// (features.<i>, classifier.{0,3,6} as torchvision's state_dict), make_layers
// and the cfgs table, and the builders vgg11 ... vgg19_bn.
#include <cstdint>
#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <variant>
#include <vector>

#include "ember/core/arg.h"
#include "ember/core/tensor.h"
#include "ember/nn/module.h"
#include "ember/nn/modules/container/sequential.h"
#include "ember/nn/modules/pooling.h"
#include "ember/nn/pimpl.h"
#include "ember/vision/models/vgg_weights.h"

namespace torch::vision::models {

namespace vgg {

// One entry of a cfg: a conv's output channels, or "M" for a 2x2 max pool.
using VGGLayer = std::variant<int64_t, std::string>;
using VGGConfig = std::vector<VGGLayer>;

// Python's cfgs: "A" (VGG11), "B" (VGG13), "D" (VGG16), "E" (VGG19).
const std::map<std::string, VGGConfig>& cfgs();

// 3x3 convs (padding 1) each followed by BatchNorm2d (batch_norm) and ReLU;
// "M" is MaxPool2d(2, 2). The input has 3 channels.
nn::Sequential make_layers(const VGGConfig& cfg, bool batch_norm = false);

}  // namespace vgg

struct VGGOptions {
  /* implicit */ VGGOptions(nn::Sequential features) : features_(std::move(features)) {}  // NOLINT
  // Any module mapping [N, 3, H, W] to [N, 512, h, w] (make_layers' output).
  TORCH_ARG(nn::Sequential, features);
  TORCH_ARG(int64_t, num_classes) = 1000;
  TORCH_ARG(bool, init_weights) = true;
  TORCH_ARG(double, dropout) = 0.5;
};

class VGGImpl : public nn::Module {
 public:
  explicit VGGImpl(const VGGOptions& options_);
  VGGImpl(nn::Sequential features, int64_t num_classes, bool init_weights = true, double dropout = 0.5);
  void pretty_print(std::ostream& stream) const override { stream << "VGG"; }
  // x: [N, 3, H, W] floating; returns [N, num_classes] logits.
  Tensor forward(const Tensor& x);

  VGGOptions options;
  nn::Sequential features{nullptr};
  nn::AdaptiveAvgPool2d avgpool{nullptr};
  nn::Sequential classifier{nullptr};
};
TORCH_MODULE(VGG);

// The builders' keyword arguments (Python's **kwargs to VGG); num_classes
// nullopt: 1000, or the weights' category count when they have categories.
struct VGGKwargs {
  TORCH_ARG(std::optional<int64_t>, num_classes) = std::nullopt;
  TORCH_ARG(double, dropout) = 0.5;
};

VGG vgg11(std::optional<Weights> weights = std::nullopt, bool progress = true, const VGGKwargs& kwargs = {});
VGG vgg11_bn(std::optional<Weights> weights = std::nullopt, bool progress = true, const VGGKwargs& kwargs = {});
VGG vgg13(std::optional<Weights> weights = std::nullopt, bool progress = true, const VGGKwargs& kwargs = {});
VGG vgg13_bn(std::optional<Weights> weights = std::nullopt, bool progress = true, const VGGKwargs& kwargs = {});
VGG vgg16(std::optional<Weights> weights = std::nullopt, bool progress = true, const VGGKwargs& kwargs = {});
VGG vgg16_bn(std::optional<Weights> weights = std::nullopt, bool progress = true, const VGGKwargs& kwargs = {});
VGG vgg19(std::optional<Weights> weights = std::nullopt, bool progress = true, const VGGKwargs& kwargs = {});
VGG vgg19_bn(std::optional<Weights> weights = std::nullopt, bool progress = true, const VGGKwargs& kwargs = {});

}  // namespace torch::vision::models
