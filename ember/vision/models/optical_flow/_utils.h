#pragma once
// torchvision.models.optical_flow._utils: the sampling and upsampling helpers
// RAFT uses.
#include <cstdint>
#include <optional>
#include <string>

#include "ember/core/tensor.h"

namespace torch::vision::models::optical_flow::_utils {

// F.grid_sample with a grid of absolute pixel coordinates (x, y) in the last
// dimension, normalized to [-1, 1] by the image's width and height.
Tensor grid_sample(const Tensor& img, const Tensor& absolute_grid, const std::string& mode = "bilinear",
                   std::optional<bool> align_corners = std::nullopt);

// [batch_size, 2, h, w] float grid whose channels are the x and y pixel coordinates.
Tensor make_coords_grid(int64_t batch_size, int64_t h, int64_t w, const std::string& device = "cpu");

// Upsamples [N, 2, h, w] flow by `factor`: bilinear (align_corners) times
// factor without a mask, else the convex combination of each pixel's 3x3
// neighbourhood weighted by softmax(up_mask) ([N, 9 * factor^2, h, w]).
Tensor upsample_flow(const Tensor& flow, const std::optional<Tensor>& up_mask = std::nullopt, int64_t factor = 8);

}  // namespace torch::vision::models::optical_flow::_utils
