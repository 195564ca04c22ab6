#pragma once
// torchvision.models.resnet: ResNet, ResNeXt and Wide ResNet. Module names
// equal torchvision's (conv1, bn1, layer1.0.downsample.0, fc, ...), so its
// checkpoints load unchanged.
#include <cstdint>
#include <optional>
#include <vector>

#include "ember/core/arg.h"
#include "ember/core/tensor.h"
#include "ember/nn/cloneable.h"
#include "ember/nn/modules/container/any.h"
#include "ember/nn/modules/container/sequential.h"
#include "ember/nn/modules/conv.h"
#include "ember/nn/modules/linear.h"
#include "ember/nn/pimpl.h"
#include "ember/vision/models/weights_enums.h"
#include "ember/vision/ops/misc.h"

namespace torch::vision::models {

// Python passes the block class; Ember names it.
enum class ResNetBlock { BasicBlock, Bottleneck };

struct BlockOptions {
  BlockOptions(int64_t inplanes, int64_t planes) : inplanes_(inplanes), planes_(planes) {}
  TORCH_ARG(int64_t, inplanes);
  TORCH_ARG(int64_t, planes);
  TORCH_ARG(int64_t, stride) = 1;
  TORCH_ARG(std::optional<nn::Sequential>, downsample) = std::nullopt;
  TORCH_ARG(int64_t, groups) = 1;
  TORCH_ARG(int64_t, base_width) = 64;
  TORCH_ARG(int64_t, dilation) = 1;
  // nullopt: BatchNorm2d.
  TORCH_ARG(std::optional<ops::NormLayer>, norm_layer) = std::nullopt;
};
using BasicBlockOptions = BlockOptions;
using BottleneckOptions = BlockOptions;

class BasicBlockImpl : public nn::Cloneable<BasicBlockImpl> {
 public:
  static constexpr int64_t expansion = 1;
  explicit BasicBlockImpl(const BlockOptions& options_);
  void reset() override;
  void pretty_print(std::ostream& stream) const override { stream << "BasicBlock"; }
  Tensor forward(const Tensor& x);
  BlockOptions options;
  nn::Conv2d conv1{nullptr}, conv2{nullptr};
  nn::AnyModule bn1, relu, bn2;
  std::optional<nn::Sequential> downsample;
};
TORCH_MODULE(BasicBlock);

// The torchvision "ResNet V1.5" bottleneck: the stride sits on the 3x3 conv.
class BottleneckImpl : public nn::Cloneable<BottleneckImpl> {
 public:
  static constexpr int64_t expansion = 4;
  explicit BottleneckImpl(const BlockOptions& options_);
  void reset() override;
  void pretty_print(std::ostream& stream) const override { stream << "Bottleneck"; }
  Tensor forward(const Tensor& x);
  BlockOptions options;
  nn::Conv2d conv1{nullptr}, conv2{nullptr}, conv3{nullptr};
  nn::AnyModule bn1, bn2, bn3, relu;
  std::optional<nn::Sequential> downsample;
};
TORCH_MODULE(Bottleneck);

struct ResNetOptions {
  ResNetOptions(ResNetBlock block, std::vector<int64_t> layers) : block_(block), layers_(std::move(layers)) {}
  TORCH_ARG(ResNetBlock, block);
  TORCH_ARG(std::vector<int64_t>, layers);
  TORCH_ARG(int64_t, num_classes) = 1000;
  TORCH_ARG(bool, zero_init_residual) = false;
  TORCH_ARG(int64_t, groups) = 1;
  TORCH_ARG(int64_t, width_per_group) = 64;
  // One flag for each of layer2, layer3, layer4: dilate instead of striding.
  TORCH_ARG(std::optional<std::vector<bool>>, replace_stride_with_dilation) = std::nullopt;
  TORCH_ARG(std::optional<ops::NormLayer>, norm_layer) = std::nullopt;
};

class ResNetImpl : public nn::Cloneable<ResNetImpl> {
 public:
  explicit ResNetImpl(const ResNetOptions& options_);
  ResNetImpl(ResNetBlock block, std::vector<int64_t> layers) : ResNetImpl(ResNetOptions(block, std::move(layers))) {}
  void reset() override;
  void pretty_print(std::ostream& stream) const override { stream << "ResNet"; }
  // x: [N, 3, H, W] float; returns [N, num_classes] logits.
  Tensor forward(const Tensor& x);
  ResNetOptions options;
  nn::Conv2d conv1{nullptr};
  nn::AnyModule bn1, relu, maxpool, avgpool;
  nn::Sequential layer1{nullptr}, layer2{nullptr}, layer3{nullptr}, layer4{nullptr};
  nn::Linear fc{nullptr};

 private:
  nn::Sequential make_layer(int64_t planes, int64_t blocks, int64_t stride, bool dilate);
  int64_t inplanes_ = 64;
  int64_t dilation_ = 1;
};
TORCH_MODULE(ResNet);

// The builders' keyword arguments (Python's **kwargs to ResNet). num_classes
// nullopt: 1000, or the number of categories of the weights.
struct ResNetKwargs {
  TORCH_ARG(std::optional<int64_t>, num_classes) = std::nullopt;
  TORCH_ARG(bool, zero_init_residual) = false;
  TORCH_ARG(std::optional<int64_t>, groups) = std::nullopt;
  TORCH_ARG(std::optional<int64_t>, width_per_group) = std::nullopt;
  TORCH_ARG(std::optional<std::vector<bool>>, replace_stride_with_dilation) = std::nullopt;
  TORCH_ARG(std::optional<ops::NormLayer>, norm_layer) = std::nullopt;
};

ResNet resnet18(std::optional<Weights> weights = std::nullopt, bool progress = true, const ResNetKwargs& kwargs = {});
ResNet resnet34(std::optional<Weights> weights = std::nullopt, bool progress = true, const ResNetKwargs& kwargs = {});
ResNet resnet50(std::optional<Weights> weights = std::nullopt, bool progress = true, const ResNetKwargs& kwargs = {});
ResNet resnet101(std::optional<Weights> weights = std::nullopt, bool progress = true, const ResNetKwargs& kwargs = {});
ResNet resnet152(std::optional<Weights> weights = std::nullopt, bool progress = true, const ResNetKwargs& kwargs = {});
ResNet resnext50_32x4d(std::optional<Weights> weights = std::nullopt, bool progress = true,
                       const ResNetKwargs& kwargs = {});
ResNet resnext101_32x8d(std::optional<Weights> weights = std::nullopt, bool progress = true,
                        const ResNetKwargs& kwargs = {});
ResNet resnext101_64x4d(std::optional<Weights> weights = std::nullopt, bool progress = true,
                        const ResNetKwargs& kwargs = {});
ResNet wide_resnet50_2(std::optional<Weights> weights = std::nullopt, bool progress = true,
                       const ResNetKwargs& kwargs = {});
ResNet wide_resnet101_2(std::optional<Weights> weights = std::nullopt, bool progress = true,
                        const ResNetKwargs& kwargs = {});

}  // namespace torch::vision::models
