#pragma once
// The Ops structs of Note [The reduction engine]: each reduction is its
// identity, per-element fold and merge. Projection to the output happens in
// the op layer's write callback.
#include <cmath>
#include <complex>
#include <limits>

#include "ember/core/dtype.h"
#include "ember/kernels/cpu/wrapping.h"

namespace torch::kernels {

template <typename T>
inline bool is_nan_v(T x) {
  if constexpr (std::is_floating_point_v<T>) {
    return x != x;
  } else if constexpr (std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>) {
    float f = static_cast<float>(x);
    return f != f;
  } else {
    return false;
  }
}

template <typename T, typename Acc>
struct SumOps {
  using acc_t = Acc;
  acc_t identity() const { return acc_t(0); }
  // Integer sums wrap as PyTorch's do (Note [Integer overflow wraps]).
  acc_t reduce(acc_t a, T x, int64_t) const { return detail::add_wrap(a, static_cast<acc_t>(x)); }
  acc_t combine(acc_t a, acc_t b) const { return detail::add_wrap(a, b); }
};

// NaNs count as zero (nansum).
template <typename T, typename Acc>
struct NanSumOps {
  using acc_t = Acc;
  acc_t identity() const { return acc_t(0); }
  acc_t reduce(acc_t a, T x, int64_t) const {
    acc_t v = static_cast<acc_t>(x);
    return detail::add_wrap(a, v != v ? acc_t(0) : v);  // integers: nansum is sum, wrapping
  }
  acc_t combine(acc_t a, acc_t b) const { return detail::add_wrap(a, b); }
};

// Sum and count of the non-NaN elements (nanmean).
template <typename T, typename Acc>
struct NanMeanOps {
  struct acc_t {
    Acc sum = 0;
    int64_t n = 0;
  };
  acc_t identity() const { return {}; }
  acc_t reduce(acc_t a, T x, int64_t) const {
    Acc v = static_cast<Acc>(x);
    if (v == v) {
      a.sum += v;
      ++a.n;
    }
    return a;
  }
  acc_t combine(acc_t a, acc_t b) const { return {a.sum + b.sum, a.n + b.n}; }
};

template <typename T, typename Acc>
struct ProdOps {
  using acc_t = Acc;
  acc_t identity() const { return acc_t(1); }
  acc_t reduce(acc_t a, T x, int64_t) const { return detail::mul_wrap(a, static_cast<acc_t>(x)); }
  acc_t combine(acc_t a, acc_t b) const { return detail::mul_wrap(a, b); }
};

// Logical or/and of x != 0.
template <typename T, bool IsAll>
struct AnyAllOps {
  using acc_t = bool;
  acc_t identity() const { return IsAll; }
  acc_t reduce(acc_t a, T x, int64_t) const {
    bool v = static_cast<opmath_t<T>>(x) != opmath_t<T>(0);
    return IsAll ? (a && v) : (a || v);
  }
  acc_t combine(acc_t a, acc_t b) const { return IsAll ? (a && b) : (a || b); }
};

template <typename T>
struct CountNonzeroOps {
  using acc_t = int64_t;
  acc_t identity() const { return 0; }
  acc_t reduce(acc_t a, T x, int64_t) const { return a + (static_cast<opmath_t<T>>(x) != opmath_t<T>(0) ? 1 : 0); }
  acc_t combine(acc_t a, acc_t b) const { return a + b; }
};

// amax/amin: NaN wins (propagates).
template <typename T, bool IsMax>
struct MinMaxOps {
  using acc_t = opmath_t<T>;
  acc_t identity() const {
    if constexpr (std::is_floating_point_v<acc_t>) {
      return IsMax ? -std::numeric_limits<acc_t>::infinity() : std::numeric_limits<acc_t>::infinity();
    } else {
      return IsMax ? std::numeric_limits<acc_t>::lowest() : std::numeric_limits<acc_t>::max();
    }
  }
  acc_t reduce(acc_t a, T xv, int64_t) const { return combine(a, static_cast<acc_t>(xv)); }
  // Once a is NaN nothing compares greater, so NaN sticks without a branch on a
  // (a select the compiler vectorises).
  acc_t combine(acc_t a, acc_t x) const {
    if constexpr (std::is_floating_point_v<acc_t>) {
      return (x != x || (IsMax ? x > a : x < a)) ? x : a;
    } else {
      return (IsMax ? x > a : x < a) ? x : a;
    }
  }
};

// argmax/argmin and max/min along a dim: the first index of the extreme value,
// the first NaN when there is one. idx < 0 marks the empty state.
template <typename T, bool IsMax>
struct ArgMinMaxOps {
  using V = opmath_t<T>;
  struct acc_t {
    V v{};
    int64_t idx = -1;
  };
  acc_t identity() const { return {}; }
  // Within one accumulator indices only grow, so a tie keeps the earlier one.
  acc_t reduce(acc_t a, T xv, int64_t i) const {
    const V x = static_cast<V>(xv);
    if (a.idx < 0 || (IsMax ? x > a.v : x < a.v) || (is_nan_v(x) && !is_nan_v(a.v))) return {x, i};
    return a;
  }
  // Symmetric in its arguments, so the merge order of partials never matters.
  acc_t combine(acc_t a, acc_t b) const {
    if (a.idx < 0) return b;
    if (b.idx < 0) return a;
    const bool an = is_nan_v(a.v), bn = is_nan_v(b.v);
    if (an || bn) {
      if (an && bn) return a.idx < b.idx ? a : b;
      return an ? a : b;
    }
    if (a.v == b.v) return a.idx < b.idx ? a : b;
    return (IsMax ? a.v > b.v : a.v < b.v) ? a : b;
  }
};

// Welford's running mean and M2, merged with Chan et al.'s formula (var, std).
// Accumulates in double (complex<double> for complex inputs, whose M2 sums |x - mean|^2).
template <typename T>
struct WelfordOps {
  using M = std::conditional_t<is_complex_v<T>, complex128, double>;
  struct acc_t {
    M mean = 0;
    double m2 = 0;
    double n = 0;
  };
  static M load(T x) {
    if constexpr (is_complex_v<T>) {
      return M(x.real(), x.imag());
    } else {
      return static_cast<double>(static_cast<opmath_t<T>>(x));
    }
  }
  static double abs2(M d) {
    if constexpr (is_complex_v<T>) {
      return d.real() * d.real() + d.imag() * d.imag();
    } else {
      return d * d;
    }
  }
  acc_t identity() const { return {}; }
  acc_t reduce(acc_t a, T xv, int64_t) const {
    const M x = load(xv);
    a.n += 1;
    const M delta = x - a.mean;
    a.mean += delta / a.n;
    if constexpr (is_complex_v<T>) {
      a.m2 += std::real(std::conj(delta) * (x - a.mean));
    } else {
      a.m2 += delta * (x - a.mean);
    }
    return a;
  }
  acc_t combine(acc_t a, acc_t b) const {
    if (a.n == 0) return b;
    if (b.n == 0) return a;
    const double n = a.n + b.n;
    const M delta = b.mean - a.mean;
    const double nb_over_n = b.n / n;
    return {a.mean + delta * nb_over_n, a.m2 + b.m2 + abs2(delta) * a.n * nb_over_n, n};
  }
};

// Vector p-norms: kind 0 counts non-zeros, 1 sums |x|, 2 sums |x|^2, 3 is max |x|,
// 4 is min |x|, 5 sums |x|^p. Complex inputs use |z|.
enum class NormKind { Zero, One, Two, Inf, NegInf, P };
template <typename T, NormKind K>
struct NormOps {
  using R = opmath_t<value_t<T>>;
  using acc_t = R;
  R p = 2;
  static R absval(T x) {
    if constexpr (is_complex_v<T>) {
      return static_cast<R>(std::abs(x));
    } else {
      return std::abs(static_cast<R>(x));
    }
  }
  acc_t identity() const {
    if constexpr (K == NormKind::NegInf) return std::numeric_limits<R>::infinity();
    return R(0);
  }
  acc_t reduce(acc_t a, T x, int64_t) const {
    const R v = absval(x);
    if constexpr (K == NormKind::Zero) return a + (v != R(0) ? R(1) : R(0));
    if constexpr (K == NormKind::One) return a + v;
    if constexpr (K == NormKind::Two) return a + v * v;
    if constexpr (K == NormKind::P) return a + std::pow(v, p);
    return combine(a, v);
  }
  acc_t combine(acc_t a, acc_t b) const {
    if constexpr (K == NormKind::Inf) {
      if (a != a) return a;
      return (b != b || b > a) ? b : a;
    } else if constexpr (K == NormKind::NegInf) {
      if (a != a) return a;
      return (b != b || b < a) ? b : a;
    } else {
      return a + b;
    }
  }
};

// Running log-sum-exp as (max m, sum s of exp(x - m)); the result is m + log(s).
template <typename T>
struct LogSumExpOps {
  using R = opmath_t<T>;
  struct acc_t {
    R m = -std::numeric_limits<R>::infinity();
    R s = 0;
  };
  acc_t identity() const { return {}; }
  acc_t reduce(acc_t a, T x, int64_t) const { return combine(a, acc_t{static_cast<R>(x), R(1)}); }
  acc_t combine(acc_t a, acc_t b) const {
    if (a.m != a.m) return a;
    if (b.m != b.m) return b;
    if (b.s == R(0)) return a;
    if (a.s == R(0)) return b;
    if (a.m == b.m) return {a.m, a.s + b.s};  // also covers both +inf
    if (a.m < b.m) std::swap(a, b);
    return {a.m, a.s + b.s * std::exp(b.m - a.m)};
  }
  static R project(const acc_t& a) {
    if (a.s == R(0)) return -std::numeric_limits<R>::infinity();
    if (a.m != a.m || std::isinf(a.m)) return a.m;
    return a.m + std::log(a.s);
  }
};

}  // namespace torch::kernels
