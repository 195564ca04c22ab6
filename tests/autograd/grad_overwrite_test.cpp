// Note [Gradients overwritten in place]: relu, threshold and dropout write their
// backward result over an incoming gradient that only the engine holds, and
// never over one anyone else can still see (a gradient a hook kept, one the engine
// hands to two nodes). retain_grad keeps a clone taken before the node runs, so it
// needs no case here.
#include <gtest/gtest.h>

#include <cstdint>
#include <functional>

#include "common/test_util.h"
#include "ember/ember.h"

using namespace ember;

namespace {

// Runs (op(h) * w).sum().backward() with h = x * 1 a non-leaf; records where the
// gradient entering op's backward and the one leaving it live. MulBackward0
// makes the entering gradient (g * w, dense and owned by the engine).
struct Addresses {
  uintptr_t in = 0, out = 0;
};
Addresses run(const std::function<Tensor(const Tensor&)>& op, const Tensor& x, const Tensor& w) {
  Addresses a;
  Tensor h = x * 1;
  h.register_hook([&a](const Tensor& g) { a.out = reinterpret_cast<uintptr_t>(g.data_ptr()); });
  Tensor y = op(h);
  y.register_hook([&a](const Tensor& g) { a.in = reinterpret_cast<uintptr_t>(g.data_ptr()); });
  (y * w).sum().backward();
  return a;
}

}  // namespace

TEST(GradOverwrite, ReluWritesOverAnOwnedGradient) {
  manual_seed(1);
  Tensor x = randn({64, 33}).requires_grad_(), w = randn({64, 33});
  const Addresses a = run([](const Tensor& h) { return relu(h); }, x, w);
  EXPECT_EQ(a.in, a.out);
  EXPECT_TRUE(equal(x.grad(), where(x > 0, w, zeros_like(w))));
}

TEST(GradOverwrite, ThresholdWritesOverAnOwnedGradient) {
  manual_seed(2);
  Tensor x = randn({40, 17}).requires_grad_(), w = randn({40, 17});
  const Addresses a = run([](const Tensor& h) { return threshold(h, 0.25, -3.0); }, x, w);
  EXPECT_EQ(a.in, a.out);
  EXPECT_TRUE(equal(x.grad(), where(x > 0.25, w, zeros_like(w))));
}

TEST(GradOverwrite, DropoutWritesOverAnOwnedGradient) {
  manual_seed(3);
  Tensor x = randn({128, 65}).requires_grad_(), w = randn({128, 65});
  Tensor kept;
  const Addresses a = run(
      [&kept](const Tensor& h) {
        Tensor y = dropout(h, 0.3, true);
        kept = (y != 0).detach();
        return y;
      },
      x, w);
  EXPECT_EQ(a.in, a.out);
  EXPECT_TRUE(allclose(x.grad(), where(kept, w / 0.7, zeros_like(w)), 1e-6, 1e-6));
}

// A hook that keeps the gradient it is shown: the node must not write over it.
TEST(GradOverwrite, GradientKeptByAHookKeepsItsValues) {
  manual_seed(5);
  Tensor x = randn({30, 20}).requires_grad_(), w = randn({30, 20});
  Tensor seen;
  Tensor y = relu(x * 1);
  y.register_hook([&seen](const Tensor& g) { seen = g; });
  (y * w).sum().backward();
  EXPECT_TRUE(equal(seen, w));
  EXPECT_TRUE(equal(x.grad(), where(x > 0, w, zeros_like(w))));
}

// One gradient handed to two relus (AddBackward0 passes it on to both): the first
// to run must leave it for the second.
TEST(GradOverwrite, GradientSharedByTwoNodes) {
  manual_seed(6);
  Tensor a = randn({50, 40}).requires_grad_(), b = randn({50, 40}).requires_grad_(), w = randn({50, 40});
  ((relu(a * 1) + relu(b * 1)) * w).sum().backward();
  EXPECT_TRUE(equal(a.grad(), where(a > 0, w, zeros_like(w))));
  EXPECT_TRUE(equal(b.grad(), where(b > 0, w, zeros_like(w))));
}

// create_graph: the backward is recorded, so nothing is overwritten and the
// second derivative of relu(x)^2 is 2 where x > 0.
TEST(GradOverwrite, CreateGraphKeepsTheCompositeBackward) {
  manual_seed(7);
  Tensor x = randn({20, 10}).requires_grad_();
  Tensor y = relu(x * 1);
  Tensor g = autograd::grad({(y * y).sum()}, {x}, {}, std::nullopt, true)[0];
  EXPECT_TRUE(allclose(g, 2 * relu(x).detach(), 1e-6, 1e-6));
  Tensor gg = autograd::grad({g.sum()}, {x})[0];
  EXPECT_TRUE(equal(gg, where(x > 0, full_like(x, 2.0), zeros_like(x))));
}
