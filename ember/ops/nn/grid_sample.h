#pragma once
// Spatial transformer sampling (ops/nn/grid_sample.cpp): affine_grid_generator
// builds the sampling grid of an affine map, grid_sampler reads the input at
// the grid's points (bilinear or nearest, zeros/border/reflection outside).
// Both are compositions of differentiable ops (gather, arithmetic, where), so
// gradients reach the input and the grid, with tangents and batching from
// those ops.
#include <cstdint>

#include "ember/core/tensor.h"

namespace torch {

// PyTorch's integer codes (at::native::GridSamplerInterpolation / Padding).
enum class GridSampleMode : int64_t { Bilinear = 0, Nearest = 1 };
enum class GridSamplePadding : int64_t { Zeros = 0, Border = 1, Reflection = 2 };

// theta [N, 2, 3] and size [N, C, H, W] give a grid [N, H, W, 2]; theta
// [N, 3, 4] and size [N, C, D, H, W] give [N, D, H, W, 3]. The grid holds
// (x, y[, z]) in [-1, 1] coordinates, pixel centres unless align_corners.
Tensor affine_grid_generator(const Tensor& theta, IntArrayRef size, bool align_corners);
// input [N, C, H, W] with grid [N, Ho, Wo, 2] gives [N, C, Ho, Wo]; 5-D inputs
// take grids [N, Do, Ho, Wo, 3]. interpolation_mode and padding_mode are the
// integer codes above.
Tensor grid_sampler(const Tensor& input, const Tensor& grid, int64_t interpolation_mode, int64_t padding_mode,
                    bool align_corners);

}  // namespace torch
