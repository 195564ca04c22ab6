#pragma once
// Padding (at::constant_pad_nd, at::pad). `pad` lists (left, right) pairs
// starting from the LAST dim, as PyTorch does; negative pads crop.
#include <optional>
#include <string_view>

#include "ember/core/tensor.h"

namespace torch {

Tensor constant_pad_nd(const Tensor& self, IntArrayRef pad, const Scalar& value = 0);
// mode: "constant", "reflect", "replicate" or "circular".
Tensor pad(const Tensor& self, IntArrayRef pad, std::string_view mode = "constant",
           std::optional<double> value = std::nullopt);

}  // namespace torch
