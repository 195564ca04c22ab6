#pragma once
// nn::functional normalization, as torch::nn::functional: batch_norm,
// layer_norm, group_norm. Each maps its options onto ember/ops/normalization.h.
#include <optional>

#include "ember/core/error.h"
#include "ember/core/shape.h"
#include "ember/core/tensor.h"
#include "ember/nn/options/normalization.h"
#include "ember/ops/normalization.h"

namespace ember::nn::functional {

namespace detail {
inline std::optional<Tensor> opt_tensor(const Tensor& t) {
  return t.defined() ? std::optional<Tensor>(t) : std::nullopt;
}
}  // namespace detail

// Training needs more than one value per channel, as torch.nn.functional.batch_norm.
inline Tensor batch_norm(const Tensor& input, const Tensor& running_mean, const Tensor& running_var,
                         const BatchNormFuncOptions& options = {}) {
  EMBER_CHECK(input.dim() >= 2, "batch_norm: expected input with at least 2 dims, got ", shape_str(input.sizes()));
  if (options.training()) {
    int64_t per_channel = input.size(0);
    for (int64_t d = 2; d < input.dim(); ++d) per_channel *= input.size(d);
    EMBER_CHECK(per_channel != 1, "batch_norm: expected more than 1 value per channel when training, got input size ",
                shape_str(input.sizes()));
  }
  return ember::batch_norm(input, detail::opt_tensor(options.weight()), detail::opt_tensor(options.bias()),
                           detail::opt_tensor(running_mean), detail::opt_tensor(running_var), options.training(),
                           options.momentum().value_or(0.0), options.eps(), false);
}

inline Tensor layer_norm(const Tensor& input, const LayerNormFuncOptions& options) {
  return ember::layer_norm(input, options.normalized_shape(), detail::opt_tensor(options.weight()),
                           detail::opt_tensor(options.bias()), options.eps());
}

inline Tensor group_norm(const Tensor& input, const GroupNormFuncOptions& options) {
  return ember::group_norm(input, options.num_groups(), detail::opt_tensor(options.weight()),
                           detail::opt_tensor(options.bias()), options.eps());
}

}  // namespace ember::nn::functional
