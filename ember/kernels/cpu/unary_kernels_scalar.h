#pragma once
// Scalar definitions of the ops in tables/unary.def, one function per row with the
// row's name. They take opmath values (float for float16/bfloat16, the type
// itself otherwise) and follow PyTorch's CPU kernels, including NaN/inf and
// integer wrap-around behaviour. The kernels (unary_kernels.cpp) call them for
// the dtypes a row's kind allows, so each function only needs those types.
#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "ember/core/dtype.h"

namespace ember::kernels::scalar {

// One line per op reads as the table it is.
// clang-format off

template <typename T>
constexpr bool is_int_v = std::is_integral_v<T> && !std::is_same_v<T, bool>;

// Integer negation/multiplication wrap like PyTorch's (two's complement) instead of overflowing (UB).
template <typename T>
inline T wrap_neg(T x) {
  return static_cast<T>(uint64_t(0) - static_cast<uint64_t>(x));
}

// Complex -> its real magnitude (the row is CplxToReal).
template <typename T>
inline auto abs(T x) {
  if constexpr (is_complex_v<T>) {
    return std::abs(x);
  } else if constexpr (is_int_v<T>) {
    if constexpr (std::is_signed_v<T>) return x < 0 ? wrap_neg(x) : x;
    else return x;
  } else {
    return std::abs(x);
  }
}
template <typename T>
inline T neg(T x) {
  if constexpr (is_int_v<T>) return wrap_neg(x); else return -x;
}
template <typename T>
inline T sign(T x) {
  if constexpr (std::is_same_v<T, bool>) return x;
  else return static_cast<T>((T(0) < x) - (x < T(0)));  // NaN -> 0, as PyTorch
}
template <typename T>
inline T sgn(T x) {
  if constexpr (is_complex_v<T>) {
    using V = typename T::value_type;
    return x == T(0) ? T(0) : x / T(std::abs(x), V(0));
  } else {
    return sign(x);
  }
}

template <typename T> inline T exp(T x) { return std::exp(x); }
template <typename T> inline T exp2(T x) { return std::exp2(x); }
template <typename T> inline T expm1(T x) { return std::expm1(x); }
template <typename T> inline T log(T x) { return std::log(x); }
template <typename T>
inline T log2(T x) {
  if constexpr (is_complex_v<T>) {
    using V = typename T::value_type;
    return std::log(x) / V(0.693147180559945309417232121458176568L);
  } else {
    return std::log2(x);
  }
}
template <typename T> inline T log10(T x) { return std::log10(x); }
template <typename T> inline T log1p(T x) { return std::log1p(x); }
template <typename T> inline T sqrt(T x) { return std::sqrt(x); }
template <typename T> inline T rsqrt(T x) { return T(1) / std::sqrt(x); }
template <typename T> inline T sin(T x) { return std::sin(x); }
template <typename T> inline T cos(T x) { return std::cos(x); }
template <typename T> inline T tan(T x) { return std::tan(x); }
template <typename T> inline T asin(T x) { return std::asin(x); }
template <typename T> inline T acos(T x) { return std::acos(x); }
template <typename T> inline T atan(T x) { return std::atan(x); }
template <typename T> inline T sinh(T x) { return std::sinh(x); }
template <typename T> inline T cosh(T x) { return std::cosh(x); }
template <typename T> inline T tanh(T x) { return std::tanh(x); }
template <typename T> inline T asinh(T x) { return std::asinh(x); }
template <typename T> inline T acosh(T x) { return std::acosh(x); }
template <typename T> inline T atanh(T x) { return std::atanh(x); }
template <typename T> inline T sigmoid(T x) { return T(1) / (T(1) + std::exp(-x)); }
template <typename T> inline T erf(T x) { return std::erf(x); }
template <typename T> inline T erfc(T x) { return std::erfc(x); }
// The reentrant forms: std::lgamma writes the global signgam, a data race under parallel_for.
template <typename T>
inline T lgamma(T x) {
  int sign;
  if constexpr (std::is_same_v<T, float>) return ::lgammaf_r(x, &sign); else return ::lgamma_r(x, &sign);
}

double erfinv_double(double y);   // unary_kernels_special.cpp
double digamma_double(double x);  // unary_kernels_special.cpp
// Both are computed in double and rounded, which is at least as accurate as
// PyTorch's float versions.
template <typename T> inline T erfinv(T x) { return static_cast<T>(erfinv_double(x)); }
template <typename T> inline T digamma(T x) { return static_cast<T>(digamma_double(x)); }

// On integers floor/ceil/trunc/round are the identity (PyTorch returns a copy).
template <typename T>
inline T floor(T x) {
  if constexpr (is_int_v<T>) return x; else return std::floor(x);
}
template <typename T>
inline T ceil(T x) {
  if constexpr (is_int_v<T>) return x; else return std::ceil(x);
}
template <typename T>
inline T trunc(T x) {
  if constexpr (is_int_v<T>) return x; else return std::trunc(x);
}
template <typename T> inline T frac(T x) { return x - std::trunc(x); }
template <typename T> inline T reciprocal(T x) { return T(1) / x; }
template <typename T>
inline T square(T x) {
  if constexpr (is_int_v<T>) return static_cast<T>(static_cast<uint64_t>(x) * static_cast<uint64_t>(x));
  else return x * x;
}
// relu is clamp_min(x, 0): NaN propagates and -0 stays -0, as in PyTorch.
template <typename T>
inline T relu(T x) {
  return x < T(0) ? T(0) : x;
}
template <typename T> inline T silu(T x) { return x / (T(1) + std::exp(-x)); }
template <typename T> inline T mish(T x) { return x * std::tanh(std::log1p(std::exp(x))); }
template <typename T>
inline T hardsigmoid(T x) {
  // std::min/max keep the first argument on NaN, so NaN propagates like PyTorch.
  return std::min(std::max(x + T(3), T(0)), T(6)) / T(6);
}
template <typename T> inline T hardswish(T x) { return x * std::min(std::max(x + T(3), T(0)), T(6)) / T(6); }
template <typename T>
inline T selu(T x) {
  constexpr T kAlpha = T(1.6732632423543772848170429916717);
  constexpr T kScale = T(1.0507009873554804934193349852946);
  return x > T(0) ? kScale * x : kScale * kAlpha * std::expm1(x);
}
template <typename T>
inline T bitwise_not(T x) {
  if constexpr (std::is_same_v<T, bool>) return !x; else return static_cast<T>(~x);
}
template <typename T> inline bool logical_not(T x) { return x == T(0); }

// clang-format on

}  // namespace ember::kernels::scalar
