// The example from the autograd blog post (shared/seeds/003): the gradient of
// y = log(x0 * x1) * sin(x1) at x = (0.5, 0.75).
#include <gtest/gtest.h>

#include "common/test_util.h"
#include "ember/torch.h"

TEST(SeedExample, GradientMatchesTheBlogPost) {
  auto x = torch::tensor({0.5, 0.75}, torch::TensorOptions().dtype(torch::kFloat64).requires_grad(true));
  auto y = torch::log(x[0] * x[1]) * torch::sin(x[1]);
  y.backward();
  // Exact: dy/dx0 = sin(x1)/x0, dy/dx1 = sin(x1)/x1 + log(x0*x1)*cos(x1).
  EXPECT_NEAR(x.grad()[0].item<double>(), 1.3632775200466682, 1e-15);
  EXPECT_NEAR(x.grad()[1].item<double>(), 0.19118983333660755, 1e-15);
  EXPECT_EQ(y.grad_fn()->name(), "MulBackward0");
}

TEST(SeedExample, Float32AndGradFnNames) {
  auto x = torch::tensor({0.5f, 0.75f}, torch::requires_grad());
  auto p = x[0] * x[1];
  EXPECT_EQ(p.grad_fn()->name(), "MulBackward0");
  EXPECT_EQ((x * 2).grad_fn()->name(), "MulBackward1");
  EXPECT_EQ((x + 1).grad_fn()->name(), "AddBackward1");
  EXPECT_EQ(x.sum().grad_fn()->name(), "SumBackward0");
  EXPECT_EQ(x.mean().grad_fn()->name(), "MeanBackward0");
  EXPECT_EQ(x[0].grad_fn()->name(), "SelectBackward0");
  EXPECT_EQ(torch::log1p(x).grad_fn()->name(), "Log1PBackward0");
  auto y = torch::log(p) * torch::sin(x[1]);
  y.backward();
  EXPECT_NEAR(x.grad()[0].item<float>(), 1.3633f, 1e-4);
  EXPECT_NEAR(x.grad()[1].item<float>(), 0.1912f, 1e-4);
}

TEST(SeedExample, DoubleAndTripleBackward) {
  // f = x^3 via mul: f' = 3x^2, f'' = 6x, f''' = 6.
  auto x = torch::tensor({2.0}, torch::TensorOptions().dtype(torch::kDouble).requires_grad(true));
  auto f = (x * x * x).sum();
  auto g1 = torch::autograd::grad({f}, {x}, {}, std::nullopt, true)[0];
  auto g2 = torch::autograd::grad({g1.sum()}, {x}, {}, std::nullopt, true)[0];
  auto g3 = torch::autograd::grad({g2.sum()}, {x})[0];
  EXPECT_DOUBLE_EQ(g1.item<double>(), 12.0);
  EXPECT_DOUBLE_EQ(g2.item<double>(), 12.0);
  EXPECT_DOUBLE_EQ(g3.item<double>(), 6.0);
}

TEST(SeedExample, InPlaceOnLeafRaisesAndOnNonLeafRebases) {
  auto x = torch::tensor({1.0, 2.0}, torch::TensorOptions().dtype(torch::kDouble).requires_grad(true));
  EXPECT_EMBER_ERROR(x.exp_(), "leaf Variable that requires grad");
  auto y = x * 1.0;
  y.exp_();
  EXPECT_EQ(y.grad_fn()->name(), "ExpBackward0");
  y.sum().backward();
  EXPECT_NEAR(x.grad()[1].item<double>(), std::exp(2.0), 1e-12);
  // Modifying a tensor a formula saved makes backward fail with a clear message.
  auto z = x.sin();
  auto w = z * x;  // saves x and z... and sin saved x
  x.detach().add_(1);
  EXPECT_EMBER_ERROR(w.sum().backward(), "modified by an inplace operation");
}

TEST(SeedExample, BroadcastGradientsAreReduced) {
  auto a = torch::ones({2, 3}, torch::TensorOptions().dtype(torch::kDouble).requires_grad(true));
  auto b = torch::ones({3}, torch::TensorOptions().dtype(torch::kDouble).requires_grad(true));
  (a * b + b).sum().backward();
  EXPECT_EQ(b.grad().sizes(), torch::IntArrayRef({3}));
  EXPECT_DOUBLE_EQ(b.grad()[0].item<double>(), 4.0);
  EXPECT_DOUBLE_EQ(a.grad()[1][2].item<double>(), 1.0);
}
