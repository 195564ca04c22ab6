#pragma once
// Lane-parallel FFTs: W signals (16 float32 / 8 float64, one 512-bit vector)
// are transformed together, element k of all W lanes forming one vector, so
// every butterfly is a handful of vector operations and no shuffles are
// needed. Note [Lane-parallel FFT]
// Each group of lanes is gathered into split re/im arrays [n][W], run through
// a mixed-radix Stockham FFT (radix 2, 3, 4 and 5 in closed form, larger
// primes through a small DFT), and scattered back. Real transforms
// pack two real lanes into one complex lane (z = a + i b) and separate the
// spectra afterwards, so a group holds 2W real signals. The same source is
// compiled three times (batched_avx512.cpp with AVX-512 flags, batched_avx2.cpp with
// AVX2 + FMA, batched.cpp with the library's) and one build is chosen at run time by
// the CPU capability (Note [CPU capability]).
#include <complex>
#include <cstdint>

#include "ember/core/namespace.h"

namespace torch::fft::detail {

// Where lane l lives: element k of lane l is at base(l) + k * stride.
struct LaneMap {
  int64_t div = 1, outer_step = 0, inner_step = 0, stride = 1;
  int64_t base(int64_t l) const { return (l / div) * outer_step + (l % div) * inner_step; }
};

// Lanes [begin, end) of a batch. forward: exp(-2 pi i jk/n). Results are multiplied by `scale`.
template <typename T>
void batched_c2c(const std::complex<T>* in, LaneMap im, std::complex<T>* out, LaneMap om, int64_t n, int64_t begin,
                 int64_t end, bool forward, T scale);
// Real -> the first `bins` bins (n/2 + 1 onesided, up to n two-sided) of the forward transform;
// `window` (length n, may be null) multiplies each lane first.
template <typename T>
void batched_r2c(const T* in, LaneMap im, const T* window, std::complex<T>* out, LaneMap om, int64_t n, int64_t bins,
                 int64_t begin, int64_t end, T scale);
// Bins 0..n/2 -> n reals (inverse direction); imaginary parts of bins 0 and n/2 are ignored.
template <typename T>
void batched_c2r(const std::complex<T>* in, LaneMap im, T* out, LaneMap om, int64_t n, int64_t begin, int64_t end,
                 T scale);

// Lanes per group: the batch should have at least this many lanes for the lane-parallel path to pay.
template <typename T>
constexpr int64_t kLaneWidth = 64 / sizeof(T);

}  // namespace torch::fft::detail
