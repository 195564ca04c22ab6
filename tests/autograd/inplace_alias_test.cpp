// In-place ops whose other operand shares the result's storage, and the leaf's
// gradient buffer: cases where Ember's gradients were silently wrong (stop 25).
// Expected values come from Debian's python3-torch 1.13; where PyTorch raises
// instead (its saved operand was overwritten), the value is PyTorch's for the same
// op with that operand cloned first, which is what Ember computes.
#include <gtest/gtest.h>

#include <functional>
#include <utility>
#include <vector>

#include "common/test_util.h"
#include "ember/torch.h"

namespace torch {
namespace {

Tensor leaf() { return tensor({0.5, 1.0, 1.5, 2.0, 2.5, 3.0}, kDouble).reshape({2, 3}).requires_grad_(); }

// x.grad of sum(c * W) after `update` ran on c = x.clone().
template <typename F>
Tensor grad_after(F update) {
  const Tensor W = tensor({1., 2., 3., 4., 5., 6.}, kDouble).reshape({2, 3});
  Tensor x = leaf();
  Tensor c = x.clone();
  update(c);
  (c * W).sum().backward();
  return x.grad().flatten();
}

TEST(InplaceAlias, RowUpdatedFromAnotherRowOfTheSameTensor) {
  // c[0].add_(c[1]) -> [1, 2, 3, 5, 7, 9]: the copy that reads c[1] through a temporary
  // was recorded as a CopySlices and cut c[0]'s own gradient to 0.
  EXPECT_TENSOR_CLOSE(grad_after([](Tensor& c) { c[0].add_(c[1]); }), tensor({1., 2., 3., 5., 7., 9.}, kDouble));
  EXPECT_TENSOR_CLOSE(grad_after([](Tensor& c) { c[0] += c[1]; }), tensor({1., 2., 3., 5., 7., 9.}, kDouble));
  // c[0].sub_(c[1], alpha=2) -> [1, 2, 3, 2, 1, 0]
  EXPECT_TENSOR_CLOSE(grad_after([](Tensor& c) { c[0].sub_(c[1], 2); }), tensor({1., 2., 3., 2., 1., 0.}, kDouble));
  // PyTorch raises for these (c[1] is saved and c's version moved); with c[1] cloned:
  // addcmul_ -> [1, 2, 3, 8, 15, 24], lerp_(0.3) -> [0.7, 1.4, 2.1, 4.3, 5.6, 6.9], mul_ -> [2, 5, 9, 4.5, 7, 10.5]
  EXPECT_TENSOR_CLOSE(grad_after([](Tensor& c) { c[0].addcmul_(c[1], c[1]); }),
                      tensor({1., 2., 3., 8., 15., 24.}, kDouble));
  EXPECT_TENSOR_CLOSE(grad_after([](Tensor& c) { c[0].lerp_(c[1], 0.3); }),
                      tensor({0.7, 1.4, 2.1, 4.3, 5.6, 6.9}, kDouble));
  EXPECT_TENSOR_CLOSE(grad_after([](Tensor& c) { c[0].mul_(c[1]); }), tensor({2., 5., 9., 4.5, 7., 10.5}, kDouble));
}

TEST(InplaceAlias, ChunkPieceUpdatedFromAnotherPiece) {
  // u = x.clone().unsafe_chunk(3, 1); u[2].mul_(u[0].detach()); sum(u[2]^2) -> [0, 0, 0.75, 0, 0, 24]
  Tensor x = leaf();
  std::vector<Tensor> u = x.clone().chunk(3, 1);
  u[2].mul_(u[0].detach());
  (u[2] * u[2]).sum().backward();
  EXPECT_TENSOR_CLOSE(x.grad().flatten(), tensor({0., 0., 0.75, 0., 0., 24.}, kDouble));
}

TEST(InplaceAlias, SelfAsTheOtherOperand) {
  // a = x * 1; a.mul_(a): PyTorch raises; a.mul_(a.clone()) -> [2, 4, 6, 8]
  Tensor x = tensor({1., 2., 3., 4.}, kDouble).requires_grad_();
  Tensor a = x * 1;
  a.mul_(a);
  a.sum().backward();
  EXPECT_TENSOR_CLOSE(x.grad(), tensor({2., 4., 6., 8.}, kDouble));
  // a.pow_(a.clone()) -> [1, 6.7726, 56.6625, 610.8914]
  Tensor y = tensor({1., 2., 3., 4.}, kDouble).requires_grad_();
  Tensor b = y * 1;
  b.pow_(b);
  b.sum().backward();
  EXPECT_TENSOR_CLOSE(y.grad(), tensor({1.0, 6.772588722239782, 56.66253179403897, 610.891356446692}, kDouble));
}

TEST(InplaceAlias, PowWithExponentZeroHasZeroGradientAtZero) {
  // x.pow(0) at x = [0, 2] -> grad [0, 0] (PyTorch masks exponent == 0; 0 * 0^-1 was NaN)
  Tensor x = tensor({0., 2.}, kDouble).requires_grad_();
  x.pow(0).sum().backward();
  EXPECT_TENSOR_EQ(x.grad(), zeros({2}, kDouble));
  Tensor y = tensor({0., 2.}, kDouble).requires_grad_();
  y.pow(zeros({2}, kDouble)).sum().backward();
  EXPECT_TENSOR_EQ(y.grad(), zeros({2}, kDouble));
}

TEST(InplaceAlias, LeafGradNeverAliasesAUserTensor) {
  // With create_graph the first gradient used to be stored as is: w.grad() was v itself,
  // and zero_grad() zeroed the user's v.
  Tensor w = tensor({1., 2.}, kDouble).requires_grad_();
  Tensor v = tensor({3., 4.}, kDouble);
  (w + 0).backward(v, std::nullopt, /*create_graph=*/true);
  EXPECT_NE(w.grad().data_ptr(), v.data_ptr());
  w.grad().zero_();
  EXPECT_TENSOR_EQ(v, tensor({3., 4.}, kDouble));
  // Two leaves of one sum got one expanded (stride-0) gradient between them.
  Tensor a = ones({3}, kDouble).requires_grad_(), b = ones({3}, kDouble).requires_grad_();
  (a + b).sum().backward({}, std::nullopt, /*create_graph=*/true);
  EXPECT_NE(a.grad().data_ptr(), b.grad().data_ptr());
  a.grad().mul_(5);
  EXPECT_TENSOR_EQ(b.grad(), ones({3}, kDouble));
}

TEST(InplaceAlias, HooksAndRootGradientsAreChecked) {
  Tensor x = ones({3}).requires_grad_();
  x.register_hook([](const Tensor&) { return ones({5}); });
  EXPECT_EMBER_ERROR((x * 2).sum().backward(), "hook", "size");
  Tensor y = ones({3}).requires_grad_();
  y.register_hook([](const Tensor& g) { return g.to(kDouble); });
  EXPECT_EMBER_ERROR((y * 2).sum().backward(), "hook", "type");
  // The same check for a hook on a non-leaf (a node's tensor pre-hook).
  Tensor w = ones({3}).requires_grad_();
  Tensor mid = w * 3;
  mid.register_hook([](const Tensor&) { return ones({2, 3}); });
  EXPECT_EMBER_ERROR(mid.sum().backward(), "hook", "size");
  // A complex gradient for a real output: PyTorch's "both grad_output and output are required to have the same dtype"
  Tensor z = ones({2}).requires_grad_();
  EXPECT_EMBER_ERROR((z * 2).backward(ones({2}, kComplexFloat)), "backward", "same dtype");
  // Other dtypes are cast: a float64 gradient for a float32 output is fine.
  Tensor t = ones({2}).requires_grad_();
  (t * 2).backward(ones({2}, kDouble));
  EXPECT_TENSOR_EQ(t.grad(), full({2}, 2.f));
}

// Values overwritten by fill_, zero_ or copy_ (and round's flat steps) get a
// zero gradient, not none: as in PyTorch (1.13, checked), the leaf behind them
// ends with .grad = zeros, and autograd::grad(allow_unused) returns zeros.
TEST(InplaceAlias, OverwrittenValuesGetZeroGradients) {
  const std::vector<std::pair<const char*, std::function<void(Tensor&)>>> writes = {
      {"fill_", [](Tensor& y) { y.fill_(2.0); }},
      {"fill_(tensor)", [](Tensor& y) { y.fill_(full({}, 2.0, kDouble)); }},
      {"zero_", [](Tensor& y) { y.zero_(); }},
      {"copy_",
       [](Tensor& y) {
         y.copy_(ones({2, 3}, kDouble));
       }},
  };
  for (const auto& [name, write] : writes) {
    SCOPED_TRACE(name);
    Tensor x = randn({2, 3}, kDouble).requires_grad_();
    Tensor y = x.clone();
    write(y);
    y.sum().backward();
    ASSERT_TRUE(x.grad().defined());
    EXPECT_TENSOR_EQ(x.grad(), zeros({2, 3}, kDouble));
    auto g = autograd::grad({(x.clone().fill_(1.0) * 3).sum()}, {x}, {}, std::nullopt, false, true);
    ASSERT_TRUE(g[0].defined());
    EXPECT_TENSOR_EQ(g[0], zeros({2, 3}, kDouble));
  }
  Tensor x = randn({2, 3}, kDouble).requires_grad_();
  Tensor y = x.clone();
  y.narrow(1, 1, 1).fill_(3.0);
  y.sum().backward();
  EXPECT_TENSOR_EQ(x.grad(), tensor({1.0, 0.0, 1.0, 1.0, 0.0, 1.0}, kDouble).view({2, 3}));
  Tensor r = randn({2, 3}, kDouble).requires_grad_();
  round(r).sum().backward();
  ASSERT_TRUE(r.grad().defined());
  EXPECT_TENSOR_EQ(r.grad(), zeros({2, 3}, kDouble));
}

}  // namespace
}  // namespace torch
