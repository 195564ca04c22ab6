#pragma once
// F::interpolate, as torch::nn::functional::interpolate (PyTorch 1.13 rules for
// size / scale_factor / recompute_scale_factor / align_corners).
#include <optional>
#include <vector>

#include "ember/core/tensor.h"
#include "ember/nn/options/upsampling.h"
#include "ember/ops/nn/interpolate.h"

namespace torch::nn::functional {

Tensor interpolate(const Tensor& input, const InterpolateFuncOptions& options = {});

namespace detail {
Tensor interpolate(const Tensor& input, const std::optional<std::vector<int64_t>>& size,
                   const std::optional<std::vector<double>>& scale_factor, const InterpolateFuncOptions::mode_t& mode,
                   std::optional<bool> align_corners, std::optional<bool> recompute_scale_factor, bool antialias);
}  // namespace detail

}  // namespace torch::nn::functional
