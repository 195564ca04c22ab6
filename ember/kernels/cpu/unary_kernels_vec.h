#pragma once
// Inner loops that hand contiguous runs to a vectorised kernel (vec_math.h)
// and strided runs to the scalar function `f`; shared by the unary kernels.
#include <algorithm>

#include "ember/kernels/cpu/loops.h"
#include "ember/kernels/cpu/vec_math.h"

namespace torch::kernels {

// SLEEF on contiguous runs, the scalar function elsewhere.
template <typename T, typename F, typename V>
void vec_or_scalar_loop(const TensorIterator& iter, V vf, F f) {
  iter.for_each([&](char** data, const int64_t* s, int64_t n) {
    if (s[0] == sizeof(T) && s[1] == sizeof(T)) {
      vf(reinterpret_cast<const T*>(data[1]), reinterpret_cast<T*>(data[0]), n);
      return;
    }
    char* po = data[0];
    const char* pi = data[1];
    for (int64_t i = 0; i < n; ++i, po += s[0], pi += s[1])
      *reinterpret_cast<T*>(po) = f(*reinterpret_cast<const T*>(pi));
  });
}

// float16/bfloat16: widen a block to float32, run the float32 SLEEF kernel,
// round back (Note [Reduced-precision blocks]); the same values as the scalar
// path, which also computes in float.
template <typename T, typename F>
void vec_or_scalar_loop_16bit(const TensorIterator& iter, vec::UnaryF32 vf, F f) {
  iter.for_each([&](char** data, const int64_t* s, int64_t n) {
    if (s[0] == sizeof(T) && s[1] == sizeof(T)) {
      float buf[kReducedBlock];
      const T* in = reinterpret_cast<const T*>(data[1]);
      T* out = reinterpret_cast<T*>(data[0]);
      for (int64_t i = 0; i < n; i += kReducedBlock) {
        const int64_t m = std::min(kReducedBlock, n - i);
        widen(in + i, sizeof(T), buf, m);
        vf(buf, buf, m);
        narrow(buf, out + i, sizeof(T), m);
      }
      return;
    }
    reduced_unary_run<T, T>(data[0], s[0], data[1], s[1], n, f);
  });
}

// out = f(in) for T -> T, through `v` where it has a kernel for T.
template <typename T, typename F>
void unary_loop_vec(const TensorIterator& iter, const vec::UnaryVec& v, F f) {
  if constexpr (std::is_same_v<T, float>) {
    if (v.f32) return vec_or_scalar_loop<T>(iter, v.f32, f);
  } else if constexpr (std::is_same_v<T, double>) {
    if (v.f64) return vec_or_scalar_loop<T>(iter, v.f64, f);
  } else if constexpr (std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>) {
    if (v.f32) return vec_or_scalar_loop_16bit<T>(iter, v.f32, f);
  }
  unary_loop<T, T>(iter, f);
}

}  // namespace torch::kernels
