#pragma once
// nn::functional max/avg pooling with *FuncOptions, as torch::nn::functional::max_pool2d.
#include <tuple>
#include <vector>

#include "ember/core/shape.h"

#include "ember/nn/options/pooling.h"
#include "ember/ops/nn/pool.h"

namespace torch::nn::functional {

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

namespace detail {
// The spatial output size of max_unpool: (in - 1) * stride - 2 * padding +
// kernel per dim, or the requested size (its last D entries), which must lie
// strictly within one stride of that default (PyTorch's _unpool_output_size).
template <size_t D>
std::vector<int64_t> unpool_output_size(const char* op, const Tensor& input, const MaxUnpoolFuncOptions<D>& o) {
  EMBER_CHECK(input.dim() >= static_cast<int64_t>(D) + 1, op, ": expected an input of at least ", D + 1, " dims, got ",
              shape_str(input.sizes()));
  std::vector<int64_t> out(D);
  for (size_t d = 0; d < D; ++d) {
    const int64_t in = input.size(input.dim() - static_cast<int64_t>(D) + static_cast<int64_t>(d));
    out[d] = (in - 1) * (*o.stride())[d] + (*o.kernel_size())[d] - 2 * (*o.padding())[d];
  }
  if (!o.output_size()) return out;
  std::vector<int64_t> want = *o.output_size();
  if (want.size() == D + 2) want.erase(want.begin(), want.begin() + 2);
  EMBER_CHECK(want.size() == D, op, ": output_size must have ", D, " or ", D + 2, " elements (got ",
              o.output_size()->size(), ")");
  for (size_t d = 0; d < D; ++d) {
    const int64_t lo = out[d] - (*o.stride())[d], hi = out[d] + (*o.stride())[d];
    EMBER_CHECK(lo < want[d] && want[d] < hi, op, ": invalid output_size ", shape_str(want), " (dim ", d,
                " must be between ", lo, " and ", hi, ")");
  }
  return want;
}
}  // namespace detail

inline Tensor max_unpool1d(const Tensor& input, const Tensor& indices, const MaxUnpool1dFuncOptions& options) {
  std::vector<int64_t> size = detail::unpool_output_size("max_unpool1d", input, options);
  size.push_back(1);
  return ember::max_unpool2d(input.unsqueeze(-1), indices.unsqueeze(-1), size).squeeze(-1);
}
inline Tensor max_unpool2d(const Tensor& input, const Tensor& indices, const MaxUnpool2dFuncOptions& options) {
  return ember::max_unpool2d(input, indices, detail::unpool_output_size("max_unpool2d", input, options));
}
inline Tensor max_unpool3d(const Tensor& input, const Tensor& indices, const MaxUnpool3dFuncOptions& options) {
  return ember::max_unpool3d(input, indices, detail::unpool_output_size("max_unpool3d", input, options),
                             options.stride(), options.padding());
}

// Power-average pooling: (sum over the window of x^p)^(1/p), PyTorch's
// composition (an average pool of x^p times the window size; a negative
// window sum from odd p and negative inputs becomes 0).
inline Tensor lp_pool1d(const Tensor& input, const LPPool1dFuncOptions& options) {
  const double p = options.norm_type();
  const Tensor out = ember::avg_pool1d(input.pow(p), options.kernel_size(), options.stride(), 0, options.ceil_mode());
  return out.sign().mul(out.abs().relu()).mul((*options.kernel_size())[0]).pow(1.0 / p);
}
inline Tensor lp_pool2d(const Tensor& input, const LPPool2dFuncOptions& options) {
  const double p = options.norm_type();
  const auto& k = *options.kernel_size();
  const Tensor out = ember::avg_pool2d(input.pow(p), options.kernel_size(), options.stride(), 0, options.ceil_mode());
  return out.sign().mul(out.abs().relu()).mul(k[0] * k[1]).pow(1.0 / p);
}

}  // namespace torch::nn::functional
