#pragma once
// The upsampling ops beyond ops/nn/upsample.h (same file of kernels, ops/nn/upsample.cpp):
// 3-d nearest, "nearest-exact" in 1-3 d, linear 1-d, trilinear 3-d and the antialiased
// bilinear/bicubic 2-d, with PyTorch's at:: names. Inputs are batched (N, C, *spatial); the optional scales are
// PyTorch's scale factors (output / input), used by the source-index formula when given.
#include <optional>

#include "ember/core/tensor.h"

namespace torch {

Tensor upsample_nearest3d(const Tensor& input, IntArrayRef output_size, std::optional<double> scales_d = std::nullopt,
                          std::optional<double> scales_h = std::nullopt, std::optional<double> scales_w = std::nullopt);
// "nearest-exact": source index floor((dst + 0.5) * scale), as PyTorch's _upsample_nearest_exact*d.
Tensor _upsample_nearest_exact1d(const Tensor& input, IntArrayRef output_size,
                                 std::optional<double> scales = std::nullopt);
Tensor _upsample_nearest_exact2d(const Tensor& input, IntArrayRef output_size,
                                 std::optional<double> scales_h = std::nullopt,
                                 std::optional<double> scales_w = std::nullopt);
Tensor _upsample_nearest_exact3d(const Tensor& input, IntArrayRef output_size,
                                 std::optional<double> scales_d = std::nullopt,
                                 std::optional<double> scales_h = std::nullopt,
                                 std::optional<double> scales_w = std::nullopt);
// interpolate(antialias=true): PIL-style resampling whose filter support grows with the
// downscale factor (Note [Antialiased interpolation] in ops/nn/upsample.cpp).
Tensor _upsample_bilinear2d_aa(const Tensor& input, IntArrayRef output_size, bool align_corners,
                               std::optional<double> scales_h = std::nullopt,
                               std::optional<double> scales_w = std::nullopt);
Tensor _upsample_bicubic2d_aa(const Tensor& input, IntArrayRef output_size, bool align_corners,
                              std::optional<double> scales_h = std::nullopt,
                              std::optional<double> scales_w = std::nullopt);
Tensor upsample_linear1d(const Tensor& input, IntArrayRef output_size, bool align_corners,
                         std::optional<double> scales = std::nullopt);
Tensor upsample_trilinear3d(const Tensor& input, IntArrayRef output_size, bool align_corners,
                            std::optional<double> scales_d = std::nullopt,
                            std::optional<double> scales_h = std::nullopt,
                            std::optional<double> scales_w = std::nullopt);

}  // namespace torch
