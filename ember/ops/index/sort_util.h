#pragma once
// Orderings shared by the sort family: NaN ranks above every number, and ties
// break by position so every result is deterministic.
#include <cstdint>
#include <vector>

#include "ember/kernels/cpu/reduce_ops.h"

namespace torch::ops {

template <typename V>
inline bool nan_last_less(V a, V b) {
  return !kernels::is_nan_v(a) && (kernels::is_nan_v(b) || a < b);
}

// Reads a strided line of T as opmath values.
template <typename T>
void load_line(const char* p, int64_t byte_stride, int64_t len, std::vector<opmath_t<T>>& out) {
  out.resize(len);
  for (int64_t k = 0; k < len; ++k) out[k] = static_cast<opmath_t<T>>(*reinterpret_cast<const T*>(p + k * byte_stride));
}

}  // namespace torch::ops
