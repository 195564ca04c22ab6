#pragma once
// nn::functional::local_response_norm (a composition of differentiable ops,
// ember/ops/nn/normalization.cpp).
#include "ember/nn/options/local_response_norm.h"
#include "ember/ops/nn/normalization.h"

namespace torch::nn::functional {

inline Tensor local_response_norm(const Tensor& input, const LocalResponseNormFuncOptions& options) {
  return ember::local_response_norm(input, options.size(), options.alpha(), options.beta(), options.k());
}

}  // namespace torch::nn::functional
