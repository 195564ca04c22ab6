#pragma once
// CPU kernels of the binary family. Each takes a TensorIterator whose inputs
// already have the compute dtype (ops/elementwise/binary.cpp casts them) and whose output
// has the result dtype (the compute dtype, or bool for comparisons).
#include <cstdint>
#include <type_traits>

#include "ember/core/scalar.h"
#include "ember/kernels/cpu/tensor_iterator.h"

namespace ember::kernels {

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

// Per-call values some functors read; the rest ignore them.
struct BinaryArgs {
  const char* op = "";        // for errors raised inside a kernel (integer division by zero)
  Scalar alpha = 1;           // add_scaled: a + alpha * b; threshold_backward: the threshold
  double rtol = 0, atol = 0;  // isclose
  bool equal_nan = false;     // isclose
};

#define EMBER_BINARY_OP(name, ...) void name##_kernel(const TensorIterator& iter, const BinaryArgs& args);
#define EMBER_BINARY_KERNEL(name, ...) void name##_kernel(const TensorIterator& iter, const BinaryArgs& args);
#include "ember/tables/binary.def"
#undef EMBER_BINARY_KERNEL
#undef EMBER_BINARY_OP

// Ternary kernels (binary_kernels_ternary.cpp); all operands share one dtype.
void clamp_kernel(const TensorIterator& iter);                              // out, self, min, max
void lerp_kernel(const TensorIterator& iter);                               // out, self, end, weight
void lerp_scalar_kernel(const TensorIterator& iter, const Scalar& weight);  // out, self, end
// out, grad_output, self: the gradient where min < self < max or self is NaN, else 0 (as ATen).
void hardtanh_backward_kernel(const TensorIterator& iter, const Scalar& min_val, const Scalar& max_val);
void addcmul_kernel(const TensorIterator& iter, const Scalar& value);  // out, self, t1, t2
void addcdiv_kernel(const TensorIterator& iter, const Scalar& value);  // out, self, t1, t2

}  // namespace ember::kernels
