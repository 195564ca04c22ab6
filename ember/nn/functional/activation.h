#pragma once
// nn::functional activations, as torch::nn::functional: F::relu(x,
// F::ReLUFuncOptions().inplace(true)). Each forwards to the op in ember/ops.
#include "ember/core/tensor.h"
#include "ember/nn/options/activation.h"
#include "ember/ops/elementwise/unary.h"

namespace torch::nn::functional {

inline Tensor relu(Tensor input, const ReLUFuncOptions& options = {}) {
  return options.inplace() ? ember::relu_(input) : ember::relu(input);
}
inline Tensor elu(Tensor input, const ELUFuncOptions& options = {}) {
  return options.inplace() ? ember::elu_(input, options.alpha()) : ember::elu(input, options.alpha());
}
inline Tensor selu(Tensor input, const SELUFuncOptions& options = {}) {
  return options.inplace() ? ember::selu_(input) : ember::selu(input);
}
inline Tensor leaky_relu(Tensor input, const LeakyReLUFuncOptions& options = {}) {
  return options.inplace() ? ember::leaky_relu_(input, options.negative_slope())
                           : ember::leaky_relu(input, options.negative_slope());
}
inline Tensor gelu(const Tensor& input, const GELUFuncOptions& options = {}) {
  return ember::gelu(input, options.approximate());
}
inline Tensor softplus(const Tensor& input, const SoftplusFuncOptions& options = {}) {
  return ember::softplus(input, options.beta(), options.threshold());
}
inline Tensor silu(const Tensor& input) { return ember::silu(input); }
inline Tensor mish(const Tensor& input) { return ember::mish(input); }
inline Tensor hardswish(Tensor input, const HardswishFuncOptions& options = {}) {
  return options.inplace() ? ember::hardswish_(input) : ember::hardswish(input);
}
inline Tensor hardsigmoid(Tensor input, const HardsigmoidFuncOptions& options = {}) {
  return options.inplace() ? ember::hardsigmoid_(input) : ember::hardsigmoid(input);
}

}  // namespace torch::nn::functional
