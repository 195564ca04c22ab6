#pragma once
// Options of nn::functional::grid_sample, as torch/nn/options/vision.h.
#include <optional>
#include <variant>

#include "ember/core/arg.h"
#include "ember/nn/enum.h"

namespace torch::nn::functional {

// GridSampleFuncOptions().mode(torch::kNearest).padding_mode(torch::kBorder).align_corners(true)
struct GridSampleFuncOptions {
  using mode_t = std::variant<enumtype::kBilinear, enumtype::kNearest>;
  using padding_mode_t = std::variant<enumtype::kZeros, enumtype::kBorder, enumtype::kReflection>;
  TORCH_ARG(mode_t, mode) = enumtype::kBilinear();
  TORCH_ARG(padding_mode_t, padding_mode) = enumtype::kZeros();
  // Unset means false, PyTorch's default since 1.3.
  TORCH_ARG(std::optional<bool>, align_corners) = std::nullopt;
};

}  // namespace torch::nn::functional
