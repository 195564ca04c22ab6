// det's gradient at singular matrices: the cofactor matrix (adj(A)^T), which
// is nonzero at rank n-1 and zero at rank <= n-2. The expected values are
// cofactors worked out by hand, and gradcheck compares the formula with
// central differences of det itself (a polynomial, so well defined there).
#include <gtest/gtest.h>

#include "common/test_util.h"
#include "ember/autograd/gradcheck.h"
#include "ember/torch.h"

namespace L = torch::linalg;
using torch::Tensor;

namespace {

// Rank 2: the second row is twice the first.
Tensor rank_two() { return torch::tensor({{1.0, 2.0, 3.0}, {2.0, 4.0, 6.0}, {1.0, 0.0, 1.0}}, torch::kDouble); }

ember::autograd::DifferentiableFn det_fn() {
  return [](const ember::autograd::variable_list& x) { return ember::autograd::variable_list{L::det(x[0])}; };
}

TEST(DetGrad, CofactorsAtRankNMinusOne) {
  Tensor A = rank_two().requires_grad_(true);
  Tensor d = L::det(A);
  EXPECT_EQ(d.item<double>(), 0.0);
  d.backward();
  // C_ij = (-1)^(i+j) M_ij; e.g. C_00 = 4*1 - 6*0, C_01 = -(2*1 - 6*1).
  const Tensor cof = torch::tensor({{4.0, 4.0, -4.0}, {-2.0, -2.0, 2.0}, {0.0, 0.0, 0.0}}, torch::kDouble);
  EXPECT_TRUE(torch::allclose(A.grad(), cof, 1e-12, 1e-12)) << A.grad();
  // torch::det is the same function.
  Tensor B = rank_two().requires_grad_(true);
  torch::det(B).backward();
  EXPECT_TRUE(torch::allclose(B.grad(), cof, 1e-12, 1e-12)) << B.grad();
}

TEST(DetGrad, ZeroAtRankNMinusTwo) {
  Tensor A = torch::ones({3, 3}, torch::kDouble).requires_grad_(true);
  L::det(A).backward();
  EXPECT_TRUE(torch::allclose(A.grad(), torch::zeros({3, 3}, torch::kDouble), 0, 1e-12)) << A.grad();
  Tensor Z = torch::zeros({4, 4}, torch::kDouble).requires_grad_(true);
  L::det(Z).backward();
  EXPECT_TRUE(torch::equal(Z.grad(), torch::zeros({4, 4}, torch::kDouble)));
}

TEST(DetGrad, GradcheckOnSingularAndMixedBatches) {
  // A batch holding an invertible matrix next to a singular one takes the SVD form for both.
  Tensor mixed = torch::stack({torch::eye(3, torch::kDouble) * 2 + 0.1, rank_two()}).requires_grad_(true);
  EXPECT_EQ(ember::autograd::gradcheck(det_fn(), {mixed}), "");
  EXPECT_EQ(ember::autograd::gradcheck(det_fn(), {rank_two().requires_grad_(true)}), "");
  // Double backward through the SVD form. The cofactors are quadratic in A, so central
  // differences are exact at any step; eps 1e-3 keeps the perturbed (invertible) points far
  // enough from singular that their solve-based gradient does not lose digits to conditioning.
  ember::autograd::GradcheckOptions wide;
  wide.eps = 1e-3;
  EXPECT_EQ(ember::autograd::gradgradcheck(det_fn(), {rank_two().requires_grad_(true)}, wide), "");
  // Complex, rank 1 of 2: the conjugate-Wirtinger gradient is conj(cofactors).
  Tensor z = torch::tensor({{1.0, 2.0}, {2.0, 4.0}}, torch::kDouble).to(torch::kComplexDouble) *
             torch::complex(torch::tensor(1.0, torch::kDouble), torch::tensor(0.5, torch::kDouble));
  EXPECT_EQ(L::det(z).abs().item<double>(), 0.0);
  EXPECT_EQ(ember::autograd::gradcheck(det_fn(), {z.detach().requires_grad_(true)}), "");
}

}  // namespace
