// In-place writes through views of tensors in a graph (Note [Views and
// in-place]): the base's history becomes CopySlices, the view's is regenerated
// from the base. Expected gradients are derived by hand in the comments and
// cross-checked with float64 finite differences (gradcheck / gradgradcheck).
#include <gtest/gtest.h>

#include "common/test_util.h"
#include "ember/ember.h"

using namespace ember;
using autograd::variable_list;

namespace {

TensorOptions f64() { return TensorOptions(kDouble); }

Tensor leaf(IntArrayRef shape, double start = 1.0) {
  int64_t n = 1;
  for (int64_t s : shape) n *= s;
  return (arange(n, f64()) * 0.25 + start).reshape(shape).detach().requires_grad_();
}

Tensor values(std::initializer_list<double> v) { return tensor(std::vector<double>(v), f64()); }

}  // namespace

TEST(CopySlices, MulThroughSelectReachesTheBase) {
  // b = a.clone(); b[0] *= 2  =>  d sum(b) / da = [[2, 2], [1, 1]].
  Tensor a = leaf({2, 2});
  Tensor b = a.clone();
  b[0].mul_(2);
  ASSERT_TRUE(b.grad_fn());
  EXPECT_EQ(b.grad_fn()->name(), "CopySlices");
  b.sum().backward();
  EXPECT_TENSOR_EQ(a.grad(), values({2, 2, 1, 1}).view({2, 2}));
}

TEST(CopySlices, NarrowCopyGivesGradientsToSourceAndRest) {
  // z = 3x; z[1:3] = y; loss = sum(z * w): dx = 3w outside [1, 3), dy = w[1:3].
  Tensor x = leaf({5});
  Tensor y = leaf({2}, 10.0);
  Tensor w = values({1, 2, 3, 4, 5});
  Tensor z = x * 3;
  z.narrow(0, 1, 2).copy_(y);
  (z * w).sum().backward();
  EXPECT_TENSOR_EQ(x.grad(), values({3, 0, 0, 12, 15}));
  EXPECT_TENSOR_EQ(y.grad(), values({2, 3}));
}

TEST(CopySlices, CopyIntoAPlainTensorMakesItRequireGrad) {
  // The base never required grad: after the write it does, through the source only.
  Tensor y = leaf({2});
  Tensor z = zeros({2, 3}, f64());
  z.select(1, 2).copy_(y);
  EXPECT_TRUE(z.requires_grad());
  EXPECT_FALSE(z.is_leaf());
  (z * 2).sum().backward();
  EXPECT_TENSOR_EQ(y.grad(), values({2, 2}));
}

TEST(CopySlices, MulByTensorThroughAView) {
  // z = x.clone(); z[:, 1] *= s  =>  dx[:, 1] = s, dx[:, 0] = 1; ds = sum_i x[i, 1].
  Tensor x = leaf({3, 2});
  Tensor s = leaf({1}, 4.0);
  Tensor z = x.clone();
  z.select(1, 1).mul_(s);
  z.sum().backward();
  EXPECT_TENSOR_EQ(x.grad(), values({1, 4, 1, 4, 1, 4}).view({3, 2}));
  const double col = (1.25 + 1.75 + 2.25);  // x[:, 1]
  EXPECT_NEAR(s.grad().item<double>(), col, 1e-12);
}

TEST(CopySlices, ViewCreatedBeforeABaseWriteSeesTheWrite) {
  // v = b[0] taken first; b *= 3 afterwards: v is 3 * a[0], and its grad_fn is rebuilt from b.
  Tensor a = leaf({2, 2});
  Tensor b = a.clone();
  Tensor v = b[0];
  EXPECT_EQ(v.grad_fn()->name(), "SelectBackward0");
  b.mul_(3);
  EXPECT_EQ(v.grad_fn()->name(), "AsStridedBackward0");
  v.sum().backward();
  EXPECT_TENSOR_EQ(a.grad(), values({3, 3, 0, 0}).view({2, 2}));
}

TEST(CopySlices, TheWrittenViewKeepsATrackedHistory) {
  // After v.mul_(2), v itself is a view of the new base: sum(v^2) = sum(4 a[0]^2).
  Tensor a = leaf({2, 2});
  Tensor b = a.clone();
  Tensor v = b.select(0, 0);
  v.mul_(2);
  EXPECT_EQ(v.grad_fn()->name(), "AsStridedBackward0");
  (v * v).sum().backward();
  EXPECT_TENSOR_CLOSE(a.grad(), values({8, 10, 0, 0}).view({2, 2}));  // 8 * a[0]
}

TEST(CopySlices, ViewOfAViewWritesTheRootBase) {
  // b.t()[1][0:1] is b[0][1]: that element gets *5.
  Tensor a = leaf({2, 2});
  Tensor b = a.clone();
  b.t()[1].narrow(0, 0, 1).mul_(5);
  b.sum().backward();
  EXPECT_TENSOR_EQ(a.grad(), values({1, 5, 1, 1}).view({2, 2}));
}

TEST(CopySlices, IndexPutAndMaskedFillOnViews) {
  // b[1][idx] = v: b[1][0] and b[1][2] come from v; masked_fill_ on b[0] zeroes b[0][1].
  Tensor a = leaf({2, 3});
  Tensor v = leaf({2}, 7.0);
  Tensor b = a.clone();
  Tensor idx = tensor(std::vector<int64_t>{0, 2});
  b[1].index_put_({idx}, v);
  Tensor mask = tensor(std::vector<bool>{false, true, false});
  b[0].masked_fill_(mask, 0.0);
  Tensor w = values({1, 2, 3, 4, 5, 6}).view({2, 3});
  (b * w).sum().backward();
  EXPECT_TENSOR_EQ(a.grad(), values({1, 0, 3, 0, 5, 0}).view({2, 3}));
  EXPECT_TENSOR_EQ(v.grad(), values({4, 6}));
}

TEST(CopySlices, PythonStyleAssignmentThroughIndexing) {
  // b[:, 0] = y (Tensor::index_put_ with a slice), then b[1, :] = 0.
  Tensor a = leaf({2, 2});
  Tensor y = leaf({2}, 5.0);
  Tensor b = a * 1;
  b.index_put_({indexing::Slice(), 0}, y);
  b.index_put_({1}, 0.0);
  (b * values({1, 2, 3, 4}).view({2, 2})).sum().backward();
  EXPECT_TENSOR_EQ(a.grad(), values({0, 2, 0, 0}).view({2, 2}));
  EXPECT_TENSOR_EQ(y.grad(), values({1, 0}));
}

TEST(CopySlices, FillAndZeroCutTheOldHistory) {
  Tensor a = leaf({4});
  Tensor b = a * 2;
  b.narrow(0, 0, 2).zero_();
  b.narrow(0, 3, 1).fill_(1.5);
  b.sum().backward();
  EXPECT_TENSOR_EQ(a.grad(), values({0, 0, 2, 0}));
}

TEST(CopySlices, VersionCounterErrorsStillFire) {
  // sin saved b; writing b through a view afterwards makes backward fail.
  Tensor a = leaf({2, 2});
  Tensor b = a.clone();
  Tensor c = b.sin();
  b[0].mul_(2);
  EXPECT_EMBER_ERROR(c.sum().backward(), "modified by an inplace operation");
}

TEST(CopySlices, ViewsOfLeavesAndNoGradViewsRaise) {
  Tensor a = leaf({2, 2});
  EXPECT_EMBER_ERROR(a[0].mul_(2), "a view of a leaf Variable that requires grad");
  Tensor b = a.clone();
  Tensor v;
  {
    NoGradGuard ng;
    v = b[0];
    v.mul_(2);  // fine without grad mode
  }
  EXPECT_EMBER_ERROR(v.mul_(leaf({2})), "view was created in no_grad mode");
  // Writing a leaf's view under no-grad (as nn::init does) is allowed.
  {
    NoGradGuard ng;
    a[1].fill_(0.0);
  }
  EXPECT_EQ(a[1].sum().item<double>(), 0.0);
}

TEST(CopySlices, NoGradViewsOfPlainTensorsRaiseToo) {
  // PyTorch flags every view made in no_grad mode, whether or not its base requires
  // grad: `with torch.no_grad(): v = torch.randn(3)[:2]` then `v.mul_(w)` raises.
  Tensor plain = values({1, 2, 3});
  Tensor v;
  {
    NoGradGuard ng;
    v = plain.slice(0, 0, 2);
  }
  EXPECT_EMBER_ERROR(v.mul_(leaf({2})), "view was created in no_grad mode");
  v.mul_(2.0);  // no operand requires grad: nothing is recorded, nothing to refuse
  EXPECT_TENSOR_EQ(plain, values({2, 4, 3}));
}

TEST(CopySlices, DetachInPlaceRefusesViews) {
  // torch: "Can't detach views in-place. Use detach() instead."
  Tensor a = leaf({2, 2}).clone();
  EXPECT_EMBER_ERROR(a[0].detach_(), "detach_", "views in-place");
  Tensor plain = values({1, 2});
  EXPECT_EMBER_ERROR(plain.slice(0, 0, 1).detach_(), "detach_");
  Tensor y = a * 2;  // not a view: detach_ cuts its history
  y.detach_();
  EXPECT_TRUE(y.is_leaf());
  EXPECT_FALSE(y.requires_grad());
}

TEST(CopySlices, GradcheckAndGradgradcheck) {
  // f(x, y) = sum-free composition of in-place view writes: out = x.clone();
  // out[0] *= y (broadcast); out[:, 1].copy_(y.exp()); out.narrow(0, 1, 1).mul_(out[0]) reads another view.
  auto fn = [](const variable_list& in) -> variable_list {
    Tensor out = in[0].clone();
    out[0].mul_(in[1]);
    out.select(1, 1).copy_(in[1].narrow(0, 0, 2).exp());
    Tensor row0 = out[0].clone();
    out.narrow(0, 1, 1).mul_(row0);
    return {out * out};
  };
  variable_list inputs = {leaf({2, 3}, 0.3), leaf({3}, 0.7)};
  EXPECT_EQ(autograd::gradcheck(fn, inputs), "");
  EXPECT_EQ(autograd::gradgradcheck(fn, inputs), "");
}

TEST(CopySlices, DoubleBackwardThroughCopySlices) {
  // b = x.clone(); b[0] *= x[0]  => b[0] = x0^2: d/dx0 sum(b) = 2 x0, d2/dx0^2 = 2.
  Tensor x = leaf({2});
  Tensor b = x.clone();
  b.narrow(0, 0, 1).mul_(x.narrow(0, 0, 1));
  Tensor g = autograd::grad({b.sum()}, {x}, {}, std::nullopt, /*create_graph=*/true)[0];
  EXPECT_TENSOR_CLOSE(g.detach(), values({2.0, 1.0}));
  Tensor gg = autograd::grad({g[0]}, {x})[0];
  EXPECT_TENSOR_CLOSE(gg, values({2.0, 0.0}));
}

// retain_grad() belongs to the tensor: after an in-place op (on the tensor, on
// its base, or through it) .grad() is the gradient of the current value. Tensor
// hooks stay with the node they were registered on: a hook registered before
// the write sees the old value's gradient (non-views) or does not run (views,
// whose old node leaves the graph). torch 1.13 gives the same in each case.
TEST(CopySlices, RetainGradFollowsTheTensorAcrossInPlaceWrites) {
  Tensor x = leaf({4});
  const Tensor w = values({0, 1, 2, 3});
  {
    // y = 2x; y *= 3; loss = sum(y w): d loss / d(new y) = w, d loss / d(old y) = 3w.
    Tensor y = x * 2;
    y.retain_grad();
    Tensor seen;
    y.register_hook([&seen](const Tensor& g) { seen = g.clone(); });
    y.mul_(3);
    (y * w).sum().backward();
    EXPECT_TENSOR_EQ(y.grad(), w);
    EXPECT_TENSOR_EQ(seen, w * 3);
  }
  {
    // v = b[0:2] retained, then b *= 2 rebuilds v's history: v.grad is d loss / dv = [5, 7].
    Tensor b = x * 1;
    Tensor v = b.narrow(0, 0, 2);
    v.retain_grad();
    bool hook_ran = false;
    v.register_hook([&hook_ran](const Tensor&) { hook_ran = true; });
    b.mul_(2);
    (v * values({5, 7})).sum().backward();
    EXPECT_TENSOR_EQ(v.grad(), values({5, 7}));
    EXPECT_FALSE(hook_ran);
  }
  {
    // The view written itself; a hook registered after the write runs.
    Tensor b = x * 1;
    Tensor v = b.narrow(0, 0, 2);
    v.retain_grad();
    v.mul_(3);
    Tensor seen;
    v.register_hook([&seen](const Tensor& g) { seen = g.clone(); });
    (v * values({5, 7})).sum().backward();
    EXPECT_TENSOR_EQ(v.grad(), values({5, 7}));
    EXPECT_TENSOR_EQ(seen, values({5, 7}));
  }
  {
    // Accumulation carries over: [5, 7] from before the base write, then [1, 1] after.
    Tensor b = x * 1;
    Tensor v = b.narrow(0, 0, 2);
    v.retain_grad();
    (v * values({5, 7})).sum().backward({}, /*retain_graph=*/true);
    b.mul_(2);
    v.sum().backward();
    EXPECT_TENSOR_EQ(v.grad(), values({6, 8}));
  }
}
