#pragma once
// convert<To>(from): the one element conversion used by copies and casts.
// Complex -> real keeps the real part (PyTorch discards the imaginary part);
// float -> int saturates instead of invoking undefined behaviour.
#include <cmath>
#include <limits>
#include <type_traits>

#include "ember/core/dtype.h"

namespace torch::kernels {

template <typename To, typename From>
inline To convert(From v) {
  if constexpr (std::is_same_v<To, From>) {
    return v;
  } else if constexpr (is_complex_v<From>) {
    if constexpr (is_complex_v<To>) {
      using V = typename To::value_type;
      return To(static_cast<V>(v.real()), static_cast<V>(v.imag()));
    } else if constexpr (std::is_same_v<To, bool>) {
      return v.real() != 0 || v.imag() != 0;
    } else {
      return convert<To>(v.real());
    }
  } else if constexpr (is_complex_v<To>) {
    using V = typename To::value_type;
    return To(static_cast<V>(static_cast<opmath_t<From>>(v)), V(0));
  } else if constexpr (std::is_same_v<To, bool>) {
    return static_cast<opmath_t<From>>(v) != 0;
  } else if constexpr (std::is_integral_v<To> && !std::is_integral_v<From>) {
    using F = opmath_t<From>;
    F f = static_cast<F>(v);
    if (!(f == f)) return To(0);
    // Go through int64 like PyTorch's casts do, saturating only where C++ would be undefined.
    if (f >= static_cast<F>(9.2233720368547758e18)) return static_cast<To>(std::numeric_limits<int64_t>::max());
    if (f <= static_cast<F>(-9.2233720368547758e18)) return static_cast<To>(std::numeric_limits<int64_t>::min());
    return static_cast<To>(static_cast<int64_t>(f));
  } else if constexpr (std::is_same_v<To, Half> || std::is_same_v<To, BFloat16>) {
    return To(static_cast<float>(static_cast<opmath_t<From>>(v)));
  } else {
    return static_cast<To>(static_cast<opmath_t<From>>(v));
  }
}

}  // namespace torch::kernels
