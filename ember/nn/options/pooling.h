#pragma once
// Options of the pooling modules and functionals, as torch::nn::MaxPool2dOptions etc.
#include <cstdint>
#include <optional>
#include <vector>

#include "ember/core/arg.h"
#include "ember/core/expanding_array.h"
#include "ember/core/tensor.h"

namespace torch::nn {

// MaxPool2dOptions(2).stride(2); stride defaults to kernel_size.
template <size_t D>
struct MaxPoolOptions {
  MaxPoolOptions(ExpandingArray<D> kernel_size) : kernel_size_(kernel_size), stride_(kernel_size) {}  // NOLINT
  TORCH_ARG(ExpandingArray<D>, kernel_size);
  TORCH_ARG(ExpandingArray<D>, stride);
  TORCH_ARG(ExpandingArray<D>, padding) = 0;
  TORCH_ARG(ExpandingArray<D>, dilation) = 1;
  TORCH_ARG(bool, ceil_mode) = false;
};
using MaxPool1dOptions = MaxPoolOptions<1>;
using MaxPool2dOptions = MaxPoolOptions<2>;
using MaxPool3dOptions = MaxPoolOptions<3>;

// AvgPool2dOptions(2).count_include_pad(false); stride defaults to kernel_size.
template <size_t D>
struct AvgPoolOptions {
  AvgPoolOptions(ExpandingArray<D> kernel_size) : kernel_size_(kernel_size), stride_(kernel_size) {}  // NOLINT
  TORCH_ARG(ExpandingArray<D>, kernel_size);
  TORCH_ARG(ExpandingArray<D>, stride);
  TORCH_ARG(ExpandingArray<D>, padding) = 0;
  TORCH_ARG(bool, ceil_mode) = false;
  TORCH_ARG(bool, count_include_pad) = true;
  TORCH_ARG(std::optional<int64_t>, divisor_override) = std::nullopt;
};
using AvgPool1dOptions = AvgPoolOptions<1>;
using AvgPool2dOptions = AvgPoolOptions<2>;
using AvgPool3dOptions = AvgPoolOptions<3>;

// AdaptiveAvgPool2dOptions({2, std::nullopt}): the output size; a nullopt
// element keeps that dim of the input.
template <typename output_size_t>
struct AdaptiveMaxPoolOptions {
  AdaptiveMaxPoolOptions(output_size_t output_size) : output_size_(output_size) {}  // NOLINT
  TORCH_ARG(output_size_t, output_size);
};
using AdaptiveMaxPool1dOptions = AdaptiveMaxPoolOptions<ExpandingArray<1>>;
using AdaptiveMaxPool2dOptions = AdaptiveMaxPoolOptions<ExpandingArrayWithOptionalElem<2>>;
using AdaptiveMaxPool3dOptions = AdaptiveMaxPoolOptions<ExpandingArrayWithOptionalElem<3>>;

template <typename output_size_t>
struct AdaptiveAvgPoolOptions {
  AdaptiveAvgPoolOptions(output_size_t output_size) : output_size_(output_size) {}  // NOLINT
  TORCH_ARG(output_size_t, output_size);
};
using AdaptiveAvgPool1dOptions = AdaptiveAvgPoolOptions<ExpandingArray<1>>;
using AdaptiveAvgPool2dOptions = AdaptiveAvgPoolOptions<ExpandingArrayWithOptionalElem<2>>;
using AdaptiveAvgPool3dOptions = AdaptiveAvgPoolOptions<ExpandingArrayWithOptionalElem<3>>;

namespace functional {
using AdaptiveMaxPool1dFuncOptions = AdaptiveMaxPool1dOptions;
using AdaptiveMaxPool2dFuncOptions = AdaptiveMaxPool2dOptions;
using AdaptiveMaxPool3dFuncOptions = AdaptiveMaxPool3dOptions;
using AdaptiveAvgPool1dFuncOptions = AdaptiveAvgPool1dOptions;
using AdaptiveAvgPool2dFuncOptions = AdaptiveAvgPool2dOptions;
using AdaptiveAvgPool3dFuncOptions = AdaptiveAvgPool3dOptions;
}  // namespace functional

// MaxUnpool2dOptions(2).stride(2): the max pool's kernel, stride and padding.
template <size_t D>
struct MaxUnpoolOptions {
  MaxUnpoolOptions(ExpandingArray<D> kernel_size) : kernel_size_(kernel_size), stride_(kernel_size) {}  // NOLINT
  TORCH_ARG(ExpandingArray<D>, kernel_size);
  TORCH_ARG(ExpandingArray<D>, stride);
  TORCH_ARG(ExpandingArray<D>, padding) = 0;
};
using MaxUnpool1dOptions = MaxUnpoolOptions<1>;
using MaxUnpool2dOptions = MaxUnpoolOptions<2>;
using MaxUnpool3dOptions = MaxUnpoolOptions<3>;

// LPPool2dOptions(2, 3).stride(2): the power-average pool of norm_type.
template <size_t D>
struct LPPoolOptions {
  LPPoolOptions(double norm_type, ExpandingArray<D> kernel_size)  // NOLINT
      : norm_type_(norm_type), kernel_size_(kernel_size), stride_(kernel_size) {}
  TORCH_ARG(double, norm_type);
  TORCH_ARG(ExpandingArray<D>, kernel_size);
  TORCH_ARG(ExpandingArray<D>, stride);
  TORCH_ARG(bool, ceil_mode) = false;
};
using LPPool1dOptions = LPPoolOptions<1>;
using LPPool2dOptions = LPPoolOptions<2>;

// FractionalMaxPool2dOptions(3).output_size(2) (or .output_ratio(0.5)); _random_samples, when
// defined, fixes the pooling regions ([N, C, D] in [0, 1)), otherwise they are drawn per call.
template <size_t D>
struct FractionalMaxPoolOptions {
  FractionalMaxPoolOptions(ExpandingArray<D> kernel_size) : kernel_size_(kernel_size) {}  // NOLINT
  TORCH_ARG(ExpandingArray<D>, kernel_size);
  TORCH_ARG(std::optional<ExpandingArray<D>>, output_size) = std::nullopt;
  using ExpandingArrayDouble = ExpandingArray<D, double>;
  TORCH_ARG(std::optional<ExpandingArrayDouble>, output_ratio) = std::nullopt;
  TORCH_ARG(Tensor, _random_samples) = Tensor();
};
using FractionalMaxPool2dOptions = FractionalMaxPoolOptions<2>;
using FractionalMaxPool3dOptions = FractionalMaxPoolOptions<3>;

namespace functional {
using FractionalMaxPool2dFuncOptions = FractionalMaxPool2dOptions;
using FractionalMaxPool3dFuncOptions = FractionalMaxPool3dOptions;
// MaxUnpool2dFuncOptions(2).output_size(std::vector<int64_t>{5, 5}): an output
// size (its last D entries count) instead of the default.
template <size_t D>
struct MaxUnpoolFuncOptions {
  MaxUnpoolFuncOptions(ExpandingArray<D> kernel_size) : kernel_size_(kernel_size), stride_(kernel_size) {}  // NOLINT
  TORCH_ARG(ExpandingArray<D>, kernel_size);
  TORCH_ARG(ExpandingArray<D>, stride);
  TORCH_ARG(ExpandingArray<D>, padding) = 0;
  TORCH_ARG(std::optional<std::vector<int64_t>>, output_size) = std::nullopt;
};
using MaxUnpool1dFuncOptions = MaxUnpoolFuncOptions<1>;
using MaxUnpool2dFuncOptions = MaxUnpoolFuncOptions<2>;
using MaxUnpool3dFuncOptions = MaxUnpoolFuncOptions<3>;
using LPPool1dFuncOptions = LPPool1dOptions;
using LPPool2dFuncOptions = LPPool2dOptions;
}  // namespace functional

namespace functional {
using MaxPool1dFuncOptions = MaxPool1dOptions;
using MaxPool2dFuncOptions = MaxPool2dOptions;
using MaxPool3dFuncOptions = MaxPool3dOptions;
using AvgPool1dFuncOptions = AvgPool1dOptions;
using AvgPool2dFuncOptions = AvgPool2dOptions;
using AvgPool3dFuncOptions = AvgPool3dOptions;
}  // namespace functional

}  // namespace torch::nn
