// OpInfo entries for ember::linalg (formulas: ember/linalg/linalg_grad.cpp;
// composites reach them through differentiable ops). Inputs are kept well
// conditioned: diagonally dominant for solves and inverses, SPD as A A^T + nI
// for Cholesky, symmetric with distinct eigenvalues for eigh. Functions of
// eigen/singular vectors return gauge-invariant quantities (projectors
// u u^H, |v|^2, U S Vh), since the vectors themselves are defined only up to
// sign/phase (Note [Gauge of eigen/singular vectors]).
#include <limits>

#include "ember/linalg.h"
#include "opinfo.h"

namespace torch::testing {
namespace {

using Shapes = std::vector<std::vector<int64_t>>;
using Fn = std::function<variable_list(const variable_list&)>;

// Samples: a random float64 tensor per shape; `shift` adds n*I to square inputs flagged in `dominant`.
OpInfo entry(const char* name, Fn f, Shapes shapes, std::vector<bool> dominant = {}, const char* grad_fn = "") {
  OpInfo o;
  o.name = name;
  o.fn = std::move(f);
  o.samples = [shapes, dominant] {
    variable_list in;
    uint64_t seed = 101;
    for (size_t i = 0; i < shapes.size(); ++i) {
      Tensor t = sample(shapes[i], -1, 1, seed++);
      if (i < dominant.size() && dominant[i]) {
        const int64_t n = t.size(-1);
        t = (t.detach() + eye(n, TensorOptions(kDouble)) * double(n)).requires_grad_(true);
      }
      in.push_back(t);
    }
    return std::vector<variable_list>{in};
  };
  o.grad_fn_name = grad_fn;
  return o;
}

Fn one(std::function<Tensor(const variable_list&)> f) {
  return [f](const variable_list& x) { return variable_list{f(x)}; };
}
Tensor spd(const Tensor& x) { return x.matmul(x.mT()) + eye(x.size(-1), TensorOptions(kDouble)) * double(x.size(-1)); }
Tensor sym(const Tensor& x) { return x + x.mT(); }
// u u^T for the first column of U: invariant under U's sign choice.
Tensor projector(const Tensor& U) {
  Tensor u = U.narrow(-1, 0, 1);
  return u.matmul(u.mT().conj());
}
constexpr double kInf = std::numeric_limits<double>::infinity();
namespace L = ember::linalg;

RegisterOps reg({
    entry("linalg.det", one([](auto& x) { return L::det(x[0]); }), {{2, 3, 3}}, {}, "LinalgDetBackward0"),
    entry("linalg.det(unbatched)", one([](auto& x) { return L::det(x[0]); }), {{3, 3}}),
    entry("linalg.slogdet", one([](auto& x) { return std::get<1>(L::slogdet(x[0])); }), {{2, 3, 3}}),
    entry("linalg.inv", one([](auto& x) { return L::inv(x[0]); }), {{2, 3, 3}}, {true}, "LinalgInvExBackward0"),
    entry("linalg.inv_ex", one([](auto& x) { return std::get<0>(L::inv_ex(x[0])); }), {{3, 3}}, {true}),
    entry("linalg.solve", one([](auto& x) { return L::solve(x[0], x[1]); }), {{2, 3, 3}, {2, 3, 2}}, {true},
          "LinalgSolveExBackward0"),
    entry("linalg.solve(vector)", one([](auto& x) { return L::solve(x[0], x[1]); }), {{2, 3, 3}, {2, 3}}, {true}),
    entry("linalg.solve(broadcast)", one([](auto& x) { return L::solve(x[0], x[1]); }), {{3, 3}, {2, 3, 2}}, {true}),
    entry("linalg.solve(left=false)", one([](auto& x) { return L::solve(x[0], x[1], false); }), {{3, 3}, {2, 3}},
          {true}),
    entry("linalg.solve_triangular(upper)", one([](auto& x) { return L::solve_triangular(x[0], x[1], true); }),
          {{2, 3, 3}, {2, 3, 2}}, {true}, "LinalgSolveTriangularBackward0"),
    entry("linalg.solve_triangular(lower,right,unit)",
          one([](auto& x) { return L::solve_triangular(x[0], x[1], false, false, true); }), {{3, 3}, {2, 3}}, {true}),
    entry("linalg.cholesky", one([](auto& x) { return L::cholesky(spd(x[0])); }), {{2, 3, 3}}),
    entry("linalg.cholesky(upper)", one([](auto& x) { return L::cholesky(spd(x[0]), true); }), {{3, 3}}),
    entry("linalg.cholesky_ex", one([](auto& x) { return std::get<0>(L::cholesky_ex(spd(x[0]))); }), {{3, 3}}),
    entry("linalg.lu_factor", one([](auto& x) { return std::get<0>(L::lu_factor(x[0])); }), {{2, 3, 3}}, {},
          "LinalgLuFactorExBackward0"),
    entry("linalg.lu_factor(tall)", one([](auto& x) { return std::get<0>(L::lu_factor(x[0])); }), {{2, 4, 3}}),
    entry("linalg.lu_factor(wide)", one([](auto& x) { return std::get<0>(L::lu_factor(x[0])); }), {{3, 5}}),
    entry("linalg.lu",
          [](const variable_list& x) {
            auto [P, Lo, U] = L::lu(x[0]);
            return variable_list{Lo, U};
          },
          {{3, 3}}),
    entry("linalg.lu_solve", one([](auto& x) {
            auto [LU, piv] = L::lu_factor(x[0]);
            return L::lu_solve(LU, piv, x[1]);
          }),
          {{2, 3, 3}, {2, 3, 2}}, {true}),
    entry("linalg.lu_solve(adjoint,right)", one([](auto& x) {
            auto [LU, piv] = L::lu_factor(x[0]);
            return L::lu_solve(LU, piv, x[1], false, true);
          }),
          {{3, 3}, {2, 3}}, {true}),
    entry(
        "linalg.qr(tall)",
        [](const variable_list& x) {
          auto [Q, R] = L::qr(x[0]);
          return variable_list{Q, R};
        },
        {{2, 4, 3}}, {}, "LinalgQrBackward0"),
    entry("linalg.qr(wide)",
          [](const variable_list& x) {
            auto [Q, R] = L::qr(x[0]);
            return variable_list{Q, R};
          },
          {{3, 4}}),
    entry("linalg.qr(complete,wide)",
          [](const variable_list& x) {
            auto [Q, R] = L::qr(x[0], "complete");
            return variable_list{Q, R};
          },
          {{3, 4}}),
    entry("linalg.eigh",
          [](const variable_list& x) {
            auto [Lv, V] = L::eigh(sym(x[0]));
            return variable_list{Lv, projector(V)};
          },
          {{2, 3, 3}}),
    entry("linalg.eigh(U)",
          [](const variable_list& x) {
            auto [Lv, V] = L::eigh(sym(x[0]), "U");
            return variable_list{Lv, projector(V.narrow(-1, 1, 2))};
          },
          {{4, 4}}),
    entry("linalg.eigvalsh", one([](auto& x) { return L::eigvalsh(sym(x[0])); }), {{2, 3, 3}}),
    entry("linalg.eig",
          [](const variable_list& x) {
            auto [Lv, V] = L::eig(x[0]);
            return variable_list{Lv, V * V.conj()};
          },
          {{2, 3, 3}}),
    entry("linalg.eigvals", [](const variable_list& x) { return variable_list{L::eigvals(x[0])}; }, {{3, 3}}),
    entry(
        "linalg.svd(tall)",
        [](const variable_list& x) {
          auto [U, S, Vh] = L::svd(x[0], false);
          return variable_list{S, (U * S.unsqueeze(-2)).matmul(Vh), projector(U), projector(Vh.mT())};
        },
        {{2, 4, 3}}, {}, "LinalgSvdBackward0"),
    entry("linalg.svd(wide,full)",
          [](const variable_list& x) {
            auto [U, S, Vh] = L::svd(x[0], true);
            return variable_list{S, projector(U), projector(Vh.mT())};
          },
          {{3, 4}}),
    entry("linalg.svdvals", one([](auto& x) { return L::svdvals(x[0]); }), {{2, 3, 4}}),
    entry("linalg.pinv", one([](auto& x) { return L::pinv(x[0]); }), {{2, 4, 3}}),
    entry("linalg.pinv(hermitian)", one([](auto& x) {
            return L::pinv(sym(x[0]) + eye(3, TensorOptions(kDouble)) * 5.0, std::nullopt, std::nullopt, true);
          }),
          {{3, 3}}),
    entry("linalg.lstsq", one([](auto& x) { return std::get<0>(L::lstsq(x[0], x[1])); }), {{2, 4, 3}, {2, 4, 2}}),
    entry("linalg.matrix_exp", one([](auto& x) { return L::matrix_exp(x[0]); }), {{2, 3, 3}}, {},
          "LinalgMatrixExpBackward0"),
    entry("linalg.matrix_exp(scaled)", one([](auto& x) { return L::matrix_exp(x[0] * 4.0); }), {{3, 3}}),
    entry("linalg.householder_product", one([](auto& x) { return L::householder_product(x[0], x[1] + 1.0); }),
          {{2, 4, 3}, {2, 2}}),
    entry("linalg.matrix_norm(fro)", one([](auto& x) { return L::matrix_norm(x[0]); }), {{2, 3, 4}}),
    entry("linalg.matrix_norm(nuc)", one([](auto& x) { return L::matrix_norm(x[0], "nuc"); }), {{2, 3, 4}}),
    entry("linalg.matrix_norm(2)", one([](auto& x) { return L::matrix_norm(x[0], 2); }), {{3, 4}}),
    entry("linalg.matrix_norm(-2)", one([](auto& x) { return L::matrix_norm(x[0], -2); }), {{3, 4}}),
    entry("linalg.matrix_norm(1)", one([](auto& x) { return L::matrix_norm(x[0], 1); }), {{2, 3, 4}}),
    entry("linalg.matrix_norm(inf)", one([](auto& x) { return L::matrix_norm(x[0], kInf); }), {{2, 3, 4}}),
    entry("linalg.vector_norm", one([](auto& x) { return L::vector_norm(x[0]); }), {{2, 5}}),
    entry("linalg.vector_norm(3.5,dim)", one([](auto& x) { return L::vector_norm(x[0], 3.5, {-1}, true); }), {{2, 5}}),
    entry("linalg.vector_norm(inf)", one([](auto& x) { return L::vector_norm(x[0], kInf, {0}); }), {{4, 3}}),
    entry("linalg.norm", one([](auto& x) { return L::norm(x[0]); }), {{3, 4}}),
    entry("linalg.cond", one([](auto& x) { return L::cond(x[0]); }), {{2, 3, 3}}, {true}),
    entry("linalg.cond(fro)", one([](auto& x) { return L::cond(x[0], "fro"); }), {{3, 3}}, {true}),
    entry("linalg.matrix_power(3)", one([](auto& x) { return L::matrix_power(x[0], 3); }), {{2, 3, 3}}),
    entry("linalg.matrix_power(-2)", one([](auto& x) { return L::matrix_power(x[0], -2); }), {{3, 3}}, {true}),
    entry("linalg.cross", one([](auto& x) { return L::cross(x[0], x[1]); }), {{2, 3}, {1, 3}}),
    entry("linalg.multi_dot", one([](auto& x) {
            return L::multi_dot({x[0], x[1], x[2]});
          }),
          {{2, 3}, {3, 4}, {4}}),
    entry("linalg.vander", one([](auto& x) { return L::vander(x[0], 4); }), {{2, 3}}),
    entry("linalg.diagonal", one([](auto& x) { return L::diagonal(x[0], 1); }), {{2, 3, 4}}),
    entry("logdet", one([](auto& x) { return ember::logdet(spd(x[0])); }), {{3, 3}}),
    entry("cholesky_solve", one([](auto& x) { return ember::cholesky_solve(x[1], L::cholesky(spd(x[0]))); }),
          {{3, 3}, {3, 2}}),
});

// Complex inputs (gradcheck differentiates through real and imaginary parts,
// conjugate Wirtinger convention): the same formulas on complex128.
Tensor csample(std::vector<int64_t> shape, uint64_t seed, bool dominant) {
  Tensor re = sample(shape, -1, 1, seed).detach(), im = sample(shape, -1, 1, seed + 7).detach();
  Tensor z = ember::complex(re, im * 0.5);
  if (dominant) z = z + eye(shape.back(), TensorOptions(kComplexDouble)) * double(shape.back());
  return z.detach().requires_grad_(true);
}
OpInfo centry(const char* name, Fn f, Shapes shapes, std::vector<bool> dominant = {}) {
  OpInfo o;
  o.name = name;
  o.fn = std::move(f);
  o.samples = [shapes, dominant] {
    variable_list in;
    for (size_t i = 0; i < shapes.size(); ++i)
      in.push_back(csample(shapes[i], 301 + 13 * i, i < dominant.size() && dominant[i]));
    return std::vector<variable_list>{in};
  };
  return o;
}
Tensor hpd(const Tensor& z) {
  return z.matmul(z.mT().conj()) + eye(z.size(-1), TensorOptions(kComplexDouble)) * double(z.size(-1));
}
Tensor herm(const Tensor& z) { return z + z.mT().conj(); }

RegisterOps reg_complex({
    centry("linalg.det(complex)", one([](auto& x) { return L::det(x[0]); }), {{2, 3, 3}}),
    centry("linalg.slogdet(complex)",
           [](const variable_list& x) {
             auto [s, l] = L::slogdet(x[0]);
             return variable_list{s, l};
           },
           {{3, 3}}, {true}),
    centry("linalg.inv(complex)", one([](auto& x) { return L::inv(x[0]); }), {{2, 3, 3}}, {true}),
    centry("linalg.solve(complex)", one([](auto& x) { return L::solve(x[0], x[1]); }), {{3, 3}, {3, 2}}, {true}),
    centry("linalg.solve_triangular(complex)", one([](auto& x) { return L::solve_triangular(x[0], x[1], true); }),
           {{3, 3}, {3, 2}}, {true}),
    centry("linalg.cholesky(complex)", one([](auto& x) { return L::cholesky(hpd(x[0])); }), {{2, 3, 3}}),
    centry("linalg.lu_factor(complex)", one([](auto& x) { return std::get<0>(L::lu_factor(x[0])); }), {{3, 3}}),
    centry("linalg.lu_factor(complex,wide)", one([](auto& x) { return std::get<0>(L::lu_factor(x[0])); }), {{2, 3, 4}}),
    centry("linalg.qr(complex)",
           [](const variable_list& x) {
             auto [Q, R] = L::qr(x[0]);
             return variable_list{Q.matmul(R), projector(Q)};
           },
           {{4, 3}}),
    centry("linalg.eigh(complex)",
           [](const variable_list& x) {
             auto [Lv, V] = L::eigh(herm(x[0]));
             return variable_list{Lv, projector(V)};
           },
           {{3, 3}}),
    centry("linalg.eig(complex)",
           [](const variable_list& x) {
             auto [Lv, V] = L::eig(x[0]);
             return variable_list{Lv, V * V.conj()};
           },
           {{3, 3}}),
    centry("linalg.svd(complex)",
           [](const variable_list& x) {
             auto [U, S, Vh] = L::svd(x[0], false);
             return variable_list{S, (U * S.unsqueeze(-2).to(U.dtype())).matmul(Vh), projector(U)};
           },
           {{4, 3}}),
    centry("linalg.matrix_exp(complex)", one([](auto& x) { return L::matrix_exp(x[0]); }), {{3, 3}}),
    centry("linalg.pinv(complex)", one([](auto& x) { return L::pinv(x[0]); }), {{3, 4}}),
});

}  // namespace
}  // namespace torch::testing
