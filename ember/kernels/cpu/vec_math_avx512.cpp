// AVX-512 SLEEF kernels, compiled with -mavx512f (see CMakeLists.txt) and
// reached only through vec::unary_vec after a run-time CPU check.
#include <immintrin.h>
#include <sleef.h>

#include "ember/kernels/cpu/vec_math.h"

namespace torch::kernels::vec {

namespace {

// The tail is handled with masked loads/stores so every element goes through
// the same SLEEF function (results never depend on the position in the array).
template <typename F>
inline void apply_f32(const float* in, float* out, int64_t n, F f) {
  int64_t i = 0;
  for (; i + 16 <= n; i += 16) _mm512_storeu_ps(out + i, f(_mm512_loadu_ps(in + i)));
  if (i < n) {
    const __mmask16 m = static_cast<__mmask16>((1u << (n - i)) - 1u);
    _mm512_mask_storeu_ps(out + i, m, f(_mm512_maskz_loadu_ps(m, in + i)));
  }
}

template <typename F>
inline void apply_f64(const double* in, double* out, int64_t n, F f) {
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) _mm512_storeu_pd(out + i, f(_mm512_loadu_pd(in + i)));
  if (i < n) {
    const __mmask8 m = static_cast<__mmask8>((1u << (n - i)) - 1u);
    _mm512_mask_storeu_pd(out + i, m, f(_mm512_maskz_loadu_pd(m, in + i)));
  }
}

// Rows with vec = custom: the same formulas as their scalar functions
// (unary_kernels_scalar.h), built from SLEEF's exp.
void sigmoid_f32(const float* in, float* out, int64_t n) {
  apply_f32(in, out, n, [](__m512 x) {
    const __m512 one = _mm512_set1_ps(1.0f);
    return _mm512_div_ps(one, _mm512_add_ps(one, Sleef_expf16_u10(_mm512_sub_ps(_mm512_setzero_ps(), x))));
  });
}
void sigmoid_f64(const double* in, double* out, int64_t n) {
  apply_f64(in, out, n, [](__m512d x) {
    const __m512d one = _mm512_set1_pd(1.0);
    return _mm512_div_pd(one, _mm512_add_pd(one, Sleef_expd8_u10(_mm512_sub_pd(_mm512_setzero_pd(), x))));
  });
}
void silu_f32(const float* in, float* out, int64_t n) {
  apply_f32(in, out, n, [](__m512 x) {
    const __m512 one = _mm512_set1_ps(1.0f);
    return _mm512_div_ps(x, _mm512_add_ps(one, Sleef_expf16_u10(_mm512_sub_ps(_mm512_setzero_ps(), x))));
  });
}
void silu_f64(const double* in, double* out, int64_t n) {
  apply_f64(in, out, n, [](__m512d x) {
    const __m512d one = _mm512_set1_pd(1.0);
    return _mm512_div_pd(x, _mm512_add_pd(one, Sleef_expd8_u10(_mm512_sub_pd(_mm512_setzero_pd(), x))));
  });
}

// gelu(x) = x/2 (1 + erf(x / sqrt 2)); the tanh form is
// x/2 (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))), as gelu_kernel.
template <bool kTanh>
void gelu_f32(const float* in, float* out, int64_t n) {
  apply_f32(in, out, n, [](__m512 x) {
    const __m512 half_x = _mm512_mul_ps(_mm512_set1_ps(0.5f), x);
    __m512 t;
    if constexpr (kTanh) {
      const __m512 x3 = _mm512_mul_ps(_mm512_mul_ps(x, x), x);
      const __m512 inner = _mm512_fmadd_ps(_mm512_set1_ps(0.044715f), x3, x);
      t = Sleef_tanhf16_u10(_mm512_mul_ps(_mm512_set1_ps(0.79788456080286535588f), inner));
    } else {
      t = Sleef_erff16_u10(_mm512_mul_ps(x, _mm512_set1_ps(0.70710678118654752440f)));
    }
    return _mm512_fmadd_ps(half_x, t, half_x);
  });
}
template <bool kTanh>
void gelu_f64(const double* in, double* out, int64_t n) {
  apply_f64(in, out, n, [](__m512d x) {
    const __m512d half_x = _mm512_mul_pd(_mm512_set1_pd(0.5), x);
    __m512d t;
    if constexpr (kTanh) {
      const __m512d x3 = _mm512_mul_pd(_mm512_mul_pd(x, x), x);
      const __m512d inner = _mm512_fmadd_pd(_mm512_set1_pd(0.044715), x3, x);
      t = Sleef_tanhd8_u10(_mm512_mul_pd(_mm512_set1_pd(0.79788456080286535588), inner));
    } else {
      t = Sleef_erfd8_u10(_mm512_mul_pd(x, _mm512_set1_pd(0.70710678118654752440)));
    }
    return _mm512_fmadd_pd(half_x, t, half_x);
  });
}

void tanh_u35_f32(const float* in, float* out, int64_t n) {
  apply_f32(in, out, n, [](__m512 x) { return Sleef_tanhf16_u35(x); });
}

}  // namespace

namespace avx512 {
const UnaryF32 kTanhU35 = &tanh_u35_f32;
const UnaryVec kGelu[2] = {{&gelu_f32<false>, &gelu_f64<false>}, {&gelu_f32<true>, &gelu_f64<true>}};

#define EMBER_VEC_none(name) UnaryVec{},
#define EMBER_VEC_custom(name) UnaryVec{&name##_f32, &name##_f64},
#define EMBER_VEC_SLEEF_(name, acc)                                                      \
  UnaryVec{[](const float* in, float* out, int64_t n) {                                  \
             apply_f32(in, out, n, [](__m512 v) { return Sleef_##name##f16_##acc(v); }); \
           },                                                                            \
           [](const double* in, double* out, int64_t n) {                                \
             apply_f64(in, out, n, [](__m512d v) { return Sleef_##name##d8_##acc(v); }); \
           }},
#define EMBER_VEC_u05(name) EMBER_VEC_SLEEF_(name, u05)
#define EMBER_VEC_u10(name) EMBER_VEC_SLEEF_(name, u10)
#define EMBER_VEC_u15(name) EMBER_VEC_SLEEF_(name, u15)
#define EMBER_UNARY_OP(name, kind, cplx, vec, ...) EMBER_VEC_##vec(name)
const UnaryVec kUnaryTable[kNumUnaryOps] = {
#include "ember/tables/unary.def"
};
#undef EMBER_UNARY_OP
}  // namespace avx512

}  // namespace torch::kernels::vec
