// split / split_with_sizes / chunk / unbind record one node for all their
// pieces (Note [Multi-output views] in autograd/derivatives/shape_grad.h).
// Values and double backward are in the OpInfo registry (opinfo_shape.cpp);
// these check what the registry cannot see: that the pieces share one node,
// the layout the gradient is built in, and in-place writes to a piece.
#include <gtest/gtest.h>

#include "common/test_util.h"
#include "ember/ember.h"

using namespace ember;

namespace {

TensorOptions f64() { return TensorOptions(kDouble); }

Tensor leaf(IntArrayRef shape) {
  int64_t n = 1;
  for (int64_t s : shape) n *= s;
  return (arange(n, f64()) * 0.5 - 3.0).reshape(shape).detach().requires_grad_();
}

}  // namespace

TEST(MultiOutputView, PiecesShareOneNodeAndStayViews) {
  Tensor x = leaf({3, 7});
  auto p = x.split(3, 1);
  ASSERT_EQ(p.size(), 3u);
  for (size_t i = 0; i < p.size(); ++i) {
    ASSERT_TRUE(p[i].grad_fn());
    EXPECT_EQ(p[i].grad_fn().get(), p[0].grad_fn().get());
    EXPECT_EQ(p[i].output_nr(), static_cast<int64_t>(i));
    EXPECT_EQ(p[i].data_ptr<double>(), x.data_ptr<double>() + 3 * static_cast<int64_t>(i));
  }
  auto u = x.unbind(0);
  EXPECT_EQ(u[2].grad_fn()->name(), "UnbindBackward0");
  EXPECT_EQ(u[2].grad_fn().get(), u[0].grad_fn().get());
}

TEST(MultiOutputView, GradientOfUnusedPiecesIsZero) {
  // Only pieces 0 and 2 of [0,2) [2,4) [4,5) reach the loss, weighted 2 and 5.
  Tensor x = leaf({2, 5});
  auto p = x.split(2, 1);
  ((p[0] * 2).sum() + (p[2] * 5).sum()).backward();
  Tensor want = tensor(std::vector<double>{2, 2, 0, 0, 5, 2, 2, 0, 0, 5}, f64()).view({2, 5});
  EXPECT_TENSOR_EQ(x.grad(), want);
}

TEST(MultiOutputView, GradientIsBuiltInTheLayoutOfADenseSelf) {
  // y is a permuted (dense, non-contiguous) view; the gradient reaching y has
  // y's strides, so the permute's backward hands x a contiguous gradient.
  Tensor x = leaf({4, 3, 5});
  Tensor y = x.permute({2, 0, 1});
  Tensor seen;
  y.register_hook([&](const Tensor& g) {
    seen = g;
    return Tensor();
  });
  auto pieces = y.unbind(0);
  Tensor loss;
  for (size_t i = 0; i < pieces.size(); ++i) {
    Tensor term = (pieces[i] * static_cast<double>(i + 1)).sum();
    loss = loss.defined() ? loss + term : term;
  }
  loss.backward();
  ASSERT_TRUE(seen.defined());
  EXPECT_EQ(seen.strides().vec(), y.strides().vec());
  EXPECT_TRUE(x.grad().is_contiguous());
  // d loss / d x[a][b][c] = c + 1 (piece c of the last dim, weighted c + 1).
  Tensor want = (arange(5, f64()) + 1).expand({4, 3, 5});
  EXPECT_TENSOR_EQ(x.grad(), want);
}

TEST(MultiOutputView, ManyPiecesSumToTheWholeGradient) {
  Tensor x = leaf({4, 300});
  auto p = x.split(1, 1);
  ASSERT_EQ(p.size(), 300u);
  Tensor loss = (p[0] * 3).sum();
  for (size_t i = 1; i < p.size(); ++i) loss = loss + p[i].sum();
  loss.backward();
  Tensor want = ones({4, 300}, f64());
  want.select(1, 0).fill_(3);
  EXPECT_TENSOR_EQ(x.grad(), want);
}

TEST(MultiOutputView, InPlaceWriteToAPieceReachesTheBase) {
  // PyTorch refuses this; Ember rebuilds the pieces' history from the base
  // (Note [Views and in-place]). b = 1 * x; b[:, 2:4] *= 3; then
  // loss = sum(b * w) + sum(p0 * v) with p0 = b[:, 0:2]:
  //   dx = w * (3 on columns 2, 3, else 1) + v on columns 0, 1.
  Tensor x = leaf({2, 5});
  Tensor b = x * 1.0;
  auto p = b.split(2, 1);
  p[1].mul_(3);
  Tensor w = arange(10, f64()).view({2, 5}) + 1;
  Tensor v = full({2, 2}, 0.5, f64());
  ((b * w).sum() + (p[0] * v).sum()).backward();
  Tensor scale = tensor(std::vector<double>{1, 1, 3, 3, 1}, f64());
  Tensor want = w * scale + cat({v, zeros({2, 3}, f64())}, 1);
  EXPECT_TENSOR_EQ(x.grad(), want);
  // The untouched pieces read the written base: p[2] is b's last column.
  EXPECT_TENSOR_EQ(p[2].detach(), b.detach().narrow(1, 4, 1));
}

TEST(MultiOutputView, NoNodeWithoutGradMode) {
  Tensor x = leaf({3, 4});
  NoGradGuard guard;
  auto p = x.unbind(0);
  EXPECT_FALSE(p[0].grad_fn());
  EXPECT_TRUE(p[0].requires_grad());  // a no-grad view of a tensor that requires grad says so (PyTorch)
  EXPECT_TRUE(p[0].is_leaf());
}

TEST(MultiOutputView, DoubleBackwardThroughTheJoinedGradient) {
  // loss = sum(p0^2 * p1) over the two halves; d/dp0 = 2 p0 p1, d/dp1 = p0^2.
  // The gradient of sum(dx) with respect to x: d/dp0 (2 p0 p1 + p0^2) = 2 p1 + 2 p0,
  // d/dp1 (2 p0 p1 + p0^2) = 2 p0.
  Tensor x = leaf({2, 4});
  auto p = x.chunk(2, 1);
  Tensor loss = (p[0] * p[0] * p[1]).sum();
  Tensor gx = autograd::grad({loss}, {x}, {}, /*retain_graph=*/true, /*create_graph=*/true)[0];
  Tensor ggx = autograd::grad({gx.sum()}, {x})[0];
  Tensor a = x.detach().narrow(1, 0, 2), c = x.detach().narrow(1, 2, 2);
  EXPECT_TENSOR_EQ(ggx, cat({2 * c + 2 * a, 2 * a}, 1));
}

TEST(MultiOutputView, BatchedCotangentsUnderVmap) {
  // vmap over a vjp: the node receives batched gradients and must build a
  // batched result (cat / stack under vmap), not write them through raw pointers.
  Tensor x = leaf({3, 4}).detach();
  auto f = [](const autograd::variable_list& in) {
    auto p = in[0].split(1, 1);
    return autograd::variable_list{p[0] * 2 + p[3], in[0].unbind(0)[1]};
  };
  func::VjpResult r = func::vjp(f, {x});
  Tensor ct0 = arange(6, f64()).view({2, 3, 1}), ct1 = arange(8, f64()).view({2, 4}) + 10;
  const autograd::variable_list batched = vmap(r.vjp_fn)({ct0, ct1});
  for (int64_t b = 0; b < 2; ++b) {
    const autograd::variable_list one = r.vjp_fn({ct0[b], ct1[b]});
    EXPECT_TENSOR_EQ(batched[0][b], one[0]);
  }
}

// Gradients that arrive as the pieces of one buffer laid out as the input (the fused
// attention's q|k|v, Note [Fused attention]) are that buffer, not a copy; pieces of one
// buffer in another order are not mistaken for it.
TEST(MultiOutputView, GradientsThatArePiecesOfOneBufferAreTaken) {
  Tensor x = leaf({3, 4});
  auto p = x.unbind(0);
  Tensor G = arange(12, f64()).view({3, 4}) + 1.0;
  Tensor in_order = autograd::grad({p[0], p[1], p[2]}, {x}, {G[0], G[1], G[2]})[0];
  EXPECT_TENSOR_EQ(in_order, G);
  EXPECT_EQ(in_order.data_ptr(), G.data_ptr());
  Tensor swapped = autograd::grad({p[0], p[1], p[2]}, {x}, {G[0], G[2], G[1]})[0];
  EXPECT_TENSOR_EQ(swapped, stack({G[0], G[2], G[1]}));
  // A transposed buffer: pieces of the right sizes, strides unlike the input's.
  Tensor Gt = (arange(12, f64()).view({4, 3}) + 1.0).t();
  Tensor transposed = autograd::grad({p[0], p[1], p[2]}, {x}, {Gt[0], Gt[1], Gt[2]})[0];
  EXPECT_TENSOR_EQ(transposed, Gt);
  EXPECT_TRUE(transposed.is_contiguous());
}
