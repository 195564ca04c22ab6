#pragma once
// One contiguous softmax / log_softmax row, y = f(x) over n elements (x and y not
// overlapping): the softmax op's row kernel, also run by fused kernels on rows they
// hold in cache (Note [Fused attention]). NaN and inf as Note [Softmax NaN and inf].
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <type_traits>

#include "ember/core/dtype.h"
#include "ember/kernels/cpu/lane_sum.h"
#include "ember/kernels/cpu/vec_math.h"

namespace torch::kernels {

// The portable loop: max, exp(x - max) summed, then one scaling (or shift) pass.
template <typename T, bool kLog>
void softmax_row_scalar(const T* x, T* y, int64_t n) {
  using Acc = opmath_t<T>;
  Acc mx = -INFINITY;
  for (int64_t i = 0; i < n; ++i) mx = std::max(mx, static_cast<Acc>(x[i]));
  Acc sum = 0;
  if constexpr (kLog) {
    for (int64_t i = 0; i < n; ++i) sum += std::exp(static_cast<Acc>(x[i]) - mx);
    const Acc shift = mx + std::log(sum);
    for (int64_t i = 0; i < n; ++i) y[i] = static_cast<T>(static_cast<Acc>(x[i]) - shift);
  } else {
    for (int64_t i = 0; i < n; ++i) {
      const Acc e = std::exp(static_cast<Acc>(x[i]) - mx);
      y[i] = static_cast<T>(e);
      sum += e;
    }
    const Acc inv = Acc(1) / sum;
    for (int64_t i = 0; i < n; ++i) y[i] = static_cast<T>(static_cast<Acc>(y[i]) * inv);
  }
}

// The row function for T: the vectorised float32 row (Note [Vectorised softmax rows]) when
// there is one, else the portable loop.
template <typename T, bool kLog>
auto softmax_row_fn() -> void (*)(const T*, T*, int64_t) {
  if constexpr (std::is_same_v<T, float>)
    if (const auto row = vec::softmax_row_f32(kLog)) return row;
  return &softmax_row_scalar<T, kLog>;
}

// Softmax's backward along one row: out = y * (g - sum(g * y)), the sum in lanes (Note
// [Row sums in lanes]). out may be g.
template <typename T>
void softmax_backward_row(const T* g, const T* y, T* out, int64_t n) {
  const T s = lane_sum<T>(n, [&](int64_t j) { return g[j] * y[j]; });
  for (int64_t j = 0; j < n; ++j) out[j] = y[j] * (g[j] - s);
}

}  // namespace torch::kernels
