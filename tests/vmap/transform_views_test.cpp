// Transforms over views and detach, found by a differential sweep against
// functorch 1.13 (stop 26): detach() under vmap, second-order transforms
// through select/narrow/slice, jacrev/jacfwd of a write into a fresh buffer,
// and forward-mode tangents written in place into a view of a tangent-free
// base. Expected values are functorch's (the comments give the Python).
#include <gtest/gtest.h>

#include "common/test_util.h"
#include "ember/autograd/forward_ad.h"
#include "ember/func.h"
#include "ember/torch.h"

namespace ember {
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

}  // namespace
}  // namespace ember
