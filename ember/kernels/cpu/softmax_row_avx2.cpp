// float32 softmax / log_softmax of one contiguous row with AVX2 and SLEEF's 1-ULP avx2
// exp, compiled with -mavx2 -mfma (see CMakeLists.txt) and reached only through
// vec::softmax_row_f32 at the avx2 capability (Note [Vectorised softmax rows]; the
// AVX-512 row in eight lanes, the tail through masked loads and stores).
#include <immintrin.h>
#include <sleef.h>

#include <cmath>

#include "ember/kernels/cpu/vec_math.h"

namespace torch::kernels::vec {

namespace {

// Lanes [0, left) set, for maskload / maskstore (left < 8).
inline __m256i tail_mask(int64_t left) {
  const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
  return _mm256_cmpgt_epi32(_mm256_set1_epi32(static_cast<int>(left)), lane);
}

inline float hmax(__m256 v) {
  __m128 m = _mm_max_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
  m = _mm_max_ps(m, _mm_movehl_ps(m, m));
  m = _mm_max_ss(m, _mm_movehdup_ps(m));
  return _mm_cvtss_f32(m);
}

inline float hsum(__m256 v) {
  __m128 s = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
  s = _mm_add_ps(s, _mm_movehl_ps(s, s));
  s = _mm_add_ss(s, _mm_movehdup_ps(s));
  return _mm_cvtss_f32(s);
}

template <bool kLog>
void softmax_row(const float* x, float* y, int64_t n) {
  const __m256 neg_inf = _mm256_set1_ps(-INFINITY);
  // Two accumulators each: the max and the sum are otherwise one dependency chain per row.
  // The operand order of every max is the AVX-512 row's, so NaNs travel the same way.
  __m256 m0 = neg_inf, m1 = neg_inf;
  int64_t i = 0;
  for (; i + 16 <= n; i += 16) {
    m0 = _mm256_max_ps(m0, _mm256_loadu_ps(x + i));
    m1 = _mm256_max_ps(m1, _mm256_loadu_ps(x + i + 8));
  }
  for (; i + 8 <= n; i += 8) m0 = _mm256_max_ps(m0, _mm256_loadu_ps(x + i));
  if (i < n) {
    const __m256i m = tail_mask(n - i);
    m1 = _mm256_max_ps(m1, _mm256_blendv_ps(neg_inf, _mm256_maskload_ps(x + i, m), _mm256_castsi256_ps(m)));
  }
  const float mx = hmax(_mm256_max_ps(m0, m1));
  const __m256 vmx = _mm256_set1_ps(mx);

  // exp(x - max), stored for softmax (scaled below), only summed for log_softmax.
  __m256 s0 = _mm256_setzero_ps(), s1 = _mm256_setzero_ps();
  for (i = 0; i + 16 <= n; i += 16) {
    const __m256 e0 = Sleef_expf8_u10avx2(_mm256_sub_ps(_mm256_loadu_ps(x + i), vmx));
    const __m256 e1 = Sleef_expf8_u10avx2(_mm256_sub_ps(_mm256_loadu_ps(x + i + 8), vmx));
    if constexpr (!kLog) {
      _mm256_storeu_ps(y + i, e0);
      _mm256_storeu_ps(y + i + 8, e1);
    }
    s0 = _mm256_add_ps(s0, e0);
    s1 = _mm256_add_ps(s1, e1);
  }
  for (; i + 8 <= n; i += 8) {
    const __m256 e = Sleef_expf8_u10avx2(_mm256_sub_ps(_mm256_loadu_ps(x + i), vmx));
    if constexpr (!kLog) _mm256_storeu_ps(y + i, e);
    s0 = _mm256_add_ps(s0, e);
  }
  if (i < n) {
    const __m256i m = tail_mask(n - i);
    const __m256 e =
        _mm256_and_ps(Sleef_expf8_u10avx2(_mm256_sub_ps(_mm256_maskload_ps(x + i, m), vmx)), _mm256_castsi256_ps(m));
    if constexpr (!kLog) _mm256_maskstore_ps(y + i, m, e);
    s1 = _mm256_add_ps(s1, e);
  }
  const float sum = hsum(_mm256_add_ps(s0, s1));

  if constexpr (kLog) {
    const __m256 shift = _mm256_set1_ps(mx + std::log(sum));
    for (i = 0; i + 8 <= n; i += 8) _mm256_storeu_ps(y + i, _mm256_sub_ps(_mm256_loadu_ps(x + i), shift));
    if (i < n) {
      const __m256i m = tail_mask(n - i);
      _mm256_maskstore_ps(y + i, m, _mm256_sub_ps(_mm256_maskload_ps(x + i, m), shift));
    }
  } else {
    const __m256 inv = _mm256_set1_ps(1.0f / sum);
    for (i = 0; i + 8 <= n; i += 8) _mm256_storeu_ps(y + i, _mm256_mul_ps(_mm256_loadu_ps(y + i), inv));
    if (i < n) {
      const __m256i m = tail_mask(n - i);
      _mm256_maskstore_ps(y + i, m, _mm256_mul_ps(_mm256_maskload_ps(y + i, m), inv));
    }
  }
}

}  // namespace

namespace avx2 {
const UnaryF32 kSoftmaxRow[2] = {&softmax_row<false>, &softmax_row<true>};
}  // namespace avx2

}  // namespace torch::kernels::vec
