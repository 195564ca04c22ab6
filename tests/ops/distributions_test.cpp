// poisson, binomial, multinomial, _standard_gamma, _sample_dirichlet: the draws after a seed equal PyTorch
// 1.13's (tests/golden/distributions.golden, tools/golden/gen_distributions.py), in float and
// double; _standard_gamma's reparameterised gradient equals PyTorch's, and agrees with an
// independent numerical derivative of the Gamma CDF.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "common/golden.h"
#include "common/test_util.h"
#include "ember/ops/factory/distributions.h"
#include "ember/torch.h"

namespace {

using torch::testing::Golden;

const Golden& golden() {
  static const Golden g("distributions.golden");
  return g;
}

class Distributions : public ::testing::TestWithParam<std::string> {};

TEST_P(Distributions, PoissonDrawsArePyTorchs) {
  const auto& g = golden();
  const std::string k = "poisson." + GetParam();
  torch::manual_seed(1);
  EXPECT_TENSOR_EQ(torch::poisson(g[k + ".rates"]), g[k + ".draws"]);
}

TEST_P(Distributions, BinomialDrawsArePyTorchs) {
  const auto& g = golden();
  const std::string k = "binomial." + GetParam();
  torch::manual_seed(2);
  EXPECT_TENSOR_EQ(torch::binomial(g[k + ".count"], g[k + ".prob"]), g[k + ".draws"]);
}

TEST_P(Distributions, StandardGammaDrawsArePyTorchs) {
  const auto& g = golden();
  const std::string k = "gamma." + GetParam();
  torch::manual_seed(3);
  EXPECT_TENSOR_EQ(torch::_standard_gamma(g[k + ".alpha"]), g[k + ".draws"]);
}

TEST_P(Distributions, StandardGammaBackwardIsPyTorchs) {
  const auto& g = golden();
  const std::string k = "gamma_backward." + GetParam();
  const torch::Tensor alpha = g[k + ".alpha"].clone().requires_grad_();
  torch::manual_seed(4);
  const torch::Tensor x = torch::_standard_gamma(alpha);
  EXPECT_EQ(x.grad_fn()->name(), "StandardGammaBackward0");
  EXPECT_TENSOR_EQ(x.detach(), g[k + ".draws"]);
  x.backward(torch::linspace(0.5, 1.5, x.numel(), x.options().requires_grad(false)));
  const double tol = GetParam() == "f32" ? 1e-6 : 1e-13;
  EXPECT_TENSOR_CLOSE_TOL(alpha.grad(), g[k + ".grad"], tol, tol);
}

TEST_P(Distributions, StandardGammaGradIsPyTorchs) {
  const auto& g = golden();
  const std::string k = "gamma_grad." + GetParam();
  const double tol = GetParam() == "f32" ? 1e-6 : 1e-13;
  EXPECT_TENSOR_CLOSE_TOL(torch::_standard_gamma_grad(g[k + ".alpha"], g[k + ".x"]), g[k + ".out"], tol, tol);
}

TEST_P(Distributions, DirichletDrawsArePyTorchs) {
  const auto& g = golden();
  const std::string k = "dirichlet." + GetParam();
  const double tol = GetParam() == "f32" ? 1e-7 : 1e-15;  // the normalising sum's order
  torch::manual_seed(5);
  EXPECT_TENSOR_CLOSE_TOL(torch::_sample_dirichlet(g[k + ".alpha2"]), g[k + ".draws2"], tol, tol);
  EXPECT_TENSOR_CLOSE_TOL(torch::_sample_dirichlet(g[k + ".alpha4"]), g[k + ".draws4"], tol, tol);
}

// P(alpha, x), the regularised lower incomplete gamma function, by its power series in long
// double: x^alpha e^-x sum_n x^n / Gamma(alpha + n + 1).
long double gamma_cdf(long double alpha, long double x) {
  long double term = std::exp(alpha * std::log(x) - x - std::lgamma(alpha + 1)), sum = term;
  for (int n = 1; n < 2000 && term > sum * 1e-21L; ++n) {
    term *= x / (alpha + n);
    sum += term;
  }
  return sum;
}

// The implicit reparameterisation gradient is -(dP/dalpha) / (dP/dx): check PyTorch's
// approximations against central differences of the CDF (they are fits, good to ~1e-3).
TEST(Distributions, StandardGammaGradIsTheImplicitDerivativeOfTheCdf) {
  for (double alpha : {0.3, 1.0, 2.5, 6.0, 12.0, 40.0}) {
    for (double q : {0.05, 0.3, 0.5, 0.8, 0.97}) {
      // x near the q-quantile: bisection on the CDF.
      long double lo = 1e-12L, hi = alpha + 40 * std::sqrt(alpha) + 40;
      for (int i = 0; i < 200; ++i) {
        const long double mid = (lo + hi) / 2;
        (gamma_cdf(alpha, mid) < q ? lo : hi) = mid;
      }
      const long double x = (lo + hi) / 2, h = 1e-5L;
      const long double dp_dalpha = (gamma_cdf(alpha + h, x) - gamma_cdf(alpha - h, x)) / (2 * h);
      const long double pdf = std::exp((alpha - 1) * std::log(x) - x - std::lgamma((long double)alpha));
      const double expected = static_cast<double>(-dp_dalpha / pdf);
      const double got = torch::_standard_gamma_grad(torch::tensor({alpha}, torch::kDouble),
                                                     torch::tensor({static_cast<double>(x)}, torch::kDouble))
                             .item<double>();
      EXPECT_NEAR(got, expected, 2e-3 * std::abs(expected) + 1e-6) << "alpha " << alpha << " x " << (double)x;
    }
  }
}

TEST(Distributions, EdgeCasesAndErrors) {
  // alpha = 0 gives the smallest positive value (PyTorch clamps the zero draw).
  const torch::Tensor z = torch::_standard_gamma(torch::zeros({3}));
  EXPECT_TENSOR_EQ(z, torch::full({3}, std::numeric_limits<float>::min()));
  EXPECT_EMBER_ERROR(torch::_standard_gamma(torch::ones({2}, torch::kHalf)), "_standard_gamma", "float16");
  EXPECT_EMBER_ERROR(torch::_standard_gamma(torch::ones({2}, torch::kLong)), "_standard_gamma", "int64");
  EXPECT_EMBER_ERROR(torch::_sample_dirichlet(torch::tensor(1.0)), "_sample_dirichlet", "scalar");
  EXPECT_EMBER_ERROR(torch::_standard_gamma_grad(torch::ones({2}), torch::ones({2}, torch::kDouble)),
                     "_standard_gamma_grad", "float32", "float64");
  EXPECT_EMBER_ERROR(torch::binomial(torch::full({1}, INFINITY), torch::full({1}, 0.5)), "binomial", "finite");
  // Draws sum to one along the last dim and stay inside (0, 1).
  const torch::Tensor d = torch::_sample_dirichlet(torch::full({50, 3}, 0.01, torch::kDouble));
  EXPECT_TENSOR_CLOSE_TOL(d.sum(-1), torch::ones({50}, torch::kDouble), 1e-12, 1e-12);
  EXPECT_TRUE((d > 0).all().item<bool>() && (d < 1).all().item<bool>());
}

TEST(Distributions, GradientsFollowPyTorch) {
  // poisson's gradient is zero; binomial and _sample_dirichlet have none.
  const torch::Tensor rate = torch::full({4}, 3.0, torch::kDouble).requires_grad_();
  const torch::Tensor p = torch::poisson(rate);
  EXPECT_EQ(p.grad_fn()->name(), "PoissonBackward0");
  p.sum().backward();
  EXPECT_TENSOR_EQ(rate.grad(), torch::zeros({4}, torch::kDouble));
  const torch::Tensor alpha = torch::full({2, 3}, 2.0, torch::kDouble).requires_grad_();
  EXPECT_EMBER_ERROR(torch::_sample_dirichlet(alpha).sum().backward(), "_sample_dirichlet", "not implemented");
  const torch::Tensor count = torch::full({3}, 10.0, torch::kDouble).requires_grad_();
  EXPECT_EMBER_ERROR(torch::binomial(count, torch::full({3}, 0.5, torch::kDouble)).sum().backward(), "binomial",
                     "not implemented");
}

}  // namespace

namespace {

TEST_P(Distributions, MultinomialDrawsArePyTorchs) {
  const auto& g = golden();
  const std::string k = "multinomial." + GetParam();
  const torch::Tensor probs = g[k + ".probs"];
  const std::tuple<const char*, int64_t, bool> cases[] = {
      {"one", 1, false}, {"norepl", 5, false}, {"repl", 40, true}, {"repl1", 1, true}};
  for (const auto& [tag, n, repl] : cases) {
    torch::manual_seed(6);
    EXPECT_TENSOR_EQ(torch::multinomial(probs, n, repl), g[k + "." + tag]) << tag;
  }
  torch::manual_seed(7);
  EXPECT_TENSOR_EQ(torch::multinomial(probs[0], 200, true), g[k + ".vector"]);
}

}  // namespace

namespace {
INSTANTIATE_TEST_SUITE_P(Dtypes, Distributions, ::testing::Values("f32", "f64"));
}  // namespace
