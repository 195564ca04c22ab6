// vmap over ember::linalg and ember::fft against the per-slice loop
// (tests/vmap/vmap_oracle.h). Decompositions whose factors are unique only
// up to a phase are compared through their reconstructions.
#include <gtest/gtest.h>

#include "common/test_util.h"
#include "ember/ember.h"
#include "ember/vmap/batched_tensor.h"
#include "vmap/vmap_oracle.h"

namespace torch {
namespace {

using namespace vmap_test;
namespace L = ember::linalg;
using TL = std::vector<Tensor>;
using VF = std::function<TL(const TL&)>;

class VmapLinalg : public ::testing::Test {
 protected:
  void SetUp() override { manual_seed(11); }
};

Tensor rand_of(IntArrayRef shape, ScalarType dt) {
  if (dt == kComplexDouble) return complex(randn(shape, kDouble), randn(shape, kDouble));
  return randn(shape, TensorOptions(dt));
}
// Well-conditioned square matrices: random plus a multiple of the identity.
Tensor square(IntArrayRef shape, ScalarType dt) {
  const int64_t n = shape.back();
  return rand_of(shape, dt) + 4.0 * eye(n, TensorOptions(dt));
}
// Hermitian positive-definite matrices.
Tensor hpd(IntArrayRef shape, ScalarType dt) {
  Tensor x = rand_of(shape, dt);
  return matmul(x, x.mT().conj()) + double(shape.back()) * eye(shape.back(), TensorOptions(dt));
}
// `x` with its dim 0 (the batch) moved to `d`.
Tensor at(const Tensor& x, int64_t d) { return d == 0 ? x : x.movedim(0, d); }

const ScalarType kTypes[] = {kDouble, kComplexDouble};

// f of one matrix input, for every batch position and a per-sample batch dim.
void check_unary(const VF& f, const Tensor& x) {
  for (int64_t d : {int64_t{0}, int64_t{1}, int64_t{-1}}) {
    SCOPED_TRACE("in_dim " + std::to_string(d));
    const int64_t pd = d < 0 ? x.dim() + d : d;
    expect_matches_loop(f, {at(x, pd)}, {d});
  }
  expect_matches_loop(f, {x}, {0}, -1);
}

TEST_F(VmapLinalg, DeterminantsInversesAndFactorizations) {
  for (ScalarType dt : kTypes) {
    SCOPED_TRACE(dtype_name(dt));
    for (Tensor x : {square({4, 3, 3}, dt), square({3, 2, 3, 3}, dt)}) {
      check_unary([](const TL& a) { return TL{L::det(a[0]), det(a[0]), a[0].det()}; }, x);
      check_unary(
          [](const TL& a) {
            auto [s, l] = L::slogdet(a[0]);
            auto [s2, l2] = slogdet(a[0]);
            return TL{s, l, s2, l2};
          },
          x);
      check_unary([](const TL& a) { return TL{L::inv(a[0]), std::get<0>(L::inv_ex(a[0])), inverse(a[0])}; }, x);
      check_unary(
          [](const TL& a) {
            auto [LU, piv] = L::lu_factor(a[0]);
            auto [P, Lo, U] = L::lu(a[0]);
            auto [LU2, piv2, info] = L::lu_factor_ex(a[0]);
            return TL{LU, piv, P, Lo, U, LU2, info};
          },
          x);
      check_unary([](const TL& a) { return TL{L::matrix_exp(a[0]), matrix_exp(a[0])}; }, x);
      check_unary(
          [](const TL& a) {
            return TL{L::matrix_power(a[0], 3), L::matrix_power(a[0], -2), matrix_power(a[0], 0)};
          },
          x);
      check_unary([](const TL& a) { return TL{L::pinv(a[0]), pinverse(a[0]), L::matrix_rank(a[0])}; }, x);
      check_unary([](const TL& a) { return TL{L::cond(a[0]), L::cond(a[0], "fro"), L::cond(a[0], Scalar(1.0))}; }, x);
      check_unary([](const TL& a) { return TL{logdet(a[0].abs().to(kDouble) + 3.0)}; }, x);
    }
    Tensor spd = hpd({4, 3, 3}, dt);
    check_unary(
        [](const TL& a) {
          return TL{L::cholesky(a[0]), L::cholesky(a[0], true), std::get<1>(L::cholesky_ex(a[0])), cholesky(a[0]),
                    cholesky_inverse(L::cholesky(a[0]))};
        },
        spd);
    check_unary([](const TL& a) { return TL{L::eigvalsh(a[0]), L::eigvalsh(a[0], "U"), L::svdvals(a[0])}; }, spd);
  }
}

// Eigen- and singular vectors are unique up to a phase: compare what they
// reconstruct (and the values, which are unique).
TEST_F(VmapLinalg, SpectralDecompositionsThroughReconstructions) {
  for (ScalarType dt : kTypes) {
    SCOPED_TRACE(dtype_name(dt));
    Tensor x = rand_of({4, 5, 3}, dt), s = hpd({4, 3, 3}, dt);
    check_unary(
        [](const TL& a) {
          auto [Q, R] = L::qr(a[0]);
          auto [Qc, Rc] = L::qr(a[0], "complete");
          auto [Q1, R1] = qr(a[0], false);
          return TL{matmul(Q, R), matmul(Qc, Rc), matmul(Q1, R1), R.abs(), Rc.abs()};
        },
        x);
    check_unary(
        [](const TL& a) {
          auto [U, S, Vh] = L::svd(a[0], false);
          auto [U2, S2, V2] = svd(a[0]);
          auto [Uz, Sz, Vz] = svd(a[0], true, false);  // no vectors: zeros
          return TL{matmul(U * S.unsqueeze(-2).to(U.dtype()), Vh),
                    S,
                    matmul(U2 * S2.unsqueeze(-2).to(U2.dtype()), V2.mT().conj()),
                    Sz,
                    Uz,
                    Vz};
        },
        x);
    check_unary(
        [](const TL& a) {
          auto [w, V] = L::eigh(a[0]);
          return TL{w, matmul(V * w.unsqueeze(-2).to(V.dtype()), V.mT().conj())};
        },
        s);
    check_unary(
        [](const TL& a) {
          auto [w, V] = L::eig(a[0]);
          return TL{w, L::eigvals(a[0]), matmul(V * w.unsqueeze(-2), L::inv(V))};
        },
        s);
    // mode "r": R per sample, Q the shared empty placeholder.
    std::vector<Tensor> r = vmap([](const TL& a) {
      auto [Q, R] = L::qr(a[0], "r");
      return TL{R};
    })({x});
    EXPECT_TENSOR_CLOSE(r[0].abs(), std::get<1>(L::qr(x)).abs());
  }
}

TEST_F(VmapLinalg, NormsTakeLogicalDims) {
  for (ScalarType dt : kTypes) {
    SCOPED_TRACE(dtype_name(dt));
    Tensor x = rand_of({4, 3, 5, 2}, dt);
    check_unary(
        [](const TL& a) {
          return TL{L::vector_norm(a[0]),
                    L::vector_norm(a[0], 1, {1}, true),
                    L::vector_norm(a[0], INFINITY, {-1, 0}),
                    L::vector_norm(a[0], 0, {2}),
                    L::vector_norm(a[0], 3.5, std::nullopt, true),
                    L::matrix_norm(a[0]),
                    L::matrix_norm(a[0], "nuc", {0, 2}),
                    L::matrix_norm(a[0], Scalar(2.0), {-1, -2}, true),
                    L::matrix_norm(a[0], Scalar(-INFINITY)),
                    L::matrix_norm(a[0], Scalar(1.0), {1, 0}),
                    L::norm(a[0]),
                    L::norm(a[0], Scalar(2.0), {1}),
                    L::norm(a[0], "fro", {0, 1}, true),
                    L::norm(a[0].select(0, 1), Scalar(-1.0)),
                    L::norm(a[0].select(0, 1).select(0, 2), Scalar(3.0)),
                    L::diagonal(a[0]),
                    L::diagonal(a[0], 1, 0, 2)};
        },
        x);
  }
  // A 0-dim sample.
  expect_matches_loop1([](const Tensor& t) { return L::vector_norm(t, 2, std::nullopt, true); }, randn({5}, kDouble));
}

TEST_F(VmapLinalg, CrossVanderAndMultiDot) {
  Tensor a = randn({4, 2, 3}, kDouble), b = randn({2, 3}, kDouble), c = randn({4, 3, 2}, kDouble);
  VF cross_f = [](const TL& t) {
    return TL{L::cross(t[0], t[1]), L::cross(t[0], t[1], 1), cross(t[0], t[1]), t[0].cross(t[1], -1)};
  };
  expect_matches_loop(cross_f, {a, b}, {0, std::nullopt});
  expect_matches_loop(cross_f, {a, a.flip({0})}, {0, 0});
  expect_matches_loop(cross_f, {b, a.movedim(0, 2)}, {std::nullopt, 2});
  // torch.cross's default dim is the first of size 3 of the logical shape.
  expect_matches_loop([](const TL& t) { return TL{cross(t[0], t[1])}; }, {c, c.flip({1})}, {0, 0});

  Tensor v = randn({4, 5}, kDouble);
  check_unary(
      [](const TL& t) {
        return TL{L::vander(t[0]), L::vander(t[0], 3), vander(t[0]), vander(t[0], 4, true)};
      },
      v);

  Tensor m1 = randn({4, 3}, kDouble), m2 = randn({4, 3, 5}, kDouble), m3 = randn({5, 2}, kDouble);
  Tensor m4 = randn({4, 2}, kDouble);
  VF md = [](const TL& t) { return TL{L::multi_dot({t[0], t[1], t[2]}), L::multi_dot({t[1], t[2], t[3]})}; };
  expect_matches_loop(md, {m1, m2, m3, m4}, {0, 0, std::nullopt, 0});
  expect_matches_loop(md, {m1, m2, m3, m4.mT()}, {std::nullopt, 0, std::nullopt, 1});
  // The ops spelling (ember::multi_dot) takes the same rule.
  VF md2 = [](const TL& t) { return TL{ember::multi_dot({t[0], t[1], t[2]})}; };
  expect_matches_loop(md2, {m1, m2, m3}, {0, 0, std::nullopt});
  Tensor m3d = randn({4, 2, 3, 3}, kDouble);  // 3-D samples are refused by rank, as unbatched
  EXPECT_EMBER_ERROR(vmap(md2)({m3d, m3d, m3d}), "multi_dot", "1D or 2D but got 3D");
}

// Two-operand solves: either operand batched or both, with per-sample batch
// dims that broadcast, vectors on the right and both sides.
TEST_F(VmapLinalg, SolvesLineUpBothOperands) {
  for (ScalarType dt : kTypes) {
    SCOPED_TRACE(dtype_name(dt));
    Tensor A = square({4, 3, 3}, dt), Ab = square({4, 2, 3, 3}, dt), As = square({3, 3}, dt);
    Tensor B = rand_of({4, 3, 2}, dt), Bs = rand_of({3, 2}, dt), v = rand_of({4, 3}, dt), vs = rand_of({3}, dt);
    VF solve_f = [](const TL& t) { return TL{L::solve(t[0], t[1]), std::get<1>(L::solve_ex(t[0], t[1]))}; };
    VF left_f = [](const TL& t) { return TL{L::solve(t[0], t[1].mT(), false)}; };
    for (const auto& [x, y, dims] :
         std::vector<std::tuple<Tensor, Tensor, Dims>>{{A, B, {0, 0}},
                                                       {A, Bs, {0, std::nullopt}},
                                                       {As, B, {std::nullopt, 0}},
                                                       {Ab, B, {0, 0}},
                                                       {A, B.movedim(0, 2), {0, -1}},
                                                       {Ab.movedim(0, 1), Bs, {1, std::nullopt}}}) {
      expect_matches_loop(solve_f, {x, y}, dims);
      // (B^T of a [2, 3, 3] A's per-sample [3, 2] B is a vector batch, refused with left=false.)
      if (x.dim() - (dims[0] ? 1 : 0) == 2) expect_matches_loop(left_f, {x, y}, dims);
    }
    // Vector right-hand sides: 1-d, and a batch of vectors matching A's batch.
    expect_matches_loop(solve_f, {A, v}, {0, 0});
    expect_matches_loop(solve_f, {As, v}, {std::nullopt, 0});
    expect_matches_loop(solve_f, {A, vs}, {0, std::nullopt});
    expect_matches_loop(solve_f, {Ab, rand_of({4, 2, 3}, dt)}, {0, 0});
    // A shared and B batched (one factorization, the samples as more columns):
    // per-sample batches that broadcast, and a vector whose folded form could
    // pass for a batch of vectors of a [3, 3, 3] A.
    Tensor A2 = Ab[0], A3 = square({3, 3, 3}, dt);
    expect_matches_loop(solve_f, {A2, B}, {std::nullopt, 0});
    expect_matches_loop(solve_f, {A2, rand_of({4, 2, 3}, dt)}, {std::nullopt, 0});
    expect_matches_loop(solve_f, {A3, rand_of({3, 3}, dt)}, {std::nullopt, 0});
    expect_matches_loop(solve_f, {A3, rand_of({3, 3, 3}, dt)}, {std::nullopt, 1});
    expect_matches_loop(left_f, {A2, rand_of({4, 2, 3, 2}, dt)}, {std::nullopt, 0});

    // solve_triangular reads only the named triangle (tril/triu have no rule yet).
    VF tri_f = [](const TL& t) {
      return TL{L::solve_triangular(t[0], t[1], true),
                L::solve_triangular(t[0], t[1], false, true, true),
                L::solve_triangular(t[0], t[1].mT(), true, false),
                std::get<0>(triangular_solve(t[1], t[0], false, true)),
                cholesky_solve(t[1], t[0]),
                cholesky_solve(t[1], t[0], true)};
    };
    expect_matches_loop(tri_f, {A, B}, {0, 0});
    expect_matches_loop(tri_f, {As, B}, {std::nullopt, 0});
    expect_matches_loop(tri_f, {Ab, Bs}, {0, std::nullopt});
    expect_matches_loop(tri_f, {Ab[1], B.movedim(0, 1)}, {std::nullopt, 1});

    VF lu_f = [](const TL& t) {
      auto [LU, piv] = L::lu_factor(t[0]);
      return TL{L::lu_solve(LU, piv, t[1]), L::lu_solve(LU, piv, t[1], true, true),
                L::lu_solve(LU, piv, t[1].mT(), false), lu_solve(t[1], LU, piv)};
    };
    expect_matches_loop(lu_f, {A, B}, {0, 0});
    expect_matches_loop(lu_f, {As, B}, {std::nullopt, 0});
    expect_matches_loop(lu_f, {Ab, Bs}, {0, std::nullopt});
    // lu_unpack and lu_solve with the factorization shared and B batched, or the reverse.
    auto [LUs, pivs] = L::lu_factor(As);
    VF unpack_f = [](const TL& t) {
      auto [P, Lo, U] = lu_unpack(t[0], t[1]);
      auto [P2, L2, U2] = lu_unpack(t[0], t[1], false, true);
      return TL{P, Lo, U, P2, L::lu_solve(t[0], t[1], t[2])};
    };
    auto [LUb, pivb] = L::lu_factor(A);
    expect_matches_loop(unpack_f, {LUs, pivs, B}, {std::nullopt, std::nullopt, 0});
    expect_matches_loop(unpack_f, {LUb, pivs, Bs}, {0, std::nullopt, std::nullopt});
    expect_matches_loop(unpack_f, {LUb, pivb, B}, {0, 0, 0});
  }
}

TEST_F(VmapLinalg, LstsqAndHouseholderProduct) {
  for (ScalarType dt : kTypes) {
    SCOPED_TRACE(dtype_name(dt));
    Tensor A = rand_of({4, 5, 3}, dt), As = rand_of({5, 3}, dt), B = rand_of({4, 5, 2}, dt), Bs = rand_of({5, 2}, dt);
    VF ls = [](const TL& t) {
      auto [x, res, rank, sv] = L::lstsq(t[0], t[1]);
      auto [x2, res2, rank2, sv2] = L::lstsq(t[0], t[1], std::nullopt, "gelsd");
      auto [x3, res3, rank3, sv3] = L::lstsq(t[0], t[1], std::nullopt, "gels");
      return TL{x, rank, x2, res2, rank2, sv2, x3, res3};
    };
    expect_matches_loop(ls, {A, B}, {0, 0});
    expect_matches_loop(ls, {As, B}, {std::nullopt, 0});
    expect_matches_loop(ls, {A.movedim(0, 1), Bs}, {1, std::nullopt});
    std::vector<Tensor> r = vmap(ls, {0, 0})({A, B});
    EXPECT_EQ(r[7].dim(), 2);  // gels: residuals [4, 2]
    EXPECT_EQ(std::get<2>(L::lstsq(As, Bs, std::nullopt, "gels")).numel(), 0);

    Tensor tau = rand_of({4, 2}, dt), taus = rand_of({2}, dt);
    VF hp = [](const TL& t) { return TL{L::householder_product(t[0], t[1]), orgqr(t[0], t[1])}; };
    expect_matches_loop(hp, {A, tau}, {0, 0});
    expect_matches_loop(hp, {As, tau}, {std::nullopt, 0});
    expect_matches_loop(hp, {A, taus}, {0, std::nullopt});
  }
}

// Gradients through vmap reach the inputs and equal those of the loop.
TEST_F(VmapLinalg, GradientsOfDetInvSolve) {
  Tensor A = square({4, 3, 3}, kDouble).requires_grad_(true);
  Tensor B = randn({3, 2}, kDouble).requires_grad_(true);
  VF f = [&](const TL& t) {
    return TL{L::det(t[0]) + L::inv(t[0]).sum() + (L::solve(t[0], B) * std::get<1>(L::slogdet(t[0]))).sum()};
  };
  expect_grads_match_loop(f, {A}, {0}, {A, B});
}

// A shared operand gets the summed gradient of all samples (through the
// expand of the rule); a batched one its per-sample rows.
TEST_F(VmapLinalg, GradientsReachSharedAndBatchedOperands) {
  Tensor A = square({3, 3}, kDouble).requires_grad_(true);
  Tensor B = randn({4, 3, 2}, kDouble).requires_grad_(true);
  Tensor v = randn({4, 3}, kDouble).requires_grad_(true);
  VF f = [&](const TL& t) {
    return TL{(L::solve(t[0], t[1]).sin().sum() + L::solve(t[0], t[2]).sum() * L::inv(t[0]).sum()) +
              L::solve_triangular(t[0], t[1], true).sum() + fft::rfft(t[2]).abs().sum()};
  };
  expect_grads_match_loop(f, {A, B, v}, {std::nullopt, 0, 0}, {A, B, v});
}

// A singular sample: the _ex forms report its info as the loop does; the
// raising forms raise.
TEST_F(VmapLinalg, SingularSamples) {
  Tensor A = square({4, 3, 3}, kDouble);
  A[2].zero_();
  Tensor spd = hpd({4, 3, 3}, kDouble);
  spd[1].neg_();
  expect_matches_loop(
      [](const TL& t) {
        return TL{std::get<1>(L::inv_ex(t[0])), std::get<2>(L::lu_factor_ex(t[0]))};
      },
      {A});
  expect_matches_loop([](const TL& t) { return TL{std::get<1>(L::cholesky_ex(t[0]))}; }, {spd});
  EXPECT_EMBER_ERROR(vmap([](const Tensor& t) { return L::inv(t); })(A), "linalg.inv", "singular");
  EXPECT_EMBER_ERROR(vmap([](const Tensor& t) { return L::cholesky(t); })(spd), "linalg.cholesky",
                     "not positive-definite");
}

TEST_F(VmapLinalg, NestedVmapOfDet) {
  Tensor x = square({3, 2, 4, 4}, kDouble);
  auto inner = vmap([](const Tensor& t) { return L::det(t) * L::solve(t, t.diagonal()).sum(); });
  Tensor got = vmap([&](const Tensor& t) { return inner(t); }, 1)(x);
  Tensor want = (L::det(x) * L::solve(x, x.diagonal(0, -2, -1)).sum(-1)).mT();
  EXPECT_TENSOR_CLOSE(got, want);
}

// Inner vmap over B only: its rule sees A batched at the outer level alone
// (a shared A at level 2, folded into B's columns), and the outer rule then
// lines up both.
TEST_F(VmapLinalg, NestedSolveWithOperandsAtDifferentLevels) {
  Tensor A = square({3, 4, 4}, kDouble), B = randn({3, 5, 4, 2}, kDouble);
  VF outer = [](const TL& a) {
    const Tensor Ai = a[0];
    VF inner = [Ai](const TL& b) {
      return TL{L::solve(Ai, b[0]), L::solve_triangular(Ai, b[0], false), L::solve(Ai, b[0].select(-1, 0))};
    };
    return vmap(inner, {0})({a[1]});
  };
  std::vector<Tensor> got = vmap(outer, {0, 0})({A, B});
  EXPECT_TENSOR_CLOSE(got[0], L::solve(A.unsqueeze(1), B));
  EXPECT_TENSOR_CLOSE(got[1], L::solve_triangular(A.unsqueeze(1), B, false));
  EXPECT_TENSOR_CLOSE(got[2], L::solve(A.unsqueeze(1), B.select(-1, 0).unsqueeze(-1)).squeeze(-1));
}

TEST_F(VmapLinalg, BadShapesRaise) {
  Tensor A = square({4, 3, 3}, kDouble);
  EXPECT_EMBER_ERROR(vmap([](const Tensor& t) { return L::solve(t, t.narrow(-1, 0, 2).mT()); })(A), "linalg.solve");
  EXPECT_EMBER_ERROR(vmap([](const Tensor& t) { return L::solve_triangular(t, t[0], true); })(A),
                     "linalg.solve_triangular", "at least 2");
  EXPECT_EMBER_ERROR(vmap([](const Tensor& t) { return L::det(t.narrow(-1, 0, 2)); })(A), "linalg.det");
  EXPECT_EMBER_ERROR(vmap([](const Tensor& t) { return L::cross(t, t[0]); })(A), "linalg.cross",
                     "same number of dimensions");
  EXPECT_EMBER_ERROR(vmap([](const Tensor& t) { return L::solve(t, t[0], false); })(A), "vector B");
  EXPECT_EMBER_ERROR(vmap([](const Tensor& t) { return fft::fft(t[0][0]); })(A), "fft");
  Tensor sig = randn({2, 64}, kDouble), win = randn({2, 16}, kDouble);
  EXPECT_EMBER_ERROR(vmap([&](const TL& t) {
                       return TL{stft(t[0], 16, 4, 16, t[1], false, "reflect", false, std::nullopt, true)};
                     })({sig, win}),
                     "stft", "window batched by vmap");
}

// ---- fft --------------------------------------------------------------------

TEST_F(VmapLinalg, OneDimensionalFfts) {
  for (ScalarType dt : kTypes) {
    SCOPED_TRACE(dtype_name(dt));
    Tensor x = rand_of({4, 6, 5}, dt);
    check_unary(
        [](const TL& a) {
          return TL{fft::fft(a[0]), fft::fft(a[0], 8, 0), fft::ifft(a[0], std::nullopt, -2, "ortho"),
                    fft::hfft(a[0], 6), fft::irfft(a[0], std::nullopt, 0, "forward")};
        },
        x);
  }
  Tensor r = randn({4, 6, 5}, kDouble);
  check_unary(
      [](const TL& a) {
        return TL{fft::rfft(a[0]), fft::rfft(a[0], 4, 0, "ortho"), fft::ihfft(a[0], std::nullopt, -2),
                  fft::fft(a[0], 3)};
      },
      r);
}

TEST_F(VmapLinalg, MultiDimensionalFftsAndShifts) {
  for (ScalarType dt : kTypes) {
    SCOPED_TRACE(dtype_name(dt));
    Tensor x = rand_of({3, 4, 6, 5}, dt);
    check_unary(
        [](const TL& a) {
          const std::vector<int64_t> s2{3, 4}, d2{0, 2}, s1{8}, m1{-1};
          return TL{fft::fftn(a[0]),
                    fft::fftn(a[0], OptionalIntArrayRef(s2)),
                    fft::ifftn(a[0], OptionalIntArrayRef(s2), OptionalIntArrayRef(d2), "ortho"),
                    fft::fft2(a[0]),
                    fft::ifft2(a[0], std::nullopt, {0, 1}),
                    fft::irfftn(a[0]),
                    fft::irfftn(a[0], OptionalIntArrayRef(s1)),
                    fft::irfft2(a[0], OptionalIntArrayRef(s2), d2),
                    fft::fftshift(a[0]),
                    fft::ifftshift(a[0], OptionalIntArrayRef(m1)),
                    fft::fftshift(a[0], OptionalIntArrayRef(d2))};
        },
        x);
  }
  Tensor r = randn({3, 4, 6, 5}, kDouble);
  check_unary(
      [](const TL& a) {
        const std::vector<int64_t> s2{3, -1}, d1{1};
        return TL{fft::rfftn(a[0]), fft::rfftn(a[0], OptionalIntArrayRef(s2)),
                  fft::rfftn(a[0], std::nullopt, OptionalIntArrayRef(d1)), fft::rfft2(a[0]),
                  fft::fftn(a[0], std::nullopt, OptionalIntArrayRef(d1))};
      },
      r);
}

TEST_F(VmapLinalg, StftAndIstft) {
  Tensor win = hann_window(16, TensorOptions(kDouble));
  auto spec = [&](const Tensor& t) { return stft(t, 16, 4, 16, win, true, "reflect", false, std::nullopt, true); };
  VF f = [&](const TL& a) {
    Tensor s = spec(a[0]);
    return TL{s, stft(a[0], 16, 8, std::nullopt, std::nullopt, false, std::nullopt, true),
              istft(s, 16, 4, 16, win, true, false, std::nullopt, a[0].size(-1))};
  };
  Tensor one = randn({3, 64}, kDouble), many = randn({3, 2, 64}, kDouble);
  expect_matches_loop(f, {one}, {0});
  expect_matches_loop(f, {many}, {0});
  expect_matches_loop(f, {many.movedim(0, 2)}, {-1}, 1);
  // A batched signal with a window batched at no level: the window is shared.
  expect_matches_loop(
      [&](const TL& a) { return TL{stft(a[0], 16, 4, 16, a[1], true, "reflect", false, std::nullopt, true)}; },
      {one, win}, {0, std::nullopt});
}

// jacobian(vectorize=true) runs the backward formulas under vmap: the linalg
// formulas see batched gradients and call the rules above. (The formulas of
// solve_triangular, cholesky, qr and eigh use triu/tril/diag_embed, and the
// FFTs' constant_pad_nd/complex, which have no rule yet.)
TEST(VmapLinalgJacobian, VectorizedAgreesWithRowByRow) {
  using autograd::functional::jacobian;
  manual_seed(5);
  Tensor A = square({3, 3}, kDouble), b = randn({3}, kDouble);
  std::vector<std::pair<const char*, std::function<Tensor(const Tensor&)>>> fs = {
      {"det", [](const Tensor& t) { return L::det(t).reshape({1}); }},
      {"inv", [](const Tensor& t) { return L::inv(t); }},
      {"solve", [&](const Tensor& t) { return L::solve(t, b); }},
      {"slogdet", [](const Tensor& t) { return std::get<1>(L::slogdet(t)).reshape({1}); }},
      {"svdvals", [](const Tensor& t) { return L::svdvals(t); }},
      {"matrix_exp", [](const Tensor& t) { return L::matrix_exp(t * 0.1); }},
  };
  for (auto& [name, f] : fs) {
    SCOPED_TRACE(name);
    EXPECT_TENSOR_CLOSE(jacobian(f, A, false, false, true), jacobian(f, A, false, false, false));
  }
}
}  // namespace
}  // namespace torch
