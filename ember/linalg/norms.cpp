#include "ember/linalg/norms.h"
#include "ember/core/record_scope.h"

#include <cmath>
#include <limits>

#include "ember/autograd/forward_ad.h"
#include "ember/autograd/grad_mode.h"
#include "ember/core/shape.h"
#include "ember/linalg/batch.h"
#include "ember/linalg/factorizations.h"
#include "ember/linalg/spectral.h"
#include "ember/ops/all_ops.h"
#include "ember/ops/factory/factory.h"
#include "ember/vmap/batching_rules.h"

namespace torch::linalg {

using namespace detail;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

double eps_of(ScalarType t) {
  return to_real_type(t) == kFloat ? std::numeric_limits<float>::epsilon() : std::numeric_limits<double>::epsilon();
}

// The two matrix dims, wrapped and distinct.
std::pair<int64_t, int64_t> matrix_dims(const Tensor& A, IntArrayRef dim, const char* op) {
  EMBER_CHECK(dim.size() == 2, op, ": dim must be a 2-tuple. Got ", dim);
  EMBER_CHECK(A.dim() >= 2, op, ": The input tensor A must have at least 2 dimensions, got shape ",
              shape_str(A.sizes()));
  const int64_t d0 = wrap_dim(dim[0], A.dim(), op), d1 = wrap_dim(dim[1], A.dim(), op);
  EMBER_CHECK(d0 != d1, op, ": dims must be different. Got (", dim[0], ", ", dim[1], ")");
  return {d0, d1};
}

// Singular values of the matrices spanned by (d0, d1), reduced by `reduce`, with keepdim restored.
Tensor svd_norm(const Tensor& A, int64_t d0, int64_t d1, bool keepdim, int kind) {
  Tensor S = svdvals(A.movedim({d0, d1}, {-2, -1}));
  Tensor r = kind == 0 ? S.sum({-1}) : (kind > 0 ? S.amax({-1}) : S.amin({-1}));
  if (keepdim) {
    r = r.unsqueeze(std::min(d0, d1));
    r = r.unsqueeze(std::max(d0, d1));
  }
  return r;
}

Tensor prepare(const Tensor& A, std::optional<ScalarType> dtype, const char* op) {
  check_dtype(dtype ? A.to(*dtype) : A, op);
  return dtype ? A.to(*dtype) : A;
}

}  // namespace

Tensor vector_norm(const Tensor& x, const Scalar& ord, IntArrayRef dim, bool keepdim, std::optional<ScalarType> dtype) {
  EMBER_VMAP_REDUCTION(x, dim, keepdim, v, d, k, linalg::vector_norm(v, ord, d, k, dtype));
  EMBER_RECORD_OP("linalg_vector_norm", x);
  constexpr const char* op = "linalg.vector_norm";
  EMBER_CHECK(is_floating_point(x.dtype()) || is_complex(x.dtype()), op,
              ": Expected a floating point or complex tensor as input. Got ", dtype_name(x.dtype()));
  if (dtype) {  // as PyTorch: the same kind (real/complex), never narrower
    EMBER_CHECK(is_complex(*dtype) == is_complex(x.dtype()), op, ": dtype should be ",
                x.is_complex() ? "complex" : "real", " for ", x.is_complex() ? "complex" : "real", " inputs, but got ",
                dtype_name(*dtype));
    EMBER_CHECK(promote_types(x.dtype(), *dtype) == *dtype, op, ": the dtype of the input (", dtype_name(x.dtype()),
                ") should be convertible without narrowing to the specified dtype (", dtype_name(*dtype), ")");
  }
  Tensor in = dtype ? x.to(*dtype) : x;
  const double p = ord.toDouble();
  // max/min-like orders have no identity: reducing an empty dim is an error.
  if (in.numel() == 0 && (p < 0 || std::isinf(p))) {
    EMBER_CHECK(!dim.empty(), op, ": cannot compute the ", p, " norm on an empty tensor ", shape_str(x.sizes()),
                " because the operation does not have an identity");
    for (int64_t d : dim)
      EMBER_CHECK(x.size(d) != 0, op, ": cannot compute the ", p, " norm on the dimension ", d,
                  " because this dimension is empty and the operation does not have an identity (input ",
                  shape_str(x.sizes()), ")");
  }
  return ember::norm(in, std::optional<Scalar>(p), dim, keepdim);
}

Tensor matrix_norm(const Tensor& A0, std::string_view ord, IntArrayRef dim, bool keepdim,
                   std::optional<ScalarType> dtype) {
  EMBER_VMAP_ON_FRONT(
      A0, v, linalg::matrix_norm(v, ord, batching::phys_dims(dim, A0.dim(), "linalg.matrix_norm"), keepdim, dtype));
  EMBER_RECORD_OP("linalg_matrix_norm", A0);
  constexpr const char* op = "linalg.matrix_norm";
  const Tensor A = prepare(A0, dtype, op);
  auto [d0, d1] = matrix_dims(A, dim, op);
  if (ord == "fro") return ember::norm(A, std::optional<Scalar>(2.0), {d0, d1}, keepdim);
  EMBER_CHECK(ord == "nuc", op, ": Order ", ord, " not supported (expected 'fro' or 'nuc')");
  return svd_norm(A, d0, d1, keepdim, 0);
}

Tensor matrix_norm(const Tensor& A0, const Scalar& ord, IntArrayRef dim, bool keepdim,
                   std::optional<ScalarType> dtype) {
  EMBER_VMAP_ON_FRONT(
      A0, v, linalg::matrix_norm(v, ord, batching::phys_dims(dim, A0.dim(), "linalg.matrix_norm"), keepdim, dtype));
  EMBER_RECORD_OP("linalg_matrix_norm", A0);
  constexpr const char* op = "linalg.matrix_norm";
  const Tensor A = prepare(A0, dtype, op);
  auto [d0, d1] = matrix_dims(A, dim, op);
  const double p = ord.toDouble();
  const double ap = std::abs(p);
  EMBER_CHECK(ap == 2 || ap == 1 || ap == kInf, op, ": Order ", p,
              " not supported (expected one of inf, -inf, 1, -1, 2, -2)");
  if (ap == 2) return svd_norm(A, d0, d1, keepdim, p > 0 ? 1 : -1);
  // 1-norm: largest column sum (sum over rows d0, then max over d1); inf-norm: the other way round.
  int64_t sum_dim = ap == 1 ? d0 : d1, max_dim = ap == 1 ? d1 : d0;
  Tensor s = A.abs().sum({sum_dim}, true);
  Tensor r = p > 0 ? s.amax({max_dim}, true) : s.amin({max_dim}, true);
  if (!keepdim) r = r.squeeze(std::max(d0, d1)).squeeze(std::min(d0, d1));
  return r;
}

Tensor norm(const Tensor& A, const std::optional<Scalar>& ord, IntArrayRef dim, bool keepdim,
            std::optional<ScalarType> dtype) {
  EMBER_RECORD_COMPOSITE_OP("linalg_norm", A);
  constexpr const char* op = "linalg.norm";
  if (!dim.empty()) {
    EMBER_CHECK(dim.size() == 1 || dim.size() == 2, op, ": If dim is specified, it must be of length 1 or 2. Got ",
                dim);
    if (dim.size() == 1) return vector_norm(A, ord.value_or(2.0), dim, keepdim, dtype);
    if (!ord) return matrix_norm(A, "fro", dim, keepdim, dtype);
    return matrix_norm(A, *ord, dim, keepdim, dtype);
  }
  if (!ord) return vector_norm(A, 2.0, std::nullopt, keepdim, dtype);
  EMBER_CHECK(A.dim() == 1 || A.dim() == 2, op,
              ": If dim is not specified but ord is, the input must be 1D or 2D. Got ", A.dim(), "D (shape ",
              shape_str(A.sizes()), ")");
  if (A.dim() == 1) return vector_norm(A, *ord, std::nullopt, keepdim, dtype);
  return matrix_norm(A, *ord, {-2, -1}, keepdim, dtype);
}

Tensor norm(const Tensor& A, std::string_view ord, IntArrayRef dim, bool keepdim, std::optional<ScalarType> dtype) {
  EMBER_RECORD_COMPOSITE_OP("linalg_norm", A);
  constexpr const char* op = "linalg.norm";
  if (!dim.empty()) {
    EMBER_CHECK(dim.size() == 2, op, ": ord '", ord, "' is a matrix norm and needs two dims, got ", dim);
    return matrix_norm(A, ord, dim, keepdim, dtype);
  }
  EMBER_CHECK(A.dim() == 2, op, ": If dim is not specified but ord is, the input must be 1D or 2D. Got ", A.dim(),
              "D (shape ", shape_str(A.sizes()), ")");
  return matrix_norm(A, ord, {-2, -1}, keepdim, dtype);
}

// ---- cond ------------------------------------------------------------------------------
namespace {

// ||A|| * ||A^-1|| for invertible square matrices; inf where A is singular (PyTorch's convention).
Tensor cond_by_inverse(const Tensor& A, const std::function<Tensor(const Tensor&)>& mnorm) {
  check_square(A, "linalg.cond");
  auto [Ainv, info] = inv_ex(A);
  Tensor c = mnorm(A) * mnorm(Ainv);
  return where(info > 0, full({}, kInf, TensorOptions(c.dtype())), c);
}

}  // namespace

Tensor cond(const Tensor& A, const std::optional<Scalar>& p) {
  EMBER_VMAP_ON_FRONT(A, v, linalg::cond(v, p));
  EMBER_RECORD_OP("linalg_cond", A);
  check_matrix(A, "linalg.cond");
  const double pv = p ? p->toDouble() : 2.0;
  // 0x0 matrices have condition number 0 for every p, as PyTorch.
  if (A.size(-1) == 0 && A.size(-2) == 0) return zeros(batch_shape(A), TensorOptions(to_real_type(A.dtype())));
  if (std::abs(pv) == 2) {
    Tensor S = svdvals(A);
    Tensor first = S.narrow(-1, 0, 1).squeeze(-1), last = S.narrow(-1, S.size(-1) - 1, 1).squeeze(-1);
    return pv > 0 ? first / last : last / first;
  }
  return cond_by_inverse(A, [&](const Tensor& M) { return matrix_norm(M, *p); });
}

Tensor cond(const Tensor& A, std::string_view p) {
  EMBER_VMAP_ON_FRONT(A, v, linalg::cond(v, p));
  EMBER_RECORD_OP("linalg_cond", A);
  check_matrix(A, "linalg.cond");
  if (A.size(-1) == 0 && A.size(-2) == 0) return zeros(batch_shape(A), TensorOptions(to_real_type(A.dtype())));
  return cond_by_inverse(A, [&](const Tensor& M) { return matrix_norm(M, p); });
}

// ---- rank and pseudo-inverse --------------------------------------------------------------
namespace {

// max(atol, rtol * largest) with PyTorch's defaults: rtol = eps * max(m, n)
// when neither is given, 0 when only atol is.
Tensor tolerance(const Tensor& largest, const Tensor& A, std::optional<double> atol, std::optional<double> rtol) {
  const double r =
      rtol ? *rtol : (atol && *atol > 0 ? 0.0 : eps_of(A.dtype()) * double(std::max(A.size(-2), A.size(-1))));
  return (largest * r).clamp_min(atol.value_or(0.0));
}

}  // namespace

Tensor matrix_rank(const Tensor& A, std::optional<double> atol, std::optional<double> rtol, bool hermitian) {
  EMBER_VMAP_ON_FRONT(A, v, linalg::matrix_rank(v, atol, rtol, hermitian));
  EMBER_RECORD_OP("linalg_matrix_rank", A);
  constexpr const char* op = "linalg.matrix_rank";
  check_matrix(A, op);
  autograd::BelowAutogradGuard no_grad;
  Tensor S = hermitian ? eigvalsh(A).abs() : svdvals(A);
  if (S.size(-1) == 0) return zeros(batch_shape(A), TensorOptions(kLong));
  Tensor tol = tolerance(S.amax({-1}, true), A, atol, rtol);
  return (S > tol).sum({-1}, false, kLong);
}

Tensor matrix_rank(const Tensor& A, const Tensor& tol, bool hermitian) {
  EMBER_RECORD_COMPOSITE_OP("linalg_matrix_rank", A, tol);
  constexpr const char* op = "linalg.matrix_rank";
  check_matrix(A, op);
  EMBER_CHECK(!tol.is_complex(), op, ": tol tensor of dtype ", tol.dtype(), " must not be complex");
  autograd::BelowAutogradGuard no_grad;
  Tensor S = hermitian ? eigvalsh(A).abs() : svdvals(A);
  return (S > tol.unsqueeze(-1)).sum({-1}, false, kLong);
}

Tensor pinv(const Tensor& A, std::optional<double> atol, std::optional<double> rtol, bool hermitian) {
  EMBER_VMAP_ON_FRONT(A, v, linalg::pinv(v, atol, rtol, hermitian));
  EMBER_RECORD_OP("linalg_pinv", A);
  constexpr const char* op = "linalg.pinv";
  check_matrix(A, op);
  if (hermitian) {
    check_square(A, op);
    auto [L, V] = eigh(A);
    if (L.size(-1) == 0) return A.clone();
    Tensor absL = L.abs();
    Tensor keep = absL > tolerance(absL.amax({-1}, true).detach(), A, atol, rtol);
    Tensor Linv = where(keep, L.reciprocal(), zeros({}, TensorOptions(L.dtype())));
    return (V * Linv.unsqueeze(-2).to(V.dtype())).matmul(mH(V));
  }
  if (std::min(A.size(-2), A.size(-1)) == 0) return zeros_like(A.mT());
  auto [U, S, Vh] = svd(A, false);
  Tensor keep = S > tolerance(S.amax({-1}, true).detach(), A, atol, rtol);
  Tensor Sinv = where(keep, S.reciprocal(), zeros({}, TensorOptions(S.dtype())));
  return (mH(Vh) * Sinv.unsqueeze(-2).to(A.dtype())).matmul(mH(U));
}

}  // namespace torch::linalg
