#pragma once
// nn::functional normalization, as torch::nn::functional: batch_norm,
// layer_norm, group_norm. Each maps its options onto ember/ops/nn/normalization.h.
#include <optional>

#include "ember/core/error.h"
#include "ember/core/shape.h"
#include "ember/core/tensor.h"
#include "ember/nn/options/normalization.h"
#include "ember/ops/nn/normalization.h"

namespace torch::nn::functional {

namespace detail {
inline std::optional<Tensor> opt_tensor(const Tensor& t) {
  return t.defined() ? std::optional<Tensor>(t) : std::nullopt;
}
}  // namespace detail

inline Tensor layer_norm(const Tensor& input, const LayerNormFuncOptions& options) {
  return ember::layer_norm(input, options.normalized_shape(), detail::opt_tensor(options.weight()),
                           detail::opt_tensor(options.bias()), options.eps());
}

inline Tensor group_norm(const Tensor& input, const GroupNormFuncOptions& options) {
  return ember::group_norm(input, options.num_groups(), detail::opt_tensor(options.weight()),
                           detail::opt_tensor(options.bias()), options.eps());
}

}  // namespace torch::nn::functional
