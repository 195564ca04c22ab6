// Philox4x32-10 over sixteen blocks at once with AVX2 (Note [Philox draws]): each group's
// sixteen lanes are two registers of eight, so the output order is the AVX-512 kernel's.
// Compiled with -mavx2 -mfma and reached only after philox.cpp's capability check (Note
// [CPU capability]).
#include <immintrin.h>

#include "ember/kernels/cpu/philox.h"

namespace torch::kernels::avx2 {

namespace {

// hi and lo 32 bits of m * x in each lane: mul_epu32 multiplies the even lanes; the odd
// lanes are shifted down for a second one.
inline void mulhilo(__m256i m, __m256i x, __m256i& hi, __m256i& lo) {
  const __m256i even = _mm256_mul_epu32(m, x);
  const __m256i odd = _mm256_mul_epu32(_mm256_srli_epi64(m, 32), _mm256_srli_epi64(x, 32));
  hi = _mm256_blend_epi32(_mm256_srli_epi64(even, 32), odd, 0xAA);
  lo = _mm256_mullo_epi32(m, x);
}

// K consecutive groups g, g + 1, ... into out, out + 64, ...: 2K independent multiply
// chains (two half-groups each). K = 2 keeps the sixteen counters and the constants in
// the sixteen ymm registers.
template <int K>
void groups(uint32_t* out, uint64_t g, uint64_t key, uint64_t stream) {
  constexpr int kChains = 2 * K;
  const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
  const __m256i sign = _mm256_set1_epi32(static_cast<int>(0x80000000u));
  __m256i c0[kChains], c1[kChains], c2[kChains], c3[kChains];
  for (int q = 0; q < kChains; ++q) {
    const uint64_t q0 = (g + q / 2) * 16 + (q % 2) * 8;  // block of the chain's lane 0
    const __m256i base = _mm256_set1_epi32(static_cast<int>(static_cast<uint32_t>(q0)));
    const __m256i high = _mm256_set1_epi32(static_cast<int>(static_cast<uint32_t>(q0 >> 32)));
    c0[q] = _mm256_add_epi32(base, lane);
    // A lane whose low word wrapped (c0 < base, unsigned) carries into the high word;
    // the compare is all ones there, and subtracting it adds one.
    const __m256i carry = _mm256_cmpgt_epi32(_mm256_xor_si256(base, sign), _mm256_xor_si256(c0[q], sign));
    c1[q] = _mm256_sub_epi32(high, carry);
    c2[q] = _mm256_set1_epi32(static_cast<int>(static_cast<uint32_t>(stream)));
    c3[q] = _mm256_set1_epi32(static_cast<int>(static_cast<uint32_t>(stream >> 32)));
  }
  uint32_t k0 = static_cast<uint32_t>(key), k1 = static_cast<uint32_t>(key >> 32);
  const __m256i m0 = _mm256_set1_epi32(static_cast<int>(0xD2511F53u));
  const __m256i m1 = _mm256_set1_epi32(static_cast<int>(0xCD9E8D57u));
  for (int round = 0; round < 10; ++round) {
    const __m256i vk0 = _mm256_set1_epi32(static_cast<int>(k0)), vk1 = _mm256_set1_epi32(static_cast<int>(k1));
    for (int q = 0; q < kChains; ++q) {
      __m256i hi0, lo0, hi1, lo1;
      mulhilo(m0, c0[q], hi0, lo0);
      mulhilo(m1, c2[q], hi1, lo1);
      c0[q] = _mm256_xor_si256(_mm256_xor_si256(hi1, c1[q]), vk0);
      c2[q] = _mm256_xor_si256(_mm256_xor_si256(hi0, c3[q]), vk1);
      c1[q] = lo1;
      c3[q] = lo0;
    }
    k0 += 0x9E3779B9u;
    k1 += 0xBB67AE85u;
  }
  for (int q = 0; q < kChains; ++q) {
    uint32_t* o = out + 64 * (q / 2) + 8 * (q % 2);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(o), c0[q]);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(o + 16), c1[q]);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(o + 32), c2[q]);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(o + 48), c3[q]);
  }
}

}  // namespace

void philox_group(uint32_t* out, uint64_t g, uint64_t key, uint64_t stream) { groups<1>(out, g, key, stream); }
void philox_groups4(uint32_t* out, uint64_t g, uint64_t key, uint64_t stream) {
  groups<2>(out, g, key, stream);
  groups<2>(out + 128, g + 2, key, stream);
}

}  // namespace torch::kernels::avx2
