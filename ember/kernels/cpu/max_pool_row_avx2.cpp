// One output row of a dense float32 max pooling with AVX2 (Note [Vectorised max pool
// rows]): eight outputs per register, so a 7-wide row (a 14 x 14 plane pooled 2 x 2)
// already fills a register and the AVX-512 file's two-rows-per-register path has no
// counterpart here. Compiled with -mavx2 -mfma (see CMakeLists.txt), reached only
// through vec::max_pool_row_f32 at the avx2 capability (Note [CPU capability]).
#include <immintrin.h>

#include <cstring>

#include "ember/kernels/cpu/vec_math.h"

namespace torch::kernels::vec {

namespace {

// Lanes [0, n) set (n <= 8), as the all-ones int32 lanes maskload / maskstore want.
inline __m256i lanes(int64_t n) {
  return _mm256_cmpgt_epi32(_mm256_set1_epi32(static_cast<int>(n)), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
}

// x[0], x[sw], ..., x[7 * sw] for the lanes in m (n of them); lanes outside m read nothing.
[[gnu::always_inline]] inline __m256 load_strided(const float* x, int64_t sw, int64_t n, __m256i m,
                                                  __m256i gather_index) {
  if (sw == 1) return _mm256_maskload_ps(x, m);
  if (sw == 2) {
    // Lane l needs x[2l]: the last of n lanes reads x[2n - 2], so 2n - 1 elements.
    const int64_t need = 2 * n - 1;
    const __m256 lo = _mm256_maskload_ps(x, lanes(need < 8 ? need : 8));
    const __m256 hi = need > 8 ? _mm256_maskload_ps(x + 8, lanes(need - 8)) : _mm256_setzero_ps();
    // [lo0 lo2 hi0 hi2 | lo4 lo6 hi4 hi6], then the 64-bit pairs reordered to lo0 .. lo6 hi0 .. hi6.
    const __m256 even = _mm256_shuffle_ps(lo, hi, _MM_SHUFFLE(2, 0, 2, 0));
    return _mm256_castpd_ps(_mm256_permute4x64_pd(_mm256_castps_pd(even), _MM_SHUFFLE(3, 1, 2, 0)));
  }
  return _mm256_mask_i32gather_ps(_mm256_setzero_ps(), x, gather_index, _mm256_castsi256_ps(m), 4);
}

// The running max over a window of eight lanes, PyTorch's rule as the AVX-512 file's
// window_max: a larger value or a NaN replaces it. best_k is the offset k = i * in_w + j
// of each lane's max, best_pos its window position i * kw + j.
struct WindowMax {
  __m256 best;
  __m256i best_k, best_pos;
};
template <typename Load>
[[gnu::always_inline]] inline WindowMax window_max(const Load& load, int64_t kh, int64_t kw, int64_t in_w) {
  WindowMax r{load(0), _mm256_setzero_si256(), _mm256_setzero_si256()};
  for (int64_t i = 0; i < kh; ++i)
    for (int64_t j = i == 0 ? 1 : 0; j < kw; ++j) {
      const int64_t k = i * in_w + j;
      const __m256 v = load(k);
      const __m256 take = _mm256_or_ps(_mm256_cmp_ps(v, r.best, _CMP_GT_OQ), _mm256_cmp_ps(v, v, _CMP_UNORD_Q));
      r.best = _mm256_blendv_ps(r.best, v, take);
      const __m256i take_i = _mm256_castps_si256(take);
      r.best_k = _mm256_blendv_epi8(r.best_k, _mm256_set1_epi32(static_cast<int32_t>(k)), take_i);
      r.best_pos = _mm256_blendv_epi8(r.best_pos, _mm256_set1_epi32(static_cast<int32_t>(i * kw + j)), take_i);
    }
  return r;
}

// Stores n lanes of outputs, positions (one byte each) and flat indices; the flat index
// of lane l is origin + l * sw + best_k[l] (lane_off_* hold l * sw as int64).
[[gnu::always_inline]] inline void store_lanes(const WindowMax& w, int64_t n, __m256i m, float* y, uint8_t* pos,
                                               int64_t* idx, int64_t origin, __m256i lane_off_lo, __m256i lane_off_hi) {
  _mm256_maskstore_ps(y, m, w.best);
  if (pos != nullptr) {
    // Positions are < 256 (the caller's guarantee), so the saturating packs keep them.
    const __m128i p16 = _mm_packus_epi32(_mm256_castsi256_si128(w.best_pos), _mm256_extracti128_si256(w.best_pos, 1));
    alignas(16) uint8_t bytes[16];
    _mm_store_si128(reinterpret_cast<__m128i*>(bytes), _mm_packus_epi16(p16, p16));
    std::memcpy(pos, bytes, static_cast<size_t>(n));
  }
  if (idx == nullptr) return;
  const __m256i o = _mm256_set1_epi64x(origin);
  const __m256i lo =
      _mm256_add_epi64(_mm256_add_epi64(o, lane_off_lo), _mm256_cvtepi32_epi64(_mm256_castsi256_si128(w.best_k)));
  const __m256i hi =
      _mm256_add_epi64(_mm256_add_epi64(o, lane_off_hi), _mm256_cvtepi32_epi64(_mm256_extracti128_si256(w.best_k, 1)));
  _mm256_maskstore_epi64(reinterpret_cast<long long*>(idx), _mm256_cvtepi32_epi64(_mm256_castsi256_si128(m)), lo);
  _mm256_maskstore_epi64(reinterpret_cast<long long*>(idx + 4), _mm256_cvtepi32_epi64(_mm256_extracti128_si256(m, 1)),
                         hi);
}

// kSW, kKH, kKW: the stride and window fixed at compile time (0: read from r), for the
// common CNN poolings, as in the AVX-512 file.
template <int64_t kSW, int64_t kKH, int64_t kKW>
void max_pool_row_impl(const float* x, float* y, int64_t* idx, const MaxPoolRow& r_) {
  MaxPoolRow r = r_;  // a local copy: the stores below could alias r_ and force reloads
  if constexpr (kSW != 0) r.sw = kSW;
  if constexpr (kKH != 0) r.kh = kKH;
  if constexpr (kKW != 0) r.kw = kKW;
  const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
  const __m256i gather_index = _mm256_mullo_epi32(lane, _mm256_set1_epi32(static_cast<int32_t>(r.sw)));
  const __m256i off_lo = _mm256_cvtepi32_epi64(_mm256_castsi256_si128(gather_index));
  const __m256i off_hi = _mm256_cvtepi32_epi64(_mm256_extracti128_si256(gather_index, 1));
  for (int64_t row = 0; row < r.rows; ++row) {
    const int64_t start = r.start + row * r.row_step;
    float* yr = y + row * r.out;
    uint8_t* pr = r.pos != nullptr ? r.pos + row * r.out : nullptr;
    int64_t* ir = idx != nullptr ? idx + row * r.out : nullptr;
    for (int64_t o = 0; o < r.out; o += 8) {
      const int64_t n = r.out - o < 8 ? r.out - o : 8;
      const __m256i m = lanes(n);
      const float* base = x + start + o * r.sw;
      const WindowMax w = window_max(
          [&](int64_t k) __attribute__((always_inline)) { return load_strided(base + k, r.sw, n, m, gather_index); },
          r.kh, r.kw, r.in_w);
      store_lanes(w, n, m, yr + o, pr != nullptr ? pr + o : nullptr, ir != nullptr ? ir + o : nullptr, start + o * r.sw,
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

namespace avx2 {
const MaxPoolRowF32 kMaxPoolRow = &max_pool_row;
}  // namespace avx2

}  // namespace torch::kernels::vec
