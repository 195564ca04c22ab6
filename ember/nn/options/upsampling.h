#pragma once
// Options of Upsample and F::interpolate, as torch/nn/options/upsampling.h.
#include <optional>
#include <variant>
#include <vector>

#include "ember/core/arg.h"
#include "ember/nn/enum.h"

namespace torch::nn {

// UpsampleOptions().scale_factor(std::vector<double>{2, 2}).mode(torch::kBilinear).align_corners(false)
struct UpsampleOptions {
  using mode_t = std::variant<enumtype::kNearest, enumtype::kLinear, enumtype::kBilinear, enumtype::kBicubic,
                              enumtype::kTrilinear>;
  TORCH_ARG(std::optional<std::vector<int64_t>>, size) = std::nullopt;
  TORCH_ARG(std::optional<std::vector<double>>, scale_factor) = std::nullopt;
  TORCH_ARG(mode_t, mode) = enumtype::kNearest();
  TORCH_ARG(std::optional<bool>, align_corners) = std::nullopt;
};

namespace functional {
// F::interpolate(x, F::InterpolateFuncOptions().size(std::vector<int64_t>{4, 4}).mode(torch::kBicubic))
struct InterpolateFuncOptions {
  using mode_t = std::variant<enumtype::kNearest, enumtype::kLinear, enumtype::kBilinear, enumtype::kBicubic,
                              enumtype::kTrilinear, enumtype::kArea, enumtype::kNearestExact>;
  TORCH_ARG(std::optional<std::vector<int64_t>>, size) = std::nullopt;
  TORCH_ARG(std::optional<std::vector<double>>, scale_factor) = std::nullopt;
  TORCH_ARG(mode_t, mode) = enumtype::kNearest();
  TORCH_ARG(std::optional<bool>, align_corners) = std::nullopt;
  TORCH_ARG(std::optional<bool>, recompute_scale_factor) = std::nullopt;
  // Anti-aliased downsampling is not implemented; true raises.
  TORCH_ARG(bool, antialias) = false;
};
}  // namespace functional

}  // namespace torch::nn
