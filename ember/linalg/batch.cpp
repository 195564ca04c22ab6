#include "ember/linalg/batch.h"

#include <limits>

#include "ember/autograd/forward_ad.h"
#include "ember/autograd/grad_mode.h"
#include "ember/core/shape.h"
#include "ember/ops/all_ops.h"
#include "ember/ops/factory/factory.h"

namespace torch::linalg::detail {

void check_dtype(const Tensor& A, const char* op, const char* name) {
  const ScalarType t = A.dtype();
  EMBER_CHECK(
      t == kFloat || t == kDouble || t == kComplexFloat || t == kComplexDouble, op,
      ": Expected a floating point or complex tensor as input (float32, float64, complex64 or complex128). Got ", name,
      " of dtype ", dtype_name(t), " and shape ", shape_str(A.sizes()));
}

void check_matrix(const Tensor& A, const char* op, const char* name) {
  EMBER_CHECK(A.defined(), op, ": ", name, " is undefined");
  EMBER_CHECK(A.dim() >= 2, op, ": The input tensor ", name, " must have at least 2 dimensions, but got shape ",
              shape_str(A.sizes()));
  check_dtype(A, op, name);
}

void check_square(const Tensor& A, const char* op, const char* name) {
  check_matrix(A, op, name);
  EMBER_CHECK(A.size(-1) == A.size(-2), op, ": ", name, " must be batches of square matrices, but they are ",
              A.size(-2), " by ", A.size(-1), " matrices (shape ", shape_str(A.sizes()), ")");
}

void check_same_dtype(const Tensor& A, const Tensor& B, const char* op) {
  EMBER_CHECK(A.dtype() == B.dtype(), op, ": Expected A and B to have the same dtype, but found A of type ",
              dtype_name(A.dtype()), " and B of type ", dtype_name(B.dtype()), " instead (shapes ",
              shape_str(A.sizes()), " and ", shape_str(B.sizes()), ")");
}

int64_t batch_count(const Tensor& A) {
  int64_t n = 1;
  for (int64_t i = 0; i + 2 < A.dim(); ++i) n *= A.size(i);
  return n;
}

DimVector batch_shape(const Tensor& A) { return DimVector(A.sizes().slice(0, A.dim() - 2)); }

Tensor col_major_empty(IntArrayRef batch, int64_t rows, int64_t cols, ScalarType dtype) {
  DimVector shape(batch);
  shape.push_back(cols);
  shape.push_back(rows);
  return empty(shape, TensorOptions(dtype));
}

Tensor col_major_copy(const Tensor& A) {
  autograd::BelowAutogradGuard no_grad;  // a raw LAPACK buffer, never part of the graph
  Tensor buf = col_major_empty(batch_shape(A), A.size(-2), A.size(-1), A.dtype());
  buf.copy_(A.mT());
  return buf;
}

void check_infos(const char* op, const int* infos, int64_t count, bool batched,
                 const std::function<std::string(int)>& what) {
  for (int64_t b = 0; b < count; ++b) {
    if (infos[b] <= 0) {
      // Ember passes valid arguments, so this is LAPACK refusing a value it
      // computed from the input, such as a NaN norm.
      EMBER_CHECK(infos[b] == 0, op, ": LAPACK rejected argument ", -infos[b],
                  " (an input with NaN or inf values can cause this)");
      continue;
    }
    if (batched) EMBER_CHECK(false, op, ": (Batch element ", b, "): ", what(infos[b]));
    EMBER_CHECK(false, op, ": ", what(infos[b]));
  }
}

Tensor mH(const Tensor& A) { return A.is_complex() ? A.mT().conj() : A.mT(); }

int64_t to_int(int64_t v, const char* op) {
  EMBER_CHECK(v <= std::numeric_limits<int>::max(), op, ": matrix dimension ", v, " exceeds LAPACK's 32-bit sizes");
  return v;
}

}  // namespace torch::linalg::detail
