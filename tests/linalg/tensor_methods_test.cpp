// The Tensor methods LibTorch has for torch.* linear algebra and stft
// (A.det(), A.inverse(), x.stft(...)) give what the free functions give;
// those are checked against PyTorch in linalg_golden_test / fft_test.
#include <gtest/gtest.h>

#include "common/test_util.h"
#include "ember/torch.h"

using torch::Tensor;

namespace {

Tensor well_conditioned() {
  torch::manual_seed(3);
  return torch::rand({2, 3, 3}, torch::kDouble) + torch::eye(3, torch::kDouble) * 3;
}

TEST(LinalgTensorMethods, EqualTheFreeFunctions) {
  const Tensor A = well_conditioned(), B = torch::rand({2, 3, 2}, torch::kDouble);
  const Tensor spd = A.matmul(A.mT()) + torch::eye(3, torch::kDouble);
  EXPECT_TRUE(torch::equal(A.det(), torch::det(A)));
  EXPECT_TRUE(torch::equal(A.logdet(), torch::logdet(A)));
  EXPECT_TRUE(torch::equal(std::get<1>(A.slogdet()), std::get<1>(torch::slogdet(A))));
  EXPECT_TRUE(torch::equal(A.inverse(), torch::inverse(A)));
  EXPECT_TRUE(torch::allclose(A.matmul(A.inverse()), torch::eye(3, torch::kDouble).expand({2, 3, 3})));
  const Tensor L = spd.cholesky();
  EXPECT_TRUE(torch::equal(L, torch::cholesky(spd)));
  EXPECT_TRUE(torch::equal(spd.cholesky(true), torch::cholesky(spd, true)));
  EXPECT_TRUE(torch::allclose(spd.matmul(B.cholesky_solve(L)), B));
  EXPECT_TRUE(torch::allclose(L.cholesky_inverse(), spd.inverse()));
  EXPECT_TRUE(torch::allclose(A.pinverse(), A.inverse()));
  EXPECT_TRUE(torch::allclose(A.matrix_power(3), A.matmul(A).matmul(A)));
  EXPECT_TRUE(torch::equal(A.matrix_exp(), torch::matrix_exp(A)));
  auto [U, S, V] = A.svd();
  EXPECT_TRUE(torch::allclose(U.matmul(torch::diag_embed(S)).matmul(V.mT()), A));
  auto [Q, R] = A.qr();
  EXPECT_TRUE(torch::allclose(Q.matmul(R), A));
  const Tensor T = A.triu();
  auto [X, cloned] = B.triangular_solve(T);
  EXPECT_TRUE(torch::allclose(T.matmul(X), B));
  EXPECT_TRUE(torch::equal(cloned, T));
  auto [LU, piv] = torch::linalg::lu_factor(A);
  EXPECT_TRUE(torch::allclose(A.matmul(B.lu_solve(LU, piv)), B));
  const Tensor u = torch::rand({4, 3}, torch::kDouble), v = torch::rand({4, 3}, torch::kDouble);
  EXPECT_TRUE(torch::equal(u.cross(v), torch::cross(u, v)));
  EXPECT_TRUE(torch::equal(u.cross(v, 1), torch::linalg::cross(u, v, 1)));
  const Tensor tau = torch::rand({2, 3}, torch::kDouble);
  EXPECT_TRUE(torch::equal(A.orgqr(tau), torch::orgqr(A, tau)));
}

TEST(LinalgTensorMethods, StftAndIstft) {
  torch::manual_seed(4);
  const Tensor x = torch::randn({1000}), w = torch::hann_window(64);
  const Tensor s = x.stft(64, 16, 64, w, true, "reflect", false, true, true);
  EXPECT_TRUE(torch::equal(s, torch::stft(x, 64, 16, 64, w, true, "reflect", false, true, true)));
  EXPECT_TRUE(torch::equal(x.stft(64, 16, 64, w, false, true, true), torch::stft(x, 64, 16, 64, w, false, true, true)));
  const Tensor y = s.istft(64, 16, 64, w, true, false, true, 1000);
  EXPECT_TRUE(torch::allclose(y, x, 1e-5, 1e-5));
}

}  // namespace
