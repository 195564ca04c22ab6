#include "ember/linalg/spectral.h"
#include "ember/core/record_scope.h"

#include <cstring>
#include <limits>

#include "ember/autograd/formula_node.h"
#include "ember/core/shape.h"
#include "ember/linalg/batch.h"
#include "ember/linalg/batching_rules.h"
#include "ember/linalg/lapack.h"
#include "ember/linalg/linalg_grad.h"
#include "ember/linalg/norms.h"
#include "ember/ops/all_ops.h"
#include "ember/ops/factory/factory.h"

namespace torch::linalg {

using namespace detail;

namespace {

DimVector with(DimVector shape, std::initializer_list<int64_t> tail) {
  for (int64_t t : tail) shape.push_back(t);
  return shape;
}

std::string no_convergence(const char* what, int info) {
  return std::string(
             "The algorithm failed to converge because the input matrix is ill-conditioned or has too many "
             "repeated ") +
         what + " (error code: " + std::to_string(info) + ").";
}

}  // namespace

// ---- QR --------------------------------------------------------------------------------
std::tuple<Tensor, Tensor> qr(const Tensor& A, std::string_view mode) {
  if (batching::any_batched(A)) [[unlikely]]
    return batching::qr_batched(A, mode);
  EMBER_RECORD_OP("linalg_qr", A);
  constexpr const char* op = "linalg.qr";
  check_matrix(A, op);
  EMBER_CHECK(mode == "reduced" || mode == "complete" || mode == "r", op, ": qr received unrecognized mode '", mode,
              "' but expected one of 'reduced' (default), 'r', or 'complete'");
  const int64_t m = A.size(-2), n = A.size(-1), k = std::min(m, n), batch = batch_count(A);
  to_int(std::max(m, n), op);
  const bool complete = mode == "complete", want_q = mode != "r";
  const int64_t qcols = complete ? m : k;
  DimVector bshape = batch_shape(A);
  Tensor buf = col_major_copy(A);
  Tensor tau = empty(with(bshape, {k}), TensorOptions(A.dtype()));
  Tensor qbuf = want_q ? col_major_empty(bshape, m, qcols, A.dtype()) : Tensor();
  dispatch(A.dtype(), [&](auto tag) {
    using T = decltype(tag);
    T* a = buf.data_ptr<T>();
    T* tp = tau.data_ptr<T>();
    T* q = want_q ? qbuf.data_ptr<T>() : nullptr;
    for_each_matrix(batch, std::max(m, n), [&](int64_t b) {
      T* ab = a + b * m * n;
      if (m && n) lapack::geqrf(int(m), int(n), ab, int(m), tp + b * k);
      if (!want_q || m == 0) return;
      // Q's first min(n, qcols) columns start from the reflectors geqrf left in A.
      T* qb = q + b * m * qcols;
      const int64_t copy_cols = std::min(n, qcols);
      std::memcpy(qb, ab, sizeof(T) * m * copy_cols);
      if (qcols) lapack::orgqr(int(m), int(qcols), int(k), qb, int(m), tp + b * k);
    });
  });
  Tensor R = buf.mT().narrow(-2, 0, complete ? m : k).triu();
  Tensor Q = want_q ? qbuf.mT() : empty({0}, TensorOptions(A.dtype()));
  if (autograd::needs_grad(A)) autograd::record_linalg_qr(A, want_q ? Q : Tensor(), R, complete);
  return {Q, R};
}

// ---- Hermitian eigendecomposition ---------------------------------------------------------
namespace {

std::tuple<Tensor, Tensor> eigh_impl(const Tensor& A, std::string_view UPLO, bool vectors, const char* op) {
  EMBER_RECORD_OP("_linalg_eigh", A);
  check_square(A, op);
  EMBER_CHECK(UPLO == "L" || UPLO == "U" || UPLO == "l" || UPLO == "u", op,
              ": Expected UPLO argument to be 'L' or 'U', but got ", UPLO);
  const char uplo = (UPLO == "L" || UPLO == "l") ? 'L' : 'U';
  const int64_t n = A.size(-1), batch = batch_count(A);
  to_int(n, op);
  DimVector bshape = batch_shape(A);
  Tensor buf = col_major_copy(A);
  Tensor w = empty(with(bshape, {n}), TensorOptions(to_real_type(A.dtype())));
  Tensor info = empty(bshape, TensorOptions(kInt));
  int* ip = info.data_ptr<int>();
  dispatch(A.dtype(), [&](auto tag) {
    using T = decltype(tag);
    using R = lapack::real_t<T>;
    T* a = buf.data_ptr<T>();
    R* wp = w.data_ptr<R>();
    for_each_matrix(batch, n, [&](int64_t b) {
      ip[b] = n ? lapack::heevd(vectors ? 'V' : 'N', uplo, int(n), a + b * n * n, int(n), wp + b * n) : 0;
    });
  });
  check_infos(op, ip, batch, A.dim() > 2, [](int i) { return no_convergence("eigenvalues", i); });
  return {w, vectors ? buf.mT() : Tensor()};
}

}  // namespace

std::tuple<Tensor, Tensor> eigh(const Tensor& A, std::string_view UPLO) {
  EMBER_VMAP_ON_FRONT_MULTI(A, v, linalg::eigh(v, UPLO));
  EMBER_RECORD_OP("linalg_eigh", A);
  auto [L, V] = eigh_impl(A, UPLO, true, "linalg.eigh");
  if (autograd::needs_grad(A)) {
    // The formula assumes a Hermitian input; the derivative of the triangle
    // LAPACK reads is its symmetrisation, as PyTorch's.
    autograd::record_linalg_eigh(A, L, V);
  }
  return {L, V};
}

Tensor eigvalsh(const Tensor& A, std::string_view UPLO) {
  EMBER_VMAP_ON_FRONT(A, v, linalg::eigvalsh(v, UPLO));
  EMBER_RECORD_OP("linalg_eigvalsh", A);
  if (autograd::needs_grad(A)) return std::get<0>(eigh(A, UPLO));
  return std::get<0>(eigh_impl(A, UPLO, false, "linalg.eigvalsh"));
}

// ---- general eigendecomposition -------------------------------------------------------------
namespace {

namespace {
// LAPACK's balancing and SVD drivers reject NaN/inf with an "illegal value"
// (after printing to stdout); PyTorch checks first, as do these.
bool all_finite(const Tensor& A) {
  autograd::BelowAutogradGuard no_grad;
  return A.numel() == 0 || A.isfinite().all().item<bool>();
}
}  // namespace

std::tuple<Tensor, Tensor> eig_impl(const Tensor& A, bool vectors, const char* op) {
  check_square(A, op);
  EMBER_CHECK(all_finite(A), op, ": input tensor should not contain infs or NaNs (shape ", shape_str(A.sizes()), ", ",
              A.dtype(), ")");
  const int64_t n = A.size(-1), batch = batch_count(A);
  to_int(n, op);
  const ScalarType ct = to_complex_type(A.dtype());
  DimVector bshape = batch_shape(A);
  Tensor buf = col_major_copy(A);
  Tensor w = empty(with(bshape, {n}), TensorOptions(ct));
  Tensor v = vectors ? col_major_empty(bshape, n, n, ct) : Tensor();
  Tensor info = empty(bshape, TensorOptions(kInt));
  int* ip = info.data_ptr<int>();
  dispatch(A.dtype(), [&](auto tag) {
    using T = decltype(tag);
    using C = std::complex<lapack::real_t<T>>;
    T* a = buf.data_ptr<T>();
    C* wp = w.data_ptr<C>();
    C* vp = vectors ? v.data_ptr<C>() : nullptr;
    for_each_matrix(batch, n, [&](int64_t b) {
      ip[b] =
          n ? lapack::geev(vectors, int(n), a + b * n * n, int(n), wp + b * n, vectors ? vp + b * n * n : nullptr) : 0;
    });
  });
  check_infos(op, ip, batch, A.dim() > 2, [](int i) { return no_convergence("eigenvalues", i); });
  return {w, vectors ? v.mT() : Tensor()};
}

}  // namespace

std::tuple<Tensor, Tensor> eig(const Tensor& A) {
  EMBER_VMAP_ON_FRONT_MULTI(A, v, linalg::eig(v));
  EMBER_RECORD_OP("linalg_eig", A);
  auto [L, V] = eig_impl(A, true, "linalg.eig");
  if (autograd::needs_grad(A)) autograd::record_linalg_eig(A, L, V);
  return {L, V};
}

Tensor eigvals(const Tensor& A) {
  EMBER_VMAP_ON_FRONT(A, v, linalg::eigvals(v));
  EMBER_RECORD_OP("linalg_eigvals", A);
  if (autograd::needs_grad(A)) return std::get<0>(eig(A));
  return std::get<0>(eig_impl(A, false, "linalg.eigvals"));
}

// ---- SVD --------------------------------------------------------------------------------------
namespace {

std::tuple<Tensor, Tensor, Tensor> svd_impl(const Tensor& A, bool full, bool vectors, const char* op) {
  EMBER_RECORD_OP("_linalg_svd", A);
  check_matrix(A, op);
  EMBER_CHECK(all_finite(A), op,
              ": The algorithm failed to converge because the input matrix contained non-finite values (shape ",
              shape_str(A.sizes()), ", ", A.dtype(), ")");
  const int64_t m = A.size(-2), n = A.size(-1), k = std::min(m, n), batch = batch_count(A);
  to_int(std::max(m, n), op);
  const int64_t ucols = full ? m : k, vrows = full ? n : k;
  DimVector bshape = batch_shape(A);
  Tensor buf = col_major_copy(A);
  Tensor s = empty(with(bshape, {k}), TensorOptions(to_real_type(A.dtype())));
  Tensor u = vectors ? col_major_empty(bshape, m, ucols, A.dtype()) : Tensor();
  Tensor vt = vectors ? col_major_empty(bshape, vrows, n, A.dtype()) : Tensor();
  if (vectors && k == 0) {  // an empty matrix: identity singular vectors, as LAPACK would
    u.copy_(eye(m, ucols, TensorOptions(A.dtype())));
    vt.copy_(eye(vrows, n, TensorOptions(A.dtype())));
  }
  Tensor info = empty(bshape, TensorOptions(kInt));
  int* ip = info.data_ptr<int>();
  const char jobz = !vectors ? 'N' : (full ? 'A' : 'S');
  dispatch(A.dtype(), [&](auto tag) {
    using T = decltype(tag);
    using R = lapack::real_t<T>;
    T* a = buf.data_ptr<T>();
    R* sp = s.data_ptr<R>();
    T* up = vectors ? u.data_ptr<T>() : nullptr;
    T* vp = vectors ? vt.data_ptr<T>() : nullptr;
    for_each_matrix(batch, std::max(m, n), [&](int64_t b) {
      if (k == 0) {
        ip[b] = 0;
        return;
      }
      ip[b] =
          lapack::gesdd(jobz, int(m), int(n), a + b * m * n, int(m), sp + b * k, vectors ? up + b * m * ucols : nullptr,
                        int(m), vectors ? vp + b * vrows * n : nullptr, int(vrows));
    });
  });
  check_infos(op, ip, batch, A.dim() > 2, [](int i) { return no_convergence("singular values", i); });
  if (!vectors) return {Tensor(), s, Tensor()};
  return {u.mT(), s, vt.mT()};
}

}  // namespace

std::tuple<Tensor, Tensor, Tensor> svd(const Tensor& A, bool full_matrices) {
  EMBER_VMAP_ON_FRONT_MULTI(A, v, linalg::svd(v, full_matrices));
  EMBER_RECORD_OP("linalg_svd", A);
  auto [U, S, Vh] = svd_impl(A, full_matrices, true, "linalg.svd");
  if (autograd::needs_grad(A)) autograd::record_linalg_svd(A, U, S, Vh);
  return {U, S, Vh};
}

Tensor svdvals(const Tensor& A) {
  EMBER_VMAP_ON_FRONT(A, v, linalg::svdvals(v));
  EMBER_RECORD_OP("linalg_svdvals", A);
  if (autograd::needs_grad(A)) return std::get<1>(svd(A, false));
  return std::get<1>(svd_impl(A, false, false, "linalg.svdvals"));
}

namespace {
void check_no_driver(const char* op, const Tensor& A, std::optional<std::string_view> driver) {
  EMBER_CHECK(!driver, op,
              ": keyword argument `driver=` is only supported on CUDA inputs with cuSOLVER backend (got \"",
              driver.value_or(""), "\" for a CPU tensor of shape ", shape_str(A.sizes()), ")");
}
}  // namespace

std::tuple<Tensor, Tensor, Tensor> svd(const Tensor& A, bool full_matrices, std::optional<std::string_view> driver) {
  check_no_driver("linalg.svd", A, driver);
  return svd(A, full_matrices);
}
Tensor svdvals(const Tensor& A, std::optional<std::string_view> driver) {
  check_no_driver("linalg.svdvals", A, driver);
  return svdvals(A);
}

// ---- least squares --------------------------------------------------------------------------------
std::tuple<Tensor, Tensor, Tensor, Tensor> lstsq(const Tensor& A, const Tensor& B, std::optional<double> rcond,
                                                 std::optional<std::string_view> driver_opt) {
  // A vector right-hand side, B of shape [*, m] against A [*, m, n] (PyTorch's
  // rule: one dim fewer than A): solved as one column; the solution drops it,
  // the residuals keep it, as in PyTorch.
  if (A.defined() && B.defined() && A.dim() >= 2 && B.dim() == A.dim() - 1) {
    EMBER_CHECK(B.size(-1) == A.size(-2), "torch.linalg.lstsq: input.size(-2) should match other.size(-1) (A ",
                shape_str(A.sizes()), ", B ", shape_str(B.sizes()), ")");
    auto [x, residuals, rank, sv] = lstsq(A, B.unsqueeze(-1), rcond, driver_opt);
    return {x.squeeze(-1), residuals, rank, sv};
  }
  if (batching::any_batched(A, B)) [[unlikely]]
    return batching::lstsq_batched(A, B, rcond, driver_opt);
  EMBER_RECORD_OP("linalg_lstsq", A, B);
  constexpr const char* op = "torch.linalg.lstsq";
  check_matrix(A, op);
  check_matrix(B, op, "B");
  check_same_dtype(A, B, op);
  const std::string_view driver = driver_opt.value_or("gelsy");
  EMBER_CHECK(driver == "gels" || driver == "gelsy" || driver == "gelsd" || driver == "gelss", op,
              ": parameter `driver` should be one of (gels, gelsy, gelsd, gelss), got ", driver);
  const int64_t m = A.size(-2), n = A.size(-1), k = B.size(-1), mx = std::max(m, n);
  EMBER_CHECK(B.size(-2) == m, op, ": input.size(-2) should match other.size(-2) (A ", shape_str(A.sizes()), ", B ",
              shape_str(B.sizes()), ")");
  to_int(std::max(mx, k), op);
  DimVector bshape = broadcast_shapes(batch_shape(A), batch_shape(B), op);
  Tensor Ae = A.expand(with(bshape, {m, n})), Be = B.expand(with(bshape, {m, k}));
  const int64_t batch = batch_count(Ae);
  const ScalarType rt = to_real_type(A.dtype());
  const double rc = rcond.value_or(
      (rt == kFloat ? std::numeric_limits<float>::epsilon() : std::numeric_limits<double>::epsilon()) * double(mx));
  EMBER_CHECK(driver == "gels" || driver == "gelsy" || (all_finite(A) && all_finite(B)), op, ": driver ", driver,
              " needs finite inputs, but A or B contains NaN or inf");
  Tensor a = col_major_copy(Ae);
  // LAPACK writes the solution over B, which must have max(m, n) rows.
  Tensor x = col_major_empty(bshape, mx, k, A.dtype());
  {
    autograd::BelowAutogradGuard no_grad;
    x.mT().narrow(-2, 0, m).copy_(Be);
  }
  const bool has_rank = driver != "gels", has_sv = driver == "gelsd" || driver == "gelss";
  Tensor rank = has_rank ? empty(bshape, TensorOptions(kLong)) : empty({0}, TensorOptions(kLong));
  Tensor sv = has_sv ? empty(with(bshape, {std::min(m, n)}), TensorOptions(rt)) : empty({0}, TensorOptions(rt));
  Tensor info = empty(bshape, TensorOptions(kInt));
  int* ip = info.data_ptr<int>();
  dispatch(A.dtype(), [&](auto tag) {
    using T = decltype(tag);
    using R = lapack::real_t<T>;
    T* ap = a.data_ptr<T>();
    T* xp = x.data_ptr<T>();
    int64_t* rp = has_rank ? rank.data_ptr<int64_t>() : nullptr;
    R* sp = has_sv ? sv.data_ptr<R>() : nullptr;
    const int lda = int(std::max<int64_t>(m, 1)), ldb = int(std::max<int64_t>(mx, 1));
    for_each_matrix(batch, mx, [&](int64_t b) {
      T* ab = ap + b * m * n;
      T* xb = xp + b * mx * k;
      int r = 0;
      if (m == 0 || n == 0) {
        ip[b] = 0;
      } else if (driver == "gels") {
        ip[b] = lapack::gels(int(m), int(n), int(k), ab, lda, xb, ldb);
      } else if (driver == "gelsy") {
        ip[b] = lapack::gelsy(int(m), int(n), int(k), ab, lda, xb, ldb, rc, &r);
      } else if (driver == "gelsd") {
        ip[b] = lapack::gelsd(int(m), int(n), int(k), ab, lda, xb, ldb, sp + b * std::min(m, n), rc, &r);
      } else {
        ip[b] = lapack::gelss(int(m), int(n), int(k), ab, lda, xb, ldb, sp + b * std::min(m, n), rc, &r);
      }
      if (rp) rp[b] = r;
    });
  });
  check_infos(op, ip, batch, bshape.size() > 0, [&](int i) {
    return driver == "gels" ? "The least squares solution could not be computed because the input matrix does not "
                              "have full rank (error code: " +
                                  std::to_string(i) + ")."
                            : no_convergence("singular values", i);
  });
  Tensor full = x.mT();
  Tensor solution = full.narrow(-2, 0, n);
  // Residuals: the squared norms of the rows below n, when m > n, the driver
  // is not gelsy and every matrix has full rank (PyTorch's rule).
  Tensor residuals = empty({0}, TensorOptions(rt));
  if (m > n && driver != "gelsy") {
    bool full_rank = true;
    if (has_rank)
      for (int64_t b = 0; b < batch; ++b) full_rank &= rank.data_ptr<int64_t>()[b] == n;
    if (full_rank) residuals = full.narrow(-2, n, m - n).abs().square().sum({-2});
  }
  if (autograd::needs_grad(A, B)) {
    // The gradient goes through the pseudo-inverse, as PyTorch's lstsq backward
    // (linalg_grad.cpp has no lstsq formula), but the value stays the driver's:
    // p - p.detach() is exactly zero, so only its history is added.
    const Tensor p = ember::linalg::pinv(Ae).matmul(Be);
    solution = solution.detach() + (p - p.detach());
  }
  return {solution, residuals, rank, sv};
}

// ---- Householder product --------------------------------------------------------------------------
Tensor householder_product(const Tensor& A, const Tensor& tau) {
  if (batching::any_batched(A, tau)) [[unlikely]]
    return batching::householder_product_batched(A, tau);
  EMBER_RECORD_OP("linalg_householder_product", A, tau);
  constexpr const char* op = "torch.linalg.householder_product";
  check_matrix(A, op);
  check_same_dtype(A, tau, op);
  const int64_t m = A.size(-2), n = A.size(-1), k = tau.size(-1);
  EMBER_CHECK(m >= n, op, ": input.shape[-2] must be greater than or equal to input.shape[-1] (got ",
              shape_str(A.sizes()), ")");
  EMBER_CHECK(n >= k, op, ": input.shape[-1] must be greater than or equal to tau.shape[-1] (input ",
              shape_str(A.sizes()), ", tau ", shape_str(tau.sizes()), ")");
  EMBER_CHECK(tau.dim() == A.dim() - 1 && batch_shape(A) == DimVector(tau.sizes().slice(0, tau.dim() - 1)), op,
              ": Expected batch dimensions of tau to match input (input ", shape_str(A.sizes()), ", tau ",
              shape_str(tau.sizes()), ")");
  if (autograd::needs_grad(A, tau)) {
    // Differentiable composite: apply H_k, ..., H_1 to the first n columns of I.
    Tensor Q = eye(m, n, TensorOptions(A.dtype())).expand(A.sizes());
    Tensor rows = arange(m, TensorOptions(kLong));
    for (int64_t i = k - 1; i >= 0; --i) {
      Tensor below = (rows > i).to(A.dtype());
      Tensor unit = (rows == i).to(A.dtype());
      Tensor v = (A.select(-1, i) * below + unit).unsqueeze(-1);  // [*, m, 1]
      Tensor t = tau.select(-1, i).unsqueeze(-1).unsqueeze(-1);
      Q = Q - (t * v).matmul(mH(v).matmul(Q));
    }
    return Q;
  }
  const int64_t batch = batch_count(A);
  Tensor q = col_major_copy(A);
  Tensor t = tau.contiguous();
  dispatch(A.dtype(), [&](auto tag) {
    using T = decltype(tag);
    T* qp = q.data_ptr<T>();
    const T* tp = t.data_ptr<T>();
    for_each_matrix(batch, m, [&](int64_t b) {
      if (m && n) lapack::orgqr(int(m), int(n), int(k), qp + b * m * n, int(m), tp + b * k);
    });
  });
  return q.mT();
}

}  // namespace torch::linalg
