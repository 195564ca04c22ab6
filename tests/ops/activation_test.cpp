// The activations of ops/nn/activation.h against PyTorch (tools/golden/gen_nn_ops.py):
// values including NaN/inf and boundary points, and gradients.
#include <gtest/gtest.h>

#include <limits>
#include <map>
#include <vector>

#include "nn_golden_check.h"

using ember::Tensor;
using ember::testing::check_nn_case;
using ember::testing::nn_golden;
using ember::testing::NnOp;

namespace {
const std::map<std::string, std::function<Tensor(const Tensor&)>>& activations() {
  static const std::map<std::string, std::function<Tensor(const Tensor&)>> m = {
      {"hardtanh", [](const Tensor& a) { return torch::hardtanh(a); }},
      {"hardtanh_args", [](const Tensor& a) { return torch::hardtanh(a, -0.5, 2.0); }},
      {"relu6", [](const Tensor& a) { return torch::relu6(a); }},
      {"threshold", [](const Tensor& a) { return torch::threshold(a, 0.5, -3.0); }},
      {"celu", [](const Tensor& a) { return torch::celu(a, 1.5); }},
      {"rrelu_eval", [](const Tensor& a) { return torch::rrelu(a, 0.1, 0.3, false); }},
      {"hardshrink", [](const Tensor& a) { return torch::hardshrink(a, 0.5); }},
      {"softshrink", [](const Tensor& a) { return torch::softshrink(a, 0.5); }},
      {"tanhshrink", [](const Tensor& a) { return torch::tanhshrink(a); }},
      {"log_sigmoid", [](const Tensor& a) { return torch::log_sigmoid(a); }},
  };
  return m;
}
}  // namespace

TEST(NnActivation, ValuesMatchPyTorch) {
  for (const char* tag : {"f32", "f64"}) {
    for (const auto& [name, f] : activations()) {
      const std::string base = "act." + name + "." + tag;
      check_nn_case(
          base, [f = f](const std::vector<Tensor>& x) { return f(x[0]); }, /*grads=*/false);
      check_nn_case("actgrad." + name + "." + tag, [f = f](const std::vector<Tensor>& x) { return f(x[0]); });
    }
    const std::string t = tag;
    check_nn_case("prelu.scalar." + t, [](const std::vector<Tensor>& x) { return torch::prelu(x[0], x[1]); });
    check_nn_case("prelu.channel." + t, [](const std::vector<Tensor>& x) { return torch::prelu(x[0], x[1]); });
    check_nn_case("glu." + t, [](const std::vector<Tensor>& x) { return torch::glu(x[0], 1); });
    check_nn_case("glu.last." + t, [](const std::vector<Tensor>& x) { return torch::glu(x[0]); });
  }
}

TEST(NnActivation, InPlaceMatchesOutOfPlace) {
  Tensor x = nn_golden()["act.hardtanh.f32.in0"];
  Tensor a = x.clone();
  torch::hardtanh_(a, -0.5, 2.0);
  EXPECT_TENSOR_CLOSE(a, nn_golden()["act.hardtanh_args.f32.out"]);
  Tensor b = x.clone();
  torch::relu6_(b);
  EXPECT_TENSOR_CLOSE(b, nn_golden()["act.relu6.f32.out"]);
  Tensor c = x.clone();
  torch::threshold_(c, 0.5, -3.0);
  EXPECT_TENSOR_CLOSE(c, nn_golden()["act.threshold.f32.out"]);
  Tensor d = x.clone();
  torch::celu_(d, 1.5);
  EXPECT_TENSOR_CLOSE(d, nn_golden()["act.celu.f32.out"]);
  Tensor e = x.clone();
  torch::rrelu_(e, 0.1, 0.3, false);
  EXPECT_TENSOR_CLOSE(e, nn_golden()["act.rrelu_eval.f32.out"]);
}

TEST(NnActivation, InPlaceAutograd) {
  // hardtanh_ on a non-leaf records HardtanhBackward0 with the pre-update input.
  Tensor x = torch::tensor({-2.0, -0.5, 0.5, 3.0}, torch::kDouble).requires_grad_(true);
  Tensor y = x * 1.0;
  torch::hardtanh_(y);
  EXPECT_EQ(y.grad_fn()->name(), "HardtanhBackward0");
  y.sum().backward();
  EXPECT_TENSOR_EQ(x.grad(), torch::tensor({0.0, 1.0, 1.0, 0.0}, torch::kDouble));
  Tensor leaf = torch::ones({2}).requires_grad_(true);
  EXPECT_EMBER_ERROR(torch::hardtanh_(leaf), "hardtanh_", "leaf Variable");
  Tensor z = torch::ones({2}).requires_grad_(true) * 2;
  EXPECT_EMBER_ERROR(torch::celu_(z), "celu_", "autograd");
}

// PyTorch's hardtanh_backward passes the gradient where min < x < max and where x is
// NaN, and stops it on both bounds. Expected values printed by PyTorch 1.13 for
// x = [nan, -2, -1, 0, 1, 2, 0.5] and a gradient of ones.
TEST(NnActivation, HardtanhBackwardAtNanAndBounds) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const std::vector<double> xs = {nan, -2, -1, 0, 1, 2, 0.5};
  const Tensor want_hardtanh = torch::tensor({1.0, 0.0, 0.0, 1.0, 0.0, 0.0, 1.0}, torch::kDouble);
  const Tensor want_relu6 = torch::tensor({1.0, 0.0, 0.0, 0.0, 1.0, 1.0, 1.0}, torch::kDouble);
  for (bool create_graph : {false, true}) {  // the one-pass kernel, then the differentiable form
    SCOPED_TRACE(create_graph);
    Tensor x = torch::tensor(xs, torch::kDouble).requires_grad_(true);
    auto g = torch::autograd::grad({torch::hardtanh(x)}, {x}, {torch::ones({7}, torch::kDouble)}, std::nullopt,
                                   create_graph);
    EXPECT_TENSOR_EQ(g[0], want_hardtanh);
    g = torch::autograd::grad({torch::relu6(x)}, {x}, {torch::ones({7}, torch::kDouble)}, std::nullopt, create_graph);
    EXPECT_TENSOR_EQ(g[0], want_relu6);
  }
  Tensor gx = torch::hardtanh_backward(torch::ones({7}), torch::tensor(xs, torch::kFloat), -1, 1);
  EXPECT_TENSOR_EQ(gx, want_hardtanh.to(torch::kFloat));
  EXPECT_EMBER_ERROR(torch::hardtanh_backward(torch::ones({2}), torch::ones({2}, torch::kDouble), -1, 1),
                     "hardtanh_backward", "float32", "float64");
}

TEST(NnActivation, RreluTrainingDrawsSlopesInRange) {
  torch::manual_seed(3);
  Tensor x = -torch::ones({2000});
  Tensor y = torch::rrelu(x, 0.1, 0.3, true);
  EXPECT_GE(y.max().item<double>(), -0.3);
  EXPECT_LE(y.max().item<double>(), -0.1);
  EXPECT_NEAR(y.mean().item<double>(), -0.2, 0.01);
  Tensor pos = torch::ones({10});
  EXPECT_TENSOR_EQ(torch::rrelu(pos, 0.1, 0.3, true), pos);
  torch::manual_seed(3);
  EXPECT_TENSOR_EQ(torch::rrelu(x, 0.1, 0.3, true), y);
}

TEST(NnActivation, Errors) {
  EXPECT_EMBER_ERROR(torch::glu(torch::randn({3, 3}), 1), "glu", "even", "size 3");
  EXPECT_EMBER_ERROR(torch::softshrink(torch::randn({3}), -1), "softshrink", "lambda");
  EXPECT_EMBER_ERROR(torch::prelu(torch::randn({3, 4}), torch::randn({3})), "prelu", "parameter numbers = 3",
                     "channel size = 4");
  EXPECT_EMBER_ERROR(torch::hardtanh(torch::ones({2}, torch::kBool)), "hardtanh", "bool");
}
