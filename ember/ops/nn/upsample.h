#pragma once
// Upsampling (at::upsample_*) and pixel (un)shuffle, with PyTorch's names and
// signatures. Inputs are batched: (N, C, W) for 1-d, (N, C, H, W) for 2-d.
#include <optional>

#include "ember/core/tensor.h"

namespace torch {

Tensor upsample_nearest1d(const Tensor& input, IntArrayRef output_size, std::optional<double> scales = std::nullopt);
Tensor upsample_nearest2d(const Tensor& input, IntArrayRef output_size, std::optional<double> scales_h = std::nullopt,
                          std::optional<double> scales_w = std::nullopt);
Tensor upsample_bilinear2d(const Tensor& input, IntArrayRef output_size, bool align_corners,
                           std::optional<double> scales_h = std::nullopt,
                           std::optional<double> scales_w = std::nullopt);
Tensor upsample_bicubic2d(const Tensor& input, IntArrayRef output_size, bool align_corners,
                          std::optional<double> scales_h = std::nullopt, std::optional<double> scales_w = std::nullopt);

Tensor pixel_shuffle(const Tensor& self, int64_t upscale_factor);
Tensor pixel_unshuffle(const Tensor& self, int64_t downscale_factor);
// Interleaves the channels of [N, C, *] from `groups` groups of C / groups
// (ShuffleNet): channel g * (C / groups) + i goes to i * groups + g.
Tensor channel_shuffle(const Tensor& self, int64_t groups);
inline Tensor native_channel_shuffle(const Tensor& self, int64_t groups) { return channel_shuffle(self, groups); }

}  // namespace torch
