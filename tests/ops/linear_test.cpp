// linear and bilinear against PyTorch (tools/golden/gen_nn_ops.py), values and gradients.
#include <gtest/gtest.h>

#include "nn_golden_check.h"

using ember::Tensor;
using ember::testing::check_nn_case;

TEST(NnLinear, MatchesPyTorch) {
  for (const char* tag : {"f32", "f64"}) {
    const std::string t = tag;
    check_nn_case("linear.2d_bias." + t, [](const std::vector<Tensor>& x) { return torch::linear(x[0], x[1], x[2]); });
    check_nn_case("linear.3d_bias." + t, [](const std::vector<Tensor>& x) { return torch::linear(x[0], x[1], x[2]); });
    check_nn_case("linear.3d_nobias." + t, [](const std::vector<Tensor>& x) { return torch::linear(x[0], x[1]); });
    check_nn_case("linear.1d_bias." + t, [](const std::vector<Tensor>& x) { return torch::linear(x[0], x[1], x[2]); });
    check_nn_case("linear.noncontig." + t,
                  [](const std::vector<Tensor>& x) { return torch::linear(x[0].transpose(0, 2), x[1], x[2]); });
    check_nn_case("bilinear." + t,
                  [](const std::vector<Tensor>& x) { return torch::bilinear(x[0], x[1], x[2], x[3]); });
  }
}

TEST(NnLinear, GradFnIsAddmmFor2dWithBias) {
  Tensor x = torch::randn({3, 4});
  Tensor w = torch::randn({2, 4}).requires_grad_(true);
  Tensor b = torch::randn({2}).requires_grad_(true);
  EXPECT_EQ(torch::linear(x, w, b).grad_fn()->name(), "AddmmBackward0");
  // An undefined Tensor() and {} both mean "no bias".
  EXPECT_TENSOR_CLOSE(torch::linear(x, w, Tensor()).detach(), torch::linear(x, w).detach());
}

// Note [GEMM gradient layout]: the weight's gradient reaches the leaf
// contiguous, like the weight, so .grad accumulation streams through memory.
TEST(NnLinear, WeightGradientKeepsTheWeightLayout) {
  Tensor x = torch::randn({5, 4});
  Tensor w = torch::randn({3, 4}).requires_grad_(true);
  Tensor b = torch::randn({3}).requires_grad_(true);
  bool contiguous = false;
  w.register_hook([&](const Tensor& g) { contiguous = g.is_contiguous(); });
  Tensor go = torch::randn({5, 3});
  torch::linear(x, w, b).backward(go);
  EXPECT_TRUE(contiguous);
  EXPECT_TENSOR_CLOSE(w.grad(), go.t().mm(x));
  // A column-major input gets a column-major gradient.
  Tensor xt = torch::randn({4, 5}).requires_grad_(true);
  contiguous = false;
  xt.register_hook([&](const Tensor& g) { contiguous = g.is_contiguous(); });
  torch::linear(xt.t(), w.detach()).backward(go);
  EXPECT_TRUE(contiguous);
  EXPECT_TENSOR_CLOSE(xt.grad(), w.detach().t().mm(go.t()));
}

TEST(NnLinear, Errors) {
  EXPECT_EMBER_ERROR(torch::linear(torch::randn({3, 4}), torch::randn({2, 5})), "linear", "[3, 4]", "[2, 5]");
  EXPECT_EMBER_ERROR(torch::linear(torch::randn({3, 4}), torch::randn({2, 4}, torch::kDouble)), "linear", "float64");
  EXPECT_EMBER_ERROR(torch::bilinear(torch::randn({3, 4}), torch::randn({3, 5}), torch::randn({2, 4, 6})), "bilinear");
  EXPECT_EMBER_ERROR(torch::bilinear(torch::randn({3, 4}), torch::randn({2, 5}), torch::randn({2, 4, 5})), "bilinear");
}
