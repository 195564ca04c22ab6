#include "ember/linalg/factorizations.h"
#include "ember/core/record_scope.h"

#include <cmath>

#include "ember/autograd/formula_node.h"
#include "ember/core/shape.h"
#include "ember/linalg/batch.h"
#include "ember/linalg/batching_rules.h"
#include "ember/linalg/lapack.h"
#include "ember/linalg/linalg_grad.h"
#include "ember/ops/all_ops.h"
#include "ember/ops/factory/factory.h"

namespace torch::linalg {

using namespace detail;

namespace {

Tensor int_tensor(IntArrayRef shape) { return empty(shape, TensorOptions(kInt)); }

std::string not_pd(int info) {
  return "The factorization could not be completed because the input is not positive-definite (the leading minor "
         "of order " +
         std::to_string(info) + " is not positive-definite).";
}
std::string singular(const char* what, int info) {
  return "The diagonal element " + std::to_string(info) + " is zero, the " + what +
         " could not be completed because the input matrix is singular.";
}

// getrf on a column-major copy of A: (buffer, pivots [*, min(m,n)], info [*]).
std::tuple<Tensor, Tensor, Tensor> getrf_batched(const Tensor& A) {
  const int64_t m = A.size(-2), n = A.size(-1), k = std::min(m, n), batch = batch_count(A);
  to_int(std::max(m, n), "linalg.lu_factor");
  DimVector bshape = batch_shape(A);
  Tensor buf = col_major_copy(A);
  DimVector pshape = bshape;
  pshape.push_back(k);
  Tensor piv = int_tensor(pshape), info = int_tensor(bshape);
  int* pp = piv.data_ptr<int>();
  int* ip = info.data_ptr<int>();
  dispatch(A.dtype(), [&](auto tag) {
    using T = decltype(tag);
    T* a = buf.data_ptr<T>();
    for_each_matrix(batch, std::max(m, n), [&](int64_t b) {
      ip[b] = m && n ? lapack::getrf(int(m), int(n), a + b * m * n, int(std::max<int64_t>(m, 1)), pp + b * k) : 0;
    });
  });
  return {buf, piv, info};
}

// Broadcasts the batch dims of A [*, n, n] and B [*, n, k].
std::pair<Tensor, Tensor> broadcast_batch(const Tensor& A, const Tensor& B, const char* op) {
  DimVector b = broadcast_shapes(batch_shape(A), batch_shape(B), op);
  DimVector sa = b, sb = b;
  sa.push_back(A.size(-2));
  sa.push_back(A.size(-1));
  sb.push_back(B.size(-2));
  sb.push_back(B.size(-1));
  return {A.expand(sa), B.expand(sb)};
}

// PyTorch's rule: B is a (batch of) vector(s) if it is 1-D or has A's shape minus the last dim.
bool rhs_is_vector(const Tensor& A, const Tensor& B) {
  if (B.dim() == 1) return true;
  if (B.dim() != A.dim() - 1) return false;
  return B.sizes() == A.sizes().slice(0, A.dim() - 1);
}

// The primitive: A [*, n, n], B [*, n, k] with equal batch dims. Returns (X, info).
std::tuple<Tensor, Tensor> solve_matrix(const Tensor& A, const Tensor& B, const char* op) {
  const int64_t n = A.size(-1), k = B.size(-1), batch = batch_count(A);
  to_int(std::max(n, k), op);
  Tensor lu = col_major_copy(A), x = col_major_copy(B);
  DimVector bshape = batch_shape(A), pshape = bshape;
  pshape.push_back(n);
  Tensor piv = int_tensor(pshape), info = int_tensor(bshape);
  int* pp = piv.data_ptr<int>();
  int* ip = info.data_ptr<int>();
  dispatch(A.dtype(), [&](auto tag) {
    using T = decltype(tag);
    T* a = lu.data_ptr<T>();
    T* xb = x.data_ptr<T>();
    for_each_matrix(batch, n, [&](int64_t b) {
      if (n == 0) {
        ip[b] = 0;
        return;
      }
      const int ni = int(n);
      ip[b] = lapack::getrf(ni, ni, a + b * n * n, ni, pp + b * n);
      if (ip[b] == 0 && k > 0) lapack::getrs('N', ni, int(k), a + b * n * n, ni, pp + b * n, xb + b * n * k, ni);
    });
  });
  Tensor X = x.mT();
  if (autograd::needs_grad(A, B)) autograd::record_linalg_solve(A, B, X);
  return {X, info};
}

}  // namespace

// ---- Cholesky ------------------------------------------------------------------------
std::tuple<Tensor, Tensor> cholesky_ex(const Tensor& A, bool upper, bool check_errors) {
  EMBER_VMAP_ON_FRONT_MULTI(A, v, linalg::cholesky_ex(v, upper, check_errors));
  EMBER_RECORD_OP("linalg_cholesky_ex", A);
  constexpr const char* op = "linalg.cholesky";
  check_square(A, op);
  // The upper factor of A is the conjugate transpose of the lower factor of A^H
  // (which reads A's upper triangle), so `upper` is a differentiable composite.
  if (upper) {
    auto [L, info] = cholesky_ex(mH(A), false, check_errors);
    return {mH(L), info};
  }
  const int64_t n = A.size(-1), batch = batch_count(A);
  to_int(n, op);
  Tensor buf = col_major_copy(A);
  Tensor info = int_tensor(batch_shape(A));
  int* ip = info.data_ptr<int>();
  dispatch(A.dtype(), [&](auto tag) {
    using T = decltype(tag);
    T* a = buf.data_ptr<T>();
    for_each_matrix(batch, n, [&](int64_t b) {
      T* m = a + b * n * n;
      ip[b] = n ? lapack::potrf('L', int(n), m, int(n)) : 0;
      // potrf leaves the strict upper triangle untouched: zero it.
      for (int64_t j = 1; j < n; ++j)
        for (int64_t i = 0; i < j; ++i) m[i + j * n] = T(0);
    });
  });
  if (check_errors) check_infos(op, ip, batch, A.dim() > 2, not_pd);
  Tensor L = buf.mT();
  if (autograd::needs_grad(A)) autograd::record_linalg_cholesky(A, L);
  return {L, info};
}

Tensor cholesky(const Tensor& A, bool upper) {
  EMBER_VMAP_ON_FRONT(A, v, linalg::cholesky(v, upper));
  EMBER_RECORD_OP("linalg_cholesky", A);
  return std::get<0>(cholesky_ex(A, upper, true));
}

// ---- LU ------------------------------------------------------------------------------
std::tuple<Tensor, Tensor, Tensor> lu_factor_ex(const Tensor& A, bool pivot, bool check_errors) {
  EMBER_VMAP_ON_FRONT_MULTI(A, v, linalg::lu_factor_ex(v, pivot, check_errors));
  EMBER_RECORD_OP("linalg_lu_factor_ex", A);
  constexpr const char* op = "linalg.lu_factor";
  check_matrix(A, op);
  EMBER_CHECK(pivot, op, ": LU without pivoting is not implemented on the CPU");
  auto [buf, piv, info] = getrf_batched(A);
  if (check_errors)
    check_infos(op, info.data_ptr<int>(), batch_count(A), A.dim() > 2, [](int i) {
      return "U[" + std::to_string(i) + "," + std::to_string(i) +
             "] is zero and using it on lu_solve would result in a division by zero. If you still want to perform "
             "the factorization, consider calling linalg.lu(A, pivot) or linalg.lu_factor_ex(A, pivot)";
    });
  Tensor LU = buf.mT();
  if (autograd::needs_grad(A)) autograd::record_linalg_lu_factor(A, LU, piv);
  return {LU, piv, info};
}

std::tuple<Tensor, Tensor> lu_factor(const Tensor& A, bool pivot) {
  EMBER_VMAP_ON_FRONT_MULTI(A, v, linalg::lu_factor(v, pivot));
  EMBER_RECORD_OP("linalg_lu_factor", A);
  auto [LU, piv, info] = lu_factor_ex(A, pivot, true);
  return {LU, piv};
}

std::tuple<Tensor, Tensor, Tensor> lu(const Tensor& A, bool pivot) {
  EMBER_VMAP_ON_FRONT_MULTI(A, v, linalg::lu(v, pivot));
  EMBER_RECORD_OP("linalg_lu", A);
  auto [LU, piv, info] = lu_factor_ex(A, pivot, false);
  return lu_unpack(LU, piv);
}

Tensor lu_solve(const Tensor& LU, const Tensor& pivots, const Tensor& B, bool left, bool adjoint) {
  EMBER_RECORD_COMPOSITE_OP("linalg_lu_solve", LU, pivots, B);
  constexpr const char* op = "linalg.lu_solve";
  check_square(LU, op, "LU");
  check_matrix(B, op, "B");
  check_same_dtype(LU, B, op);
  EMBER_CHECK(pivots.dtype() == kInt && pivots.dim() == LU.dim() - 1 && pivots.size(-1) == LU.size(-1), op,
              ": pivots must be an int32 tensor of shape [*, n] matching LU ", shape_str(LU.sizes()), ", got ",
              dtype_name(pivots.dtype()), " ", shape_str(pivots.sizes()));
  if (!left) return mH(lu_solve(LU, pivots, mH(B), true, !adjoint));
  EMBER_CHECK(B.size(-2) == LU.size(-1), op, ": Incompatible shapes of A and B for the equation AX = B (",
              shape_str(LU.sizes()), " and ", shape_str(B.sizes()), ")");
  // A = P L U, so A X = B is U^-1 L^-1 P^T B and A^H X = B is P L^-H U^-H B:
  // two triangular solves and a permutation, all differentiable.
  auto [P, L, U] = lu_unpack(LU, pivots);
  if (!adjoint) {
    Tensor y = solve_triangular(L, P.mT().matmul(B), false, true, true);
    return solve_triangular(U, y, true);
  }
  Tensor y = solve_triangular(mH(U), B, false);
  return P.matmul(solve_triangular(mH(L), y, true, true, true));
}

// ---- inverse and solve -----------------------------------------------------------------
std::tuple<Tensor, Tensor> inv_ex(const Tensor& A, bool check_errors) {
  EMBER_VMAP_ON_FRONT_MULTI(A, v, linalg::inv_ex(v, check_errors));
  EMBER_RECORD_OP("linalg_inv_ex", A);
  constexpr const char* op = "linalg.inv";
  check_square(A, op);
  Tensor I = eye(A.size(-1), TensorOptions(A.dtype())).expand(A.sizes());
  Tensor X, info;
  {
    autograd::BelowAutogradGuard no_grad;
    std::tie(X, info) = solve_matrix(A, I, op);
  }
  if (check_errors)
    check_infos(op, info.data_ptr<int>(), batch_count(A), A.dim() > 2, [](int i) { return singular("inversion", i); });
  if (autograd::needs_grad(A)) autograd::record_linalg_inv(A, X);
  return {X, info};
}

Tensor inv(const Tensor& A) {
  EMBER_VMAP_ON_FRONT(A, v, linalg::inv(v));
  EMBER_RECORD_OP("linalg_inv", A);
  return std::get<0>(inv_ex(A, true));
}

std::tuple<Tensor, Tensor> solve_ex(const Tensor& A, const Tensor& B, bool left, bool check_errors) {
  if (batching::any_batched(A, B)) [[unlikely]]
    return batching::solve_ex_batched(A, B, left, check_errors);
  EMBER_RECORD_OP("linalg_solve_ex", A, B);
  constexpr const char* op = "linalg.solve";
  check_square(A, op);
  EMBER_CHECK(B.defined() && B.dim() >= 1, op, ": B must have at least 1 dimension, got ", shape_str(B.sizes()));
  check_dtype(B, op, "B");
  check_same_dtype(A, B, op);
  const bool vector = rhs_is_vector(A, B);
  if (!left) {
    EMBER_CHECK(!vector, op, ": a vector B is only supported with left=True (A ", shape_str(A.sizes()), ", B ",
                shape_str(B.sizes()), ")");
    auto [X, info] = solve_ex(A.mT(), B.mT(), true, check_errors);
    return {X.mT(), info};
  }
  Tensor Bm = vector ? B.unsqueeze(-1) : B;
  EMBER_CHECK(Bm.size(-2) == A.size(-1), op, ": Incompatible shapes of A and B for the equation AX = B (",
              shape_str(A.sizes()), " and ", shape_str(B.sizes()), ")");
  auto [Ae, Be] = broadcast_batch(A, Bm, op);
  auto [X, info] = solve_matrix(Ae, Be, op);
  if (check_errors)
    check_infos(op, info.data_ptr<int>(), info.numel(), info.dim() > 0, [](int i) { return singular("solve", i); });
  return {vector ? X.squeeze(-1) : X, info};
}

Tensor solve(const Tensor& A, const Tensor& B, bool left) {
  EMBER_RECORD_COMPOSITE_OP("linalg_solve", A, B);
  return std::get<0>(solve_ex(A, B, left, true));
}

Tensor solve_triangular(const Tensor& A, const Tensor& B, bool upper, bool left, bool unitriangular) {
  if (batching::any_batched(A, B)) [[unlikely]]
    return batching::solve_triangular_batched(A, B, upper, left, unitriangular);
  EMBER_RECORD_OP("linalg_solve_triangular", A, B);
  constexpr const char* op = "linalg.solve_triangular";
  check_square(A, op);
  check_matrix(B, op, "B");
  check_same_dtype(A, B, op);
  if (!left) return solve_triangular(A.mT(), B.mT(), !upper, true, unitriangular).mT();
  EMBER_CHECK(B.size(-2) == A.size(-1), op, ": Incompatible shapes of A and B for the equation AX = B (",
              shape_str(A.sizes()), " and ", shape_str(B.sizes()), ")");
  auto [Ae, Be] = broadcast_batch(A, B, op);
  const int64_t n = A.size(-1), k = B.size(-1), batch = batch_count(Ae);
  to_int(std::max(n, k), op);
  Tensor a = col_major_copy(Ae), x = col_major_copy(Be);
  dispatch(A.dtype(), [&](auto tag) {
    using T = decltype(tag);
    T* ap = a.data_ptr<T>();
    T* xp = x.data_ptr<T>();
    for_each_matrix(batch, n, [&](int64_t b) {
      if (n && k)
        lapack::trsm(true, upper, unitriangular, int(n), int(k), ap + b * n * n, int(n), xp + b * n * k, int(n));
    });
  });
  Tensor X = x.mT();
  if (autograd::needs_grad(Ae, Be)) autograd::record_linalg_solve_triangular(Ae, Be, X, upper, unitriangular);
  return X;
}

// ---- determinants ---------------------------------------------------------------------
namespace {

// For each matrix: sign (phase) and log|det| from its LU factorization.
std::tuple<Tensor, Tensor> slogdet_values(const Tensor& A) {
  // Not a structured binding: clang 14 cannot capture those in the lambda below.
  const auto lu = getrf_batched(A);
  const Tensor& buf = std::get<0>(lu);
  const Tensor& piv = std::get<1>(lu);
  const int64_t n = A.size(-1), batch = batch_count(A);
  DimVector bshape = batch_shape(A);
  Tensor sign = empty(bshape, TensorOptions(A.dtype()));
  Tensor logabs = empty(bshape, TensorOptions(to_real_type(A.dtype())));
  const int* pp = piv.data_ptr<int>();
  dispatch(A.dtype(), [&](auto tag) {
    using T = decltype(tag);
    using R = lapack::real_t<T>;
    const T* a = buf.data_ptr<T>();
    T* sp = sign.data_ptr<T>();
    R* lp = logabs.data_ptr<R>();
    for (int64_t b = 0; b < batch; ++b) {
      T s(1);
      R l = 0;
      for (int64_t i = 0; i < n; ++i) {
        const T d = a[b * n * n + i * n + i];
        const R ad = std::abs(d);
        if (pp[b * n + i] != i + 1) s = -s;
        if (ad == R(0)) {
          s = T(0);
        } else {
          s *= d / ad;
        }
        l += std::log(ad);
      }
      sp[b] = s;
      lp[b] = l;
    }
  });
  return {sign, logabs};
}

}  // namespace

std::tuple<Tensor, Tensor> slogdet(const Tensor& A) {
  EMBER_VMAP_ON_FRONT_MULTI(A, v, linalg::slogdet(v));
  EMBER_RECORD_OP("linalg_slogdet", A);
  check_square(A, "linalg.slogdet");
  auto [sign, logabs] = slogdet_values(A);
  if (autograd::needs_grad(A)) autograd::record_linalg_slogdet(A, sign, logabs);
  return {sign, logabs};
}

Tensor det(const Tensor& A) {
  EMBER_VMAP_ON_FRONT(A, v, linalg::det(v));
  EMBER_RECORD_OP("linalg_det", A);
  check_square(A, "linalg.det");
  auto [sign, logabs] = slogdet_values(A);
  Tensor d = sign * logabs.exp();
  if (autograd::needs_grad(A)) autograd::record_linalg_det(A, d);
  return d;
}

}  // namespace torch::linalg

namespace torch {

std::tuple<Tensor, Tensor, Tensor> lu_unpack(const Tensor& LU, const Tensor& pivots, bool unpack_data,
                                             bool unpack_pivots) {
  if (batching::any_batched(LU, pivots)) [[unlikely]]
    return batching::lu_unpack_batched(LU, pivots, unpack_data, unpack_pivots);
  EMBER_RECORD_OP("lu_unpack", LU, pivots);
  constexpr const char* op = "torch.lu_unpack";
  linalg::detail::check_matrix(LU, op, "LU");
  const int64_t m = LU.size(-2), n = LU.size(-1), k = std::min(m, n);
  EMBER_CHECK(pivots.dtype() == kInt && pivots.size(-1) == k, op, ": pivots must be int32 of shape [*, ", k, "], got ",
              dtype_name(pivots.dtype()), " ", shape_str(pivots.sizes()));
  // What is not unpacked comes back empty (shape [0]), as PyTorch, not undefined.
  Tensor P = empty({0}, LU.options()), L = empty({0}, LU.options()), U = empty({0}, LU.options());
  if (unpack_data) {
    L = LU.narrow(-1, 0, k).tril(-1) + eye(m, k, TensorOptions(LU.dtype()));
    U = LU.narrow(-2, 0, k).triu();
  }
  if (unpack_pivots) {
    // Replay LAPACK's row swaps on 0..m-1: row i of L U is row perm[i] of A, so P[perm[i], i] = 1.
    DimVector shape = linalg::detail::batch_shape(LU);
    shape.push_back(m);
    shape.push_back(m);
    P = zeros(shape, TensorOptions(LU.dtype()));
    const Tensor pc = pivots.contiguous();
    const int* pp = pc.data_ptr<int>();
    const int64_t batch = linalg::detail::batch_count(LU);
    std::vector<int64_t> perm(m);
    linalg::detail::dispatch(LU.dtype(), [&](auto tag) {
      using T = decltype(tag);
      T* out = P.data_ptr<T>();
      for (int64_t b = 0; b < batch; ++b) {
        for (int64_t i = 0; i < m; ++i) perm[i] = i;
        for (int64_t i = 0; i < k; ++i) {
          const int64_t j = pp[b * k + i] - 1;
          EMBER_CHECK(j >= i && j < m, op, ": invalid pivot ", j + 1, " at position ", i, " of batch element ", b);
          std::swap(perm[i], perm[j]);
        }
        for (int64_t i = 0; i < m; ++i) out[b * m * m + perm[i] * m + i] = T(1);
      }
    });
  }
  return {P, L, U};
}

}  // namespace torch
