#pragma once
// nn::functional softmax family and the remaining activations, as
// torch::nn::functional. Each forwards to ember/ops/{softmax,activation}.h.
#include "ember/core/tensor.h"
#include "ember/nn/options/activation_extra.h"
#include "ember/ops/all_ops.h"
#include "ember/ops/nn/activation.h"
#include "ember/ops/nn/softmax.h"

namespace torch::nn::functional {

inline Tensor softmax(const Tensor& input, const SoftmaxFuncOptions& options) {
  return ember::softmax(input, options.dim(), options.dtype());
}
inline Tensor log_softmax(const Tensor& input, const LogSoftmaxFuncOptions& options) {
  return ember::log_softmax(input, options.dim(), options.dtype());
}
// softmax(-input), as torch.nn.functional.softmin.
inline Tensor softmin(const Tensor& input, const SoftminFuncOptions& options) {
  return ember::softmax(-input, options.dim(), options.dtype());
}

// Samples from the Gumbel-softmax distribution over `dim` (torch.nn.functional.gumbel_softmax):
// softmax((logits + g) / tau) with g ~ Gumbel(0, 1); `hard` returns the one-hot argmax with the
// soft sample's gradient (straight-through).
inline Tensor gumbel_softmax(const Tensor& logits, const GumbelSoftmaxFuncOptions& options = {}) {
  const Tensor gumbels = -ember::empty_like(logits).exponential_().log();
  const Tensor y_soft = ember::softmax((logits + gumbels) / options.tau(), options.dim());
  if (!options.hard()) return y_soft;
  const Tensor index = std::get<1>(y_soft.max(options.dim(), /*keepdim=*/true));
  const Tensor y_hard = ember::zeros_like(logits).scatter_(options.dim(), index, 1.0);
  return y_hard - y_soft.detach() + y_soft;
}

inline Tensor relu6(Tensor input, const ReLU6FuncOptions& options = {}) {
  return options.inplace() ? ember::relu6_(input) : ember::relu6(input);
}
inline Tensor prelu(const Tensor& input, const Tensor& weight) { return ember::prelu(input, weight); }
inline Tensor celu(Tensor input, const CELUFuncOptions& options = {}) {
  return options.inplace() ? ember::celu_(input, options.alpha()) : ember::celu(input, options.alpha());
}
inline Tensor hardtanh(Tensor input, const HardtanhFuncOptions& options = {}) {
  return options.inplace() ? ember::hardtanh_(input, options.min_val(), options.max_val())
                           : ember::hardtanh(input, options.min_val(), options.max_val());
}
inline Tensor softsign(const Tensor& input) { return input / (input.abs() + 1); }
inline Tensor softshrink(const Tensor& input, const SoftshrinkFuncOptions& options = {}) {
  return ember::softshrink(input, options.lambda());
}
inline Tensor hardshrink(const Tensor& input, const HardshrinkFuncOptions& options = {}) {
  return ember::hardshrink(input, options.lambda());
}
inline Tensor tanhshrink(const Tensor& input) { return ember::tanhshrink(input); }
inline Tensor logsigmoid(const Tensor& input) { return ember::log_sigmoid(input); }
inline Tensor threshold(Tensor input, const ThresholdFuncOptions& options) {
  return options.inplace() ? ember::threshold_(input, options.threshold(), options.value())
                           : ember::threshold(input, options.threshold(), options.value());
}
inline Tensor glu(const Tensor& input, const GLUFuncOptions& options = {}) { return ember::glu(input, options.dim()); }
inline Tensor rrelu(Tensor input, const RReLUFuncOptions& options = {}) {
  return options.inplace() ? ember::rrelu_(input, options.lower(), options.upper(), options.training())
                           : ember::rrelu(input, options.lower(), options.upper(), options.training());
}

}  // namespace torch::nn::functional
