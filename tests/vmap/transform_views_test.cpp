// Transforms over views and detach, found by a differential sweep against
// functorch 1.13 (stop 26): detach() under vmap, second-order transforms
// through select/narrow/slice, jacrev/jacfwd of a write into a fresh buffer,
// and forward-mode tangents written in place into a view of a tangent-free
// base; forward over reverse through such writes and tangents written under
// no_grad (stop 27). Expected values are functorch's (the comments give the Python).
#include <gtest/gtest.h>

#include "common/test_util.h"
#include "ember/autograd/forward_ad.h"
#include "ember/func.h"
#include "ember/torch.h"

namespace torch {
namespace {

namespace F = ember::func;
using TL = std::vector<Tensor>;
namespace fwAD = autograd::forward_ad;

Tensor t64(std::vector<double> v, std::vector<int64_t> shape) { return tensor(v, kDouble).view(shape); }

TEST(TransformViews, DetachUnderVmapKeepsEachSample) {
  const Tensor X = t64({0.5, -1.0, 2.0, 1.5, 0.25, -0.75}, {2, 3});
  // vmap(lambda t: t.detach() * 2)(X) -> 2 * X (each sample its own)
  EXPECT_TENSOR_EQ(vmap([](const Tensor& t) { return t.detach() * 2; })(X), X * 2);
  // vmap(grad(lambda t: (t * t.detach()).sum()))(X) -> X
  EXPECT_TENSOR_EQ(vmap(F::grad([](const Tensor& t) { return (t * t.detach()).sum(); }))(X), X);
  // vmap(lambda t: (t + t.detach()).sum())(X) -> [3.0, 2.0]
  EXPECT_TENSOR_EQ(vmap([](const Tensor& t) { return (t + t.data()).sum(); })(X), tensor({3.0, 2.0}, kDouble));
}

TEST(TransformViews, SecondOrderThroughSelectAndSlice) {
  // hessian(lambda t: torch.dot(t[0], t[1]))(T).reshape(4, 4)
  const Tensor T = t64({0.3, -0.7, 1.1, 0.4}, {2, 2});
  const Tensor h = F::hessian([](const Tensor& t) { return dot(t[0], t[1]); })(T).reshape({4, 4});
  EXPECT_TENSOR_EQ(h, t64({0, 0, 1, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 1, 0, 0}, {4, 4}));
  // hessian(lambda t: (t.narrow(0, 0, 2) * t.narrow(0, 1, 2)).sum())(v3)
  const Tensor v3 = tensor({0.3, -0.7, 1.2}, kDouble);
  EXPECT_TENSOR_EQ(F::hessian([](const Tensor& t) { return (t.narrow(0, 0, 2) * t.narrow(0, 1, 2)).sum(); })(v3),
                   t64({0, 1, 0, 1, 0, 1, 0, 1, 0}, {3, 3}));
  // hessian(lambda t: (t[::2] * t[1::2]).sum())(v4)
  const Tensor v4 = tensor({0.3, -0.7, 1.2, 2.0}, kDouble);
  EXPECT_TENSOR_EQ(F::hessian([](const Tensor& t) {
                     return (t.slice(0, 0, std::nullopt, 2) * t.slice(0, 1, std::nullopt, 2)).sum();
                   })(v4),
                   t64({0, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1, 0, 0, 1, 0}, {4, 4}));
  // jacrev(jacrev(lambda t: t[0] * t[1]))(v2) and jacfwd(jacrev(...)) -> [[0, 1], [1, 0]]
  const Tensor v2 = tensor({0.3, -0.7}, kDouble);
  const auto f = [](const Tensor& t) { return t[0] * t[1]; };
  EXPECT_TENSOR_EQ(F::jacrev(F::jacrev(f))(v2), t64({0, 1, 1, 0}, {2, 2}));
  EXPECT_TENSOR_EQ(F::jacfwd(F::jacrev(f))(v2), t64({0, 1, 1, 0}, {2, 2}));
}

TEST(TransformViews, JacobiansOfAWriteIntoAFreshBuffer) {
  // def f(t): c = torch.zeros(3); c.narrow(0, 1, 2).copy_(t); return c
  // jacrev(f)(v2) -> [[0, 0], [1, 0], [0, 1]] (functorch's jacfwd gives the same)
  const auto f = [](const Tensor& t) {
    Tensor c = zeros({3}, kDouble);
    c.narrow(0, 1, 2).copy_(t);
    return c;
  };
  const Tensor v2 = tensor({0.3, -0.7}, kDouble);
  const Tensor expected = t64({0, 0, 1, 0, 0, 1}, {3, 2});
  EXPECT_TENSOR_EQ(F::jacrev(f)(v2), expected);
  // jacfwd(f) still raises: Ember's jacfwd hands f a batched dual, and copying a
  // batched tensor into the unbatched buffer has no batching rule (functorch keeps
  // the primal unbatched and only the tangent batched).
  EXPECT_EMBER_ERROR(F::jacfwd(f)(v2), "copy_", "batched");
}

TEST(TransformViews, TangentsWrittenIntoAViewReachTheBase) {
  const Tensor x = t64({0.5, -1.0, 2.0, 0.1, 1.5, 0.25, -0.75, 0.3, 0.2, 0.4, 0.6, 0.8}, {3, 4});
  const Tensor tx = arange(1, 13, kDouble).view({3, 4});
  // c = torch.zeros(3, 4); c.narrow(0, 1, 2).copy_(a.narrow(0, 0, 2)): tangent rows 1-2 = tx rows 0-1
  auto r = F::jvp(
      [](const TL& a) {
        Tensor c = zeros({3, 4}, kDouble);
        c.narrow(0, 1, 2).copy_(a[0].narrow(0, 0, 2));
        return TL{c};
      },
      {x}, {tx});
  EXPECT_TENSOR_EQ(r.tangents[0], t64({0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8}, {3, 4}));
  // c = torch.ones(3, 4); c.narrow(1, 0, 2).mul_(a.narrow(1, 1, 2))
  r = F::jvp(
      [](const TL& a) {
        Tensor c = ones({3, 4}, kDouble);
        c.narrow(1, 0, 2).mul_(a[0].narrow(1, 1, 2));
        return TL{c};
      },
      {x}, {tx});
  EXPECT_TENSOR_EQ(r.tangents[0], t64({2, 3, 0, 0, 6, 7, 0, 0, 10, 11, 0, 0}, {3, 4}));
  // with fwAD.dual_level(): d = make_dual(p, tp); base = torch.zeros(2, 4); base[1].add_(d)
  fwAD::DualLevel level;
  const Tensor d = fwAD::make_dual(tensor({1.0, 2.0, 3.0, 4.0}, kDouble), tensor({0.5, 0.25, -1.0, 2.0}, kDouble));
  Tensor base = zeros({2, 4}, kDouble);
  base[1].add_(d);
  EXPECT_TENSOR_EQ(fwAD::unpack_dual(base).tangent, t64({0, 0, 0, 0, 0.5, 0.25, -1.0, 2.0}, {2, 4}));
}

namespace {
// b = t.clone(); b[0].narrow(0, 1, 2).mul_(w1); (b[0] * b[1]).sum() + (b * b).sum()
Tensor write_into_view_of_view(const Tensor& t) {
  const Tensor w1 = tensor({0.5, -2.0}, kDouble);
  Tensor b = t.clone();
  Tensor row = b[0];
  row.narrow(0, 1, 2).mul_(w1);
  return (row * b[1]).sum() + (b * b).sum();
}
}  // namespace

// Forward over reverse through an in-place write into a view (stop 27): the
// write's backward (CopySlices) writes the view's gradient into the base's in
// place; the tangent written into that view must reach the base's tangent,
// not only the view's own. Was wrong for every such write.
TEST(TransformViews, ForwardOverReverseThroughAWriteIntoAView) {
  const Tensor T = t64({0.3, -0.7, 1.1, 0.4, 0.2, 0.9, -1.3, 0.6}, {2, 4});
  // functorch.hessian(f)(T).reshape(8, 8); jacrev(jacrev(f)) gives the same
  const Tensor expected =
      t64({2, 0, 0, 0, 1, 0, 0, 0, 0, 0.5, 0, 0, 0, 0.5, 0, 0, 0, 0, 8,  0, 0, 0, -2, 0, 0, 0, 0, 2, 0, 0, 0, 1,
           1, 0, 0, 0, 2, 0, 0, 0, 0, 0.5, 0, 0, 0, 2,   0, 0, 0, 0, -2, 0, 0, 0, 2,  0, 0, 0, 0, 1, 0, 0, 0, 2},
          {8, 8});
  EXPECT_TENSOR_CLOSE(F::hessian(write_into_view_of_view)(T).reshape({8, 8}), expected);
  EXPECT_TENSOR_CLOSE(F::jacrev(F::jacrev(write_into_view_of_view))(T).reshape({8, 8}), expected);
  // jvp of grad: one column of the same Hessian (column 2: d/dT[0][2])
  const Tensor v = zeros({2, 4}, kDouble).index_put_({0, 2}, 1.0);
  auto g = F::grad(write_into_view_of_view);
  auto r = F::jvp([&](const TL& in) { return TL{g(in[0])}; }, {T}, {v});
  EXPECT_TENSOR_CLOSE(r.tangents[0].reshape({8}), expected.select(1, 2));
}

// Forward mode does not depend on grad mode: a tangent written in place into a
// view made under no_grad reaches the base, as PyTorch.
TEST(TransformViews, TangentsWrittenUnderNoGradReachTheBase) {
  fwAD::DualLevel level;
  const Tensor x = fwAD::make_dual(tensor({1.0, 2.0}), tensor({10.0, 20.0}));
  Tensor b = zeros({4});
  Tensor c = zeros({3, 4});
  {
    NoGradGuard ng;
    b.narrow(0, 1, 2).copy_(x);
    c[1].narrow(0, 1, 2).add_(x);  // a view of a view
  }
  // torch: tensor([0., 10., 20., 0.]) and row 1 of c's tangent the same
  EXPECT_TENSOR_EQ(fwAD::unpack_dual(b).tangent, tensor({0.0, 10.0, 20.0, 0.0}));
  Tensor ct = zeros({3, 4});
  ct[1].copy_(tensor({0.0, 10.0, 20.0, 0.0}));
  EXPECT_TENSOR_EQ(fwAD::unpack_dual(c).tangent, ct);
}

// A fresh view's tangent stays its own: it does not go through its base, which
// may be a tensor the caller never made dual (stop 27 wrote every view op's
// output tangent into the base's, so a function using both a piece of its
// input and the captured original counted the tangent twice).
TEST(TransformViews, FreshViewsLeaveTheBaseWithoutATangent) {
  const Tensor x = t64({1, 2, 3, 4}, {4}), t = t64({0.5, -1, 2, 3}, {4});
  auto f = [&](const TL& a) { return TL{(a[0].split(2)[0] * x.narrow(0, 0, 2)).sum()}; };
  // jvp(lambda a: (a.split(2)[0] * x[:2]).sum(), (x,), (t,)) -> (5., -1.5)
  F::JvpResult r = F::jvp(f, {x}, {t});
  EXPECT_DOUBLE_EQ(r.outputs[0].item<double>(), 5.0);
  EXPECT_DOUBLE_EQ(r.tangents[0].item<double>(), -1.5);
  fwAD::DualLevel level;
  const Tensor d = fwAD::make_dual(x, t);
  const Tensor y = (d.split(2)[0] * x.narrow(0, 0, 2)).sum();
  EXPECT_DOUBLE_EQ(fwAD::unpack_dual(y).tangent.item<double>(), -1.5);
  EXPECT_FALSE(fwAD::unpack_dual(x).tangent.defined());
}

// jacfwd runs f on the primal expanded over the basis (stride 0), whose
// pieces and as_strided views carry a different tangent per basis vector.
// jacfwd(lambda t: t.split(2)) and jacfwd of as_strided equal jacrev's.
TEST(TransformViews, JacfwdThroughPiecesAndAsStrided) {
  const Tensor x = t64({0.5, -1, 2, 1.5, 0.25, -0.75}, {6});
  auto pieces = [](const Tensor& a) {
    auto p = a.split(4);
    return (p[0] * p[0]).sum() + p[1].prod();
  };
  EXPECT_TENSOR_CLOSE(F::jacfwd(pieces)(x), F::jacrev(pieces)(x));
  auto strided = [](const Tensor& a) { return a.as_strided({2, 2}, {1, 2}, 1); };
  EXPECT_TENSOR_CLOSE(F::jacfwd(strided)(x), F::jacrev(strided)(x));
  auto overlapping = [](const Tensor& a) { return a.as_strided({3, 3}, {1, 1}).pow(2).sum(); };
  EXPECT_TENSOR_CLOSE(F::hessian(overlapping)(x), autograd::functional::hessian(overlapping, x));
}

}  // namespace
}  // namespace torch
