// diag, diag_embed, diagflat against torch 1.13 (tools/golden/gen_diag.py): values and input
// gradients for a fixed upstream gradient, dtypes, and PyTorch's errors.
#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "common/golden.h"
#include "common/test_util.h"

namespace {

using namespace ember;
using ember::testing::Golden;

const Golden& golden() {
  static const Golden g("diag.golden");
  return g;
}

// Runs fn on a copy of x that requires grad, backpropagates 1, 2, 3, ... and compares
// the output and x's gradient with "<name>.out" / "<name>.grad".
void check(const std::string& name, const std::function<Tensor(const Tensor&)>& fn, const Tensor& x0) {
  Tensor x = x0.clone().requires_grad_();
  Tensor y = fn(x);
  EXPECT_TENSOR_EQ(y, golden()[name + ".out"]) << name;
  Tensor up = arange(y.numel(), TensorOptions(y.dtype())).reshape(y.sizes()) + 1;
  Tensor gx = autograd::grad({y}, {x}, {up})[0];
  EXPECT_TENSOR_EQ(gx, golden()[name + ".grad"]) << name;
}

TEST(Diag, VectorToMatrix) {
  for (int64_t k = -2; k <= 2; ++k)
    check(
        "diag.v." + std::to_string(k), [k](const Tensor& x) { return ember::diag(x, k); }, golden()["v"]);
}

TEST(Diag, MatrixToDiagonal) {
  const Tensor m = golden()["m"];
  for (int64_t k = -3; k <= 4; ++k)
    check(
        "diag.m." + std::to_string(k), [k](const Tensor& x) { return x.diag(k); }, m);
  for (int64_t k = -4; k <= 3; ++k)
    check(
        "diag.mt." + std::to_string(k), [k](const Tensor& x) { return x.t().diag(k); }, m);
  // The result is a copy, not a view of the input.
  Tensor d = m.diag();
  d.fill_(0);
  EXPECT_NE(m.index({0, 0}).item<double>(), 0.0);
  // Offsets far past the matrix give an empty result (torch 1.13 raises an overflow error).
  EXPECT_EQ(m.diag(7).numel(), 0);
  EXPECT_EQ(m.diag(-9).numel(), 0);
}

TEST(Diag, DiagEmbed) {
  const Tensor b = golden()["b"];
  const int64_t cases[][3] = {{0, -2, -1}, {1, 0, 2}, {-1, 2, 0}, {2, 1, 0}, {0, 0, 1}};
  for (const auto& c : cases) {
    const std::string name =
        "diag_embed." + std::to_string(c[0]) + "." + std::to_string(c[1]) + "." + std::to_string(c[2]);
    check(
        name, [&c](const Tensor& x) { return x.diag_embed(c[0], c[1], c[2]); }, b);
  }
  check(
      "diag_embed.v", [](const Tensor& x) { return ember::diag_embed(x); }, golden()["v"]);
}

TEST(Diag, Diagflat) {
  check(
      "diagflat.b.0", [](const Tensor& x) { return x.diagflat(); }, golden()["b"]);
  check(
      "diagflat.b.-2", [](const Tensor& x) { return ember::diagflat(x, -2); }, golden()["b"]);
  check(
      "diagflat.scalar.1", [](const Tensor& x) { return x.diagflat(1); }, scalar_tensor(2.5, kDouble));
}

TEST(Diag, KeepsDtype) {
  EXPECT_TENSOR_EQ(golden()["ints"].diag(1), golden()["diag.ints.1"]);
  EXPECT_TENSOR_EQ(golden()["bools"].diag(-1), golden()["diag.bools.-1"]);
  EXPECT_TENSOR_EQ(golden()["cplx"].diag(), golden()["diag.cplx.0"]);
  EXPECT_TENSOR_EQ(golden()["cplx"].reshape({1, 3}).diag_embed(1), golden()["diag_embed.cplx"]);
}

TEST(Diag, Errors) {
  EXPECT_EMBER_ERROR(ember::diag(scalar_tensor(1.0)), "diag", "matrix or a vector expected", "[]");
  EXPECT_EMBER_ERROR(ember::diag(zeros({2, 2, 2})), "diag", "matrix or a vector expected", "[2, 2, 2]");
  EXPECT_EMBER_ERROR(ember::diag_embed(zeros({3}), 0, 0, 0), "diag_embed", "cannot be identical 0, 0");
  EXPECT_EMBER_ERROR(ember::diag_embed(zeros({2, 3}), 1, -3, 0), "diag_embed", "cannot be identical -3, 0");
  EXPECT_EMBER_ERROR(ember::diag_embed(zeros({2, 3}), 1, 0, 3), "diag_embed", "out of range");
  EXPECT_EMBER_ERROR(ember::diag_embed(scalar_tensor(3.0)), "diag_embed", "out of range");
  EXPECT_EMBER_ERROR(ember::diag(Tensor()), "diag", "defined");
}

}  // namespace
