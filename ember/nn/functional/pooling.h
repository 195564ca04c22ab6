#pragma once
// nn::functional max/avg pooling with *FuncOptions, as torch::nn::functional::max_pool2d.
#include <tuple>

#include "ember/nn/options/pooling.h"
#include "ember/ops/pool.h"

namespace ember::nn::functional {

#define EMBER_FUNCTIONAL_POOL(D)                                                                                 \
  inline Tensor max_pool##D##d(const Tensor& input, const MaxPool##D##dFuncOptions& options) {                   \
    return ember::max_pool##D##d(input, options.kernel_size(), options.stride(), options.padding(),              \
                                 options.dilation(), options.ceil_mode());                                       \
  }                                                                                                              \
  inline std::tuple<Tensor, Tensor> max_pool##D##d_with_indices(const Tensor& input,                             \
                                                                const MaxPool##D##dFuncOptions& options) {       \
    return ember::max_pool##D##d_with_indices(input, options.kernel_size(), options.stride(), options.padding(), \
                                              options.dilation(), options.ceil_mode());                          \
  }

EMBER_FUNCTIONAL_POOL(1)
EMBER_FUNCTIONAL_POOL(2)
EMBER_FUNCTIONAL_POOL(3)
#undef EMBER_FUNCTIONAL_POOL

inline Tensor avg_pool1d(const Tensor& input, const AvgPool1dFuncOptions& options) {
  return ember::avg_pool1d(input, options.kernel_size(), options.stride(), options.padding(), options.ceil_mode(),
                           options.count_include_pad());
}
inline Tensor avg_pool2d(const Tensor& input, const AvgPool2dFuncOptions& options) {
  return ember::avg_pool2d(input, options.kernel_size(), options.stride(), options.padding(), options.ceil_mode(),
                           options.count_include_pad(), options.divisor_override());
}
inline Tensor avg_pool3d(const Tensor& input, const AvgPool3dFuncOptions& options) {
  return ember::avg_pool3d(input, options.kernel_size(), options.stride(), options.padding(), options.ceil_mode(),
                           options.count_include_pad(), options.divisor_override());
}

}  // namespace ember::nn::functional
