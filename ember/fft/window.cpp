// Window functions with the formulas of ATen's TensorFactories.cpp. Each is
// a function of the sample index over a symmetric window of length L
// (L + 1 when periodic, the last sample then dropped).
#include "ember/fft/window.h"
#include "ember/core/record_scope.h"

#include <cmath>
#include <numbers>
#include <vector>

#include "ember/ops/factory/factory.h"

namespace torch {

namespace {

template <typename F>
Tensor make_window(const char* op, int64_t length, bool periodic, const TensorOptions& options, F value) {
  EMBER_RECORD_OP(op);
  EMBER_CHECK(length >= 0, op, " requires non-negative window_length, got window_length=", length);
  const ScalarType t = options.dtype();
  EMBER_CHECK(is_floating_point(t), op, " expects floating point dtypes, got: ", dtype_name(t));
  if (length == 0) return empty({0}, options);
  if (length == 1) return ones({1}, options);
  const int64_t full = periodic ? length + 1 : length;
  std::vector<double> w(static_cast<size_t>(length));
  for (int64_t i = 0; i < length; ++i) w[i] = value(static_cast<double>(i), static_cast<double>(full));
  Tensor out = empty({length}, TensorOptions(kDouble));
  std::copy(w.begin(), w.end(), static_cast<double*>(out.data_ptr()));
  return out.to(t).requires_grad_(options.requires_grad());
}

Tensor hamming(const char* op, int64_t length, bool periodic, double alpha, double beta, const TensorOptions& options) {
  return make_window(op, length, periodic, options,
                     [=](double i, double n) { return alpha - beta * std::cos(2 * std::numbers::pi * i / (n - 1)); });
}

}  // namespace

Tensor hann_window(int64_t window_length, const TensorOptions& options) {
  return hann_window(window_length, true, options);
}
Tensor hann_window(int64_t window_length, bool periodic, const TensorOptions& options) {
  return hamming("hann_window", window_length, periodic, 0.5, 0.5, options);
}

Tensor hamming_window(int64_t window_length, const TensorOptions& options) {
  return hamming_window(window_length, true, options);
}
Tensor hamming_window(int64_t window_length, bool periodic, const TensorOptions& options) {
  return hamming_window(window_length, periodic, 0.54, 0.46, options);
}
Tensor hamming_window(int64_t window_length, bool periodic, double alpha, const TensorOptions& options) {
  return hamming_window(window_length, periodic, alpha, 0.46, options);
}
Tensor hamming_window(int64_t window_length, bool periodic, double alpha, double beta, const TensorOptions& options) {
  return hamming("hamming_window", window_length, periodic, alpha, beta, options);
}

Tensor blackman_window(int64_t window_length, const TensorOptions& options) {
  return blackman_window(window_length, true, options);
}
Tensor blackman_window(int64_t window_length, bool periodic, const TensorOptions& options) {
  return make_window("blackman_window", window_length, periodic, options, [](double i, double n) {
    const double x = std::numbers::pi * i / (n - 1);
    return 0.42 - 0.5 * std::cos(2 * x) + 0.08 * std::cos(4 * x);
  });
}

Tensor bartlett_window(int64_t window_length, const TensorOptions& options) {
  return bartlett_window(window_length, true, options);
}
Tensor bartlett_window(int64_t window_length, bool periodic, const TensorOptions& options) {
  return make_window("bartlett_window", window_length, periodic, options, [](double i, double n) {
    // Rises 0 -> 1 over the first half ((n - 1) / 2 + 1 samples), then falls as 2 - x.
    const double x = 2 * i / (n - 1);
    const int64_t first_half = ((static_cast<int64_t>(n) - 1) >> 1) + 1;
    return static_cast<int64_t>(i) < first_half ? x : 2 - x;
  });
}

Tensor kaiser_window(int64_t window_length, const TensorOptions& options) {
  return kaiser_window(window_length, true, 12.0, options);
}
Tensor kaiser_window(int64_t window_length, bool periodic, const TensorOptions& options) {
  return kaiser_window(window_length, periodic, 12.0, options);
}
Tensor kaiser_window(int64_t window_length, bool periodic, double beta, const TensorOptions& options) {
  return make_window("kaiser_window", window_length, periodic, options, [=](double i, double n) {
    const double alpha = (n - 1) / 2.0, r = (i - alpha) / alpha;
    return std::cyl_bessel_i(0.0, beta * std::sqrt(std::max(0.0, 1 - r * r))) / std::cyl_bessel_i(0.0, beta);
  });
}

}  // namespace torch
