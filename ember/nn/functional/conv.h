#pragma once
// F::conv1d/2d/3d and F::conv_transpose1d/2d/3d, as torch::nn::functional:
// F::conv2d(x, w, F::Conv2dFuncOptions().bias(b).stride(2).padding(torch::kSame)).
#include <variant>

#include "ember/core/tensor.h"
#include "ember/nn/options/conv.h"
#include "ember/ops/nn/conv.h"

namespace torch::nn::functional {

namespace detail {
template <size_t D>
Tensor conv(const Tensor& input, const Tensor& weight, const ConvFuncOptions<D>& o) {
  const auto call = [&](IntArrayRef padding) {
    if constexpr (D == 1) return ember::conv1d(input, weight, o.bias(), o.stride(), padding, o.dilation(), o.groups());
    if constexpr (D == 2) return ember::conv2d(input, weight, o.bias(), o.stride(), padding, o.dilation(), o.groups());
    if constexpr (D == 3) return ember::conv3d(input, weight, o.bias(), o.stride(), padding, o.dilation(), o.groups());
  };
  if (const auto* pad = std::get_if<ExpandingArray<D>>(&o.padding())) return call(*pad);
  if (std::holds_alternative<enumtype::kValid>(o.padding())) return call(IntArrayRef(0));
  const std::string_view same = "same";
  if constexpr (D == 1) return ember::conv1d(input, weight, o.bias(), o.stride(), same, o.dilation(), o.groups());
  if constexpr (D == 2) return ember::conv2d(input, weight, o.bias(), o.stride(), same, o.dilation(), o.groups());
  if constexpr (D == 3) return ember::conv3d(input, weight, o.bias(), o.stride(), same, o.dilation(), o.groups());
}
}  // namespace detail

inline Tensor conv1d(const Tensor& input, const Tensor& weight, const Conv1dFuncOptions& options = {}) {
  return detail::conv<1>(input, weight, options);
}
inline Tensor conv2d(const Tensor& input, const Tensor& weight, const Conv2dFuncOptions& options = {}) {
  return detail::conv<2>(input, weight, options);
}
inline Tensor conv3d(const Tensor& input, const Tensor& weight, const Conv3dFuncOptions& options = {}) {
  return detail::conv<3>(input, weight, options);
}

inline Tensor conv_transpose1d(const Tensor& input, const Tensor& weight, const ConvTranspose1dFuncOptions& o = {}) {
  return ember::conv_transpose1d(input, weight, o.bias(), o.stride(), o.padding(), o.output_padding(), o.groups(),
                                 o.dilation());
}
inline Tensor conv_transpose2d(const Tensor& input, const Tensor& weight, const ConvTranspose2dFuncOptions& o = {}) {
  return ember::conv_transpose2d(input, weight, o.bias(), o.stride(), o.padding(), o.output_padding(), o.groups(),
                                 o.dilation());
}
inline Tensor conv_transpose3d(const Tensor& input, const Tensor& weight, const ConvTranspose3dFuncOptions& o = {}) {
  return ember::conv_transpose3d(input, weight, o.bias(), o.stride(), o.padding(), o.output_padding(), o.groups(),
                                 o.dilation());
}

}  // namespace torch::nn::functional
