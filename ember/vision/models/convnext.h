#pragma once
// torchvision.models.convnext: ConvNeXt (arXiv:2201.03545) with CNBlock,
// LayerNorm2d and the convnext_tiny/small/base/large builders. The module
// tree equals torchvision's, so state_dict() keys match its checkpoints.
#include <cstdint>
#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "ember/core/arg.h"
#include "ember/core/tensor.h"
#include "ember/nn/cloneable.h"
#include "ember/nn/modules/container/any.h"
#include "ember/nn/modules/container/sequential.h"
#include "ember/nn/modules/normalization.h"
#include "ember/nn/modules/pooling.h"
#include "ember/nn/pimpl.h"
#include "ember/vision/models/weights_enums_transformers.h"
#include "ember/vision/ops/misc.h"
#include "ember/vision/ops/stochastic_depth.h"

namespace torch::vision::models {

// nn.LayerNorm over the channels of an (N, C, H, W) tensor.
// Parameters weight and bias as nn.LayerNorm's (torchvision subclasses it).
class LayerNorm2dImpl : public nn::Cloneable<LayerNorm2dImpl> {
 public:
  /* implicit */ LayerNorm2dImpl(std::vector<int64_t> normalized_shape)  // NOLINT
      : LayerNorm2dImpl(nn::LayerNormOptions(std::move(normalized_shape))) {}
  explicit LayerNorm2dImpl(const nn::LayerNormOptions& options_);
  void reset() override;
  void pretty_print(std::ostream& stream) const override;
  Tensor forward(const Tensor& x);
  nn::LayerNormOptions options;
  Tensor weight, bias;
};
TORCH_MODULE(LayerNorm2d);

// partial(LayerNorm2d, eps=eps): ConvNeXt's default norm_layer.
ops::NormLayer layer_norm2d_layer(double eps = 1e-6);

struct CNBlockOptions {
  CNBlockOptions(int64_t dim, double layer_scale, double stochastic_depth_prob)
      : dim_(dim), layer_scale_(layer_scale), stochastic_depth_prob_(stochastic_depth_prob) {}
  TORCH_ARG(int64_t, dim);
  TORCH_ARG(double, layer_scale);
  TORCH_ARG(double, stochastic_depth_prob);
  // nullopt: partial(nn.LayerNorm, eps=1e-6) over the channels-last block.
  TORCH_ARG(std::optional<ops::NormLayer>, norm_layer) = std::nullopt;
};

// x + stochastic_depth(layer_scale * block(x)), block = depthwise 7x7 conv,
// channels-last norm, Linear(dim, 4 dim), GELU, Linear(4 dim, dim).
class CNBlockImpl : public nn::Cloneable<CNBlockImpl> {
 public:
  CNBlockImpl(int64_t dim, double layer_scale, double stochastic_depth_prob)
      : CNBlockImpl(CNBlockOptions(dim, layer_scale, stochastic_depth_prob)) {}
  explicit CNBlockImpl(const CNBlockOptions& options_);
  void reset() override;
  void pretty_print(std::ostream& stream) const override { stream << "CNBlock"; }
  Tensor forward(const Tensor& input);
  CNBlockOptions options;
  nn::Sequential block = nullptr;
  Tensor layer_scale;
  ops::StochasticDepth stochastic_depth = nullptr;
};
TORCH_MODULE(CNBlock);

// One stage: num_layers blocks of input_channels, then (when out_channels is
// set) a norm + 2x2 stride-2 conv downsampling to out_channels.
struct CNBlockConfig {
  int64_t input_channels;
  std::optional<int64_t> out_channels;
  int64_t num_layers;
};

// block(dim, layer_scale, stochastic_depth_prob), Python's `block` argument.
using CNBlockFactory = std::function<nn::AnyModule(int64_t, double, double)>;

struct ConvNeXtOptions {
  /* implicit */ ConvNeXtOptions(std::vector<CNBlockConfig> block_setting)  // NOLINT
      : block_setting_(std::move(block_setting)) {}
  TORCH_ARG(std::vector<CNBlockConfig>, block_setting);
  TORCH_ARG(double, stochastic_depth_prob) = 0.0;
  TORCH_ARG(double, layer_scale) = 1e-6;
  TORCH_ARG(int64_t, num_classes) = 1000;
  // nullopt: CNBlock.
  TORCH_ARG(std::optional<CNBlockFactory>, block) = std::nullopt;
  // nullopt: partial(LayerNorm2d, eps=1e-6).
  TORCH_ARG(std::optional<ops::NormLayer>, norm_layer) = std::nullopt;
};

class ConvNeXtImpl : public nn::Cloneable<ConvNeXtImpl> {
 public:
  explicit ConvNeXtImpl(const ConvNeXtOptions& options_);
  void reset() override;
  void pretty_print(std::ostream& stream) const override { stream << "ConvNeXt"; }
  // x: (N, 3, H, W) float, H and W at least 32; returns (N, num_classes).
  Tensor forward(const Tensor& x);
  Tensor _forward_impl(const Tensor& x);
  ConvNeXtOptions options;
  nn::Sequential features = nullptr;
  nn::AdaptiveAvgPool2d avgpool = nullptr;
  nn::Sequential classifier = nullptr;
};
TORCH_MODULE(ConvNeXt);

// Keyword arguments the builders pass on to ConvNeXt; stochastic_depth_prob
// nullopt takes the builder's default (0.1, 0.4, 0.5, 0.5 as torchvision).
struct ConvNeXtKwargs {
  TORCH_ARG(std::optional<double>, stochastic_depth_prob) = std::nullopt;
  TORCH_ARG(double, layer_scale) = 1e-6;
  // Unset: 1000, or the weights' categories (a different value raises).
  TORCH_ARG(std::optional<int64_t>, num_classes) = std::nullopt;
  TORCH_ARG(std::optional<CNBlockFactory>, block) = std::nullopt;
  TORCH_ARG(std::optional<ops::NormLayer>, norm_layer) = std::nullopt;
};

// `weights` (ConvNeXt_Tiny_Weights::IMAGENET1K_V1.with_path(file), ...) set
// num_classes and are loaded strictly from their file (nothing is
// downloaded; `progress` is accepted for Python's signature only).
ConvNeXt convnext_tiny(std::optional<Weights> weights = std::nullopt, bool progress = true,
                       const ConvNeXtKwargs& kwargs = {});
ConvNeXt convnext_small(std::optional<Weights> weights = std::nullopt, bool progress = true,
                        const ConvNeXtKwargs& kwargs = {});
ConvNeXt convnext_base(std::optional<Weights> weights = std::nullopt, bool progress = true,
                       const ConvNeXtKwargs& kwargs = {});
ConvNeXt convnext_large(std::optional<Weights> weights = std::nullopt, bool progress = true,
                        const ConvNeXtKwargs& kwargs = {});

// The ConvNeXtOptions a builder uses ("convnext_tiny", ...).
ConvNeXtOptions convnext_config(const std::string& name, const ConvNeXtKwargs& kwargs = {});

}  // namespace torch::vision::models
