// float32 softmax / log_softmax of one contiguous row with AVX-512 and SLEEF's 1-ULP exp,
// compiled with -mavx512f (see CMakeLists.txt) and reached only through
// vec::softmax_row_f32 after a run-time CPU check (Note [Vectorised softmax rows]).
// GCC 12 reports its own intrinsics' self-initialised _mm512_undefined_ps() placeholder
// (inside _mm512_max_ps and _mm512_reduce_*) as uninitialised: a false positive.
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <immintrin.h>
#include <sleef.h>

#include <cmath>

#include "ember/kernels/cpu/vec_math.h"

namespace torch::kernels::vec {

namespace {

inline __mmask16 tail_mask(int64_t left) { return static_cast<__mmask16>((1u << left) - 1u); }

template <bool kLog>
void softmax_row(const float* x, float* y, int64_t n) {
  const __m512 neg_inf = _mm512_set1_ps(-INFINITY);
  // Two accumulators: the max and the sum are otherwise one dependency chain per row.
  __m512 m0 = neg_inf, m1 = neg_inf;
  int64_t i = 0;
  for (; i + 32 <= n; i += 32) {
    m0 = _mm512_max_ps(m0, _mm512_loadu_ps(x + i));
    m1 = _mm512_max_ps(m1, _mm512_loadu_ps(x + i + 16));
  }
  for (; i + 16 <= n; i += 16) m0 = _mm512_max_ps(m0, _mm512_loadu_ps(x + i));
  if (i < n) m1 = _mm512_max_ps(m1, _mm512_mask_loadu_ps(neg_inf, tail_mask(n - i), x + i));
  const float mx = _mm512_reduce_max_ps(_mm512_max_ps(m0, m1));
  const __m512 vmx = _mm512_set1_ps(mx);

  // exp(x - max), stored for softmax (scaled below), only summed for log_softmax.
  __m512 s = _mm512_setzero_ps();
  for (i = 0; i + 16 <= n; i += 16) {
    const __m512 e = Sleef_expf16_u10(_mm512_sub_ps(_mm512_loadu_ps(x + i), vmx));
    if constexpr (!kLog) _mm512_storeu_ps(y + i, e);
    s = _mm512_add_ps(s, e);
  }
  if (i < n) {
    const __mmask16 m = tail_mask(n - i);
    const __m512 e = Sleef_expf16_u10(_mm512_sub_ps(_mm512_maskz_loadu_ps(m, x + i), vmx));
    if constexpr (!kLog) _mm512_mask_storeu_ps(y + i, m, e);
    s = _mm512_mask_add_ps(s, m, s, e);
  }
  const float sum = _mm512_reduce_add_ps(s);

  if constexpr (kLog) {
    const __m512 shift = _mm512_set1_ps(mx + std::log(sum));
    for (i = 0; i + 16 <= n; i += 16) _mm512_storeu_ps(y + i, _mm512_sub_ps(_mm512_loadu_ps(x + i), shift));
    if (i < n) {
      const __mmask16 m = tail_mask(n - i);
      _mm512_mask_storeu_ps(y + i, m, _mm512_sub_ps(_mm512_maskz_loadu_ps(m, x + i), shift));
    }
  } else {
    const __m512 inv = _mm512_set1_ps(1.0f / sum);
    for (i = 0; i + 16 <= n; i += 16) _mm512_storeu_ps(y + i, _mm512_mul_ps(_mm512_loadu_ps(y + i), inv));
    if (i < n) {
      const __mmask16 m = tail_mask(n - i);
      _mm512_mask_storeu_ps(y + i, m, _mm512_mul_ps(_mm512_maskz_loadu_ps(m, y + i), inv));
    }
  }
}

}  // namespace

namespace avx512 {
const UnaryF32 kSoftmaxRow[2] = {&softmax_row<false>, &softmax_row<true>};
}  // namespace avx512

}  // namespace torch::kernels::vec
