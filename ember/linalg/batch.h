#pragma once
// Shared plumbing of ember::linalg: input checks, column-major batch buffers,
// the batch loop and LAPACK info → error translation. Internal header.
//
// Note [Column-major batches]
// LAPACK wants each matrix column-major. `col_major_copy(A)` returns a fresh
// contiguous tensor of shape [*, cols, rows] (that is A.mT() made contiguous),
// whose row-major bytes are A's matrices column-major, one after another;
// LAPACK overwrites it in place. `.mT()` of such a buffer is the result with
// column-major strides, the layout PyTorch's linalg results have too.
#include <functional>
#include <string>

#include "ember/core/parallel.h"
#include "ember/core/tensor.h"

namespace torch::linalg::detail {

// A is a floating or complex tensor with at least two dims ("op: A must have at least 2 dimensions").
void check_matrix(const Tensor& A, const char* op, const char* name = "A");
// ... and its matrices are square.
void check_square(const Tensor& A, const char* op, const char* name = "A");
// float32/float64/complex64/complex128 only (float16/bfloat16 have no LAPACK).
void check_dtype(const Tensor& A, const char* op, const char* name = "A");
void check_same_dtype(const Tensor& A, const Tensor& B, const char* op);

int64_t batch_count(const Tensor& A);  // product of all but the last two dims
DimVector batch_shape(const Tensor& A);
Tensor col_major_copy(const Tensor& A);
// An uninitialised column-major buffer for [*batch, rows, cols] matrices (Note [Column-major batches]).
Tensor col_major_empty(IntArrayRef batch, int64_t rows, int64_t cols, ScalarType dtype);

// Raises for the first batch element whose LAPACK info is positive, with
// PyTorch's wording: "op: (Batch element 1): " + what(info). `batched` says
// whether the input had batch dims (no prefix otherwise).
void check_infos(const char* op, const int* infos, int64_t count, bool batched,
                 const std::function<std::string(int)>& what);

// Runs f(b) for b in [0, batch). Small matrices run in parallel across the
// batch (LAPACK then runs single-threaded inside each task); large ones run one
// after another and let LAPACK use the threads.
template <typename F>
void for_each_matrix(int64_t batch, int64_t n, const F& f) {
  const int64_t work = n * n * n;
  const int64_t grain = work >= (int64_t{1} << 21) ? batch : std::max<int64_t>(1, (int64_t{1} << 16) / (work + 1));
  parallel_for(0, batch, grain, [&](int64_t begin, int64_t end) {
    for (int64_t b = begin; b < end; ++b) f(b);
  });
}

// Calls f(T{}) with T the C++ element type of `dt` (float, double, complex64, complex128).
template <typename F>
void dispatch(ScalarType dt, const F& f) {
  switch (dt) {
    case ScalarType::Float:
      return f(float{});
    case ScalarType::Double:
      return f(double{});
    case ScalarType::ComplexFloat:
      return f(complex64{});
    case ScalarType::ComplexDouble:
      return f(complex128{});
    default:
      EMBER_INTERNAL_ASSERT(false, "linalg: unexpected dtype ", dt);
  }
}

// Batched identity-like helpers built from differentiable ops.
Tensor mH(const Tensor& A);                 // conjugate transpose of the last two dims
int64_t to_int(int64_t v, const char* op);  // LAPACK's 32-bit sizes

}  // namespace torch::linalg::detail
