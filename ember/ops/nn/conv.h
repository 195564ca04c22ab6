#pragma once
// Convolutions (at::conv1d/2d/3d, conv_transpose1d/2d/3d, convolution), with
// PyTorch's names, signatures and defaults. Inputs are batched (N, C, *spatial)
// or unbatched (C, *spatial). float32 runs on oneDNN, float64 on im2col + GEMM
// (Note [Convolution kernels] in conv_kernels.h).
#include <string_view>
#include <type_traits>

#include "ember/core/tensor.h"

namespace torch {

Tensor convolution(const Tensor& input, const Tensor& weight, const Tensor& bias, IntArrayRef stride,
                   IntArrayRef padding, IntArrayRef dilation, bool transposed, IntArrayRef output_padding,
                   int64_t groups);

Tensor conv1d(const Tensor& input, const Tensor& weight, const Tensor& bias = {}, IntArrayRef stride = 1,
              IntArrayRef padding = 0, IntArrayRef dilation = 1, int64_t groups = 1);
Tensor conv2d(const Tensor& input, const Tensor& weight, const Tensor& bias = {}, IntArrayRef stride = 1,
              IntArrayRef padding = 0, IntArrayRef dilation = 1, int64_t groups = 1);
Tensor conv3d(const Tensor& input, const Tensor& weight, const Tensor& bias = {}, IntArrayRef stride = 1,
              IntArrayRef padding = 0, IntArrayRef dilation = 1, int64_t groups = 1);
// padding = "valid" (no padding) or "same" (output size = input size; stride must be 1).
// A template so that `0` and `{0, 1}` keep meaning IntArrayRef padding (with a
// plain string_view parameter both would be ambiguous).
Tensor conv1d_padding_str(const Tensor& input, const Tensor& weight, const Tensor& bias, IntArrayRef stride,
                          std::string_view padding, IntArrayRef dilation, int64_t groups);
Tensor conv2d_padding_str(const Tensor& input, const Tensor& weight, const Tensor& bias, IntArrayRef stride,
                          std::string_view padding, IntArrayRef dilation, int64_t groups);
Tensor conv3d_padding_str(const Tensor& input, const Tensor& weight, const Tensor& bias, IntArrayRef stride,
                          std::string_view padding, IntArrayRef dilation, int64_t groups);
template <typename S>
requires std::is_convertible_v<const S&, std::string_view> Tensor conv1d(const Tensor& input, const Tensor& weight,
                                                                         const Tensor& bias, IntArrayRef stride,
                                                                         const S& padding, IntArrayRef dilation = 1,
                                                                         int64_t groups = 1) {
  return conv1d_padding_str(input, weight, bias, stride, padding, dilation, groups);
}
template <typename S>
requires std::is_convertible_v<const S&, std::string_view> Tensor conv2d(const Tensor& input, const Tensor& weight,
                                                                         const Tensor& bias, IntArrayRef stride,
                                                                         const S& padding, IntArrayRef dilation = 1,
                                                                         int64_t groups = 1) {
  return conv2d_padding_str(input, weight, bias, stride, padding, dilation, groups);
}
template <typename S>
requires std::is_convertible_v<const S&, std::string_view> Tensor conv3d(const Tensor& input, const Tensor& weight,
                                                                         const Tensor& bias, IntArrayRef stride,
                                                                         const S& padding, IntArrayRef dilation = 1,
                                                                         int64_t groups = 1) {
  return conv3d_padding_str(input, weight, bias, stride, padding, dilation, groups);
}

Tensor conv_transpose1d(const Tensor& input, const Tensor& weight, const Tensor& bias = {}, IntArrayRef stride = 1,
                        IntArrayRef padding = 0, IntArrayRef output_padding = 0, int64_t groups = 1,
                        IntArrayRef dilation = 1);
Tensor conv_transpose2d(const Tensor& input, const Tensor& weight, const Tensor& bias = {}, IntArrayRef stride = 1,
                        IntArrayRef padding = 0, IntArrayRef output_padding = 0, int64_t groups = 1,
                        IntArrayRef dilation = 1);
Tensor conv_transpose3d(const Tensor& input, const Tensor& weight, const Tensor& bias = {}, IntArrayRef stride = 1,
                        IntArrayRef padding = 0, IntArrayRef output_padding = 0, int64_t groups = 1,
                        IntArrayRef dilation = 1);

}  // namespace torch
