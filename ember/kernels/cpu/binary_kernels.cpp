// The kernels tables/binary.def expands into, the helpers its ELEMENT columns
// call and the functors its FUNCTOR columns name. An element sees opmath
// values (float for float16 and bfloat16) and returns the result element;
// binary_loop does the rest.
#include "ember/kernels/cpu/binary_kernels.h"

#include <cmath>
#include <limits>
#include <type_traits>

#include "ember/core/dispatch.h"
#include "ember/kernels/cpu/loops.h"

namespace torch::kernels {
namespace {
using detail::add_wrap;
using detail::mul_wrap;
using detail::neg_wrap;
using detail::sub_wrap;

[[noreturn]] void zero_division(const char* op) { EMBER_ERROR(op, ": ZeroDivisionError (integer division by zero)"); }

template <typename M>
inline bool is_nan(M v) {
  if constexpr (is_complex_v<M>)
    return v.real() != v.real() || v.imag() != v.imag();
  else
    return v != v;
}
template <typename M>
constexpr M nan_of() {
  return std::numeric_limits<M>::quiet_NaN();
}

// Base of every functor: the element types and the argument hook (the
// functors exist for the rows whose element needs BinaryArgs: alpha, the
// threshold, the tolerances, the op's name for its error).
template <typename T, typename Out = T>
struct Fn {
  using M = opmath_t<T>;
  using out_t = Out;
  explicit Fn(const BinaryArgs&) {}
};

// ---- arithmetic ---------------------------------------------------------------

template <typename T>
struct AddScaledOp : Fn<T> {
  using typename Fn<T>::M;
  M alpha;
  explicit AddScaledOp(const BinaryArgs& args) : Fn<T>(args), alpha(args.alpha.to<M>()) {}
  M operator()(M a, M b) const { return add_wrap(a, mul_wrap(alpha, b)); }
};

// Integer division kernels raise on a zero divisor (PyTorch's ZeroDivisionError)
// and treat x / -1 separately: INT_MIN / -1 overflows in C++.
template <typename T>
struct DivTruncOp : Fn<T> {
  using typename Fn<T>::M;
  const char* op;
  explicit DivTruncOp(const BinaryArgs& args) : Fn<T>(args), op(args.op) {}
  M operator()(M a, M b) const {
    if constexpr (std::is_integral_v<M>) {
      if (b == 0) zero_division(op);
      if constexpr (std::is_signed_v<M>)
        if (b == -1) return neg_wrap(a);
      return static_cast<M>(a / b);
    } else {
      return std::trunc(a / b);
    }
  }
};

template <typename T>
struct DivFloorOp : Fn<T> {
  using typename Fn<T>::M;
  const char* op;
  explicit DivFloorOp(const BinaryArgs& args) : Fn<T>(args), op(args.op) {}
  M operator()(M a, M b) const {
    if constexpr (std::is_integral_v<M>) {
      if (b == 0) zero_division(op);
      if constexpr (std::is_signed_v<M>) {
        if (b == -1) return neg_wrap(a);
        M q = static_cast<M>(a / b), r = static_cast<M>(a % b);
        if (r != 0 && ((r < 0) != (b < 0))) --q;
        return q;
      } else {
        return static_cast<M>(a / b);
      }
    } else {
      // PyTorch's div_floor_floating: exact quotient from fmod, then floor with
      // a correction for the rounding of (a - mod) / b.
      if (b == 0) return a / b;
      M mod = std::fmod(a, b);
      M div = (a - mod) / b;
      if (mod != 0 && ((b < 0) != (mod < 0))) div -= M(1);
      if (div == 0) return std::copysign(M(0), a / b);
      M floordiv = std::floor(div);
      if (div - floordiv > M(0.5)) floordiv += M(1);
      return floordiv;
    }
  }
};

// Python's sign rule: the result has the divisor's sign.
template <typename T>
struct RemainderOp : Fn<T> {
  using typename Fn<T>::M;
  const char* op;
  explicit RemainderOp(const BinaryArgs& args) : Fn<T>(args), op(args.op) {}
  M operator()(M a, M b) const {
    if constexpr (std::is_integral_v<M>) {
      if (b == 0) zero_division(op);
      if constexpr (std::is_signed_v<M>) {
        if (b == -1) return M(0);
        M r = static_cast<M>(a % b);
        if (r != 0 && ((r < 0) != (b < 0))) r = static_cast<M>(r + b);
        return r;
      } else {
        return static_cast<M>(a % b);
      }
    } else {
      M mod = std::fmod(a, b);
      if (mod != 0 && ((b < 0) != (mod < 0))) mod += b;
      return mod;
    }
  }
};

// C's sign rule: the result has the dividend's sign.
template <typename T>
struct FmodOp : Fn<T> {
  using typename Fn<T>::M;
  const char* op;
  explicit FmodOp(const BinaryArgs& args) : Fn<T>(args), op(args.op) {}
  M operator()(M a, M b) const {
    if constexpr (std::is_integral_v<M>) {
      if (b == 0) zero_division(op);
      if constexpr (std::is_signed_v<M>)
        if (b == -1) return M(0);
      return static_cast<M>(a % b);
    } else {
      return std::fmod(a, b);
    }
  }
};

template <typename M>
M int_pow(M base, M exp) {
  if constexpr (std::is_signed_v<M>) {
    // Only reachable with tensor exponents; PyTorch gives 1/base^n truncated.
    if (exp < 0) {
      if (base == 1) return M(1);
      if (base == -1) return (exp & 1) ? M(-1) : M(1);
      return M(0);
    }
  }
  M result = 1;
  while (exp) {
    if (exp & 1) result = mul_wrap(result, base);
    exp = static_cast<M>(exp >> 1);
    base = mul_wrap(base, base);
  }
  return result;
}

// The exponents models raise to most (x.pow(2), and pow(x, 1) in its gradient) skip libm's
// pow, ~50x slower: for these the product is the value pow gives, bit for bit (one rounding,
// the signs of zeros and infinities, NaN), which is also what PyTorch's Scalar-exponent kernel
// computes.
template <typename M>
M pow_of(M a, M b) {
  if constexpr (std::is_integral_v<M>) {
    return int_pow(a, b);
  } else {
    if constexpr (std::is_floating_point_v<M>) {
      if (b == M(2)) return a * a;
      if (b == M(1)) return a;
      if (b == M(0)) return M(1);
    }
    return std::pow(a, b);
  }
}

// The next value of a's own dtype after a, toward b. Half and BFloat16 compute
// in float, whose steps are finer: they step their 16-bit pattern instead.
template <typename T, typename M>
M nextafter_of(M a, M b) {
  if constexpr (std::is_same_v<T, M>) {
    return std::nextafter(a, b);
  } else {
    if (a != a || b != b) return a + b;  // NaN
    if (a == b) return b;
    uint16_t bits = T(a).x;
    if (a == M(0))
      bits = static_cast<uint16_t>((b < M(0) ? 0x8000u : 0u) | 1u);  // the smallest subnormal, b's sign
    else if ((a < b) == (a > M(0)))
      ++bits;  // away from zero
    else
      --bits;
    return static_cast<M>(T(bits, typename T::from_bits_t{}));
  }
}

// gcd and lcm of integers, non-negative as PyTorch's; computed on magnitudes in
// the unsigned type, so the most negative value neither overflows nor is UB.
template <typename M>
std::make_unsigned_t<M> magnitude(M v) {
  using U = std::make_unsigned_t<M>;
  return v < 0 ? static_cast<U>(U(0) - static_cast<U>(v)) : static_cast<U>(v);
}
template <typename M>
std::make_unsigned_t<M> gcd_of(M a, M b) {
  auto x = magnitude(a), y = magnitude(b);
  while (x != 0) {
    const auto c = x;
    x = static_cast<decltype(x)>(y % x);
    y = c;
  }
  return y;
}
template <typename M>
M lcm_of(M a, M b) {
  const auto g = gcd_of(a, b);
  if (g == 0) return M(0);
  return static_cast<M>(static_cast<decltype(g)>(magnitude(a) / g * magnitude(b)));
}

// a = grad, b = the forward's input (or relu's result): zero where b <= threshold,
// grad elsewhere; a selected zero, not a product with a mask, so a NaN or inf
// gradient there gives 0 and a NaN b passes the gradient (as PyTorch).
template <typename T>
struct ThresholdBackwardOp : Fn<T> {
  using typename Fn<T>::M;
  M threshold;
  explicit ThresholdBackwardOp(const BinaryArgs& args) : Fn<T>(args), threshold(args.alpha.to<M>()) {}
  M operator()(M a, M b) const { return b <= threshold ? M(0) : a; }
};

// ---- min/max and clamps (NaN-propagating except fmax/fmin) -------------------------
// maximum_of/minimum_of also serve clamp_min/clamp_max.
template <typename M>
M maximum_of(M a, M b) {
  if constexpr (std::is_floating_point_v<M>)
    if (a != a || b != b) return nan_of<M>();
  return a < b ? b : a;
}
template <typename M>
M minimum_of(M a, M b) {
  if constexpr (std::is_floating_point_v<M>)
    if (a != a || b != b) return nan_of<M>();
  return b < a ? b : a;
}
template <typename M>
M fmax_of(M a, M b) {
  if constexpr (std::is_floating_point_v<M>)
    return std::fmax(a, b);
  else
    return a < b ? b : a;
}
template <typename M>
M fmin_of(M a, M b) {
  if constexpr (std::is_floating_point_v<M>)
    return std::fmin(a, b);
  else
    return b < a ? b : a;
}

// ---- bitwise (integers and bool) ---------------------------------------------------

// Note [Shift amounts]
// Shifting by a negative amount or by >= the bit width is undefined in C++.
// Like current PyTorch: left shifts give 0, right shifts fill with the sign
// bit (a >> (bits - 1); 0 for unsigned types).
template <typename M>
constexpr bool shift_out_of_range(M b) {
  constexpr int kBits = sizeof(M) * 8;
  if constexpr (std::is_signed_v<M>)
    return b < 0 || b >= kBits;
  else
    return b >= kBits;
}
template <typename M>
M shift_left_of(M a, M b) {
  if (shift_out_of_range(b)) return M(0);
  return static_cast<M>(static_cast<std::make_unsigned_t<M>>(a) << b);
}
template <typename M>
M shift_right_of(M a, M b) {
  if (shift_out_of_range(b)) {
    if constexpr (std::is_signed_v<M>) return static_cast<M>(a >> (sizeof(M) * 8 - 1));
    return M(0);
  }
  return static_cast<M>(a >> b);
}

// ---- comparisons with tolerances (bool results) -------------------------------------

// PyTorch's isclose for floating and complex inputs (integers are compared as
// the default float dtype by the op layer): equal, or both NaN when
// equal_nan, or |a - b| finite and <= atol + |rtol * b|.
template <typename T>
struct IscloseOp : Fn<T, bool> {
  using typename Fn<T, bool>::M;
  using V = value_t<M>;
  V rtol, atol;
  bool equal_nan, zero_tol;
  explicit IscloseOp(const BinaryArgs& args)
      : Fn<T, bool>(args),
        rtol(static_cast<V>(args.rtol)),
        atol(static_cast<V>(args.atol)),
        equal_nan(args.equal_nan),
        zero_tol(args.rtol == 0 && args.atol == 0) {}
  bool operator()(M a, M b) const {
    if (a == b) return true;
    if (equal_nan && is_nan(a) && is_nan(b)) return true;
    if (zero_tol) return false;
    V actual = std::abs(a - b);
    V allowed = atol + std::abs(rtol * b);
    return std::isfinite(actual) && actual <= allowed;
  }
};

}  // namespace

// Note [Binary kernel expansion]
// Input 1 carries the compute dtype; the table's dtype set decides which C++
// types get instantiated (and which dtypes raise). The element column is
// pasted onto EMBER_BINARY_RUN_: ELEMENT(expr) becomes a lambda over the
// opmath values a and b (T the storage type, M the opmath type, the result
// bool for Bool promotion, T otherwise), FUNCTOR(Name) runs Name<T> built
// from the call's BinaryArgs.
#define EMBER_BINARY_OUT_Same(T) T
#define EMBER_BINARY_OUT_Float(T) T
#define EMBER_BINARY_OUT_Bool(T) bool
#define EMBER_BINARY_RUN_ELEMENT(...) binary_loop<Out, T, T>(iter, [](M a, M b) { return __VA_ARGS__; })
#define EMBER_BINARY_RUN_FUNCTOR(F) binary_loop<typename F<T>::out_t, T, T>(iter, F<T>(args))
#define EMBER_BINARY_OP(name, promotion, dtypes, element, ...)             \
  void name##_kernel(const TensorIterator& iter, const BinaryArgs& args) { \
    dispatch_##dtypes(iter.dtype(1), #name, [&](auto tag) {                \
      using T = EMBER_TYPE(tag);                                           \
      using M [[maybe_unused]] = opmath_t<T>;                              \
      using Out [[maybe_unused]] = EMBER_BINARY_OUT_##promotion(T);        \
      EMBER_BINARY_RUN_##element;                                          \
    });                                                                    \
  }
#define EMBER_BINARY_KERNEL(...) EMBER_BINARY_OP(__VA_ARGS__)
#include "ember/tables/binary.def"
#undef EMBER_BINARY_KERNEL
#undef EMBER_BINARY_OP
#undef EMBER_BINARY_RUN_FUNCTOR
#undef EMBER_BINARY_RUN_ELEMENT
#undef EMBER_BINARY_OUT_Bool
#undef EMBER_BINARY_OUT_Float
#undef EMBER_BINARY_OUT_Same

}  // namespace torch::kernels
