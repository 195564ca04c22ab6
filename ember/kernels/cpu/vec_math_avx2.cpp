// AVX2 + FMA SLEEF kernels (eight float32 / four float64 lanes), compiled with -mavx2
// -mfma and without AVX-512 (see CMakeLists.txt), reached only through vec::unary_vec
// at the avx2 capability (Note [CPU capability]). The formulas are vec_math_avx512.cpp's
// and SLEEF's avx2 entry points keep the accuracy bounds its avx512 ones have, so both
// paths agree within the table's ULP bounds.
#include <immintrin.h>
#include <sleef.h>

#include <cstring>

#include "ember/kernels/cpu/vec_math.h"

namespace torch::kernels::vec {

namespace {

// The tail goes through a zero-padded register's worth of scratch, so every element
// passes through the same SLEEF function (results never depend on the position).
template <typename F>
inline void apply_f32(const float* in, float* out, int64_t n, F f) {
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) _mm256_storeu_ps(out + i, f(_mm256_loadu_ps(in + i)));
  if (i < n) {
    alignas(32) float tail[8] = {};
    const auto left = static_cast<size_t>(n - i);
    std::memcpy(tail, in + i, left * sizeof(float));
    _mm256_store_ps(tail, f(_mm256_load_ps(tail)));
    std::memcpy(out + i, tail, left * sizeof(float));
  }
}

template <typename F>
inline void apply_f64(const double* in, double* out, int64_t n, F f) {
  int64_t i = 0;
  for (; i + 4 <= n; i += 4) _mm256_storeu_pd(out + i, f(_mm256_loadu_pd(in + i)));
  if (i < n) {
    alignas(32) double tail[4] = {};
    const auto left = static_cast<size_t>(n - i);
    std::memcpy(tail, in + i, left * sizeof(double));
    _mm256_store_pd(tail, f(_mm256_load_pd(tail)));
    std::memcpy(out + i, tail, left * sizeof(double));
  }
}

// Rows with vec = custom: the formulas of their scalar functions (unary_kernels_scalar.h).
void sigmoid_f32(const float* in, float* out, int64_t n) {
  apply_f32(in, out, n, [](__m256 x) {
    const __m256 one = _mm256_set1_ps(1.0f);
    return _mm256_div_ps(one, _mm256_add_ps(one, Sleef_expf8_u10avx2(_mm256_sub_ps(_mm256_setzero_ps(), x))));
  });
}
void sigmoid_f64(const double* in, double* out, int64_t n) {
  apply_f64(in, out, n, [](__m256d x) {
    const __m256d one = _mm256_set1_pd(1.0);
    return _mm256_div_pd(one, _mm256_add_pd(one, Sleef_expd4_u10avx2(_mm256_sub_pd(_mm256_setzero_pd(), x))));
  });
}
void silu_f32(const float* in, float* out, int64_t n) {
  apply_f32(in, out, n, [](__m256 x) {
    const __m256 one = _mm256_set1_ps(1.0f);
    return _mm256_div_ps(x, _mm256_add_ps(one, Sleef_expf8_u10avx2(_mm256_sub_ps(_mm256_setzero_ps(), x))));
  });
}
void silu_f64(const double* in, double* out, int64_t n) {
  apply_f64(in, out, n, [](__m256d x) {
    const __m256d one = _mm256_set1_pd(1.0);
    return _mm256_div_pd(x, _mm256_add_pd(one, Sleef_expd4_u10avx2(_mm256_sub_pd(_mm256_setzero_pd(), x))));
  });
}

// gelu, exact and tanh forms, as vec_math_avx512.cpp.
template <bool kTanh>
void gelu_f32(const float* in, float* out, int64_t n) {
  apply_f32(in, out, n, [](__m256 x) {
    const __m256 half_x = _mm256_mul_ps(_mm256_set1_ps(0.5f), x);
    __m256 t;
    if constexpr (kTanh) {
      const __m256 x3 = _mm256_mul_ps(_mm256_mul_ps(x, x), x);
      const __m256 inner = _mm256_fmadd_ps(_mm256_set1_ps(0.044715f), x3, x);
      t = Sleef_tanhf8_u10avx2(_mm256_mul_ps(_mm256_set1_ps(0.79788456080286535588f), inner));
    } else {
      t = Sleef_erff8_u10avx2(_mm256_mul_ps(x, _mm256_set1_ps(0.70710678118654752440f)));
    }
    return _mm256_fmadd_ps(half_x, t, half_x);
  });
}
template <bool kTanh>
void gelu_f64(const double* in, double* out, int64_t n) {
  apply_f64(in, out, n, [](__m256d x) {
    const __m256d half_x = _mm256_mul_pd(_mm256_set1_pd(0.5), x);
    __m256d t;
    if constexpr (kTanh) {
      const __m256d x3 = _mm256_mul_pd(_mm256_mul_pd(x, x), x);
      const __m256d inner = _mm256_fmadd_pd(_mm256_set1_pd(0.044715), x3, x);
      t = Sleef_tanhd4_u10avx2(_mm256_mul_pd(_mm256_set1_pd(0.79788456080286535588), inner));
    } else {
      t = Sleef_erfd4_u10avx2(_mm256_mul_pd(x, _mm256_set1_pd(0.70710678118654752440)));
    }
    return _mm256_fmadd_pd(half_x, t, half_x);
  });
}

void tanh_u35_f32(const float* in, float* out, int64_t n) {
  apply_f32(in, out, n, [](__m256 x) { return Sleef_tanhf8_u35avx2(x); });
}

}  // namespace

namespace avx2 {
const UnaryF32 kTanhU35 = &tanh_u35_f32;
const UnaryVec kGelu[2] = {{&gelu_f32<false>, &gelu_f64<false>}, {&gelu_f32<true>, &gelu_f64<true>}};

#define EMBER_VEC_none(name) UnaryVec{},
#define EMBER_VEC_custom(name) UnaryVec{&name##_f32, &name##_f64},
#define EMBER_VEC_SLEEF_(name, acc)                                                            \
  UnaryVec{[](const float* in, float* out, int64_t n) {                                        \
             apply_f32(in, out, n, [](__m256 v) { return Sleef_##name##f8_##acc##avx2(v); });  \
           },                                                                                  \
           [](const double* in, double* out, int64_t n) {                                      \
             apply_f64(in, out, n, [](__m256d v) { return Sleef_##name##d4_##acc##avx2(v); }); \
           }},
#define EMBER_VEC_u05(name) EMBER_VEC_SLEEF_(name, u05)
#define EMBER_VEC_u10(name) EMBER_VEC_SLEEF_(name, u10)
#define EMBER_VEC_u15(name) EMBER_VEC_SLEEF_(name, u15)
#define EMBER_UNARY_OP(name, kind, cplx, vec, ...) EMBER_VEC_##vec(name)
const UnaryVec kUnaryTable[kNumUnaryOps] = {
#include "ember/tables/unary.def"
};
#undef EMBER_UNARY_OP
}  // namespace avx2

}  // namespace torch::kernels::vec
