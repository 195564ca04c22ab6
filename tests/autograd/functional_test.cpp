// autograd::functional against PyTorch's torch.autograd.functional
// (tools/golden/gen_functional.py) and against hand-derived Jacobians.
#include <gtest/gtest.h>

#include "common/golden.h"
#include "common/test_util.h"
#include "ember/ember.h"

using namespace ember;
using autograd::variable_list;
namespace F = autograd::functional;

namespace {

// The generator's two functions, written the same way.
variable_list f(const variable_list& in) {
  const Tensor &x = in[0], &y = in[1];
  return {x * sin(y), (x * x).sum() * y};
}
Tensor g(const variable_list& in) {
  const Tensor &x = in[0], &y = in[1];
  return (exp(x) * y * y).sum() + (x * y).sum() * x.sum();
}

const ember::testing::Golden& golden() {
  static ember::testing::Golden gd("functional.golden");
  return gd;
}
Tensor G(const std::string& name) { return golden()[name]; }

void expect_pair(const variable_list& got, const std::string& prefix) {
  ASSERT_EQ(got.size(), 2u);
  EXPECT_TENSOR_CLOSE_TOL(got[0], G(prefix + ":0"), 1e-12, 1e-12);
  EXPECT_TENSOR_CLOSE_TOL(got[1], G(prefix + ":1"), 1e-12, 1e-12);
}

Tensor vec(std::initializer_list<double> v) { return tensor(std::vector<double>(v), TensorOptions(kDouble)); }

}  // namespace

TEST(Functional, VjpAndJvpMatchPyTorch) {
  F::Result r = F::vjp(f, {G("x"), G("y")}, {G("v1"), G("v2")});
  expect_pair(r.values, "vjp");
  EXPECT_FALSE(r.values[0].requires_grad());
  EXPECT_TENSOR_CLOSE(r.outputs[0], G("x") * sin(G("y")));
  expect_pair(F::jvp(f, {G("x"), G("y")}, {G("u1"), G("u2")}).values, "jvp");
}

TEST(Functional, JacobianMatchesPyTorchInBothStrategies) {
  for (bool vectorize : {false, true}) {
    auto jac = F::jacobian(f, {G("x"), G("y")}, false, false, vectorize);
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 2; ++j) {
        const std::string name = "jacobian:" + std::to_string(i) + ":" + std::to_string(j);
        EXPECT_TENSOR_CLOSE_TOL(jac[i][j], G(name), 1e-12, 1e-12);
      }
  }
  auto fwd = F::jacobian(f, {G("x"), G("y")}, false, false, /*vectorize=*/true, "forward-mode");
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j)
      EXPECT_TENSOR_CLOSE_TOL(fwd[i][j], G("jacobian:" + std::to_string(i) + ":" + std::to_string(j)), 1e-12, 1e-12);
}

TEST(Functional, HessianVhpHvpMatchPyTorch) {
  for (const char* strategy : {"reverse-mode", "forward-mode"}) {
    auto h = F::hessian(g, {G("x"), G("y")}, false, false, std::string(strategy) == "forward-mode", strategy);
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 2; ++j)
        EXPECT_TENSOR_CLOSE_TOL(h[i][j], G("hessian:" + std::to_string(i) + ":" + std::to_string(j)), 1e-12, 1e-12);
  }
  F::Result v = F::vhp(g, {G("x"), G("y")}, {G("u1"), G("u2")});
  EXPECT_TENSOR_CLOSE_TOL(v.outputs[0], G("g"), 1e-12, 1e-12);
  expect_pair(v.values, "vhp");
  expect_pair(F::hvp(g, {G("x"), G("y")}, {G("u1"), G("u2")}).values, "hvp");
}

TEST(Functional, AnalyticJacobianAndHessian) {
  // y = A x + x^3 (elementwise): J = A + diag(3 x^2). h(x) = sum(x^3): H = diag(6 x).
  Tensor A = vec({1, 2, 3, 4}).view({2, 2});
  Tensor x = vec({0.5, -2});
  Tensor J = F::jacobian([&](const Tensor& t) { return matmul(A, t) + t * t * t; }, x);
  EXPECT_TENSOR_CLOSE(J, vec({1 + 0.75, 2, 3, 4 + 12}).view({2, 2}));
  Tensor H = F::hessian([](const Tensor& t) { return (t * t * t).sum(); }, x);
  EXPECT_TENSOR_CLOSE(H, vec({3, 0, 0, -12}).view({2, 2}));
  // Shapes: output [2, 3] of input [4] gives a [2, 3, 4] Jacobian.
  Tensor J3 = F::jacobian(
      [](const Tensor& t) {
        return t.narrow(0, 0, 3).unsqueeze(0).expand({2, 3}) * 2;
      },
      vec({1, 2, 3, 4}));
  EXPECT_EQ(J3.sizes(), IntArrayRef({2, 3, 4}));
  EXPECT_DOUBLE_EQ(J3.index({1, 2, 2}).item<double>(), 2.0);
  EXPECT_DOUBLE_EQ(J3.index({1, 2, 3}).item<double>(), 0.0);
}

TEST(Functional, CreateGraphKeepsTheResultDifferentiable) {
  // vjp of sum(x^3) is 3 x^2 (v = 1); with create_graph, d/dx sum(3 x^2) = 6 x.
  Tensor x = vec({1, 2}).requires_grad_();
  auto cube = [](const variable_list& in) { return variable_list{(in[0] * in[0] * in[0]).sum()}; };
  F::Result r = F::vjp(cube, {x}, {}, /*create_graph=*/true);
  ASSERT_TRUE(r.values[0].requires_grad());
  r.values[0].sum().backward();
  EXPECT_TENSOR_CLOSE(x.grad(), vec({6, 12}));
  // Without create_graph nothing is attached to x.
  EXPECT_FALSE(F::vjp(cube, {x}).values[0].requires_grad());
  // A Hessian with create_graph: d/dx trace(H) for sum(x^3) is 6 * ones.
  x.mutable_grad().reset();
  Tensor H = F::hessian([](const Tensor& t) { return (t * t * t).sum(); }, x, /*create_graph=*/true);
  H.diagonal().sum().backward();
  EXPECT_TENSOR_CLOSE(x.grad(), vec({6, 6}));
}

TEST(Functional, StrictModeAndUnusedInputs) {
  // y is unused: zeros without strict, an error naming the input with strict.
  auto only_x = [](const variable_list& in) { return variable_list{in[0] * 2}; };
  Tensor x = vec({1, 2}), y = vec({3});
  F::Result r = F::vjp(only_x, {x, y}, {vec({1, 1})});
  EXPECT_TENSOR_EQ(r.values[1], vec({0}));
  EXPECT_EMBER_ERROR(F::vjp(only_x, {x, y}, {vec({1, 1})}, false, true), "vjp", "independent of input 1");
  auto jac = F::jacobian(only_x, {x, y});
  EXPECT_TENSOR_EQ(jac[0][1], zeros({2, 1}, TensorOptions(kDouble)));
  EXPECT_EMBER_ERROR(F::jacobian(only_x, {x, y}, false, true), "Output 0", "independent of input 1");
  // A constant output is an error in strict mode.
  auto constant = [](const variable_list& in) { return variable_list{ones_like(in[0])}; };
  EXPECT_EMBER_ERROR(F::vjp(constant, {x}, {vec({1, 1})}, false, true), "does not require gradients");
  EXPECT_TENSOR_EQ(F::vjp(constant, {x}, {vec({1, 1})}).values[0], vec({0, 0}));
  // A linear function has a zero Hessian: fine, unless strict.
  auto linear = [](const variable_list& in) { return (in[0] * 3).sum(); };
  EXPECT_TENSOR_EQ(F::hvp(linear, {x}, {vec({1, 1})}).values[0], vec({0, 0}));
  EXPECT_EMBER_ERROR(F::vhp(linear, {x}, {vec({1, 1})}, false, true), "vhp");
}

TEST(Functional, ArgumentErrors) {
  Tensor x = vec({1, 2});
  auto id = [](const variable_list& in) { return variable_list{in[0] * 1}; };
  EXPECT_EMBER_ERROR(F::vjp(id, {x}), "vjp", "v can only be None");
  EXPECT_EMBER_ERROR(F::vjp(id, {x}, {vec({1, 2, 3})}), "Entry 0 in v has invalid size");
  EXPECT_EMBER_ERROR(F::jvp(id, {x}, {x, x}), "invalid length");
  EXPECT_EMBER_ERROR(F::jacobian(id, {x}, false, true, true), "not supported together");
  EXPECT_EMBER_ERROR(F::jacobian(id, {x}, false, false, false, "forward-mode"), "requires `vectorize=True`");
  EXPECT_EMBER_ERROR(F::jacobian(id, {x}, false, false, false, "sideways"), "Expected strategy");
  EXPECT_EMBER_ERROR(F::hessian([](const variable_list& in) { return in[0] * 1; }, {x}), "single element");
}
