#pragma once
// nn::functional dropout family, as torch::nn::functional::dropout.
#include "ember/core/tensor.h"
#include "ember/nn/options/dropout.h"
#include "ember/ops/nn/dropout.h"

namespace torch::nn::functional {

namespace detail {
// Checks p and applies `op`, writing into the input when inplace (as PyTorch's dropout_).
template <typename Op>
Tensor apply_dropout(const char* name, Tensor input, double p, bool training, bool inplace, Op op) {
  EMBER_CHECK(p >= 0.0 && p <= 1.0, name, ": dropout probability has to be between 0 and 1, but got ", p);
  Tensor result = op(input, p, training);
  if (!inplace) return result;
  input.copy_(result);
  return input;
}
// Dropout2d/3d treat any input that is not (N, C, *spatial) as unbatched and add a batch
// dim, as PyTorch 1.13 (which only warns about other ranks).
inline Tensor feature_dropout_nd(const char* name, const Tensor& input, int64_t spatial, double p, bool training,
                                 bool inplace) {
  const bool batched = input.dim() == spatial + 2;
  return apply_dropout(name, input, p, training, inplace, [&](const Tensor& x, double q, bool t) {
    if (!batched) return ember::feature_dropout(x.unsqueeze(0), q, t).squeeze(0);
    return ember::feature_dropout(x, q, t);
  });
}
}  // namespace detail

inline Tensor dropout(const Tensor& input, const DropoutFuncOptions& options = {}) {
  return detail::apply_dropout("dropout", input, options.p(), options.training(), options.inplace(),
                               [](const Tensor& x, double p, bool t) { return ember::dropout(x, p, t); });
}
inline Tensor dropout2d(const Tensor& input, const Dropout2dFuncOptions& options = {}) {
  return detail::feature_dropout_nd("dropout2d", input, 2, options.p(), options.training(), options.inplace());
}
inline Tensor dropout3d(const Tensor& input, const Dropout3dFuncOptions& options = {}) {
  return detail::feature_dropout_nd("dropout3d", input, 3, options.p(), options.training(), options.inplace());
}
inline Tensor alpha_dropout(const Tensor& input, const AlphaDropoutFuncOptions& options = {}) {
  return detail::apply_dropout("alpha_dropout", input, options.p(), options.training(), options.inplace(),
                               [](const Tensor& x, double p, bool t) { return ember::alpha_dropout(x, p, t); });
}
inline Tensor feature_alpha_dropout(const Tensor& input, const FeatureAlphaDropoutFuncOptions& options = {}) {
  return detail::apply_dropout("feature_alpha_dropout", input, options.p(), options.training(), options.inplace(),
                               [](const Tensor& x, double p, bool t) { return ember::feature_alpha_dropout(x, p, t); });
}

}  // namespace torch::nn::functional
