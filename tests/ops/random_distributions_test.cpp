// geometric_, cauchy_, log_normal_, poisson and binomial: each draw's
// distribution checked by its moments (or quantiles, for Cauchy) over many
// seeded draws, with bounds several standard errors wide, and PyTorch's
// argument errors. Individual poisson and binomial draws are compared with
// PyTorch's in distributions_test.cpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "common/test_util.h"
#include "ember/torch.h"

namespace {

constexpr int64_t kDraws = 200000;

double mean_of(const torch::Tensor& t) { return t.to(torch::kDouble).mean().item<double>(); }
double var_of(const torch::Tensor& t) { return t.to(torch::kDouble).var().item<double>(); }

TEST(RandomDistributions, GeometricCountsTrialsToTheFirstSuccess) {
  torch::manual_seed(7);
  auto x = torch::empty({kDraws});
  x.geometric_(0.25);
  EXPECT_GE(x.min().item<float>(), 1.f);
  EXPECT_TRUE(torch::equal(x, x.round()));
  // mean 1/p = 4, variance (1-p)/p^2 = 12; standard error of the mean ~0.0077
  EXPECT_NEAR(mean_of(x), 4.0, 0.05);
  EXPECT_NEAR(var_of(x), 12.0, 0.4);
  // P(X = 1) = p
  EXPECT_NEAR((x == 1).to(torch::kDouble).mean().item<double>(), 0.25, 0.005);
  // integer tensors take it too (torch: zeros(3, dtype=long).geometric_(0.5) works)
  auto i = torch::zeros({1000}, torch::kLong);
  i.geometric_(0.5);
  EXPECT_EQ(i.scalar_type(), torch::kLong);
  EXPECT_GE(i.min().item<int64_t>(), 1);
  // a tiny p saturates int8 instead of overflowing
  auto c = torch::zeros({100}, torch::kChar);
  c.geometric_(1e-9);
  EXPECT_EQ(c.min().item<int64_t>(), 127);
  EXPECT_EMBER_ERROR(torch::zeros({3}).geometric_(0), "geometric_ expects p to be in (0, 1), but got p=0");
  EXPECT_EMBER_ERROR(torch::zeros({3}).geometric_(1.5), "geometric_", "p=1.5");
  EXPECT_EMBER_ERROR(torch::zeros({3}, torch::kBool).geometric_(0.5), "geometric_", "bool");
}

TEST(RandomDistributions, CauchyQuantiles) {
  torch::manual_seed(8);
  auto x = torch::empty({kDraws}, torch::kDouble);
  x.cauchy_(2.0, 0.5);
  // quartiles at median -/+ sigma; the median's standard error is ~0.0035
  auto sorted = std::get<0>(x.sort());
  EXPECT_NEAR(sorted[kDraws / 2].item<double>(), 2.0, 0.015);
  EXPECT_NEAR(sorted[kDraws / 4].item<double>(), 1.5, 0.015);
  EXPECT_NEAR(sorted[3 * kDraws / 4].item<double>(), 2.5, 0.015);
  EXPECT_TRUE(torch::isfinite(x).all().item<bool>());
  EXPECT_EMBER_ERROR(torch::zeros({3}, torch::kLong).cauchy_(), "cauchy_", "int64");
}

TEST(RandomDistributions, LogNormalIsExpOfANormal) {
  torch::manual_seed(9);
  auto x = torch::empty({kDraws}, torch::kDouble);
  x.log_normal_(0.5, 0.25);
  EXPECT_GT(x.min().item<double>(), 0.0);
  const auto l = x.log();
  EXPECT_NEAR(mean_of(l), 0.5, 0.003);
  EXPECT_NEAR(std::sqrt(var_of(l)), 0.25, 0.003);
  // defaults mean 1, std 2, as PyTorch's
  auto d = torch::empty({kDraws}, torch::kDouble);
  d.log_normal_();
  EXPECT_NEAR(mean_of(d.log()), 1.0, 0.03);
  EXPECT_EMBER_ERROR(torch::zeros({3}).log_normal_(1, 0), "log_normal_ expects std > 0.0, but found std=0");
  EXPECT_EMBER_ERROR(torch::zeros({3}, torch::kLong).log_normal_(), "log_normal_", "int64");
}

TEST(RandomDistributions, PoissonMatchesItsRates) {
  torch::manual_seed(10);
  const auto rates = torch::tensor({0.0, 0.5, 3.0, 40.0, 1e6}).repeat({20000});
  const auto x = torch::poisson(rates).view({20000, 5});
  EXPECT_EQ(x.scalar_type(), torch::kFloat);
  EXPECT_TRUE(torch::equal(x, x.round()));
  EXPECT_EQ(x.select(1, 0).abs().max().item<float>(), 0.f);  // rate 0 gives 0
  const auto m = x.to(torch::kDouble).mean(0), v = x.to(torch::kDouble).var(0);
  // mean = variance = rate; standard errors of the mean sqrt(rate / 20000)
  EXPECT_NEAR(m[1].item<double>(), 0.5, 0.02);
  EXPECT_NEAR(m[2].item<double>(), 3.0, 0.05);
  EXPECT_NEAR(m[3].item<double>(), 40.0, 0.2);
  EXPECT_NEAR(m[4].item<double>() / 1e6, 1.0, 1e-4);
  EXPECT_NEAR(v[2].item<double>(), 3.0, 0.15);
  EXPECT_EMBER_ERROR(torch::poisson(torch::tensor({-1.f})), "poisson", "invalid Poisson rate", "-1");
  EXPECT_EMBER_ERROR(torch::poisson(torch::tensor({std::nan("")})), "poisson", "invalid Poisson rate");
  EXPECT_EMBER_ERROR(torch::poisson(torch::tensor({1, 2}, torch::kLong)), "poisson", "int64");
}

TEST(RandomDistributions, BinomialCountsSuccesses) {
  torch::manual_seed(11);
  const auto count = torch::full({kDraws}, 10.0);
  const auto x = torch::binomial(count, torch::full({1}, 0.3));
  EXPECT_EQ(x.scalar_type(), torch::kFloat);
  EXPECT_GE(x.min().item<float>(), 0.f);
  EXPECT_LE(x.max().item<float>(), 10.f);
  // mean n p = 3, variance n p (1 - p) = 2.1
  EXPECT_NEAR(mean_of(x), 3.0, 0.02);
  EXPECT_NEAR(var_of(x), 2.1, 0.05);
  // torch.binomial([10, 5, -1, 10], [0, 1, 0.5, 1.5]) == [0, 5, 0, 10]
  EXPECT_TENSOR_EQ(torch::binomial(torch::tensor({10.f, 5.f, -1.f, 10.f}), torch::tensor({0.f, 1.f, 0.5f, 1.5f})),
                   torch::tensor({0.f, 5.f, 0.f, 10.f}));
  EXPECT_EMBER_ERROR(torch::binomial(torch::tensor({10}, torch::kLong), torch::tensor({0.5f})), "binomial",
                     "one floating dtype", "int64", "float32");
  EXPECT_EMBER_ERROR(torch::binomial(torch::ones({2}), torch::ones({3})), "binomial", "[2]", "[3]");
}

TEST(RandomDistributions, SeedsRepeat) {
  torch::manual_seed(3);
  auto a = torch::empty({5});
  a.geometric_(0.5);
  const auto pa = torch::poisson(torch::full({5}, 2.0));
  torch::manual_seed(3);
  auto b = torch::empty({5});
  b.geometric_(0.5);
  EXPECT_TENSOR_EQ(a, b);
  EXPECT_TENSOR_EQ(torch::poisson(torch::full({5}, 2.0)), pa);
}

}  // namespace
