#pragma once
// nn::functional max/avg pooling with *FuncOptions, as torch::nn::functional::max_pool2d.
#include <tuple>
#include <vector>

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

namespace detail {
// Output sizes of an adaptive pool: a nullopt element takes the input's size in
// that dim (the trailing D dims), as torch::nn::modules::utils::_list_with_default.
template <size_t D>
std::vector<int64_t> list_with_default(const char* op, const ExpandingArrayWithOptionalElem<D>& sizes,
                                       const Tensor& input) {
  EMBER_CHECK(input.dim() >= static_cast<int64_t>(D) + 1, op, ": input should have at least ", D + 1, " dims, got ",
              shape_str(input.sizes()));
  std::vector<int64_t> out(D);
  for (size_t i = 0; i < D; ++i) {
    const auto& v = (*sizes)[i];
    out[i] = v.has_value() ? *v : input.size(input.dim() - static_cast<int64_t>(D) + static_cast<int64_t>(i));
  }
  return out;
}
inline std::vector<int64_t> list_with_default(const char*, const ExpandingArray<1>& sizes, const Tensor&) {
  return {(*sizes)[0]};
}
}  // namespace detail

#define EMBER_FUNCTIONAL_ADAPTIVE_POOL(D)                                                                       \
  inline Tensor adaptive_avg_pool##D##d(const Tensor& input, const AdaptiveAvgPool##D##dFuncOptions& options) { \
    return ember::adaptive_avg_pool##D##d(                                                                      \
        input, detail::list_with_default("adaptive_avg_pool" #D "d", options.output_size(), input));            \
  }                                                                                                             \
  inline std::tuple<Tensor, Tensor> adaptive_max_pool##D##d_with_indices(                                       \
      const Tensor& input, const AdaptiveMaxPool##D##dFuncOptions& options) {                                   \
    return ember::adaptive_max_pool##D##d(                                                                      \
        input, detail::list_with_default("adaptive_max_pool" #D "d", options.output_size(), input));            \
  }                                                                                                             \
  inline Tensor adaptive_max_pool##D##d(const Tensor& input, const AdaptiveMaxPool##D##dFuncOptions& options) { \
    return std::get<0>(adaptive_max_pool##D##d_with_indices(input, options));                                   \
  }

EMBER_FUNCTIONAL_ADAPTIVE_POOL(1)
EMBER_FUNCTIONAL_ADAPTIVE_POOL(2)
EMBER_FUNCTIONAL_ADAPTIVE_POOL(3)
#undef EMBER_FUNCTIONAL_ADAPTIVE_POOL

}  // namespace ember::nn::functional
