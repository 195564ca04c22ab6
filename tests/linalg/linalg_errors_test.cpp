// ember::linalg's failure modes: singular and non-positive-definite input
// raise ember::Error naming the op and the batch element (PyTorch's wording);
// the _ex variants return LAPACK's info codes instead; bad shapes and dtypes
// are named in the message.
#include <gtest/gtest.h>

#include "common/test_util.h"
#include "ember/torch.h"

namespace L = torch::linalg;
using torch::Tensor;

namespace {

// Batch of two 3x3 matrices: element 0 is fine, element 1 is bad.
Tensor spd_then_not_pd() {
  Tensor a = torch::eye(3, torch::kDouble).repeat({2, 1, 1});
  // Leading minor of order 2 of element 1: [[1, 2], [2, 1]] has determinant -3.
  a.index_put_({1, 0, 1}, 2.0);
  a.index_put_({1, 1, 0}, 2.0);
  return a;
}

Tensor invertible_then_singular() {
  Tensor a = torch::eye(3, torch::kDouble).repeat({2, 1, 1});
  a.index_put_({1, 2, 2}, 0.0);
  return a;
}

TEST(LinalgErrors, CholeskyNamesBatchElementAndMinor) {
  EXPECT_EMBER_ERROR(L::cholesky(spd_then_not_pd()),
                     "linalg.cholesky: (Batch element 1): The factorization could not be completed because the input "
                     "is not positive-definite (the leading minor of order 2 is not positive-definite).");
  EXPECT_EMBER_ERROR(L::cholesky(spd_then_not_pd()[1]),
                     "linalg.cholesky: The factorization could not be completed because the input is not "
                     "positive-definite (the leading minor of order 2 is not positive-definite).");
  EXPECT_EMBER_ERROR(torch::cholesky(spd_then_not_pd().to(torch::kComplexFloat)), "(Batch element 1)");
}

TEST(LinalgErrors, CholeskyExReturnsInfo) {
  auto [Lf, info] = L::cholesky_ex(spd_then_not_pd());
  EXPECT_EQ(info.dtype(), torch::kInt);
  EXPECT_TENSOR_EQ(info, torch::tensor({0, 2}, torch::kInt));
  EXPECT_EMBER_ERROR(L::cholesky_ex(spd_then_not_pd(), false, true), "(Batch element 1)");
}

TEST(LinalgErrors, SingularInverseAndSolve) {
  EXPECT_EMBER_ERROR(L::inv(invertible_then_singular()),
                     "linalg.inv: (Batch element 1): The diagonal element 3 is zero, the inversion could not be "
                     "completed because the input matrix is singular.");
  EXPECT_EMBER_ERROR(torch::inverse(invertible_then_singular()[1]), "linalg.inv: The diagonal element 3 is zero");
  EXPECT_EMBER_ERROR(L::solve(invertible_then_singular(), torch::ones({2, 3, 1}, torch::kDouble)),
                     "linalg.solve: (Batch element 1): The diagonal element 3 is zero, the solve could not be "
                     "completed because the input matrix is singular.");
  EXPECT_EMBER_ERROR(L::matrix_power(invertible_then_singular(), -1), "(Batch element 1)");
}

TEST(LinalgErrors, ExVariantsReturnInfoCodes) {
  auto [X, info] = L::inv_ex(invertible_then_singular());
  EXPECT_TENSOR_EQ(info, torch::tensor({0, 3}, torch::kInt));
  auto [Y, info2] = L::solve_ex(invertible_then_singular(), torch::ones({2, 3}, torch::kDouble));
  EXPECT_TENSOR_EQ(info2, torch::tensor({0, 3}, torch::kInt));
  auto [LU, piv, info3] = L::lu_factor_ex(invertible_then_singular());
  EXPECT_TENSOR_EQ(info3, torch::tensor({0, 3}, torch::kInt));
  EXPECT_EMBER_ERROR(L::lu_factor(invertible_then_singular()), "linalg.lu_factor: (Batch element 1): U[3,3] is zero");
  // lu() and det() do not raise: the factorization exists and det is 0.
  EXPECT_NO_THROW(L::lu(invertible_then_singular()));
  EXPECT_TENSOR_EQ(L::det(invertible_then_singular()), torch::tensor({1.0, 0.0}, torch::kDouble));
  auto [sign, logabs] = L::slogdet(invertible_then_singular());
  EXPECT_EQ(sign[1].item<double>(), 0.0);
  EXPECT_EQ(logabs[1].item<double>(), -std::numeric_limits<double>::infinity());
}

TEST(LinalgErrors, ShapesAndDtypesAreNamed) {
  EXPECT_EMBER_ERROR(L::inv(torch::ones({2, 3})), "linalg.inv", "square", "2 by 3", "[2, 3]");
  EXPECT_EMBER_ERROR(L::det(torch::ones({3})), "linalg.det", "at least 2 dimensions", "[3]");
  EXPECT_EMBER_ERROR(L::cholesky(torch::ones({2, 2}, torch::kLong)), "linalg.cholesky", "int64");
  EXPECT_EMBER_ERROR(L::solve(torch::eye(3), torch::ones({4, 2})), "linalg.solve", "[3, 3]", "[4, 2]");
  EXPECT_EMBER_ERROR(L::solve(torch::eye(3), torch::ones({3, 2}, torch::kDouble)), "linalg.solve", "float32",
                     "float64");
  EXPECT_EMBER_ERROR(L::solve(torch::eye(3).expand({2, 3, 3}), torch::ones({4, 3, 1})), "linalg.solve");
  EXPECT_EMBER_ERROR(L::qr(torch::ones({3, 3}), "thin"), "linalg.qr", "thin");
  EXPECT_EMBER_ERROR(L::eigh(torch::eye(3), "X"), "linalg.eigh", "UPLO");
  EXPECT_EMBER_ERROR(L::lstsq(torch::ones({4, 3}), torch::ones({4, 2}), std::nullopt, "magic"), "driver", "magic");
  EXPECT_EMBER_ERROR(L::cross(torch::ones({2, 4}), torch::ones({2, 4})), "linalg.cross", "length 3");
  EXPECT_EMBER_ERROR(L::matrix_norm(torch::ones({3, 3}), 3), "linalg.matrix_norm", "Order 3");
  EXPECT_EMBER_ERROR(L::householder_product(torch::ones({2, 3}), torch::ones({2})), "householder_product", "[2, 3]");
}

TEST(LinalgErrors, QrModeRHasNoGradient) {
  Tensor A = torch::rand({3, 3}, torch::kDouble).requires_grad_(true);
  auto [Q, R] = L::qr(A, "r");
  EXPECT_EQ(Q.numel(), 0);
  EXPECT_EMBER_ERROR(R.sum().backward(), "mode='r'");
}

TEST(LinalgErrors, EmptyAndLargeBatches) {
  // Zero-sized batch and zero-sized matrices.
  EXPECT_EQ(L::inv(torch::empty({0, 3, 3})).sizes(), torch::IntArrayRef({0, 3, 3}));
  EXPECT_TENSOR_EQ(L::det(torch::empty({2, 0, 0})), torch::ones({2}));
  // A batch large enough to run in parallel: every element solved, in order.
  Tensor A = torch::eye(4, torch::kDouble) * torch::arange(1, 65, torch::kDouble).reshape({64, 1, 1});
  Tensor x = L::solve(A, torch::ones({64, 4, 1}, torch::kDouble));
  EXPECT_TENSOR_CLOSE(x.select(-1, 0).select(-1, 0), 1.0 / torch::arange(1, 65, torch::kDouble));
}

}  // namespace
