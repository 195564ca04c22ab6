#pragma once
// Batched matrix multiply, the one kernel behind the whole matmul family.
//   c[..., m, n] = alpha * a[..., m, k] @ b[..., k, n] + beta * c[..., m, n]
// Note [GEMM operand layouts]
// a and b may have any strides: a matrix whose last or second-to-last stride
// is 1 is handed to BLAS as-is (transposed via the trans flag when the column
// stride is 1), so transposed views and expanded (stride-0) batch dims cost no
// copy; only matrices with no unit stride are copied. c is always contiguous
// (the op layer owns it). beta == 0 means c is write-only: NaN/garbage in c
// never reaches the result, as in BLAS and PyTorch.
#include <vector>

#include "ember/core/tensor.h"

namespace torch::kernels {

// a, b, c: same dtype (not bool), same number of dims (>= 2) and equal batch
// sizes; c contiguous. float/double/complex go to BLAS, the rest to a portable
// kernel (half/bfloat16 accumulate in float, integers in their own type).
void gemm_batched(const Tensor& a, const Tensor& b, const Tensor& c, const Scalar& alpha, const Scalar& beta);

// Note [Linear with a fused bias]
// c = bias + a @ b for 2-D float32 a, b (a unit stride in each), a contiguous
// c and a bias of one value per column (stride 1): the linear layer's forward.
// This runs one oneDNN matmul (float32 GEMMs are oneDNN's: Note [SGEMM backend
// choice]) that adds the bias in its epilogue, instead of copying the
// broadcast bias into c and running the GEMM with beta = 1 — a pass writing c
// and one reading it back (W10's four linears: ~0.5 ms of a 50 ms step), and
// oneDNN's brgemm matmul is faster than its sgemm on x @ w.t() with a long
// contraction (M1's [64, 3136] x [3136, 128]: 285 -> 216 us). Returns false,
// having done nothing, for any other case. Sums are formed in another order
// than bias-then-products, so results differ by rounding only.
bool addmm_bias_f32(const Tensor& bias, const Tensor& a, const Tensor& b, const Tensor& c);

// One product c = alpha * op(a) @ op(b) + beta * c of row-major matrices given by raw
// pointers and leading dimensions (op = transpose when trans_*), run on the calling
// thread's terms: for fused kernels that loop over many small products themselves
// (Note [Fused attention]). float32 goes to oneDNN's sgemm (Note [SGEMM backend
// choice]); float64 to OpenBLAS. Sizes must fit in 32 bits.
void gemm_raw(bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k, float alpha, const float* a, int64_t lda,
              const float* b, int64_t ldb, float beta, float* c, int64_t ldc);
void gemm_raw(bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k, double alpha, const double* a, int64_t lda,
              const double* b, int64_t ldb, double beta, double* c, int64_t ldc);

// Element offsets (storage_offset included) of every matrix of t over its leading dims
// `batch`, in row-major batch order; batch dims may have any strides, 0 included.
std::vector<int64_t> batch_offsets(const Tensor& t, IntArrayRef batch);

// Which library serves float32 GEMMs (Note [SGEMM backend choice] in gemm.cpp).
const char* sgemm_backend();

}  // namespace torch::kernels
