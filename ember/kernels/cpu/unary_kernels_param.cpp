// Kernels of the unary ops that take arguments or change the dtype class
// (predicates, complex helpers); formulas follow PyTorch's CPU kernels.
#include <cmath>
#include <limits>

#include "ember/core/dispatch.h"
#include "ember/kernels/cpu/loops.h"
#include "ember/kernels/cpu/unary_kernels.h"
#include "ember/kernels/cpu/unary_kernels_vec.h"

namespace torch::kernels {

namespace {
template <typename F>
void dispatch_float_kernel(const TensorIterator& iter, const char* name, F body) {
  dispatch_floating(iter.dtype(1), name, body);
}

// Largest finite value of T (Half/BFloat16 have no numeric_limits).
template <typename T>
double max_finite() {
  if constexpr (std::is_same_v<T, Half>)
    return 65504.0;
  else if constexpr (std::is_same_v<T, BFloat16>)
    return static_cast<float>(BFloat16(0x7f7f, BFloat16::from_bits_t{}));
  else
    return static_cast<double>(std::numeric_limits<T>::max());
}
}  // namespace

void round_decimals_kernel(const TensorIterator& iter, int64_t decimals) {
  dispatch_float_kernel(iter, "round", [&](auto tag) {
    using T = EMBER_TYPE(tag);
    using M = opmath_t<T>;
    if (decimals == 0) return unary_loop<T, T>(iter, [](M x) { return std::nearbyint(x); });
    // Same arithmetic as PyTorch: scale, round half to even, unscale.
    const bool neg = decimals < 0;
    const M ten_pow = static_cast<M>(std::pow(M(10), static_cast<M>(neg ? -decimals : decimals)));
    if (neg) return unary_loop<T, T>(iter, [=](M x) { return std::nearbyint(x / ten_pow) * ten_pow; });
    unary_loop<T, T>(iter, [=](M x) { return std::nearbyint(x * ten_pow) / ten_pow; });
  });
}

void gelu_kernel(const TensorIterator& iter, bool tanh_approximation) {
  dispatch_float_kernel(iter, "gelu", [&](auto tag) {
    using T = EMBER_TYPE(tag);
    using M = opmath_t<T>;
    const vec::UnaryVec& v = vec::gelu_vec(tanh_approximation);
    if (tanh_approximation) {
      const M kBeta = M(0.79788456080286535587989211986876);  // sqrt(2 / pi)
      const M kKappa = M(0.044715);
      return unary_loop_vec<T>(iter, v,
                               [=](M x) { return M(0.5) * x * (M(1) + std::tanh(kBeta * (x + kKappa * x * x * x))); });
    }
    const M kAlpha = M(0.70710678118654752440);  // 1 / sqrt(2)
    unary_loop_vec<T>(iter, v, [=](M x) { return x * M(0.5) * (M(1) + std::erf(x * kAlpha)); });
  });
}

void softplus_kernel(const TensorIterator& iter, double beta, double threshold) {
  dispatch_float_kernel(iter, "softplus", [&](auto tag) {
    using T = EMBER_TYPE(tag);
    using M = opmath_t<T>;
    const M b = static_cast<M>(beta), th = static_cast<M>(threshold);
    unary_loop<T, T>(iter, [=](M x) { return x * b > th ? x : std::log1p(std::exp(x * b)) / b; });
  });
}

void elu_kernel(const TensorIterator& iter, double alpha, double scale, double input_scale) {
  dispatch_float_kernel(iter, "elu", [&](auto tag) {
    using T = EMBER_TYPE(tag);
    using M = opmath_t<T>;
    const M neg_coef = static_cast<M>(alpha * scale), pos_coef = static_cast<M>(scale);
    const M in_coef = static_cast<M>(input_scale);
    unary_loop<T, T>(iter, [=](M x) { return x <= M(0) ? std::expm1(x * in_coef) * neg_coef : x * pos_coef; });
  });
}

void leaky_relu_kernel(const TensorIterator& iter, double negative_slope) {
  dispatch_float_kernel(iter, "leaky_relu", [&](auto tag) {
    using T = EMBER_TYPE(tag);
    using M = opmath_t<T>;
    const M slope = static_cast<M>(negative_slope);
    unary_loop<T, T>(iter, [=](M x) { return x > M(0) ? x : x * slope; });
  });
}

void logit_kernel(const TensorIterator& iter, std::optional<double> eps) {
  dispatch_float_kernel(iter, "logit", [&](auto tag) {
    using T = EMBER_TYPE(tag);
    using M = opmath_t<T>;
    if (!eps) return unary_loop<T, T>(iter, [](M x) { return std::log(x / (M(1) - x)); });
    const M lo = static_cast<M>(*eps), hi = M(1) - static_cast<M>(*eps);
    // NaN fails both comparisons and passes through.
    unary_loop<T, T>(iter, [=](M x) {
      const M z = x < lo ? lo : (x > hi ? hi : x);
      return std::log(z / (M(1) - z));
    });
  });
}

void nan_to_num_kernel(const TensorIterator& iter, std::optional<double> nan, std::optional<double> posinf,
                       std::optional<double> neginf) {
  dispatch_float_kernel(iter, "nan_to_num", [&](auto tag) {
    using T = EMBER_TYPE(tag);
    using M = opmath_t<T>;
    // Replacements are rounded to T first, as PyTorch does (1e30 -> inf in float16).
    const M vnan = static_cast<M>(static_cast<T>(static_cast<M>(nan.value_or(0.0))));
    const M vpos = static_cast<M>(static_cast<T>(static_cast<M>(posinf.value_or(max_finite<T>()))));
    const M vneg = static_cast<M>(static_cast<T>(static_cast<M>(neginf.value_or(-max_finite<T>()))));
    constexpr M kInf = std::numeric_limits<M>::infinity();
    unary_loop<T, T>(iter, [=](M x) {
      if (x != x) return vnan;
      if (x == kInf) return vpos;
      if (x == -kInf) return vneg;
      return x;
    });
  });
}

void float_class_kernel(const TensorIterator& iter, FloatClass which) {
  dispatch_floating_and_complex(iter.dtype(1), "isnan", [&](auto tag) {
    using T = EMBER_TYPE(tag);
    using M = opmath_t<T>;
    switch (which) {
      case FloatClass::isnan:
        return unary_loop<bool, T>(iter, [](M x) { return x != x; });
      case FloatClass::isinf:
        if constexpr (is_complex_v<M>)
          return unary_loop<bool, T>(iter, [](M x) { return std::isinf(x.real()) || std::isinf(x.imag()); });
        else
          return unary_loop<bool, T>(iter, [](M x) { return std::isinf(x); });
      case FloatClass::isfinite:
        if constexpr (is_complex_v<M>)
          return unary_loop<bool, T>(iter, [](M x) { return std::isfinite(x.real()) && std::isfinite(x.imag()); });
        else
          return unary_loop<bool, T>(iter, [](M x) { return std::isfinite(x); });
      case FloatClass::isreal:
        if constexpr (is_complex_v<M>) return unary_loop<bool, T>(iter, [](M x) { return x.imag() == 0; });
        break;  // real dtypes are handled by the op layer (all true)
      case FloatClass::isposinf:
        if constexpr (!is_complex_v<M>)
          return unary_loop<bool, T>(iter, [](M x) { return x == std::numeric_limits<M>::infinity(); });
        break;
      case FloatClass::isneginf:
        if constexpr (!is_complex_v<M>)
          return unary_loop<bool, T>(iter, [](M x) { return x == -std::numeric_limits<M>::infinity(); });
        break;
    }
    EMBER_INTERNAL_ASSERT(false, "float_class_kernel: unexpected dtype for this predicate");
  });
}

void frexp_exponent_kernel(const TensorIterator& iter) {
  dispatch_floating(iter.dtype(1), "frexp", [&](auto tag) {
    using T = EMBER_TYPE(tag);
    using M = opmath_t<T>;  // float for the 16-bit floats: the same value, so the same exponent
    unary_loop<int32_t, T>(iter, [](M x) {
      if (!std::isfinite(x)) return int32_t{0};
      int e = 0;
      std::frexp(x, &e);
      return static_cast<int32_t>(e);
    });
  });
}

void angle_kernel(const TensorIterator& iter) {
  dispatch_floating_and_complex(iter.dtype(1), "angle", [&](auto tag) {
    using T = EMBER_TYPE(tag);
    using M = opmath_t<T>;
    if constexpr (is_complex_v<M>) {
      unary_loop<value_t<T>, T>(iter, [](M x) { return std::arg(x); });
    } else {
      constexpr M kPi = M(3.14159265358979323846);
      unary_loop<T, T>(iter, [=](M x) { return x != x ? x : (x < M(0) ? kPi : M(0)); });
    }
  });
}

void conj_kernel(const TensorIterator& iter) {
  switch (iter.dtype(1)) {
    case kComplexFloat:
      return unary_loop<complex64, complex64>(iter, [](complex64 x) { return std::conj(x); });
    case kComplexDouble:
      return unary_loop<complex128, complex128>(iter, [](complex128 x) { return std::conj(x); });
    default:
      detail::dispatch_error("conj", iter.dtype(1), "complex dtypes");
  }
}

void polar_kernel(const TensorIterator& iter) {
  dispatch_floating(iter.dtype(1), "polar", [&](auto tag) {
    using T = EMBER_TYPE(tag);
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
      binary_loop<std::complex<T>, T, T>(
          iter, [](T r, T theta) { return std::complex<T>(r * std::cos(theta), r * std::sin(theta)); });
    } else {
      detail::dispatch_error("polar", iter.dtype(1), "float32 and float64");
    }
  });
}

void complex_kernel(const TensorIterator& iter) {
  dispatch_floating(iter.dtype(1), "complex", [&](auto tag) {
    using T = EMBER_TYPE(tag);
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
      binary_loop<std::complex<T>, T, T>(iter, [](T re, T im) { return std::complex<T>(re, im); });
    } else {
      detail::dispatch_error("complex", iter.dtype(1), "float32 and float64");
    }
  });
}

}  // namespace torch::kernels
