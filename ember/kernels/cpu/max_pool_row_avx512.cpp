// One output row of a dense float32 max pooling with AVX-512 (Note [Vectorised max pool
// rows]), compiled with -mavx512f (see CMakeLists.txt) and reached only through
// vec::max_pool_row_f32 after a run-time CPU check.
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <immintrin.h>

#include "ember/kernels/cpu/vec_math.h"

namespace torch::kernels::vec {

namespace {

inline __mmask16 lanes(int64_t n) { return n >= 16 ? __mmask16(0xFFFF) : static_cast<__mmask16>((1u << n) - 1u); }

// x[0], x[sw], ..., x[15 * sw] for the lanes in m; lanes outside m read nothing.
[[gnu::always_inline]] inline __m512 load_strided(const float* x, int64_t sw, int64_t n, __mmask16 m,
                                                  __m512i gather_index) {
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

// The running max over a window of sixteen lanes: load(k) gives each lane's element
// at window offset k = i * in_w + j. PyTorch's rule: a larger value or a NaN replaces
// the running max. best_k is the offset of each lane's max, best_pos its window
// position i * kw + j.
struct WindowMax {
  __m512 best;
  __m512i best_k, best_pos;
};
template <typename Load>
[[gnu::always_inline]] inline WindowMax window_max(const Load& load, int64_t kh, int64_t kw, int64_t in_w) {
  WindowMax r{load(0), _mm512_setzero_si512(), _mm512_setzero_si512()};
  for (int64_t i = 0; i < kh; ++i)
    for (int64_t j = i == 0 ? 1 : 0; j < kw; ++j) {
      const int64_t k = i * in_w + j;
      const __m512 v = load(k);
      const __mmask16 take = _mm512_cmp_ps_mask(v, r.best, _CMP_GT_OQ) | _mm512_cmp_ps_mask(v, v, _CMP_UNORD_Q);
      r.best = _mm512_mask_mov_ps(r.best, take, v);
      r.best_k = _mm512_mask_mov_epi32(r.best_k, take, _mm512_set1_epi32(static_cast<int32_t>(k)));
      r.best_pos = _mm512_mask_mov_epi32(r.best_pos, take, _mm512_set1_epi32(static_cast<int32_t>(i * kw + j)));
    }
  return r;
}

// Stores sixteen lanes (those in m) of outputs, positions and flat indices; the flat
// index of lane l is origin + lane_off[l] + best_k[l].
[[gnu::always_inline]] inline void store_lanes(const WindowMax& w, __mmask16 m, float* y, uint8_t* pos, int64_t* idx,
                                               int64_t origin, __m512i lane_off_lo, __m512i lane_off_hi) {
  _mm512_mask_storeu_ps(y, m, w.best);
  if (pos != nullptr) _mm512_mask_cvtepi32_storeu_epi8(pos, m, w.best_pos);
  if (idx == nullptr) return;
  const __m512i o = _mm512_set1_epi64(origin);
  const __m512i lo =
      _mm512_add_epi64(_mm512_add_epi64(o, lane_off_lo), _mm512_cvtepi32_epi64(_mm512_castsi512_si256(w.best_k)));
  const __m512i hi =
      _mm512_add_epi64(_mm512_add_epi64(o, lane_off_hi), _mm512_cvtepi32_epi64(_mm512_extracti64x4_epi64(w.best_k, 1)));
  _mm512_mask_storeu_epi64(idx, static_cast<__mmask8>(m), lo);
  _mm512_mask_storeu_epi64(idx + 8, static_cast<__mmask8>(m >> 8), hi);
}

// Short rows (Note [Vectorised max pool rows]): with at most eight outputs per row and
// stride 1 or 2, two output rows share a register (lanes [0, out) the first, [out,
// 2 out) the second; output rows are consecutive in y). Each window offset is two
// masked loads and one permute; a 7-wide row (a 14 x 14 plane pooled 2 x 2) used 7 of
// 16 lanes before. Returns the number of rows done (an even count).
// kSW, kKH, kKW as in max_pool_row_impl.
template <int64_t kSW, int64_t kKH, int64_t kKW>
int64_t max_pool_row_pairs(const float* x, float* y, int64_t* idx, const MaxPoolRow& r_) {
  MaxPoolRow r = r_;  // a local copy, as in max_pool_row_impl
  if constexpr (kSW != 0) r.sw = kSW;
  if constexpr (kKH != 0) r.kh = kKH;
  if constexpr (kKW != 0) r.kw = kKW;
  if ((r.sw != 1 && r.sw != 2) || r.out > 8 || r.rows < 2) return 0;
  const int64_t out = r.out;
  // Lane l < out reads column l of the first row, out <= l < 2 out column l - out of
  // the second (its load is the permute's second operand: +16); built in registers,
  // as this runs once per plane.
  const __m512i lane = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
  const __m512i out_v = _mm512_set1_epi32(static_cast<int32_t>(out));
  const __mmask16 first = _mm512_cmplt_epi32_mask(lane, out_v);
  const __mmask16 second = lanes(2 * out) & static_cast<__mmask16>(~first);
  const __m512i col = _mm512_mask_sub_epi32(_mm512_maskz_mov_epi32(first, lane), second, lane, out_v);
  const __m512i col_sw = _mm512_mullo_epi32(col, _mm512_set1_epi32(static_cast<int32_t>(r.sw)));
  const __m512i pick_v = _mm512_mask_add_epi32(col_sw, second, col_sw, _mm512_set1_epi32(16));
  const __m512i step = _mm512_set1_epi64(r.row_step);
  const __m512i off_lo =
      _mm512_mask_add_epi64(_mm512_cvtepi32_epi64(_mm512_castsi512_si256(col_sw)), static_cast<__mmask8>(second),
                            _mm512_cvtepi32_epi64(_mm512_castsi512_si256(col_sw)), step);
  const __m512i off_hi = _mm512_mask_add_epi64(_mm512_cvtepi32_epi64(_mm512_extracti64x4_epi64(col_sw, 1)),
                                               static_cast<__mmask8>(second >> 8),
                                               _mm512_cvtepi32_epi64(_mm512_extracti64x4_epi64(col_sw, 1)), step);
  const __mmask16 span = lanes(r.sw * (out - 1) + 1), m = lanes(2 * out);
  int64_t row = 0;
  for (; row + 1 < r.rows; row += 2) {
    const int64_t start = r.start + row * r.row_step;
    const float* a = x + start;
    const float* b = a + r.row_step;
    const WindowMax w = window_max(
        [&](int64_t k) __attribute__((always_inline)) {
          return _mm512_permutex2var_ps(_mm512_maskz_loadu_ps(span, a + k), pick_v, _mm512_maskz_loadu_ps(span, b + k));
        },
        r.kh, r.kw, r.in_w);
    store_lanes(w, m, y + row * out, r.pos != nullptr ? r.pos + row * out : nullptr,
                idx != nullptr ? idx + row * out : nullptr, start, off_lo, off_hi);
  }
  return row;
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
  const __m512i sw64 = _mm512_set1_epi64(r.sw);
  const __m512i off_lo = _mm512_mullo_epi64(_mm512_setr_epi64(0, 1, 2, 3, 4, 5, 6, 7), sw64);
  const __m512i off_hi = _mm512_mullo_epi64(_mm512_setr_epi64(8, 9, 10, 11, 12, 13, 14, 15), sw64);
  for (int64_t row = max_pool_row_pairs<kSW, kKH, kKW>(x, y, idx, r_); row < r.rows; ++row) {
    const int64_t start = r.start + row * r.row_step;
    float* yr = y + row * r.out;
    uint8_t* pr = r.pos != nullptr ? r.pos + row * r.out : nullptr;
    int64_t* ir = idx != nullptr ? idx + row * r.out : nullptr;
    for (int64_t o = 0; o < r.out; o += 16) {
      const int64_t n = r.out - o < 16 ? r.out - o : 16;
      const __mmask16 m = lanes(n);
      const float* base = x + start + o * r.sw;
      const WindowMax w = window_max(
          [&](int64_t k) __attribute__((always_inline)) { return load_strided(base + k, r.sw, n, m, gather_index); },
          r.kh, r.kw, r.in_w);
      // Flat index in the plane: start + (o + lane) * sw + k.
      store_lanes(w, m, yr + o, pr != nullptr ? pr + o : nullptr, ir != nullptr ? ir + o : nullptr, start + o * r.sw,
                  off_lo, off_hi);
    }
  }
}

void max_pool_row(const float* x, float* y, int64_t* idx, const MaxPoolRow& r) {
  if (r.sw == 2 && r.kh == 2 && r.kw == 2) return max_pool_row_impl<2, 2, 2>(x, y, idx, r);
  if (r.sw == 2 && r.kh == 3 && r.kw == 3) return max_pool_row_impl<2, 3, 3>(x, y, idx, r);  // ResNet's stem
  max_pool_row_impl<0, 0, 0>(x, y, idx, r);
}

}  // namespace

namespace avx512 {
const MaxPoolRowF32 kMaxPoolRow = &max_pool_row;
}  // namespace avx512

}  // namespace torch::kernels::vec
