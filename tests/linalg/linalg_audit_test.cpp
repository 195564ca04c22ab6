// Findings of a differential sweep against PyTorch 1.13 (stop 26): lstsq's value
// with grad, LibTorch's positional pinv/matrix_rank, non-finite input to the
// LAPACK drivers, matrix_power(A, 0) and logdet of a negative determinant.
// Expected values are PyTorch's (the comments give the Python).
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "common/test_util.h"
#include "ember/torch.h"

namespace L = torch::linalg;
using torch::Tensor;

namespace {

Tensor A53() {
  return torch::tensor({{1., 2., 3.}, {2., 4.1, 6.}, {0.5, -1., 2.}, {3., 0., 1.}, {1., 1., 1.}}, torch::kDouble);
}
Tensor B52() { return torch::tensor({{1., 0.}, {2., 1.}, {0., 3.}, {1., 1.}, {2., -1.}}, torch::kDouble); }

TEST(LinalgAudit, LstsqKeepsTheDriversSolutionWithGrad) {
  // x = torch.linalg.lstsq(Ag, B, 0.5, driver=d)[0]; x.sum().backward(): the value is the
  // driver's (rank-truncated by rcond) with or without grad, the gradient pinv-based.
  // gelsd's rank-1 solution is the minimum-norm one, so PyTorch's value is checked;
  // gelsy's basic solution of a rank-deficient A depends on the LAPACK build
  // (PyTorch 1.13 itself returns another one when A requires grad).
  const Tensor gelsd = torch::tensor({{0.10405008857056251, 0.05024906424265457},
                                      {0.1517214545173723, 0.0732710679997379},
                                      {0.24460024214799758, 0.11812515924124745}},
                                     torch::kDouble);
  const Tensor grad = torch::tensor({{-0.07055103995464468, 0.012708887604457729, -0.027611072545802997},
                                     {-0.04380833590329272, 0.13004322952375771, -0.1381053845021425},
                                     {0.08318789064856835, -0.142023032093752, 0.15835550523998965},
                                     {-0.09577679377480414, 0.16627807258165872, -0.1850552126200954},
                                     {0.002956356615962316, 0.14262108544748242, -0.1406005190429484}},
                                    torch::kDouble);
  for (const char* driver : {"gelsd", "gelsy"}) {
    SCOPED_TRACE(driver);
    const Tensor plain = std::get<0>(L::lstsq(A53(), B52(), 0.5, driver));
    if (std::string(driver) == "gelsd") EXPECT_TENSOR_CLOSE(plain, gelsd);
    const Tensor A = A53().requires_grad_(true);
    const Tensor x = std::get<0>(L::lstsq(A, B52(), 0.5, driver));
    EXPECT_TENSOR_EQ(x, plain);
    x.sum().backward();
    EXPECT_TENSOR_CLOSE(A.grad(), grad);
  }
}

// B with one dim fewer than A is a vector right-hand side (torch 1.13):
// r = torch.linalg.lstsq(A53, b, driver='gelsd') -> solution [3], residuals [1],
// rank [], singular_values [3]; the solution is the matrix form's column, and
// batched: A [2, 5, 3], B [2, 5] -> solution [2, 3], residuals [2, 1].
TEST(LinalgAudit, LstsqWithAVectorRightHandSide) {
  const Tensor b = B52().select(1, 0);
  auto [x, residuals, rank, sv] = L::lstsq(A53(), b, std::nullopt, "gelsd");
  EXPECT_EQ(x.sizes().vec(), std::vector<int64_t>({3}));
  EXPECT_EQ(residuals.sizes().vec(), std::vector<int64_t>({1}));
  EXPECT_EQ(rank.dim(), 0);
  EXPECT_EQ(sv.sizes().vec(), std::vector<int64_t>({3}));
  const Tensor column = std::get<0>(L::lstsq(A53(), b.unsqueeze(-1), std::nullopt, "gelsd")).squeeze(-1);
  EXPECT_TENSOR_CLOSE(x, column);
  const Tensor A2 = torch::stack({A53(), A53() * 2}), B2 = torch::stack({b, b + 1});
  auto [x2, r2, rank2, sv2] = L::lstsq(A2, B2, std::nullopt, "gelsd");
  EXPECT_EQ(x2.sizes().vec(), std::vector<int64_t>({2, 3}));
  EXPECT_EQ(r2.sizes().vec(), std::vector<int64_t>({2, 1}));
  const Tensor bg = b.clone().requires_grad_();
  std::get<0>(L::lstsq(A53(), bg)).sum().backward();
  EXPECT_TENSOR_CLOSE(bg.grad(), L::pinv(A53()).sum(0));
  EXPECT_EMBER_ERROR(L::lstsq(A53(), torch::ones({4}, torch::kDouble)), "lstsq", "should match other.size(-1)");
}

TEST(LinalgAudit, PositionalPinvAndMatrixRankMeanWhatLibTorchsDo) {
  // torch.linalg.pinv(A, 1e-15, True) -> [[0.6, -0.2], [-0.2, 0.4]]
  const Tensor A = torch::tensor({{2., 1.}, {1., 3.}}, torch::kDouble);
  EXPECT_TENSOR_CLOSE(L::pinv(A, 1e-15, true), torch::tensor({{0.6, -0.2}, {-0.2, 0.4}}, torch::kDouble));
  // s = diag(1, 0.4, 2): matrix_rank(s, 0.5, True) -> 2 (tol absolute);
  // matrix_rank(s, torch.tensor(0.3), False) -> 3; pinv(s, 0.3, False) -> diag(1, 0, 0.5) (rcond relative)
  const Tensor s = torch::diag(torch::tensor({1.0, 0.4, 2.0}, torch::kDouble));
  EXPECT_EQ(L::matrix_rank(s, 0.5, true).item<int64_t>(), 2);
  EXPECT_EQ(L::matrix_rank(s, torch::tensor(0.3, torch::kDouble), false).item<int64_t>(), 3);
  EXPECT_TENSOR_CLOSE(L::pinv(s, 0.3, false), torch::diag(torch::tensor({1.0, 0.0, 0.5}, torch::kDouble)));
  EXPECT_TENSOR_CLOSE(L::pinv(s, 0.3), torch::diag(torch::tensor({1.0, 0.0, 0.5}, torch::kDouble)));
  // Two doubles still mean (atol, rtol): hermitian must be a bool.
  EXPECT_TENSOR_CLOSE(L::pinv(s, 0.0, 0.3), torch::diag(torch::tensor({1.0, 0.0, 0.5}, torch::kDouble)));
  EXPECT_EQ(L::matrix_rank(s, 1.5, 0.0).item<int64_t>(), 1);
}

TEST(LinalgAudit, NonFiniteInputIsAClearError) {
  Tensor a = torch::eye(3, torch::kDouble);
  a.index_put_({0, 0}, NAN);
  // torch.linalg.eig: "input tensor should not contain infs or NaNs"; svd: "failed to converge because
  // the input matrix contained non-finite values" (and pinv, matrix_rank, matrix_norm(2) through it).
  EXPECT_EMBER_ERROR(L::eig(a), "linalg.eig", "infs or NaNs");
  EXPECT_EMBER_ERROR(L::svdvals(a), "non-finite");
  EXPECT_EMBER_ERROR(L::pinv(a), "non-finite");
  EXPECT_EMBER_ERROR(L::matrix_rank(a), "non-finite");
  EXPECT_EMBER_ERROR(L::matrix_norm(a, 2), "non-finite");
  EXPECT_EMBER_ERROR(L::lstsq(a, a, std::nullopt, "gelsd"), "lstsq", "NaN or inf");
}

TEST(LinalgAudit, MatrixPowerZeroStaysInTheGraph) {
  // y = torch.linalg.matrix_power(a, 0): requires_grad True, a.grad zeros after y.sum().backward()
  const Tensor a = torch::tensor({{1., 2.}, {3., 4.}}, torch::kDouble).requires_grad_(true);
  const Tensor y = L::matrix_power(a, 0);
  EXPECT_TRUE(y.requires_grad());
  EXPECT_TENSOR_EQ(y, torch::eye(2, torch::kDouble));
  y.sum().backward();
  EXPECT_TENSOR_EQ(a.grad(), torch::zeros({2, 2}, torch::kDouble));
}

TEST(LinalgAudit, LogdetOfANegativeDeterminantHasZeroGradient) {
  // torch.logdet(diag(-1, 2, 3)) -> nan, grad zeros; torch.logdet([[1, 2], [2, 4]]) -> -inf
  const Tensor a = torch::diag(torch::tensor({-1.0, 2.0, 3.0}, torch::kDouble)).requires_grad_(true);
  const Tensor y = torch::logdet(a);
  EXPECT_TRUE(std::isnan(y.item<double>()));
  y.backward();
  EXPECT_TENSOR_EQ(a.grad(), torch::zeros({3, 3}, torch::kDouble));
  EXPECT_EQ(torch::logdet(torch::tensor({{1., 2.}, {2., 4.}}, torch::kDouble)).item<double>(), -INFINITY);
}

}  // namespace

namespace {

TEST(LinalgAudit, PhaseDependentLossesThroughComplexVectorsRaise) {
  // PyTorch: "linalg_eigh_backward: The eigenvectors in the complex case are specified up to
  // multiplication by e^{i phi}. The specified loss function depends on this quantity, so it
  // is ill-defined." (and the same for linalg_eig_backward, svd_backward)
  const Tensor M = torch::tensor({{2.0, 1.0, 0.5}, {0.3, 3.0, 1.0}, {0.2, 0.7, 4.0}}, torch::kDouble);
  const Tensor C = torch::complex(M, M.t() * 0.5);
  const Tensor H = (C + C.t().conj()).detach().requires_grad_(true);
  auto [L, V] = L::eigh(H);
  EXPECT_EMBER_ERROR(torch::real(V).sum().backward(), "linalg_eigh_backward", "ill-defined");
  auto [L2, V2] = L::eigh(H);
  V2.abs().sum().backward();  // |V| does not depend on the phases
  // The gradients of the phase-invariant losses, from PyTorch 1.13 on the same inputs.
  using Rows = std::vector<std::vector<double>>;
  const auto mat = [](const Rows& v) {
    return torch::stack({torch::tensor(v[0], torch::kDouble), torch::tensor(v[1], torch::kDouble),
                         torch::tensor(v[2], torch::kDouble)});
  };
  EXPECT_TENSOR_CLOSE_TOL(
      H.grad(),
      torch::complex(mat(Rows{{0.2196533702985791, 0.13696054406983568, -0.09167960830447185},
                              {0.13696054406983565, -0.13328600160125384, 0.10154007943721059},
                              {-0.09167960830447186, 0.10154007943721058, -0.08636736869732532}}),
                     mat(Rows{{1.0903989848542432e-17, -0.08107138125545003, 0.1017264949333047},
                              {0.08107138125545002, 1.5026028578787682e-17, -0.04275742183719063},
                              {-0.10172649493330471, 0.04275742183719062, 1.6975962020483765e-18}})),
      1e-9, 1e-12);

  // eig: with complex vectors the same loss raises; a real matrix with real eigenvalues
  // has real vectors, whose loss has no phase dependence (PyTorch returns a gradient).
  const Tensor Ce = C.detach().requires_grad_(true);
  auto [w, v] = L::eig(Ce);
  EXPECT_EMBER_ERROR(torch::real(v).sum().backward(), "linalg_eig_backward", "ill-defined");
  const Tensor A = M.clone().requires_grad_(true);
  auto [wr, vr] = L::eig(A);
  torch::real(vr).sum().backward();
  EXPECT_TENSOR_CLOSE_TOL(A.grad(),
                          mat(Rows{{-0.01621239168734521, -0.24949035886747398, -0.03948485828094888},
                                   {1.1082539929812747, 0.16953566982609103, -0.34832405883139256},
                                   {0.5294527892922476, 0.45185853933986875, -0.15332327813874522}}),
                          1e-9, 1e-12);

  const Tensor Cg = C.detach().requires_grad_(true);
  auto [U, S, Vh] = L::svd(Cg, false);
  EXPECT_EMBER_ERROR(torch::real(U).sum().backward(), "svd_backward", "ill-defined");
  auto [U2, S2, Vh2] = L::svd(Cg, false);
  torch::real(U2.matmul(Vh2)).sum().backward();  // U Vh: the phases cancel
  EXPECT_TENSOR_CLOSE_TOL(Cg.grad(),
                          torch::complex(mat(Rows{{0.06305247456946687, 0.040007786015477456, 0.0386486981223634},
                                                  {0.05254105331667142, 0.03757666018741057, 0.03695872638116827},
                                                  {0.046794188758697515, 0.03392352987690188, 0.033638575725876294}}),
                                         mat(Rows{{-0.12693864611085617, -0.10725610352554114, -0.09555543803129535},
                                                  {-0.08167225413825253, -0.07473809517088573, -0.06861934309664627},
                                                  {-0.07709506150049739, -0.07236257991128436, -0.06677500902010285}})),
                          1e-9, 1e-12);
}

}  // namespace

namespace {

TEST(LinalgAudit, EdgeCasesAndChecksAsPyTorch) {
  const Tensor x = torch::tensor({1.0, 2.0}, torch::kDouble);
  // linalg.vector_norm's dtype rules and empty reductions (PyTorch's messages):
  EXPECT_EMBER_ERROR(L::vector_norm(x, 2, {}, false, torch::kComplexDouble), "dtype should be real for real inputs");
  EXPECT_EMBER_ERROR(L::vector_norm(x, 2, {}, false, torch::kFloat), "without narrowing");
  EXPECT_EMBER_ERROR(L::vector_norm(x.to(torch::kComplexFloat), 2, {}, false, torch::kDouble),
                     "dtype should be complex for complex inputs");
  EXPECT_NEAR(L::vector_norm(x.to(torch::kFloat), 2, {}, false, torch::kDouble).item<double>(), std::sqrt(5.0), 1e-12);
  EXPECT_EMBER_ERROR(L::vector_norm(torch::zeros({0}), INFINITY), "inf norm on an empty tensor");
  EXPECT_EMBER_ERROR(L::vector_norm(torch::zeros({0, 3}), INFINITY, {0}), "dimension 0");
  EXPECT_EQ(L::vector_norm(torch::zeros({0, 3}), INFINITY, {1}).sizes(), torch::IntArrayRef({0}));
  EXPECT_EQ(L::vector_norm(torch::zeros({0, 3}), -1, {1}).sizes(), torch::IntArrayRef({0}));
  // torch.linalg.cond of 0x0 matrices is 0 for every p
  EXPECT_TENSOR_EQ(L::cond(torch::zeros({2, 0, 0}, torch::kDouble)), torch::zeros({2}, torch::kDouble));
  EXPECT_EQ(L::cond(torch::zeros({0, 0}, torch::kDouble), "fro").item<double>(), 0.0);
  // torch.lu_unpack(LU, piv, unpack_data=False) -> shapes [2, 2], [0], [0]
  auto [LU, piv] = L::lu_factor(torch::tensor({{1., 2.}, {3., 4.}}, torch::kDouble));
  auto [P, Lo, U] = torch::lu_unpack(LU, piv, false, true);
  EXPECT_EQ(P.sizes(), torch::IntArrayRef({2, 2}));
  EXPECT_EQ(Lo.sizes(), torch::IntArrayRef({0}));
  EXPECT_EQ(U.sizes(), torch::IntArrayRef({0}));
  auto [P2, L2, U2] = torch::lu_unpack(LU, piv, true, false);
  EXPECT_EQ(P2.sizes(), torch::IntArrayRef({0}));
  EXPECT_EQ(L2.sizes(), torch::IntArrayRef({2, 2}));
  // torch.svd(ones(2, 5, 3), some=True, compute_uv=False): U [2, 5, 5], V [2, 3, 3] (zeros)
  auto [Us, S, Vs] = torch::svd(torch::ones({2, 5, 3}), true, false);
  EXPECT_EQ(Us.sizes(), torch::IntArrayRef({2, 5, 5}));
  EXPECT_EQ(Vs.sizes(), torch::IntArrayRef({2, 3, 3}));
  // torch.vander(x, 1) -> ones [3, 1]; vander(x, 0) -> [3, 0]; vander(empty) -> [0, 0]
  const Tensor v = torch::tensor({1.0, 2.0, 3.0});
  EXPECT_TENSOR_EQ(torch::vander(v, 1), torch::ones({3, 1}));
  EXPECT_EQ(torch::vander(v, 0).sizes(), torch::IntArrayRef({3, 0}));
  EXPECT_EQ(torch::vander(torch::zeros({0})).sizes(), torch::IntArrayRef({0, 0}));
  EXPECT_TENSOR_EQ(torch::vander(v, 2, true), torch::tensor({{1.0f, 1.0f}, {1.0f, 2.0f}, {1.0f, 3.0f}}));
  EXPECT_EMBER_ERROR(torch::vander(v, -1), "N must be non-negative");
}

}  // namespace
