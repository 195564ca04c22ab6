#pragma once
// Fractional max pooling (Graham, 2014), as torch::nn::functional::fractional_max_pool2d/3d:
// max pooling over windows of a fixed size whose starts advance by a pseudo-random mix of
// floor(alpha) and ceil(alpha) steps, alpha = (input - kernel) / (output - 1).
#include <optional>
#include <tuple>
#include <vector>

#include "ember/core/tensor.h"
#include "ember/nn/options/pooling.h"

namespace torch::nn::functional {

namespace detail {
// The D-dimensional pool on [N, C, *] or [C, *]: (values, flat indices within each plane).
// `output_ratio` is used when `output_size` is not given; undefined `samples` are drawn.
std::tuple<Tensor, Tensor> fractional_max_pool(const char* name, const Tensor& input, std::vector<int64_t> kernel,
                                               std::optional<std::vector<int64_t>> output_size,
                                               std::optional<std::vector<double>> output_ratio, Tensor samples);

template <size_t D>
std::tuple<Tensor, Tensor> fractional_max_pool(const char* name, const Tensor& input,
                                               const FractionalMaxPoolOptions<D>& options) {
  std::optional<std::vector<int64_t>> size;
  std::optional<std::vector<double>> ratio;
  if (options.output_size())
    size = std::vector<int64_t>((*options.output_size())->begin(), (*options.output_size())->end());
  if (options.output_ratio())
    ratio = std::vector<double>((*options.output_ratio())->begin(), (*options.output_ratio())->end());
  const auto& k = *options.kernel_size();
  return fractional_max_pool(name, input, std::vector<int64_t>(k.begin(), k.end()), size, ratio,
                             options._random_samples());
}
}  // namespace detail

inline std::tuple<Tensor, Tensor> fractional_max_pool2d_with_indices(const Tensor& input,
                                                                     const FractionalMaxPool2dFuncOptions& options) {
  return detail::fractional_max_pool<2>("fractional_max_pool2d", input, options);
}
inline Tensor fractional_max_pool2d(const Tensor& input, const FractionalMaxPool2dFuncOptions& options) {
  return std::get<0>(fractional_max_pool2d_with_indices(input, options));
}
inline std::tuple<Tensor, Tensor> fractional_max_pool3d_with_indices(const Tensor& input,
                                                                     const FractionalMaxPool3dFuncOptions& options) {
  return detail::fractional_max_pool<3>("fractional_max_pool3d", input, options);
}
inline Tensor fractional_max_pool3d(const Tensor& input, const FractionalMaxPool3dFuncOptions& options) {
  return std::get<0>(fractional_max_pool3d_with_indices(input, options));
}

}  // namespace torch::nn::functional
