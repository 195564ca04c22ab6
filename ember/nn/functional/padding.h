#pragma once
// nn::functional::pad, as torch::nn::functional::pad (ember/ops/nn/pad.h does the work).
#include <string_view>
#include <variant>

#include "ember/nn/options/padding.h"
#include "ember/ops/nn/pad.h"

namespace torch::nn::functional {

namespace detail {
inline Tensor pad(const Tensor& input, IntArrayRef pad, const PadFuncOptions::mode_t& mode, double value) {
  if (std::holds_alternative<enumtype::kConstant>(mode)) return ember::constant_pad_nd(input, pad, value);
  const std::string_view name = std::holds_alternative<enumtype::kReflect>(mode)     ? "reflect"
                                : std::holds_alternative<enumtype::kReplicate>(mode) ? "replicate"
                                                                                     : "circular";
  return ember::pad(input, pad, name);
}
}  // namespace detail

inline Tensor pad(const Tensor& input, const PadFuncOptions& options) {
  return detail::pad(input, options.pad(), options.mode(), options.value());
}

}  // namespace torch::nn::functional
