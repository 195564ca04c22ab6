#pragma once
// Scalar definitions of the ops in tables/unary.def: one function per row with
// the row's name, expanded from the row's element column, and the helpers
// that column calls. They take opmath values (float for float16/bfloat16, the
// type itself otherwise) and follow PyTorch's CPU kernels, including NaN/inf
// and integer wrap-around behaviour. The kernels (unary_kernels.cpp) call them
// for the dtypes a row's kind allows, so each function only needs those types.
#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "ember/core/dtype.h"
#include "ember/kernels/cpu/unary_kernels.h"

namespace torch::kernels::scalar {

// Short helpers read best one line each.
// clang-format off

template <typename T>
constexpr bool is_int_v = std::is_integral_v<T> && !std::is_same_v<T, bool>;

// Integer negation/multiplication wrap like PyTorch's (two's complement) instead of overflowing (UB).
template <typename T>
inline T wrap_neg(T x) {
  return static_cast<T>(uint64_t(0) - static_cast<uint64_t>(x));
}

// Helpers of the rows' element column, for kernels that need statements; one
// per op at most, named <op>_of.

// Complex -> its real magnitude (the row is CplxToReal).
template <typename T>
inline auto abs_of(T x) {
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
inline T neg_of(T x) {
  if constexpr (is_int_v<T>) return wrap_neg(x); else return -x;
}
template <typename T>
inline T sign_of(T x) {
  if constexpr (std::is_same_v<T, bool>) return x;
  else return static_cast<T>((T(0) < x) - (x < T(0)));  // NaN -> 0, as PyTorch
}
template <typename T>
inline T sgn_of(T x) {
  if constexpr (is_complex_v<T>) {
    using V = typename T::value_type;
    return x == T(0) ? T(0) : x / T(std::abs(x), V(0));
  } else {
    return sign_of(x);
  }
}
template <typename T>
inline T log2_of(T x) {
  if constexpr (is_complex_v<T>) {
    using V = typename T::value_type;
    return std::log(x) / V(0.693147180559945309417232121458176568L);
  } else {
    return std::log2(x);
  }
}
// The reentrant forms: std::lgamma writes the global signgam, a data race under parallel_for.
template <typename T>
inline T lgamma_of(T x) {
  int sign;
  if constexpr (std::is_same_v<T, float>) return ::lgammaf_r(x, &sign); else return ::lgamma_r(x, &sign);
}

// Both are computed in double and rounded, which is at least as accurate as
// PyTorch's float versions.
double erfinv_double(double y);   // unary_kernels_special.cpp
double digamma_double(double x);  // unary_kernels_special.cpp

// On integers floor/ceil/trunc/round are the identity (PyTorch returns a copy).
template <typename T>
inline T floor_of(T x) {
  if constexpr (is_int_v<T>) return x; else return std::floor(x);
}
template <typename T>
inline T ceil_of(T x) {
  if constexpr (is_int_v<T>) return x; else return std::ceil(x);
}
template <typename T>
inline T trunc_of(T x) {
  if constexpr (is_int_v<T>) return x; else return std::trunc(x);
}
template <typename T>
inline T square_of(T x) {
  if constexpr (is_int_v<T>) return static_cast<T>(static_cast<uint64_t>(x) * static_cast<uint64_t>(x));
  else return x * x;
}
template <typename T>
inline T selu_of(T x) {
  constexpr T kAlpha = T(1.6732632423543772848170429916717);
  constexpr T kScale = T(1.0507009873554804934193349852946);
  return x > T(0) ? kScale * x : kScale * kAlpha * std::expm1(x);
}
template <typename T>
inline T bitwise_not_of(T x) {
  if constexpr (std::is_same_v<T, bool>) return !x; else return static_cast<T>(~x);
}

// clang-format on

// The element function of every row, kernels::scalar::<name>(x), from the
// row's element column. Note: relu is clamp_min(x, 0) (NaN propagates, -0
// stays -0), and std::min/max keep their first argument on NaN, so the
// hard* rows propagate NaN, as PyTorch.
template <typename T, UnaryKind K, UnaryComplex C>
using unary_element_t =
    std::conditional_t<K == UnaryKind::Logical, bool, std::conditional_t<C == UnaryComplex::CplxToReal, value_t<T>, T>>;
#define EMBER_UNARY_OP(name, kind, cplx, vec, element, ...)                  \
  template <typename T>                                                      \
  inline unary_element_t<T, UnaryKind::kind, UnaryComplex::cplx> name(T x) { \
    return element;                                                          \
  }
#include "ember/tables/unary.def"
#undef EMBER_UNARY_OP

}  // namespace torch::kernels::scalar
