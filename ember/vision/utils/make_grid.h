#pragma once
// torchvision.utils.make_grid: a batch of images tiled into one image.
#include <cstdint>
#include <optional>
#include <tuple>
#include <vector>

#include "ember/core/tensor.h"

namespace torch::vision::utils {

// tensor: [B, C, H, W] (or [C, H, W], [H, W]); single-channel images become
// three-channel. normalize shifts to [0, 1] by value_range or the min/max
// (per image with scale_each).
Tensor make_grid(const Tensor& tensor, int64_t nrow = 8, int64_t padding = 2, bool normalize = false,
                 std::optional<std::tuple<double, double>> value_range = std::nullopt, bool scale_each = false,
                 double pad_value = 0.0);
Tensor make_grid(const std::vector<Tensor>& tensors, int64_t nrow = 8, int64_t padding = 2, bool normalize = false,
                 std::optional<std::tuple<double, double>> value_range = std::nullopt, bool scale_each = false,
                 double pad_value = 0.0);

}  // namespace torch::vision::utils
