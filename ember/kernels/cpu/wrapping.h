#pragma once
// Integer arithmetic that wraps like PyTorch's: the elementwise add/sub/mul
// kernels and the sum/prod reductions and scans share these.
#include <cstdint>
#include <type_traits>

#include "ember/core/namespace.h"

namespace torch::kernels {

namespace detail {
template <typename M>
constexpr bool kWrapInt = std::is_integral_v<M> && !std::is_same_v<M, bool>;

// Note [Integer overflow wraps]
// Integer add/sub/mul wrap modulo 2^bits like PyTorch's, done in unsigned
// arithmetic (at least 32 bits wide so int16*int16 cannot overflow `int`) so
// that overflow is defined behaviour; it compiles to the same instructions.
template <typename M>
using WideUnsigned = std::conditional_t<(sizeof(M) < 4), uint32_t, std::make_unsigned_t<M>>;

template <typename M>
inline M add_wrap(M a, M b) {
  if constexpr (kWrapInt<M>)
    return static_cast<M>(static_cast<WideUnsigned<M>>(a) + static_cast<WideUnsigned<M>>(b));
  else if constexpr (std::is_same_v<M, bool>)
    return a || b;
  else
    return a + b;
}
template <typename M>
inline M sub_wrap(M a, M b) {
  if constexpr (kWrapInt<M>)
    return static_cast<M>(static_cast<WideUnsigned<M>>(a) - static_cast<WideUnsigned<M>>(b));
  else
    return a - b;
}
template <typename M>
inline M mul_wrap(M a, M b) {
  if constexpr (kWrapInt<M>)
    return static_cast<M>(static_cast<WideUnsigned<M>>(a) * static_cast<WideUnsigned<M>>(b));
  else if constexpr (std::is_same_v<M, bool>)
    return a && b;
  else
    return a * b;
}
template <typename M>
inline M neg_wrap(M a) {
  return sub_wrap(M(0), a);
}

}  // namespace detail

}  // namespace torch::kernels
