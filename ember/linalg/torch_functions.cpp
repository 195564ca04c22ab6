#include "ember/linalg/torch_functions.h"

#include <limits>
#include "ember/core/record_scope.h"

#include "ember/core/shape.h"
#include "ember/linalg.h"
#include "ember/linalg/batch.h"
#include "ember/ops/all_ops.h"
#include "ember/ops/factory/factory.h"
#include "ember/vmap/batched_tensor.h"

namespace torch {

using linalg::detail::mH;

Tensor det(const Tensor& A) {
  EMBER_RECORD_COMPOSITE_OP("det", A);
  return linalg::det(A);
}
Tensor logdet(const Tensor& A) {
  EMBER_RECORD_COMPOSITE_OP("logdet", A);
  auto [sign, logabs] = linalg::slogdet(A);
  if (A.is_complex()) return sign.log() + logabs;  // i arg(det) + log|det|
  // A negative determinant gives nan with a zero gradient, as PyTorch (which
  // masks it); log(0) = -inf for a singular matrix.
  return where(sign < 0, full({}, std::numeric_limits<double>::quiet_NaN(), logabs.options()), logabs);
}
std::tuple<Tensor, Tensor> slogdet(const Tensor& A) {
  EMBER_RECORD_COMPOSITE_OP("slogdet", A);
  return linalg::slogdet(A);
}
Tensor inverse(const Tensor& A) {
  EMBER_RECORD_COMPOSITE_OP("inverse", A);
  return linalg::inv(A);
}
Tensor cholesky(const Tensor& A, bool upper) {
  EMBER_RECORD_COMPOSITE_OP("cholesky", A);
  return linalg::cholesky(A, upper);
}

Tensor cholesky_solve(const Tensor& B, const Tensor& L, bool upper) {
  EMBER_RECORD_COMPOSITE_OP("cholesky_solve", B, L);
  // A = L L^H (or U^H U): two triangular solves.
  if (upper) return linalg::solve_triangular(L, linalg::solve_triangular(mH(L), B, false), true);
  return linalg::solve_triangular(mH(L), linalg::solve_triangular(L, B, false), true);
}

Tensor cholesky_inverse(const Tensor& L, bool upper) {
  EMBER_RECORD_COMPOSITE_OP("cholesky_inverse", L);
  linalg::detail::check_square(L, "cholesky_inverse", "L");
  return cholesky_solve(eye(L.size(-1), TensorOptions(L.dtype())).expand(L.sizes()), L, upper);
}

Tensor cross(const Tensor& a, const Tensor& b, std::optional<int64_t> dim) {
  EMBER_RECORD_COMPOSITE_OP("cross", a, b);
  if (dim) return linalg::cross(a, b, *dim);
  DimVector shape = broadcast_shapes(a.sizes(), b.sizes(), "cross");
  for (size_t i = 0; i < shape.size(); ++i)
    if (shape[i] == 3) return linalg::cross(a, b, int64_t(i));
  EMBER_CHECK(false, "cross: no dimension of size 3 in input (shapes ", shape_str(a.sizes()), " and ",
              shape_str(b.sizes()), ")");
}

Tensor matrix_power(const Tensor& A, int64_t n) {
  EMBER_RECORD_COMPOSITE_OP("matrix_power", A);
  return linalg::matrix_power(A, n);
}
Tensor matrix_exp(const Tensor& A) {
  EMBER_RECORD_COMPOSITE_OP("matrix_exp", A);
  return linalg::matrix_exp(A);
}
Tensor pinverse(const Tensor& A, double rcond) {
  EMBER_RECORD_COMPOSITE_OP("pinverse", A);
  return linalg::pinv(A, rcond);
}

std::tuple<Tensor, Tensor, Tensor> svd(const Tensor& A, bool some, bool compute_uv) {
  EMBER_RECORD_COMPOSITE_OP("svd", A);
  if (!compute_uv) {
    Tensor S = linalg::svdvals(A);
    const int64_t m = A.size(-2), n = A.size(-1);
    DimVector bu = linalg::detail::batch_shape(A), bv = bu;
    // torch.svd's documented placeholders: zero (m, m) and (n, n) matrices, whatever `some`.
    bu.push_back(m);
    bu.push_back(m);
    bv.push_back(n);
    bv.push_back(n);
    return {zeros(bu, TensorOptions(A.dtype())), S, zeros(bv, TensorOptions(A.dtype()))};
  }
  auto [U, S, Vh] = linalg::svd(A, !some);
  return {U, S, mH(Vh)};
}

std::tuple<Tensor, Tensor> qr(const Tensor& A, bool some) {
  EMBER_RECORD_COMPOSITE_OP("qr", A);
  return linalg::qr(A, some ? "reduced" : "complete");
}

std::tuple<Tensor, Tensor> triangular_solve(const Tensor& b, const Tensor& A, bool upper, bool transpose,
                                            bool unitriangular) {
  EMBER_RECORD_COMPOSITE_OP("triangular_solve", b, A);
  Tensor coeff = transpose ? A.mT() : A;
  return {linalg::solve_triangular(coeff, b, transpose ? !upper : upper, true, unitriangular), A.clone()};
}

Tensor lu_solve(const Tensor& b, const Tensor& LU_data, const Tensor& LU_pivots) {
  EMBER_RECORD_COMPOSITE_OP("lu_solve", b, LU_data, LU_pivots);
  return linalg::lu_solve(LU_data, LU_pivots, b);
}

Tensor orgqr(const Tensor& A, const Tensor& tau) {
  EMBER_RECORD_COMPOSITE_OP("orgqr", A, tau);
  return linalg::householder_product(A, tau);
}

Tensor vander(const Tensor& x, std::optional<int64_t> N, bool increasing) {
  EMBER_RECORD_COMPOSITE_OP("vander", x);
  EMBER_CHECK(x.dim() == 1, "vander: x must be a one-dimensional tensor, got shape ", shape_str(x.sizes()));
  const int64_t n = N.value_or(x.size(0));
  EMBER_CHECK(n >= 0, "vander: N must be non-negative, got ", n);
  // torch.vander, unlike linalg.vander, allows N = 0 and 1 (no columns, or the ones column).
  if (n <= 1) return n == 0 ? zeros({x.size(0), 0}, x.options()) : ones({x.size(0), 1}, x.options());
  Tensor v = linalg::vander(x, n);
  return increasing ? v : v.flip({-1});
}

}  // namespace torch
