#pragma once
// Note [Philox draws]
// Dropout needs one uniform 32-bit draw per element, millions per training step; a serial
// mt19937_64 loop made them a quarter of a transformer layer's forward. Philox4x32-10
// (Salmon, Moraes, Dror, Shaw, "Parallel random numbers: as easy as 1, 2, 3", SC'11; the
// counter-based generator of PyTorch's CUDA dropout) computes any block of four draws
// from (counter, key) alone, so a mask is filled in parallel, sixteen blocks per AVX-512
// instruction stream (two AVX2 ones), and the result does not depend on the thread count.
// The stream of a call is fixed by a 64-bit key and a 64-bit stream id (both taken from
// the caller's Generator). Draw i of it is word w of block 16 * g + l, where
// g = i / 64, w = (i % 64) / 16, l = i % 16, and block q is
// philox4x32_10({lo(q), hi(q), lo(stream), hi(stream)}, {lo(key), hi(key)}):
// that order lets the vector kernel store each word of sixteen blocks contiguously. The
// portable kernel computes the same draws.
#include <array>
#include <cstdint>

#include "ember/core/namespace.h"

namespace torch::kernels {

// One Philox4x32-10 block (the reference function; tests check it against the
// algorithm's published known-answer vectors).
std::array<uint32_t, 4> philox4x32_10(std::array<uint32_t, 4> counter, std::array<uint32_t, 2> key);

// out[j] = draw (first + j) of the stream (key, stream), j in [0, n).
void philox_draws(uint32_t* out, int64_t first, int64_t n, uint64_t key, uint64_t stream);

namespace avx512 {
// 64 draws of group g (draw indices [64 g, 64 g + 64)) into out; defined in
// philox_avx512.cpp, called only after a CPU check.
void philox_group(uint32_t* out, uint64_t g, uint64_t key, uint64_t stream);
// The 256 draws of groups g .. g + 3, computed interleaved (independent multiply chains).
void philox_groups4(uint32_t* out, uint64_t g, uint64_t key, uint64_t stream);
}  // namespace avx512

namespace avx2 {
// The same two entry points for AVX2 (philox_avx2.cpp), called only at the avx2
// capability (Note [CPU capability]).
void philox_group(uint32_t* out, uint64_t g, uint64_t key, uint64_t stream);
void philox_groups4(uint32_t* out, uint64_t g, uint64_t key, uint64_t stream);
}  // namespace avx2

}  // namespace torch::kernels
