// One output row of a dense float32 max pooling with AVX-512 (Note [Vectorised max pool
// rows]), compiled with -mavx512f (see CMakeLists.txt) and reached only through
// vec::max_pool_row_f32 after a run-time CPU check.
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <immintrin.h>

#include "ember/kernels/cpu/vec_math.h"

namespace ember::kernels::vec {

namespace {

inline __mmask16 lanes(int64_t n) { return n >= 16 ? __mmask16(0xFFFF) : static_cast<__mmask16>((1u << n) - 1u); }

// x[0], x[sw], ..., x[15 * sw] for the lanes in m; lanes outside m read nothing.
inline __m512 load_strided(const float* x, int64_t sw, int64_t n, __mmask16 m, __m512i gather_index) {
  if (sw == 1) return _mm512_maskz_loadu_ps(m, x);
  if (sw == 2) {
    // Lane l needs x[2l]: the last of n lanes reads x[2n - 2], so 2n - 1 elements.
    const int64_t need = 2 * n - 1;
    const __m512 lo = _mm512_maskz_loadu_ps(lanes(need), x);
    const __m512 hi = need > 16 ? _mm512_maskz_loadu_ps(lanes(need - 16), x + 16) : _mm512_setzero_ps();
    const __m512i even = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
    return _mm512_permutex2var_ps(lo, even, hi);
  }
  return _mm512_mask_i32gather_ps(_mm512_setzero_ps(), m, gather_index, x, 4);
}

// kSW, kKH, kKW: the stride and window fixed at compile time (0: read from r). With
// all three run-time values the loop ran about three times slower on 2 x 2 / 2,
// the common CNN pooling, which gets its own instance.
template <int64_t kSW, int64_t kKH, int64_t kKW>
void max_pool_row_impl(const float* x, float* y, int64_t* idx, const MaxPoolRow& r_) {
  MaxPoolRow r = r_;  // a local copy: the stores below could alias r_ and force reloads
  if constexpr (kSW != 0) r.sw = kSW;
  if constexpr (kKH != 0) r.kh = kKH;
  if constexpr (kKW != 0) r.kw = kKW;
  const __m512i lane = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
  const __m512i gather_index = _mm512_mullo_epi32(lane, _mm512_set1_epi32(static_cast<int32_t>(r.sw)));
  const __m512i lane64_lo = _mm512_setr_epi64(0, 1, 2, 3, 4, 5, 6, 7);
  const __m512i lane64_hi = _mm512_setr_epi64(8, 9, 10, 11, 12, 13, 14, 15);
  const __m512i sw64 = _mm512_set1_epi64(r.sw);
  for (int64_t row = 0; row < r.rows; ++row) {
    const int64_t start = r.start + row * r.row_step;
    float* yr = y + row * r.out;
    uint8_t* pr = r.pos != nullptr ? r.pos + row * r.out : nullptr;
    int64_t* ir = idx != nullptr ? idx + row * r.out : nullptr;
    for (int64_t o = 0; o < r.out; o += 16) {
      const int64_t n = r.out - o < 16 ? r.out - o : 16;
      const __mmask16 m = lanes(n);
      const float* base = x + start + o * r.sw;
      __m512 best = load_strided(base, r.sw, n, m, gather_index);
      __m512i best_k = _mm512_setzero_si512();    // window offset i * W + j of each lane's max
      __m512i best_pos = _mm512_setzero_si512();  // its window position i * kw + j
      for (int64_t i = 0; i < r.kh; ++i)
        for (int64_t j = i == 0 ? 1 : 0; j < r.kw; ++j) {
          const int64_t k = i * r.in_w + j;
          const __m512 v = load_strided(base + k, r.sw, n, m, gather_index);
          // PyTorch's rule: a larger value or a NaN replaces the running max.
          const __mmask16 take = _mm512_cmp_ps_mask(v, best, _CMP_GT_OQ) | _mm512_cmp_ps_mask(v, v, _CMP_UNORD_Q);
          best = _mm512_mask_mov_ps(best, take, v);
          best_k = _mm512_mask_mov_epi32(best_k, take, _mm512_set1_epi32(static_cast<int32_t>(k)));
          best_pos = _mm512_mask_mov_epi32(best_pos, take, _mm512_set1_epi32(static_cast<int32_t>(i * r.kw + j)));
        }
      _mm512_mask_storeu_ps(yr + o, m, best);
      if (pr != nullptr) _mm512_mask_cvtepi32_storeu_epi8(pr + o, m, best_pos);
      if (ir == nullptr) continue;
      // Flat index in the plane: start + (o + lane) * sw + k.
      const __m512i origin = _mm512_set1_epi64(start + o * r.sw);
      const __m512i lo = _mm512_add_epi64(_mm512_add_epi64(origin, _mm512_mullo_epi64(lane64_lo, sw64)),
                                          _mm512_cvtepi32_epi64(_mm512_castsi512_si256(best_k)));
      const __m512i hi = _mm512_add_epi64(_mm512_add_epi64(origin, _mm512_mullo_epi64(lane64_hi, sw64)),
                                          _mm512_cvtepi32_epi64(_mm512_extracti64x4_epi64(best_k, 1)));
      _mm512_mask_storeu_epi64(ir + o, static_cast<__mmask8>(m), lo);
      _mm512_mask_storeu_epi64(ir + o + 8, static_cast<__mmask8>(m >> 8), hi);
    }
  }
}

void max_pool_row(const float* x, float* y, int64_t* idx, const MaxPoolRow& r) {
  if (r.sw == 2 && r.kh == 2 && r.kw == 2) return max_pool_row_impl<2, 2, 2>(x, y, idx, r);
  max_pool_row_impl<0, 0, 0>(x, y, idx, r);
}

}  // namespace

namespace avx512 {
const MaxPoolRowF32 kMaxPoolRow = &max_pool_row;
}  // namespace avx512

}  // namespace ember::kernels::vec
