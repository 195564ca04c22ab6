// Forward-mode AD: the dual-tensor API, its errors, tangents through views
// and in-place ops, reverse over forward, and values against PyTorch's
// torch.autograd.forward_ad (tools/golden/gen_forward_ad.py). Every op's JVP
// is checked against finite differences by the OpInfo walk (ForwardAD).
#include <gtest/gtest.h>

#include "common/golden.h"
#include "common/test_util.h"
#include "ember/ember.h"

using namespace ember;
namespace fwAD = ember::autograd::forward_ad;

namespace {

const ember::testing::Golden& golden() {
  static ember::testing::Golden gd("forward_ad.golden");
  return gd;
}
Tensor G(const std::string& name) { return golden()[name]; }

}  // namespace

TEST(ForwardAD, MakeDualAndUnpack) {
  Tensor p = tensor({1.0, 2.0, 3.0}, kDouble);
  Tensor t = tensor({0.5, -1.0, 2.0}, kDouble);
  fwAD::DualLevel level;
  Tensor x = fwAD::make_dual(p, t);
  EXPECT_EQ(x.data_ptr(), p.data_ptr());  // a view of the primal
  auto [primal, tangent] = fwAD::unpack_dual(x);
  EXPECT_TENSOR_CLOSE(primal, p);
  EXPECT_TENSOR_CLOSE(tangent, t);
  EXPECT_FALSE(fwAD::unpack_dual(primal).tangent.defined());
  EXPECT_FALSE(fwAD::unpack_dual(p).tangent.defined());
  EXPECT_TENSOR_CLOSE(x._fw_grad(0), t);
  auto [p2, t2] = _unpack_dual(x, 0);
  EXPECT_TENSOR_CLOSE(t2, t);
  // detach() drops the tangent, as in PyTorch.
  EXPECT_FALSE(x.detach()._fw_grad().defined());
}

TEST(ForwardAD, SinMatchesCosTimesTangent) {
  Tensor p = tensor({0.1, 1.3, -2.0}, kDouble);
  Tensor t = tensor({1.0, 0.5, -3.0}, kDouble);
  fwAD::DualLevel level;
  Tensor y = sin(fwAD::make_dual(p, t));
  EXPECT_TENSOR_CLOSE(fwAD::fw_grad(y), cos(p) * t);
  EXPECT_TENSOR_CLOSE(fwAD::unpack_dual(y).primal, sin(p));
  EXPECT_FALSE(y.requires_grad());  // forward mode alone builds no backward graph
  EXPECT_EQ(y.grad_fn(), nullptr);
}

TEST(ForwardAD, TangentsVanishWhenTheLevelCloses) {
  Tensor x;
  {
    fwAD::DualLevel level;
    x = fwAD::make_dual(ones({2}, kDouble), full({2}, 3.0, kDouble));
    EXPECT_TRUE(fwAD::fw_grad(x).defined());
  }
  EXPECT_FALSE(fwAD::fw_grad(x).defined());
  fwAD::DualLevel again;
  EXPECT_FALSE(fwAD::fw_grad(x).defined());  // a stale tangent is not revived by a new level
  EXPECT_FALSE(fwAD::fw_grad(x * 2).defined());
}

TEST(ForwardAD, Errors) {
  Tensor p = ones({2, 3}, kDouble);
  EXPECT_EMBER_ERROR(fwAD::make_dual(p, p), "inside a dual level");
  fwAD::DualLevel level;
  EXPECT_EMBER_ERROR(fwAD::make_dual(p, ones({3, 2}, kDouble)), "[2, 3]");
  EXPECT_EMBER_ERROR(fwAD::make_dual(ones({2}, kLong), ones({2}, kDouble)), "int64");
  EXPECT_EMBER_ERROR(fwAD::enter_dual_level(), "nested");
  EXPECT_EMBER_ERROR(fwAD::fw_grad(p, 1), "level");
}

TEST(ForwardAD, GradModeDoesNotStopTangents) {
  fwAD::DualLevel level;
  Tensor x = fwAD::make_dual(tensor({1.0, 2.0}, kDouble), tensor({1.0, 1.0}, kDouble));
  NoGradGuard no_grad;
  EXPECT_TENSOR_CLOSE(fwAD::fw_grad(x * x), tensor({2.0, 4.0}, kDouble));
}

TEST(ForwardAD, ViewTangentIsAViewOfTheBaseTangent) {
  fwAD::DualLevel level;
  Tensor x = fwAD::make_dual(zeros({2, 3}, kDouble), ones({2, 3}, kDouble)).clone();
  Tensor row = x.select(0, 1);
  EXPECT_EQ(fwAD::fw_grad(row).data_ptr<double>(), fwAD::fw_grad(x).data_ptr<double>() + 3);
  // An in-place write through the view updates the base's tangent.
  row.mul_(tensor({2.0, 3.0, 4.0}, kDouble));
  EXPECT_TENSOR_CLOSE(fwAD::fw_grad(x), tensor({{1.0, 1.0, 1.0}, {2.0, 3.0, 4.0}}, kDouble));
}

TEST(ForwardAD, InPlaceOpOnATensorWithoutTangent) {
  fwAD::DualLevel level;
  Tensor y = zeros({3}, kDouble);
  y.add_(fwAD::make_dual(ones({3}, kDouble), tensor({1.0, 2.0, 3.0}, kDouble)), 2);
  EXPECT_TENSOR_CLOSE(fwAD::fw_grad(y), tensor({2.0, 4.0, 6.0}, kDouble));
}

TEST(ForwardAD, MixedWithReverseMode) {
  // A tangent on one input, requires_grad on another: both modes at once.
  Tensor a = tensor({1.0, 2.0}, kDouble).requires_grad_();
  fwAD::DualLevel level;
  Tensor b = fwAD::make_dual(tensor({3.0, 4.0}, kDouble), tensor({1.0, -1.0}, kDouble));
  Tensor y = (a * b).sum();
  EXPECT_TENSOR_CLOSE(fwAD::fw_grad(y), tensor(1.0 * 1 - 2.0, kDouble));
  y.backward();
  EXPECT_TENSOR_CLOSE(a.grad(), tensor({3.0, 4.0}, kDouble));
}

TEST(ForwardAD, GoldenMlp) {
  fwAD::DualLevel level;
  Tensor x = fwAD::make_dual(G("mlp:x"), G("mlp:tx"));
  Tensor W = fwAD::make_dual(G("mlp:W"), G("mlp:tW"));
  Tensor b = fwAD::make_dual(G("mlp:b"), G("mlp:tb"));
  Tensor out = tanh(x.matmul(W) + b).logsumexp(1) * sigmoid(x).mean();
  EXPECT_TENSOR_CLOSE_TOL(fwAD::unpack_dual(out).primal, G("mlp:out"), 1e-12, 1e-12);
  EXPECT_TENSOR_CLOSE_TOL(fwAD::fw_grad(out), G("mlp:jvp"), 1e-12, 1e-12);
}

TEST(ForwardAD, GoldenInPlaceThroughViews) {
  fwAD::DualLevel level;
  Tensor y = fwAD::make_dual(G("inplace:x"), G("inplace:tx")).clone();
  using namespace indexing;
  y.index({Slice(), 0}).mul_(3);
  y.exp_();
  EXPECT_TENSOR_CLOSE_TOL(fwAD::fw_grad(y), G("inplace:y_jvp"), 1e-12, 1e-12);
  EXPECT_TENSOR_CLOSE_TOL(fwAD::fw_grad(y.sum(0)), G("inplace:jvp"), 1e-12, 1e-12);
}

TEST(ForwardAD, GoldenComplex) {
  fwAD::DualLevel level;
  Tensor z = fwAD::make_dual(G("complex:z"), G("complex:tz"));
  EXPECT_TENSOR_CLOSE_TOL(fwAD::fw_grad(exp(z) * sin(z)), G("complex:jvp"), 1e-12, 1e-12);
  Tensor a = z.abs();
  EXPECT_EQ(a.scalar_type(), kDouble);
  EXPECT_TENSOR_CLOSE_TOL(fwAD::fw_grad(a), G("complex:abs_jvp"), 1e-12, 1e-12);
}

TEST(ForwardAD, GoldenReverseOverForward) {
  Tensor x = G("hvp:x").clone().requires_grad_();
  {
    fwAD::DualLevel level;
    Tensor xd = fwAD::make_dual(x, G("hvp:v"));
    Tensor y = (xd.pow(3) * sin(xd)).sum();
    fwAD::fw_grad(y).backward();
  }
  EXPECT_TENSOR_CLOSE_TOL(x.grad(), G("hvp:grad"), 1e-12, 1e-12);
}

TEST(ForwardAD, GoldenConvLayerNormSoftmax) {
  fwAD::DualLevel level;
  Tensor x = fwAD::make_dual(G("nn:x"), G("nn:tx"));
  Tensor k = fwAD::make_dual(G("nn:k"), G("nn:tk"));
  Tensor y = conv1d(x, k, {}, 1, 1);
  y = layer_norm(y, {6});
  y = softmax(y, -1);
  EXPECT_TENSOR_CLOSE_TOL(fwAD::fw_grad(y), G("nn:jvp"), 1e-10, 1e-12);
}
