#include "ember/linalg/misc.h"
#include "ember/core/record_scope.h"

#include <cmath>

#include "ember/autograd/formula_node.h"
#include "ember/core/shape.h"
#include "ember/linalg/batch.h"
#include "ember/linalg/batching_rules.h"
#include "ember/linalg/factorizations.h"
#include "ember/linalg/linalg_grad.h"
#include "ember/ops/all_ops.h"
#include "ember/ops/factory/factory.h"

namespace torch::linalg {

using namespace detail;

Tensor matrix_power(const Tensor& A, int64_t n) {
  EMBER_VMAP_ON_FRONT(A, v, linalg::matrix_power(v, n));
  EMBER_RECORD_OP("linalg_matrix_power", A);
  constexpr const char* op = "linalg.matrix_power";
  EMBER_CHECK(A.dim() >= 2 && A.size(-1) == A.size(-2), op, ": A must be batches of square matrices, but got shape ",
              shape_str(A.sizes()));
  if (n == 0) {
    Tensor I = eye(A.size(-1), TensorOptions(A.dtype())).expand(A.sizes()).clone();
    // As PyTorch, A^0 stays in the graph with a zero gradient (where() passes
    // none to A, and unlike A * 0 it stays finite for an infinite A).
    if (autograd::needs_grad(A)) return where(ones({}, TensorOptions(kBool)), I, A);
    return I;
  }
  Tensor base = n < 0 ? inv(A) : A;
  uint64_t e = n < 0 ? uint64_t(-(n + 1)) + 1 : uint64_t(n);
  // Binary exponentiation: log2(n) squarings and at most as many products.
  Tensor result;
  while (e) {
    if (e & 1) result = result.defined() ? result.matmul(base) : base;
    e >>= 1;
    if (e) base = base.matmul(base);
  }
  return result;
}

namespace {

// Higham's Padé(13) coefficients and the 1-norm bound up to which they reach unit roundoff in double.
constexpr double kPade13[14] = {64764752532480000.0,
                                32382376266240000.0,
                                7771770303897600.0,
                                1187353796428800.0,
                                129060195264000.0,
                                10559470521600.0,
                                670442572800.0,
                                33522128640.0,
                                1323241920.0,
                                40840800.0,
                                960960.0,
                                16380.0,
                                182.0,
                                1.0};
constexpr double kTheta13 = 5.371920351148152;

Tensor matrix_exp_forward(const Tensor& A) {
  const int64_t n = A.size(-1);
  const TensorOptions opts(A.dtype());
  // Per-matrix scaling 2^-s with ||A / 2^s||_1 <= theta13.
  Tensor norm1 = A.abs().sum({-2}).amax({-1}).to(kDouble).contiguous();
  const int64_t batch = norm1.numel();
  Tensor s = empty(norm1.sizes(), TensorOptions(kDouble));
  int64_t smax = 0;
  for (int64_t b = 0; b < batch; ++b) {
    const double v = norm1.data_ptr<double>()[b];
    const int64_t sb = v > kTheta13 ? int64_t(std::ceil(std::log2(v / kTheta13))) : 0;
    s.data_ptr<double>()[b] = double(sb);
    smax = std::max(smax, sb);
  }
  Tensor scale = (s * -std::log(2.0)).exp().to(A.dtype()).unsqueeze(-1).unsqueeze(-1);
  Tensor X = A * scale;
  const Tensor I = eye(n, opts);
  const double* b = kPade13;
  Tensor X2 = X.matmul(X), X4 = X2.matmul(X2), X6 = X4.matmul(X2);
  Tensor U = X.matmul(X6.matmul(X6 * b[13] + X4 * b[11] + X2 * b[9]) + X6 * b[7] + X4 * b[5] + X2 * b[3] + I * b[1]);
  Tensor V = X6.matmul(X6 * b[12] + X4 * b[10] + X2 * b[8]) + X6 * b[6] + X4 * b[4] + X2 * b[2] + I * b[0];
  Tensor R = solve(V - U, V + U);
  // Square each matrix s_b times.
  for (int64_t i = 0; i < smax; ++i) {
    Tensor more = (s > double(i)).unsqueeze(-1).unsqueeze(-1);
    R = where(more, R.matmul(R), R);
  }
  return R;
}

}  // namespace

Tensor matrix_exp(const Tensor& A) {
  EMBER_VMAP_ON_FRONT(A, v, linalg::matrix_exp(v));
  EMBER_RECORD_OP("linalg_matrix_exp", A);
  constexpr const char* op = "linalg.matrix_exp";
  check_square(A, op);
  Tensor out;
  if (A.numel() == 0) {
    out = A.clone().detach();
  } else if (A.size(-1) == 1) {
    autograd::BelowAutogradGuard no_grad;
    out = A.exp();
  } else {
    autograd::BelowAutogradGuard no_grad;
    out = matrix_exp_forward(A);
  }
  if (autograd::needs_grad(A)) autograd::record_linalg_matrix_exp(A, out);
  return out;
}

Tensor cross(const Tensor& a, const Tensor& b, int64_t dim) {
  if (batching::any_batched(a, b)) [[unlikely]]
    return batching::cross_batched(a, b, dim);
  EMBER_RECORD_OP("linalg_cross", a, b);
  constexpr const char* op = "linalg.cross";
  EMBER_CHECK(a.dim() == b.dim(), op, ": inputs must have the same number of dimensions (got ", shape_str(a.sizes()),
              " and ", shape_str(b.sizes()), ")");
  DimVector shape = broadcast_shapes(a.sizes(), b.sizes(), op);
  const int64_t d = wrap_dim(dim, int64_t(shape.size()), op);
  EMBER_CHECK(a.size(d) == 3 && b.size(d) == 3, op, ": inputs dimension ", dim, " must have length 3 (got ",
              shape_str(a.sizes()), " and ", shape_str(b.sizes()), ")");
  const ScalarType t = promote_types(a.dtype(), b.dtype());
  Tensor x = a.to(t).expand(shape), y = b.to(t).expand(shape);
  auto c = [&](const Tensor& v, int64_t i) { return v.select(d, i); };
  return stack({c(x, 1) * c(y, 2) - c(x, 2) * c(y, 1), c(x, 2) * c(y, 0) - c(x, 0) * c(y, 2),
                c(x, 0) * c(y, 1) - c(x, 1) * c(y, 0)},
               d);
}

Tensor multi_dot(TensorList tensors) { return ember::multi_dot(tensors); }  // batched there too

Tensor vander(const Tensor& x, std::optional<int64_t> N) {
  EMBER_VMAP_ON_FRONT(x, v, linalg::vander(v, N));
  EMBER_RECORD_OP("linalg_vander", x);
  constexpr const char* op = "linalg.vander";
  EMBER_CHECK(x.dim() >= 1, op, ": x must have at least one dimension, got shape ", shape_str(x.sizes()));
  const int64_t n = N.value_or(x.size(-1));
  EMBER_CHECK(n > 1, op, ": N must be greater than 1, got ", n);
  // Powers by a running product (cumprod), so the derivative at x = 0 is the polynomial's, not nan.
  DimVector shape(x.sizes());
  shape.push_back(n - 1);
  Tensor ones = ember::ones_like(x).unsqueeze(-1);
  return cat({ones, x.unsqueeze(-1).expand(shape)}, -1).cumprod(-1);
}

Tensor diagonal(const Tensor& A, int64_t offset, int64_t dim1, int64_t dim2) {
  EMBER_VMAP_ON_FRONT(
      A, v, linalg::diagonal(v, offset, batching::phys_dim(dim1, A.dim()), batching::phys_dim(dim2, A.dim())));
  EMBER_RECORD_OP("linalg_diagonal", A);
  return A.diagonal(offset, dim1, dim2);
}

}  // namespace torch::linalg
