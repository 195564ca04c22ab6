// Three-input kernels of the binary family: clamp with both bounds, lerp,
// addcmul and addcdiv. All operands share the dtype of input 1.
#include <cmath>
#include <limits>

#include "ember/core/dispatch.h"
#include "ember/kernels/cpu/binary_kernels.h"
#include "ember/kernels/cpu/loops.h"

namespace torch::kernels {

// NaN in the input or in either bound gives NaN; min > max gives max (PyTorch).
// Bool is clamped only by one-sided tensor bounds (clamp_min/clamp_max kernels), as in PyTorch.
void clamp_kernel(const TensorIterator& iter) {
  dispatch_real(iter.dtype(1), "clamp", [&](auto tag) {
    using T = EMBER_TYPE(tag);
    using M = opmath_t<T>;
    ternary_loop<T, T, T, T>(iter, [](M a, M lo, M hi) -> M {
      if constexpr (std::is_floating_point_v<M>)
        if (a != a || lo != lo || hi != hi) return std::numeric_limits<M>::quiet_NaN();
      M r = a < lo ? lo : a;
      return hi < r ? hi : r;
    });
  });
}

// PyTorch's lerp: the formula is chosen by |weight| so both ends are exact.
template <typename M>
inline M lerp(M self, M end, M w) {
  return std::abs(w) < value_t<M>(0.5) ? self + w * (end - self) : end - (end - self) * (M(1) - w);
}

void lerp_kernel(const TensorIterator& iter) {
  dispatch_floating_and_complex(iter.dtype(1), "lerp", [&](auto tag) {
    using T = EMBER_TYPE(tag);
    using M = opmath_t<T>;
    ternary_loop<T, T, T, T>(iter, [](M self, M end, M w) { return lerp(self, end, w); });
  });
}

// A Scalar weight stays in opmath precision (not rounded to float16 first).
void lerp_scalar_kernel(const TensorIterator& iter, const Scalar& weight) {
  dispatch_floating_and_complex(iter.dtype(1), "lerp", [&](auto tag) {
    using T = EMBER_TYPE(tag);
    using M = opmath_t<T>;
    const M w = weight.to<M>();
    binary_loop<T, T, T>(iter, [w](M self, M end) { return lerp(self, end, w); });
  });
}

void hardtanh_backward_kernel(const TensorIterator& iter, const Scalar& min_val, const Scalar& max_val) {
  dispatch_floating(iter.dtype(1), "hardtanh_backward", [&](auto tag) {
    using T = EMBER_TYPE(tag);
    using M = opmath_t<T>;
    const M lo = min_val.to<M>(), hi = max_val.to<M>();
    binary_loop<T, T, T>(iter, [lo, hi](M g, M x) { return x <= lo || x >= hi ? M(0) : g; });
  });
}

void addcmul_kernel(const TensorIterator& iter, const Scalar& value) {
  dispatch_numeric(iter.dtype(1), "addcmul", [&](auto tag) {
    using T = EMBER_TYPE(tag);
    using M = opmath_t<T>;
    const M v = value.to<M>();
    ternary_loop<T, T, T, T>(iter, [v](M self, M t1, M t2) -> M {
      return detail::add_wrap(self, detail::mul_wrap(detail::mul_wrap(v, t1), t2));
    });
  });
}

void addcdiv_kernel(const TensorIterator& iter, const Scalar& value) {
  dispatch_floating_and_complex(iter.dtype(1), "addcdiv", [&](auto tag) {
    using T = EMBER_TYPE(tag);
    using M = opmath_t<T>;
    const M v = value.to<M>();
    ternary_loop<T, T, T, T>(iter, [v](M self, M t1, M t2) -> M { return self + v * (t1 / t2); });
  });
}

}  // namespace torch::kernels
