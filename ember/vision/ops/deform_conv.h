#pragma once
// torchvision.ops.deform_conv2d (deformable convolution v1, and v2 with a
// modulation mask) and the DeformConv2d module. Differentiable in the input,
// offset, mask, weight and bias.
#include <cstdint>
#include <optional>
#include <ostream>

#include "ember/core/arg.h"
#include "ember/core/expanding_array.h"
#include "ember/core/tensor.h"
#include "ember/nn/cloneable.h"
#include "ember/nn/pimpl.h"

namespace torch::vision::ops {

// input Tensor[B, C, H, W]; offset Tensor[B, 2 * offset_groups * kh * kw, oH, oW]
// ((dy, dx) pairs per kernel tap); weight Tensor[OC, C / groups, kh, kw];
// mask Tensor[B, offset_groups * kh * kw, oH, oW]. groups and offset_groups
// follow from the shapes, as torchvision's.
Tensor deform_conv2d(const Tensor& input, const Tensor& offset, const Tensor& weight,
                     const std::optional<Tensor>& bias = std::nullopt, ExpandingArray<2> stride = 1,
                     ExpandingArray<2> padding = 0, ExpandingArray<2> dilation = 1,
                     const std::optional<Tensor>& mask = std::nullopt);

struct DeformConv2dOptions {
  DeformConv2dOptions(int64_t in_channels, int64_t out_channels, ExpandingArray<2> kernel_size)
      : in_channels_(in_channels), out_channels_(out_channels), kernel_size_(kernel_size) {}
  TORCH_ARG(int64_t, in_channels);
  TORCH_ARG(int64_t, out_channels);
  TORCH_ARG(ExpandingArray<2>, kernel_size);
  TORCH_ARG(ExpandingArray<2>, stride) = 1;
  TORCH_ARG(ExpandingArray<2>, padding) = 0;
  TORCH_ARG(ExpandingArray<2>, dilation) = 1;
  TORCH_ARG(int64_t, groups) = 1;
  TORCH_ARG(bool, bias) = true;
};

class DeformConv2dImpl : public nn::Cloneable<DeformConv2dImpl> {
 public:
  DeformConv2dImpl(int64_t in_channels, int64_t out_channels, ExpandingArray<2> kernel_size)
      : DeformConv2dImpl(DeformConv2dOptions(in_channels, out_channels, kernel_size)) {}
  explicit DeformConv2dImpl(const DeformConv2dOptions& options_);
  void reset() override;
  void reset_parameters();
  void pretty_print(std::ostream& stream) const override;
  Tensor forward(const Tensor& input, const Tensor& offset, const std::optional<Tensor>& mask = std::nullopt);

  DeformConv2dOptions options;
  Tensor weight, bias;
};
TORCH_MODULE(DeformConv2d);

}  // namespace torch::vision::ops
