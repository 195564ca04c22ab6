#pragma once
// Vectorised float32/float64 math (SLEEF) for the rows of tables/unary.def whose
// `vec` column names a SLEEF accuracy. Chosen at run time by the CPU capability
// (Note [CPU capability]): AVX-512 kernels (vec_math_avx512.cpp), AVX2 + FMA kernels
// (vec_math_avx2.cpp, SLEEF's avx2 entry points, same accuracy bounds), or nothing at
// `default`, in which case the caller's scalar std:: loop runs. <sleef.h> is included
// only in the kernel .cpp files because it defines CONST/IMPORT macros.
#include <cstdint>

#include "ember/kernels/cpu/unary_kernels.h"

namespace torch::kernels::vec {

using UnaryF32 = void (*)(const float* in, float* out, int64_t n);
using UnaryF64 = void (*)(const double* in, double* out, int64_t n);
struct UnaryVec {
  UnaryF32 f32 = nullptr;
  UnaryF64 f64 = nullptr;
};

// The contiguous kernels of `op` on this CPU; null members when there are none.
const UnaryVec& unary_vec(UnaryOpId op);

// gelu (exact erf form, or the tanh approximation), same formulas as gelu_kernel.
const UnaryVec& gelu_vec(bool tanh_approximation);

// float32 tanh within SLEEF's 3.5-ULP bound, about 3x faster than the tanh op's 1-ULP
// kernel; for fused kernels that document the looser bound (Note [Fused LSTM layer]).
// Null when unary_vec would give nothing.
UnaryF32 tanh_f32_u35();

// Note [Vectorised softmax rows]
// softmax / log_softmax of one contiguous float32 row (y = f(x) over n elements, x and y
// not overlapping): the row's max in AVX-512 registers, exp(x - max) through SLEEF's 1-ULP
// expf16, the sum in sixteen lanes, then one scaling pass. The scalar row loop called
// libm's expf once per element and carried the max and the sum in one serial chain each;
// it was about a tenth of W10's forward (the [16, 4, 128, 128] attention weights). NaN and
// inf rows come out as Note [Softmax NaN and inf] says (a NaN or inf reaches the sum).
// Null when unary_vec would give nothing; the caller's scalar loop then runs.
UnaryF32 softmax_row_f32(bool log);

// Note [Vectorised max pool rows]
// One output row of a dense max pooling (every window the full kh x kw kernel inside the
// input, no dilation): out outputs whose windows start at x[start + o * sw], rows in_w
// apart. Sixteen outputs per register; each lane sees its window in row-major order and
// takes a larger value or a NaN (PyTorch's rule), so values and the int64 flat indices
// (start + o * sw + i * in_w + j) equal the scalar loop's. The scalar loop's compare was
// an unpredictable branch per element: ~13 ns per output, a third of W6a's training step.
// Callers guarantee every index fits in int32. Null at the default capability (or with vec
// math off); the AVX2 variant does eight outputs per register.
// idx may be null; with `pos` set, each output's window position i * kw + j is also
// stored as one byte (callers guarantee kh * kw <= 256): the compact indices of
// Note [Max pooling positions].
// `rows` output rows are done in one call, the input windows of each row_step
// elements after the previous row's, and y / idx / pos advancing by `out`: the
// per-call set-up was most of the time for narrow rows (7 outputs each). Rows of at most
// eight outputs with stride 1 or 2 then go two to a register (a 14 x 14 plane pooled
// 2 x 2 filled 7 of 16 lanes): [64, 64, 14, 14] 167 -> 130 us.
struct MaxPoolRow {
  int64_t out, start, sw, kh, kw, in_w;
  uint8_t* pos = nullptr;
  int64_t rows = 1, row_step = 0;
};
using MaxPoolRowF32 = void (*)(const float* x, float* y, int64_t* idx, const MaxPoolRow& r);
MaxPoolRowF32 max_pool_row_f32();

// Tests switch the SLEEF and intrinsic paths off to check the scalar fallbacks (on by default).
void set_vec_math_enabled(bool enabled);
bool vec_math_enabled();

namespace avx512 {
// Defined in vec_math_avx512.cpp; only dereferenced after a CPU check.
extern const UnaryVec kUnaryTable[kNumUnaryOps];
extern const UnaryVec kGelu[2];  // [tanh_approximation]
extern const UnaryF32 kTanhU35;
extern const UnaryF32 kSoftmaxRow[2];    // [log]; softmax_row_avx512.cpp
extern const MaxPoolRowF32 kMaxPoolRow;  // max_pool_row_avx512.cpp
}  // namespace avx512

namespace avx2 {
// The same kernels for AVX2 + FMA (eight float32 lanes): vec_math_avx2.cpp,
// softmax_row_avx2.cpp, max_pool_row_avx2.cpp; only dereferenced after a CPU check.
extern const UnaryVec kUnaryTable[kNumUnaryOps];
extern const UnaryVec kGelu[2];
extern const UnaryF32 kTanhU35;
extern const UnaryF32 kSoftmaxRow[2];
extern const MaxPoolRowF32 kMaxPoolRow;
}  // namespace avx2

}  // namespace torch::kernels::vec
