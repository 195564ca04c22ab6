// Philox4x32-10 over sixteen blocks at once (Note [Philox draws]); compiled with
// -mavx512f and reached only after philox.cpp's CPU check.
// GCC 12 reports its own intrinsics' self-initialised placeholder operands (inside
// _mm512_mul_epu32, _mm512_srli_epi64) as uninitialised: a false positive.
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <immintrin.h>

#include "ember/kernels/cpu/philox.h"

namespace torch::kernels::avx512 {

namespace {

// hi and lo 32 bits of m * x in each lane. mul_epu32 multiplies the even lanes; the odd
// lanes are shifted down for a second one.
inline void mulhilo(__m512i m, __m512i x, __m512i& hi, __m512i& lo) {
  const __m512i even = _mm512_mul_epu32(m, x);
  const __m512i odd = _mm512_mul_epu32(_mm512_srli_epi64(m, 32), _mm512_srli_epi64(x, 32));
  hi = _mm512_mask_blend_epi32(__mmask16(0xAAAA), _mm512_srli_epi64(even, 32), odd);
  lo = _mm512_mullo_epi32(m, x);
}

// K consecutive groups g, g + 1, ... into out, out + 64, ...: each round of one group is
// a chain of dependent multiplies, so one group at a time waited on their latency; K
// independent chains fill it (Note [Philox draws]).
template <int K>
void groups(uint32_t* out, uint64_t g, uint64_t key, uint64_t stream) {
  const __m512i lane = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
  __m512i c0[K], c1[K], c2[K], c3[K];
  for (int q = 0; q < K; ++q) {
    const uint64_t q0 = (g + q) * 16;  // block of lane 0
    const __m512i base = _mm512_set1_epi32(static_cast<int>(static_cast<uint32_t>(q0)));
    const __m512i high = _mm512_set1_epi32(static_cast<int>(static_cast<uint32_t>(q0 >> 32)));
    c0[q] = _mm512_add_epi32(base, lane);
    // A lane whose low word wrapped carries into the high word.
    const __mmask16 carry = _mm512_cmplt_epu32_mask(c0[q], base);
    c1[q] = _mm512_mask_add_epi32(high, carry, high, _mm512_set1_epi32(1));
    c2[q] = _mm512_set1_epi32(static_cast<int>(static_cast<uint32_t>(stream)));
    c3[q] = _mm512_set1_epi32(static_cast<int>(static_cast<uint32_t>(stream >> 32)));
  }
  uint32_t k0 = static_cast<uint32_t>(key), k1 = static_cast<uint32_t>(key >> 32);
  const __m512i m0 = _mm512_set1_epi32(static_cast<int>(0xD2511F53u));
  const __m512i m1 = _mm512_set1_epi32(static_cast<int>(0xCD9E8D57u));
  for (int round = 0; round < 10; ++round) {
    const __m512i vk0 = _mm512_set1_epi32(static_cast<int>(k0)), vk1 = _mm512_set1_epi32(static_cast<int>(k1));
    for (int q = 0; q < K; ++q) {
      __m512i hi0, lo0, hi1, lo1;
      mulhilo(m0, c0[q], hi0, lo0);
      mulhilo(m1, c2[q], hi1, lo1);
      c0[q] = _mm512_xor_si512(_mm512_xor_si512(hi1, c1[q]), vk0);
      c2[q] = _mm512_xor_si512(_mm512_xor_si512(hi0, c3[q]), vk1);
      c1[q] = lo1;
      c3[q] = lo0;
    }
    k0 += 0x9E3779B9u;
    k1 += 0xBB67AE85u;
  }
  for (int q = 0; q < K; ++q) {
    uint32_t* o = out + 64 * q;
    _mm512_storeu_si512(o, c0[q]);
    _mm512_storeu_si512(o + 16, c1[q]);
    _mm512_storeu_si512(o + 32, c2[q]);
    _mm512_storeu_si512(o + 48, c3[q]);
  }
}

}  // namespace

void philox_group(uint32_t* out, uint64_t g, uint64_t key, uint64_t stream) { groups<1>(out, g, key, stream); }
void philox_groups4(uint32_t* out, uint64_t g, uint64_t key, uint64_t stream) { groups<4>(out, g, key, stream); }

}  // namespace torch::kernels::avx512
