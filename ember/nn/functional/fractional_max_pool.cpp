#include "ember/nn/functional/fractional_max_pool.h"

#include <algorithm>
#include <cmath>

#include "ember/core/checked_arith.h"
#include "ember/core/error.h"
#include "ember/ops/all_ops.h"

namespace torch::nn::functional::detail {

namespace {
// The window starts along one dimension, as ATen's generate_intervals, in the input's
// precision T (float inputs round as LibTorch's do).
template <typename T>
std::vector<int64_t> window_starts(T sample, int64_t input, int64_t output, int64_t kernel) {
  std::vector<int64_t> starts(static_cast<size_t>(output));
  if (output > 1) {
    const T alpha = static_cast<T>(input - kernel) / static_cast<T>(output - 1);
    for (int64_t i = 0; i < output - 1; ++i)
      starts[i] = static_cast<int64_t>((static_cast<T>(i) + sample) * alpha) - static_cast<int64_t>(sample * alpha);
  }
  if (output > 0) starts[output - 1] = input - kernel;
  return starts;
}
}  // namespace

// Note [Fractional max pooling by gather]
// The pool is composed of differentiable ops, so autograd gives its backward (the gradient goes
// to each window's argmax, as LibTorch's kernel sends it): the flat input index of every
// (window, offset) pair is laid out once, the input gathered through it, and the max taken over
// each window's offsets (NaN wins; among equal values the first, as LibTorch's strict `>`).
// ATen's sample order is kept: for 2-D, sample 0 draws the width's windows and sample 1 the
// height's; for 3-D, samples 0, 1, 2 draw time, height, width.
std::tuple<Tensor, Tensor> fractional_max_pool(const char* name, const Tensor& input, std::vector<int64_t> kernel,
                                               std::optional<std::vector<int64_t>> output_size,
                                               std::optional<std::vector<double>> output_ratio, Tensor samples) {
  const int64_t D = static_cast<int64_t>(kernel.size());
  EMBER_CHECK(output_size.has_value() || output_ratio.has_value(), name,
              " requires specifying either an output_size or an output_ratio");
  EMBER_CHECK(input.dim() == D + 1 || input.dim() == D + 2, name, ": expected ", D + 1, "D or ", D + 2,
              "D input, got input of shape ", input.sizes());
  EMBER_CHECK(input.is_floating_point(), name, ": expected a floating-point input, got ", input.dtype());
  const bool batched = input.dim() == D + 2;
  const Tensor x = batched ? input : input.unsqueeze(0);
  const int64_t N = x.size(0), C = x.size(1);
  std::vector<int64_t> in(D), out(D);
  for (int64_t d = 0; d < D; ++d) {
    in[d] = x.size(2 + d);
    EMBER_CHECK(in[d] > 0, name, ": expected non-empty spatial dimensions, got input of shape ", input.sizes());
    EMBER_CHECK(kernel[d] > 0, name, ": kernel_size must be greater than zero, got ", kernel[d]);
    if (output_size) {
      EMBER_CHECK(static_cast<int64_t>(output_size->size()) == D, name, ": output_size must have ", D, " entries");
      out[d] = (*output_size)[d];
    } else {
      const double r = (*output_ratio)[d];
      EMBER_CHECK(r > 0 && r < 1, name, ": output_ratio must be between 0 and 1 (got ", r, ")");
      out[d] = static_cast<int64_t>(static_cast<double>(in[d]) * r);
    }
    EMBER_CHECK(out[d] > 0, name, ": output size must be positive, got ", out[d]);
    EMBER_CHECK(out[d] + kernel[d] - 1 <= in[d], name, ": pool size ", kernel[d], " too large relative to input size ",
                in[d], " for output size ", out[d], " (input of shape ", input.sizes(), ")");
  }
  if (!samples.defined()) samples = rand({N, C, D}, x.options());
  EMBER_CHECK(samples.dim() == 3 && samples.size(0) == N && samples.size(1) == C && samples.size(2) == D, name,
              ": _random_samples must have shape [", N, ", ", C, ", ", D, "], got ", samples.sizes());
  const Tensor s = samples.to(kFloat64).contiguous();
  const double* sp = s.data_ptr<double>();

  // Which sample draws dimension d (see the Note).
  const auto sample_of = [D](int64_t d) { return D == 2 ? 1 - d : d; };
  std::vector<int64_t> in_stride(D, 1);
  for (int64_t d = D - 2; d >= 0; --d) in_stride[d] = in_stride[d + 1] * in[d + 1];
  const int64_t plane = checked_mul(in_stride[0], in[0], name);
  int64_t outputs = 1, window = 1;
  for (int64_t d = 0; d < D; ++d) {
    outputs = checked_mul(outputs, out[d], name);
    window = checked_mul(window, kernel[d], name);
  }
  Tensor idx = empty({N * C, checked_mul(outputs, window, name)}, kInt64);
  int64_t* ip = idx.data_ptr<int64_t>();
  const bool single = x.dtype() == kFloat32 || x.dtype() == kFloat16 || x.dtype() == kBFloat16;
  std::vector<std::vector<int64_t>> starts(D);
  std::vector<int64_t> o(D), k(D);
  for (int64_t p = 0; p < N * C; ++p) {
    for (int64_t d = 0; d < D; ++d) {
      const double u = sp[p * D + sample_of(d)];
      starts[d] = single ? window_starts<float>(static_cast<float>(u), in[d], out[d], kernel[d])
                         : window_starts<double>(u, in[d], out[d], kernel[d]);
    }
    int64_t* row = ip + p * outputs * window;
    std::fill(o.begin(), o.end(), 0);
    for (int64_t oi = 0; oi < outputs; ++oi) {
      std::fill(k.begin(), k.end(), 0);
      for (int64_t ki = 0; ki < window; ++ki) {
        int64_t flat = 0;
        for (int64_t d = 0; d < D; ++d) flat += (starts[d][o[d]] + k[d]) * in_stride[d];
        *row++ = flat;
        for (int64_t d = D - 1; d >= 0 && ++k[d] == kernel[d]; --d) k[d] = 0;
      }
      for (int64_t d = D - 1; d >= 0 && ++o[d] == out[d]; --d) o[d] = 0;
    }
  }
  idx = idx.view({N, C, outputs * window});
  const Tensor gathered = x.reshape({N, C, plane}).gather(2, idx).view({N, C, outputs, window});
  auto [values, arg] = gathered.max(3);
  Tensor indices = idx.view({N, C, outputs, window}).gather(3, arg.unsqueeze(3)).squeeze(3);
  std::vector<int64_t> shape{N, C};
  shape.insert(shape.end(), out.begin(), out.end());
  values = values.view(shape);
  indices = indices.view(shape);
  if (!batched) return {values.squeeze(0), indices.squeeze(0)};
  return {values, indices};
}

}  // namespace torch::nn::functional::detail
