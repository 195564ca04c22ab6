// autograd::checkpoint (Note [Reentrant checkpoint]): the same gradients as the
// plain forward, dropout masks replayed, fewer tensors kept between forward
// and backward, nesting (a checkpoint inside a checkpoint's recomputation).
#include <gtest/gtest.h>

#include <thread>

#include "common/test_util.h"
#include "ember/autograd/checkpoint.h"
#include "ember/ember.h"

using namespace ember;
using autograd::variable_list;

namespace {

Tensor param(IntArrayRef shape, uint64_t seed) {
  manual_seed(seed);
  return randn(shape, TensorOptions(kDouble)).requires_grad_();
}

// A block with a captured parameter and dropout, so both the closure's
// parameter and the replayed random mask matter.
struct Block {
  Tensor w = param({4, 4}, 1);
  variable_list operator()(const variable_list& in) const {
    Tensor h = tanh(matmul(in[0], w));
    return {dropout(h, 0.5, /*train=*/true) * in[1]};
  }
};

struct Grads {
  Tensor x, s, w;
};

Grads run(bool use_checkpoint, bool preserve_rng = true) {
  Block block;
  Tensor x = param({3, 4}, 2);
  Tensor s = param({4}, 3);
  manual_seed(7);
  Tensor y = use_checkpoint ? autograd::checkpoint(block, {x, s}, preserve_rng)[0] : block({x, s})[0];
  // Draw between forward and backward: the replay must not depend on the stream's position.
  (void)rand({5});
  (y * y).sum().backward();
  return {x.grad(), s.grad(), block.w.grad()};
}

}  // namespace

TEST(Checkpoint, SameGradientsAsThePlainForwardThroughDropout) {
  Grads plain = run(false), ckpt = run(true);
  ASSERT_TRUE(ckpt.x.defined() && ckpt.s.defined() && ckpt.w.defined());
  EXPECT_TENSOR_CLOSE_TOL(ckpt.x, plain.x, 1e-12, 1e-12);
  EXPECT_TENSOR_CLOSE_TOL(ckpt.s, plain.s, 1e-12, 1e-12);
  EXPECT_TENSOR_CLOSE_TOL(ckpt.w, plain.w, 1e-12, 1e-12);
}

TEST(Checkpoint, WithoutRngPreservationTheMaskDiffers) {
  // The recomputation draws a different dropout mask, so the gradients are wrong: this is
  // what preserve_rng_state protects against.
  Grads plain = run(false), ckpt = run(true, /*preserve_rng=*/false);
  EXPECT_FALSE(::ember::testing::tensors_close(ckpt.x, plain.x, 1e-6, 1e-6));
}

TEST(Checkpoint, KeepsFewerTensorsBetweenForwardAndBackward) {
  auto chain = [](const variable_list& in) {
    Tensor h = in[0];
    for (int i = 0; i < 8; ++i) h = sin(h) * 1.01;  // sin saves its input each step
    return variable_list{h};
  };
  Tensor x = param({256, 256}, 4);
  empty_cache();
  const size_t base = memory_allocated();
  size_t plain = 0, ckpt = 0;
  {
    Tensor y = chain({x})[0];
    plain = memory_allocated() - base;
    y.sum().backward();
  }
  Tensor g_plain = x.grad().clone();
  x.mutable_grad().reset();
  empty_cache();
  const size_t base2 = memory_allocated();
  {
    Tensor y = autograd::checkpoint(chain, {x})[0];
    ckpt = memory_allocated() - base2;
    y.sum().backward();
  }
  const size_t block = 256 * 256 * sizeof(double);
  EXPECT_GE(plain, 7 * block);  // the sin inputs it saved (x excepted) and the output
  EXPECT_LE(ckpt, 2 * block);   // the output only
  EXPECT_TENSOR_CLOSE_TOL(x.grad(), g_plain, 1e-12, 1e-12);
}

TEST(Checkpoint, NestedCheckpointsAndErrors) {
  auto inner = [](const variable_list& in) { return variable_list{exp(in[0]) * in[0]}; };
  auto outer = [&](const variable_list& in) {
    return variable_list{autograd::checkpoint(inner, {in[0] * 2})[0].sin()};
  };
  Tensor x = param({5}, 5);
  Tensor y = autograd::checkpoint(outer, {x})[0];
  y.sum().backward(Tensor(), /*retain_graph=*/true);
  // d/dx sin(e^{2x} 2x) = cos(u) * (2 e^{2x} 2x + 2 e^{2x}), u = 2x e^{2x}.
  Tensor xd = x.detach();
  Tensor u = exp(xd * 2) * xd * 2;
  EXPECT_TENSOR_CLOSE(x.grad(), cos(u) * (exp(xd * 2) * (xd * 4 + 2)));
  // The node freed its saved inputs after the first backward without retain_graph.
  Tensor z = autograd::checkpoint(inner, {x})[0];
  z.sum().backward();
  EXPECT_EMBER_ERROR(z.sum().backward(), "backward through the graph a second time");
  // An in-place change to a saved input is caught like any saved tensor.
  Tensor x2 = x.detach().clone().requires_grad_();
  Tensor x3 = x2 * 1;
  Tensor w = autograd::checkpoint(inner, {x3})[0];
  x3.add_(1);
  EXPECT_EMBER_ERROR(w.sum().backward(), "modified by an inplace operation");
}

TEST(Checkpoint, NoGradModeOrNoGradInputsJustRunTheFunction) {
  auto f = [](const variable_list& in) { return variable_list{in[0] * 3}; };
  Tensor x = ones({2}, TensorOptions(kDouble));
  EXPECT_FALSE(autograd::checkpoint(f, {x})[0].requires_grad());
  Tensor xr = x.clone().requires_grad_();
  {
    NoGradGuard ng;
    EXPECT_FALSE(autograd::checkpoint(f, {xr})[0].requires_grad());
  }
  EXPECT_TRUE(autograd::checkpoint(f, {xr})[0].requires_grad());
}

TEST(Checkpoint, ConcurrentFromEightThreads) {
  // Independent graphs with checkpoints (reentrant backward) and in-place view writes
  // (CopySlices) run backward concurrently; each thread checks its own gradient.
  std::vector<std::thread> threads;
  std::vector<double> got(8, 0), want(8, 0);
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([t, &got, &want] {
      Tensor x = full({4}, 0.1 * (t + 1), TensorOptions(kDouble)).requires_grad_();
      auto f = [](const variable_list& in) { return variable_list{sin(in[0]) * in[0]}; };
      for (int rep = 0; rep < 20; ++rep) {
        x.mutable_grad().reset();
        Tensor b = autograd::checkpoint(f, {x})[0].clone();
        b.narrow(0, 0, 2).mul_(3);
        b.sum().backward();
      }
      got[t] = x.grad()[0].item<double>();
      const double v = 0.1 * (t + 1);
      want[t] = 3 * (std::cos(v) * v + std::sin(v));
    });
  }
  for (auto& th : threads) th.join();
  for (int t = 0; t < 8; ++t) EXPECT_NEAR(got[t], want[t], 1e-12) << "thread " << t;
}
