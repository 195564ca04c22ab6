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
#include "ember/core/tensor.h"

namespace ember::kernels {

// a, b, c: same dtype (not bool), same number of dims (>= 2) and equal batch
// sizes; c contiguous. float/double/complex go to BLAS, the rest to a portable
// kernel (half/bfloat16 accumulate in float, integers in their own type).
void gemm_batched(const Tensor& a, const Tensor& b, const Tensor& c, const Scalar& alpha, const Scalar& beta);

// Which library serves float32 at the current thread count: "oneDNN" or
// "OpenBLAS" (Note [SGEMM backend choice] in gemm.cpp).
const char* sgemm_backend();

}  // namespace ember::kernels
