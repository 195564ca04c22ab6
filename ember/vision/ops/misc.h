#pragma once
// torchvision.ops.misc building blocks: FrozenBatchNorm2d,
// Conv2dNormActivation / Conv3dNormActivation, SqueezeExcitation, MLP and
// Permute. Layer-factory arguments (norm_layer, activation_layer) are
// callables returning an nn::AnyModule; std::nullopt leaves the layer out,
// as Python's None. Submodule and buffer names equal torchvision's, so
// state_dict() keys match its checkpoints.
#include <cstdint>
#include <functional>
#include <optional>
#include <ostream>
#include <vector>

#include "ember/core/arg.h"
#include "ember/core/expanding_array.h"
#include "ember/core/tensor.h"
#include "ember/nn/cloneable.h"
#include "ember/nn/modules/container/any.h"
#include "ember/nn/modules/container/sequential.h"
#include "ember/nn/pimpl.h"
#include "ember/vision/ops/sequential_clone.h"

namespace torch::vision::ops {

// norm_layer(num_features) and activation_layer(inplace).
using NormLayer = std::function<nn::AnyModule(int64_t)>;
using ActivationLayer = std::function<nn::AnyModule(std::optional<bool>)>;

NormLayer batch_norm2d_layer();
NormLayer batch_norm3d_layer();
ActivationLayer relu_layer();
ActivationLayer sigmoid_layer();

// BatchNorm2d with fixed statistics and affine parameters (all buffers).
struct FrozenBatchNorm2dOptions {
  /* implicit */ FrozenBatchNorm2dOptions(int64_t num_features) : num_features_(num_features) {}  // NOLINT
  TORCH_ARG(int64_t, num_features);
  TORCH_ARG(double, eps) = 1e-5;
};

class FrozenBatchNorm2dImpl : public nn::Cloneable<FrozenBatchNorm2dImpl> {
 public:
  explicit FrozenBatchNorm2dImpl(const FrozenBatchNorm2dOptions& options_);
  void reset() override;
  void pretty_print(std::ostream& stream) const override;
  Tensor forward(const Tensor& x);
  FrozenBatchNorm2dOptions options;
  Tensor weight, bias, running_mean, running_var;
};
TORCH_MODULE(FrozenBatchNorm2d);

template <size_t D>
struct ConvNormActivationOptions {
  ConvNormActivationOptions(int64_t in_channels, int64_t out_channels)
      : in_channels_(in_channels), out_channels_(out_channels) {}
  TORCH_ARG(int64_t, in_channels);
  TORCH_ARG(int64_t, out_channels);
  TORCH_ARG(ExpandingArray<D>, kernel_size) = 3;
  TORCH_ARG(ExpandingArray<D>, stride) = 1;
  // nullopt: (kernel_size - 1) / 2 * dilation, which keeps the size at stride 1.
  TORCH_ARG(std::optional<ExpandingArray<D>>, padding) = std::nullopt;
  TORCH_ARG(int64_t, groups) = 1;
  TORCH_ARG(std::optional<NormLayer>, norm_layer) = D == 2 ? batch_norm2d_layer() : batch_norm3d_layer();
  TORCH_ARG(std::optional<ActivationLayer>, activation_layer) = relu_layer();
  TORCH_ARG(ExpandingArray<D>, dilation) = 1;
  TORCH_ARG(std::optional<bool>, inplace) = true;
  // nullopt: a bias only when there is no norm layer.
  TORCH_ARG(std::optional<bool>, bias) = std::nullopt;
};
using Conv2dNormActivationOptions = ConvNormActivationOptions<2>;
using Conv3dNormActivationOptions = ConvNormActivationOptions<3>;

// A Sequential of conv ("0"), norm ("1") and activation, as torchvision's.
class Conv2dNormActivationImpl : public nn::SequentialImpl {
 public:
  Conv2dNormActivationImpl(int64_t in_channels, int64_t out_channels)
      : Conv2dNormActivationImpl(Conv2dNormActivationOptions(in_channels, out_channels)) {}
  explicit Conv2dNormActivationImpl(const Conv2dNormActivationOptions& options_);
  void pretty_print(std::ostream& stream) const override { stream << "Conv2dNormActivation"; }
  EMBER_VISION_SEQUENTIAL_CLONE(Conv2dNormActivationImpl)
  Conv2dNormActivationOptions options;
  int64_t out_channels;
};
TORCH_MODULE(Conv2dNormActivation);

class Conv3dNormActivationImpl : public nn::SequentialImpl {
 public:
  Conv3dNormActivationImpl(int64_t in_channels, int64_t out_channels)
      : Conv3dNormActivationImpl(Conv3dNormActivationOptions(in_channels, out_channels)) {}
  explicit Conv3dNormActivationImpl(const Conv3dNormActivationOptions& options_);
  void pretty_print(std::ostream& stream) const override { stream << "Conv3dNormActivation"; }
  EMBER_VISION_SEQUENTIAL_CLONE(Conv3dNormActivationImpl)
  Conv3dNormActivationOptions options;
  int64_t out_channels;
};
TORCH_MODULE(Conv3dNormActivation);

// Squeeze-and-Excitation: input * scale_activation(fc2(activation(fc1(avgpool(input))))).
struct SqueezeExcitationOptions {
  SqueezeExcitationOptions(int64_t input_channels, int64_t squeeze_channels)
      : input_channels_(input_channels), squeeze_channels_(squeeze_channels) {}
  TORCH_ARG(int64_t, input_channels);
  TORCH_ARG(int64_t, squeeze_channels);
  TORCH_ARG(ActivationLayer, activation) = relu_layer();
  TORCH_ARG(ActivationLayer, scale_activation) = sigmoid_layer();
};

class SqueezeExcitationImpl : public nn::Cloneable<SqueezeExcitationImpl> {
 public:
  SqueezeExcitationImpl(int64_t input_channels, int64_t squeeze_channels)
      : SqueezeExcitationImpl(SqueezeExcitationOptions(input_channels, squeeze_channels)) {}
  explicit SqueezeExcitationImpl(const SqueezeExcitationOptions& options_);
  void reset() override;
  void pretty_print(std::ostream& stream) const override { stream << "SqueezeExcitation"; }
  Tensor forward(const Tensor& input);
  SqueezeExcitationOptions options;
  nn::AnyModule avgpool, fc1, fc2, activation, scale_activation;
};
TORCH_MODULE(SqueezeExcitation);

// Linear layers of hidden_channels, each but the last followed by norm,
// activation and dropout; the last by dropout.
struct MLPOptions {
  MLPOptions(int64_t in_channels, std::vector<int64_t> hidden_channels)
      : in_channels_(in_channels), hidden_channels_(std::move(hidden_channels)) {}
  TORCH_ARG(int64_t, in_channels);
  TORCH_ARG(std::vector<int64_t>, hidden_channels);
  TORCH_ARG(std::optional<NormLayer>, norm_layer) = std::nullopt;
  TORCH_ARG(std::optional<ActivationLayer>, activation_layer) = relu_layer();
  TORCH_ARG(std::optional<bool>, inplace) = true;
  TORCH_ARG(bool, bias) = true;
  TORCH_ARG(double, dropout) = 0.0;
};

class MLPImpl : public nn::SequentialImpl {
 public:
  MLPImpl(int64_t in_channels, std::vector<int64_t> hidden_channels)
      : MLPImpl(MLPOptions(in_channels, std::move(hidden_channels))) {}
  explicit MLPImpl(const MLPOptions& options_);
  void pretty_print(std::ostream& stream) const override { stream << "MLP"; }
  EMBER_VISION_SEQUENTIAL_CLONE(MLPImpl)
  MLPOptions options;
};
TORCH_MODULE(MLP);

class PermuteImpl : public nn::Cloneable<PermuteImpl> {
 public:
  explicit PermuteImpl(std::vector<int64_t> dims) : dims(std::move(dims)) {}
  void reset() override {}
  void pretty_print(std::ostream& stream) const override;
  Tensor forward(const Tensor& x);
  std::vector<int64_t> dims;
};
TORCH_MODULE(Permute);

}  // namespace torch::vision::ops
