// ember::linalg against PyTorch golden values (tools/golden/gen_linalg.py):
// every function, unbatched and batched, float32/float64/complex64/complex128.
// Outputs unique only up to phases (eigen/singular vectors, QR's Q) are
// checked by reconstruction and orthonormality instead of digit by digit.
#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "common/golden.h"
#include "common/test_util.h"
#include "ember/torch.h"

using ember::Tensor;
using ember::testing::Golden;
namespace L = torch::linalg;

namespace {

const Golden& golden() {
  static const Golden g("linalg.golden");
  return g;
}

using Outs = std::vector<Tensor>;
using Op = std::function<Outs(const std::vector<Tensor>&)>;
using Check = std::function<void(const std::vector<Tensor>& in, const Outs& actual, const Outs& expected)>;

bool single(ember::ScalarType t) { return t == ember::kFloat || t == ember::kComplexFloat; }
double rtol(const Tensor& t) { return single(t.dtype()) ? 1e-3 : 1e-8; }
double atol(const Tensor& t) { return single(t.dtype()) ? 2e-4 : 1e-9; }

void expect_close(const Tensor& actual, const Tensor& expected) {
  EXPECT_TRUE(ember::testing::tensors_close(actual, expected, rtol(expected), atol(expected)));
}

Tensor mH(const Tensor& A) { return A.mT().conj(); }
Tensor eye_like(int64_t n, const Tensor& like) { return torch::eye(n, torch::TensorOptions(like.dtype())); }

// Compares every output.
void all_outputs(const std::vector<Tensor>&, const Outs& a, const Outs& e) {
  ASSERT_EQ(a.size(), e.size());
  for (size_t i = 0; i < a.size(); ++i) {
    SCOPED_TRACE("output " + std::to_string(i));
    expect_close(a[i], e[i]);
  }
}

// A = U diag(S) Vh with orthonormal U, Vh; S against PyTorch.
void svd_check(const std::vector<Tensor>& in, const Outs& a, const Outs& e) {
  expect_close(a[1], e[1]);
  const int64_t k = a[1].size(-1);
  Tensor U = a[0].narrow(-1, 0, k), Vh = a[2].narrow(-2, 0, k);
  expect_close((U * a[1].unsqueeze(-2).to(U.dtype())).matmul(Vh), in[0]);
  expect_close(mH(a[0]).matmul(a[0]), eye_like(a[0].size(-1), a[0]).expand(e[0].mT().matmul(e[0]).sizes()));
  expect_close(a[2].matmul(mH(a[2])), eye_like(a[2].size(-2), a[2]).expand(e[2].matmul(mH(e[2])).sizes()));
  EXPECT_EQ(a[0].sizes(), e[0].sizes());
  EXPECT_EQ(a[2].sizes(), e[2].sizes());
}

// Q R = A, Q^H Q = I, |R| as PyTorch's (R's rows are fixed up to a phase).
void qr_check(const std::vector<Tensor>& in, const Outs& a, const Outs& e) {
  EXPECT_EQ(a[0].sizes(), e[0].sizes());
  expect_close(a[1].abs(), e[1].abs());
  expect_close(a[0].matmul(a[1]), in[0]);
  expect_close(mH(a[0]).matmul(a[0]), mH(e[0]).matmul(e[0]));
}

// V diag(L) V^H as PyTorch's (for eigh the triangle read decides the matrix).
void eigh_check(const std::vector<Tensor>&, const Outs& a, const Outs& e) {
  expect_close(a[0], e[0]);
  auto rec = [](const Outs& o) { return (o[1] * o[0].unsqueeze(-2).to(o[1].dtype())).matmul(mH(o[1])); };
  expect_close(rec(a), rec(e));
}

// Each eigenvalue has a match in PyTorch's set, and A V = V diag(L).
void eig_values_match(const Tensor& a, const Tensor& e) {
  ASSERT_EQ(a.sizes(), e.sizes());
  const int64_t n = a.size(-1);
  std::vector<double> av = ember::testing::to_vector(a), ev = ember::testing::to_vector(e);
  const double tol = single(a.dtype()) ? 1e-3 : 1e-8;
  for (size_t i = 0; i < av.size(); i += 2) {
    const size_t row = i / 2 / n;
    double best = 1e300;
    for (int64_t j = 0; j < n; ++j) {
      const size_t k = 2 * (row * n + j);
      best = std::min(best, std::hypot(av[i] - ev[k], av[i + 1] - ev[k + 1]));
    }
    EXPECT_LT(best, tol * (1 + std::hypot(av[i], av[i + 1]))) << "eigenvalue " << i / 2;
  }
}
void eig_check(const std::vector<Tensor>& in, const Outs& a, const Outs& e) {
  eig_values_match(a[0], e[0]);
  if (a.size() < 2) return;
  Tensor A = in[0].to(a[1].dtype());
  expect_close(A.matmul(a[1]), a[1] * a[0].unsqueeze(-2));
  // Unit-norm columns, as LAPACK and PyTorch normalise them.
  expect_close(L::vector_norm(a[1], 2, {-2}), L::vector_norm(e[1], 2, {-2}));
}

struct Case {
  const char* op;
  Op fn;
  Check check = all_outputs;
};

Outs one(const Tensor& t) { return {t}; }
template <typename... T>
Outs many(const std::tuple<T...>& t) {
  return std::apply([](const auto&... x) { return Outs{x...}; }, t);
}

const double kInf = std::numeric_limits<double>::infinity();

const std::vector<Case>& cases() {
  using V = std::vector<Tensor>;
  static const std::vector<Case> c = {
      {"det", [](const V& x) { return one(L::det(x[0])); }},
      {"slogdet", [](const V& x) { return many(L::slogdet(x[0])); }},
      {"inv", [](const V& x) { return one(L::inv(x[0])); }},
      {"inv_ex", [](const V& x) { return many(L::inv_ex(x[0])); }},
      {"solve", [](const V& x) { return one(L::solve(x[0], x[1])); }},
      {"solve_ex", [](const V& x) { return many(L::solve_ex(x[0], x[1])); }},
      {"solve_left_false", [](const V& x) { return one(L::solve(x[0], x[1], false)); }},
      {"solve_vec", [](const V& x) { return one(L::solve(x[0], x[1])); }},
      {"solve_broadcast", [](const V& x) { return one(L::solve(x[0], x[1])); }},
      {"solve_triangular_upper", [](const V& x) { return one(L::solve_triangular(x[0], x[1], true)); }},
      {"solve_triangular_lower", [](const V& x) { return one(L::solve_triangular(x[0], x[1], false)); }},
      {"solve_triangular_right", [](const V& x) { return one(L::solve_triangular(x[0], x[1], true, false)); }},
      {"solve_triangular_unit", [](const V& x) { return one(L::solve_triangular(x[0], x[1], false, true, true)); }},
      {"cholesky", [](const V& x) { return one(L::cholesky(x[0])); }},
      {"cholesky_upper", [](const V& x) { return one(L::cholesky(x[0], true)); }},
      {"cholesky_ex", [](const V& x) { return many(L::cholesky_ex(x[0])); }},
      {"lu", [](const V& x) { return many(L::lu(x[0])); }},
      {"lu_factor", [](const V& x) { return many(L::lu_factor(x[0])); }},
      {"lu_solve",
       [](const V& x) {
         auto [LU, piv] = L::lu_factor(x[0]);
         return one(L::lu_solve(LU, piv, x[1]));
       }},
      {"lu_solve_adjoint",
       [](const V& x) {
         auto [LU, piv] = L::lu_factor(x[0]);
         return one(L::lu_solve(LU, piv, x[1], true, true));
       }},
      {"eigh", [](const V& x) { return many(L::eigh(x[0])); }, eigh_check},
      {"eigh_upper", [](const V& x) { return many(L::eigh(x[0], "U")); }, eigh_check},
      {"eigvalsh", [](const V& x) { return one(L::eigvalsh(x[0])); }},
      {"eigvalsh_upper", [](const V& x) { return one(L::eigvalsh(x[0], "U")); }},
      {"eig", [](const V& x) { return many(L::eig(x[0])); }, eig_check},
      {"eigvals", [](const V& x) { return one(L::eigvals(x[0])); }, eig_check},
      {"matrix_power3", [](const V& x) { return one(L::matrix_power(x[0], 3)); }},
      {"matrix_power0", [](const V& x) { return one(L::matrix_power(x[0], 0)); }},
      {"matrix_power_neg2", [](const V& x) { return one(L::matrix_power(x[0], -2)); }},
      {"matrix_exp", [](const V& x) { return one(L::matrix_exp(x[0])); }},
      {"matrix_exp_big", [](const V& x) { return one(L::matrix_exp(x[0])); }},
      {"matrix_norm_fro", [](const V& x) { return one(L::matrix_norm(x[0], "fro")); }},
      {"matrix_norm_nuc", [](const V& x) { return one(L::matrix_norm(x[0], "nuc")); }},
      {"matrix_norm_inf", [](const V& x) { return one(L::matrix_norm(x[0], kInf)); }},
      {"matrix_norm_ninf", [](const V& x) { return one(L::matrix_norm(x[0], -kInf)); }},
      {"matrix_norm_1", [](const V& x) { return one(L::matrix_norm(x[0], 1)); }},
      {"matrix_norm_n1", [](const V& x) { return one(L::matrix_norm(x[0], -1)); }},
      {"matrix_norm_2", [](const V& x) { return one(L::matrix_norm(x[0], 2)); }},
      {"matrix_norm_n2", [](const V& x) { return one(L::matrix_norm(x[0], -2)); }},
      {"matrix_norm_keepdim",
       [](const V& x) {
         return one(L::matrix_norm(x[0], 1, {-2, -1}, true));
       }},
      {"cond_none", [](const V& x) { return one(L::cond(x[0])); }},
      {"cond_2", [](const V& x) { return one(L::cond(x[0], 2)); }},
      {"cond_n2", [](const V& x) { return one(L::cond(x[0], -2)); }},
      {"cond_fro", [](const V& x) { return one(L::cond(x[0], "fro")); }},
      {"cond_nuc", [](const V& x) { return one(L::cond(x[0], "nuc")); }},
      {"cond_1", [](const V& x) { return one(L::cond(x[0], 1)); }},
      {"cond_inf", [](const V& x) { return one(L::cond(x[0], kInf)); }},
      {"qr", [](const V& x) { return many(L::qr(x[0])); }, qr_check},
      {"qr_complete", [](const V& x) { return many(L::qr(x[0], "complete")); }, qr_check},
      {"qr_r", [](const V& x) { return one(std::get<1>(L::qr(x[0], "r"))); },
       [](const V&, const Outs& a, const Outs& e) { expect_close(a[0].abs(), e[0].abs()); }},
      {"svd", [](const V& x) { return many(L::svd(x[0], false)); }, svd_check},
      {"svd_full", [](const V& x) { return many(L::svd(x[0])); }, svd_check},
      {"svdvals", [](const V& x) { return one(L::svdvals(x[0])); }},
      {"pinv", [](const V& x) { return one(L::pinv(x[0])); }},
      {"pinv_rank_deficient", [](const V& x) { return one(L::pinv(x[0])); }},
      {"pinv_hermitian", [](const V& x) { return one(L::pinv(x[0], std::nullopt, std::nullopt, true)); }},
      {"matrix_rank", [](const V& x) { return one(L::matrix_rank(x[0])); }},
      {"matrix_rank_atol", [](const V& x) { return one(L::matrix_rank(x[0], 1.0, 0.0)); }},
      {"matrix_rank_hermitian", [](const V& x) { return one(L::matrix_rank(x[0], std::nullopt, std::nullopt, true)); }},
      {"lstsq_gels", [](const V& x) { return many(L::lstsq(x[0], x[1], std::nullopt, "gels")); }},
      {"lstsq_gelsy", [](const V& x) { return many(L::lstsq(x[0], x[1], std::nullopt, "gelsy")); }},
      {"lstsq_gelsd", [](const V& x) { return many(L::lstsq(x[0], x[1], std::nullopt, "gelsd")); }},
      {"lstsq_gelss", [](const V& x) { return many(L::lstsq(x[0], x[1], std::nullopt, "gelss")); }},
      {"householder_product", [](const V& x) { return one(L::householder_product(x[0], x[1])); }},
      {"householder_product_k2", [](const V& x) { return one(L::householder_product(x[0], x[1])); }},
      {"vector_norm_2", [](const V& x) { return one(L::vector_norm(x[0], 2)); }},
      {"vector_norm_1", [](const V& x) { return one(L::vector_norm(x[0], 1)); }},
      {"vector_norm_inf", [](const V& x) { return one(L::vector_norm(x[0], kInf)); }},
      {"vector_norm_ninf", [](const V& x) { return one(L::vector_norm(x[0], -kInf)); }},
      {"vector_norm_0", [](const V& x) { return one(L::vector_norm(x[0], 0)); }},
      {"vector_norm_3_5", [](const V& x) { return one(L::vector_norm(x[0], 3.5)); }},
      {"vector_norm_dim", [](const V& x) { return one(L::vector_norm(x[0], 3, {-1}, true)); }},
      {"vector_norm_dims",
       [](const V& x) {
         return one(L::vector_norm(x[0], 2, {-2, -1}));
       }},
      {"vector_norm_dtype",
       [](const V& x) {
         return one(
             L::vector_norm(x[0], 2, std::nullopt, false, x[0].is_complex() ? torch::kComplexDouble : torch::kDouble));
       }},
      {"norm_default", [](const V& x) { return one(L::norm(x[0])); }},
      {"norm_dim1", [](const V& x) { return one(L::norm(x[0], std::nullopt, {-1})); }},
      {"norm_dim2_nuc",
       [](const V& x) {
         return one(L::norm(x[0], "nuc", {-2, -1}));
       }},
      {"cross", [](const V& x) { return one(L::cross(x[0], x[1])); }},
      {"cross_dim", [](const V& x) { return one(L::cross(x[0], x[1], -2)); }},
      {"cross_broadcast", [](const V& x) { return one(L::cross(x[0], x[1])); }},
      {"vander", [](const V& x) { return one(L::vander(x[0])); }},
      {"vander_n6", [](const V& x) { return one(L::vander(x[0], 6)); }},
      {"diagonal", [](const V& x) { return one(L::diagonal(x[0], 1)); }},
      {"multi_dot", [](const V& x) { return one(L::multi_dot(x)); }},
      {"multi_dot_vec", [](const V& x) { return one(L::multi_dot(x)); }},
      // torch.* spellings
      {"torch_det", [](const V& x) { return one(torch::det(x[0])); }},
      {"torch_logdet", [](const V& x) { return one(torch::logdet(x[0])); }},
      {"torch_inverse", [](const V& x) { return one(torch::inverse(x[0])); }},
      {"torch_cholesky_solve", [](const V& x) { return one(torch::cholesky_solve(x[0], x[1])); }},
      {"torch_cholesky_inverse", [](const V& x) { return one(torch::cholesky_inverse(x[0])); }},
      {"torch_triangular_solve", [](const V& x) { return one(std::get<0>(torch::triangular_solve(x[0], x[1]))); }},
      {"torch_vander", [](const V& x) { return one(torch::vander(x[0])); }},
      {"torch_cross", [](const V& x) { return one(torch::cross(x[0], x[1])); }},
      {"torch_pinverse", [](const V& x) { return one(torch::pinverse(x[0])); }},
  };
  return c;
}

std::vector<std::string> case_names(const std::string& op) {
  std::vector<std::string> names;
  const std::string suffix = ".in0";
  for (const std::string& n : golden().names_with_prefix(op + ".")) {
    if (n.size() < suffix.size() || n.compare(n.size() - suffix.size(), suffix.size(), suffix) != 0) continue;
    const std::string base = n.substr(0, n.size() - suffix.size());
    if (base.find('.', op.size() + 1) == std::string::npos) continue;
    // "op.dtype.tag": skip names of other ops sharing the prefix (e.g. "svd" vs "svdvals").
    if (base.substr(0, op.size() + 1) == op + ".") names.push_back(base);
  }
  return names;
}

TEST(LinalgGolden, EveryCaseMatchesPyTorch) {
  size_t checked = 0;
  for (const Case& c : cases()) {
    const auto names = case_names(c.op);
    EXPECT_FALSE(names.empty()) << "no golden cases for " << c.op;
    for (const std::string& name : names) {
      SCOPED_TRACE(name);
      std::vector<Tensor> in, expected;
      for (int i = 0; golden().has(name + ".in" + std::to_string(i)); ++i)
        in.push_back(golden()[name + ".in" + std::to_string(i)]);
      for (int i = 0; golden().has(name + ".out" + std::to_string(i)); ++i)
        expected.push_back(golden()[name + ".out" + std::to_string(i)]);
      try {
        c.check(in, c.fn(in), expected);
      } catch (const std::exception& e) {
        ADD_FAILURE() << "threw: " << e.what();
      }
      ++checked;
    }
  }
  EXPECT_GT(checked, 1000u);
}

}  // namespace
