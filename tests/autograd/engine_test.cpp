// Engine tests that need no op formulas: graphs built from custom
// autograd::Function nodes (whose forward/backward use plain ops).
#include <gtest/gtest.h>

#include <algorithm>
#include <thread>

#include "common/test_util.h"
#include "ember/ember.h"

using namespace ember;
using autograd::AutogradContext;
using autograd::variable_list;

namespace {

// y = a * b
struct MulFn : autograd::Function<MulFn> {
  static Tensor forward(AutogradContext* ctx, Tensor a, Tensor b) {
    ctx->save_for_backward({a, b});
    return a * b;
  }
  static variable_list backward(AutogradContext* ctx, variable_list g) {
    auto s = ctx->get_saved_variables();
    return {g[0] * s[1], g[0] * s[0]};
  }
};

// y = x * k (k a double argument, kept in saved_data)
struct ScaleFn : autograd::Function<ScaleFn> {
  static Tensor forward(AutogradContext* ctx, Tensor x, double k) {
    ctx->saved_data["k"] = k;
    return x * k;
  }
  static variable_list backward(AutogradContext* ctx, variable_list g) {
    return {g[0] * ctx->saved_data["k"].toDouble(), Tensor()};
  }
};

// y = exp(x), saving its own output
struct ExpFn : autograd::Function<ExpFn> {
  static Tensor forward(AutogradContext* ctx, Tensor x) {
    Tensor y = ember::exp(x);
    ctx->save_for_backward({y});
    return y;
  }
  static variable_list backward(AutogradContext* ctx, variable_list g) {
    return {g[0] * ctx->get_saved_variables()[0]};
  }
};

// Sum to a scalar: backward broadcasts the gradient.
struct SumFn : autograd::Function<SumFn> {
  static Tensor forward(AutogradContext* ctx, Tensor x) {
    ctx->saved_data["shape"] = x.sizes();
    return x.sum();
  }
  static variable_list backward(AutogradContext* ctx, variable_list g) {
    return {g[0].expand(ctx->saved_data["shape"].toIntVector())};
  }
};

// An integer output: it cannot require grad (PyTorch gives requires_grad=False).
struct RoundToLongFn : autograd::Function<RoundToLongFn> {
  static Tensor forward(AutogradContext* ctx, Tensor x) { return x.round().to(kLong); }
  static variable_list backward(AutogradContext* ctx, variable_list g) { return {Tensor()}; }
};

// Returns a gradient too many: defined (an error) or undefined (dropped, as LibTorch).
struct ExtraGradFn : autograd::Function<ExtraGradFn> {
  static Tensor forward(AutogradContext* ctx, Tensor x, bool defined_extra) {
    ctx->saved_data["extra"] = defined_extra;
    return x * 2;
  }
  static variable_list backward(AutogradContext* ctx, variable_list g) {
    const bool extra = ctx->saved_data["extra"].toBool();
    return {g[0] * 2, Tensor(), extra ? g[0] : Tensor()};
  }
};

// Two outputs, the second marked non-differentiable: backward sees zeros for it
// (torch.autograd.Function materializes them: gb = tensor([0., 0.])).
struct NonDiffOutputFn : autograd::Function<NonDiffOutputFn> {
  static variable_list forward(AutogradContext* ctx, Tensor x) {
    Tensor a = x * 2, b = x * 3;
    ctx->mark_non_differentiable({b});
    return {a, b};
  }
  static variable_list backward(AutogradContext* ctx, variable_list g) {
    EXPECT_TRUE(g[1].defined());
    EXPECT_TENSOR_EQ(g[1], zeros({2}, kDouble));
    return {g[0] * 2};
  }
};

Tensor leaf(std::initializer_list<double> v) { return tensor(std::vector<double>(v), kDouble).requires_grad_(); }

}  // namespace

TEST(Engine, CustomFunctionIntegerOutputDoesNotRequireGrad) {
  Tensor y = RoundToLongFn::apply(leaf({1.4, 2.6}));
  EXPECT_FALSE(y.requires_grad());
  EXPECT_TENSOR_EQ(y, tensor({1, 3}));
  EXPECT_EMBER_ERROR(y.sum().backward(), "does not require grad");
}

TEST(Engine, CustomFunctionGradients) {
  Tensor a = leaf({1, 2, 3}), b = leaf({4, 5, 6});
  Tensor y = SumFn::apply(MulFn::apply(a, b));
  EXPECT_FALSE(y.is_leaf());
  // LibTorch's name for a custom Function's node.
  EXPECT_EQ(y.grad_fn()->name(), "torch::autograd::CppNode<(anonymous namespace)::SumFn>");
  y.backward();
  EXPECT_TENSOR_EQ(a.grad(), tensor({4.0, 5.0, 6.0}, kDouble));
  EXPECT_TENSOR_EQ(b.grad(), tensor({1.0, 2.0, 3.0}, kDouble));
}

TEST(Engine, CustomFunctionExtraGradientsMustBeUndefined) {
  Tensor x = leaf({1, 2});
  ExtraGradFn::apply(x, false).sum().backward();
  EXPECT_TENSOR_EQ(x.grad(), tensor({2.0, 2.0}, kDouble));
  EXPECT_EMBER_ERROR(ExtraGradFn::apply(x, true).sum().backward(), "returned an incorrect number of gradients",
                     "expected 2, got 3");
}

TEST(Engine, CustomFunctionNonDifferentiableOutputGetsZeroGradient) {
  Tensor x = leaf({1, 2});
  variable_list out = NonDiffOutputFn::apply(x);
  EXPECT_FALSE(out[1].requires_grad());
  out[0].sum().backward();
  EXPECT_TENSOR_EQ(x.grad(), tensor({2.0, 2.0}, kDouble));
}

TEST(Engine, SharedInputGradientsAreSummedBeforeUse) {
  // y = x * x: both edges reach the same AccumulateGrad; dy/dx = 2x.
  Tensor x = leaf({3});
  Tensor y = SumFn::apply(MulFn::apply(x, x));
  y.backward();
  EXPECT_TENSOR_EQ(x.grad(), tensor({6.0}, kDouble));
}

TEST(Engine, GradientSumsNeverWriteIntoTensorsOthersHold) {
  // Two roots send the caller's own gradient tensors into one input buffer:
  // the sum is made out of place because the caller still holds g1 (the
  // buffer adds in place only into a sum nothing else can see).
  Tensor x = leaf({1.0, 2.0});
  Tensor y = ScaleFn::apply(ScaleFn::apply(x, 2.0), 1.0);
  Tensor g1 = tensor({1.0, 1.0}, kDouble), g2 = tensor({10.0, 10.0}, kDouble);
  autograd::backward({y, y}, {g1, g2});
  EXPECT_TENSOR_EQ(g1, tensor({1.0, 1.0}, kDouble));
  EXPECT_TENSOR_EQ(g2, tensor({10.0, 10.0}, kDouble));
  EXPECT_TENSOR_EQ(x.grad(), tensor({22.0, 22.0}, kDouble));
  // With no caller reference the sum is built in place and is still right.
  x.mutable_grad() = Tensor();
  Tensor z = SumFn::apply(ScaleFn::apply(x, 2.0)) + SumFn::apply(ScaleFn::apply(x, 3.0));
  autograd::backward({z});
  EXPECT_TENSOR_EQ(x.grad(), tensor({5.0, 5.0}, kDouble));
}

TEST(Engine, DiamondGraph) {
  // z = (x*2) * exp(x): two paths from x meet at the product.
  Tensor x = leaf({0.5});
  Tensor z = SumFn::apply(MulFn::apply(ScaleFn::apply(x, 2.0), ExpFn::apply(x)));
  z.backward();
  double e = std::exp(0.5);
  EXPECT_NEAR(x.grad().item<double>(), 2 * e + 2 * 0.5 * e, 1e-12);
}

TEST(Engine, GradAccumulatesAcrossBackwardCalls) {
  Tensor x = leaf({1, 2});
  SumFn::apply(ScaleFn::apply(x, 3.0)).backward();
  SumFn::apply(ScaleFn::apply(x, 3.0)).backward();
  EXPECT_TENSOR_EQ(x.grad(), tensor({6.0, 6.0}, kDouble));
}

TEST(Engine, BackwardTwiceNeedsRetainGraph) {
  Tensor x = leaf({1, 2});
  Tensor y = SumFn::apply(ExpFn::apply(x));
  y.backward({}, /*retain_graph=*/true);
  y.backward();  // allowed: the graph was retained
  EXPECT_EMBER_ERROR(y.backward(), "second time", "retain_graph");
}

TEST(Engine, LongChainIsIterative) {
  // 100,000 nodes: a recursive engine would overflow the stack.
  Tensor x = leaf({1.0});
  Tensor v = x;
  for (int i = 0; i < 100000; ++i) v = ScaleFn::apply(v, 1.0);
  SumFn::apply(v).backward();
  EXPECT_EQ(x.grad().item<double>(), 1.0);
}

TEST(Engine, AutogradGradDoesNotTouchDotGrad) {
  Tensor x = leaf({1, 2});
  Tensor y = SumFn::apply(MulFn::apply(x, x));
  auto g = autograd::grad({y}, {x});
  EXPECT_TENSOR_EQ(g[0], tensor({2.0, 4.0}, kDouble));
  EXPECT_FALSE(x.grad().defined());
  Tensor unused = leaf({1});
  Tensor y2 = SumFn::apply(ScaleFn::apply(x, 2.0));
  EXPECT_EMBER_ERROR(autograd::grad({y2}, {unused}, {}, true), "allow_unused");
  EXPECT_FALSE(autograd::grad({y2}, {unused}, {}, true, false, /*allow_unused=*/true)[0].defined());
}

TEST(Engine, DoubleBackwardThroughCustomFunctions) {
  // f = sum(x*x*x); df/dx = 3x^2; d2f/dx2 . 1 = 6x
  Tensor x = leaf({2.0});
  Tensor f = SumFn::apply(MulFn::apply(MulFn::apply(x, x), x));
  auto g = autograd::grad({f}, {x}, {}, std::nullopt, /*create_graph=*/true);
  EXPECT_NEAR(g[0].item<double>(), 12.0, 1e-12);
  auto gg = autograd::grad({SumFn::apply(g[0])}, {x});
  EXPECT_NEAR(gg[0].item<double>(), 12.0, 1e-12);
}

TEST(Engine, HooksCanReplaceGradients) {
  Tensor x = leaf({1, 2});
  x.register_hook([](const Tensor& g) { return g * 10; });
  Tensor m = ScaleFn::apply(x, 1.0);
  int seen = 0;
  m.register_hook([&](const Tensor&) { ++seen; });
  SumFn::apply(m).backward();
  EXPECT_EQ(seen, 1);
  EXPECT_TENSOR_EQ(x.grad(), tensor({10.0, 10.0}, kDouble));
}

TEST(Engine, RetainGradOnNonLeaf) {
  Tensor x = leaf({1, 2});
  Tensor m = ScaleFn::apply(x, 3.0);
  m.retain_grad();
  SumFn::apply(ScaleFn::apply(m, 2.0)).backward();
  EXPECT_TENSOR_EQ(m.grad(), tensor({2.0, 2.0}, kDouble));
  EXPECT_TENSOR_EQ(x.grad(), tensor({6.0, 6.0}, kDouble));
}

TEST(Engine, InPlaceChangeAfterSaveIsAnError) {
  Tensor x = leaf({1, 2});
  Tensor y = ExpFn::apply(x);
  y.mul_(2);  // y was saved by ExpFn (its own output)
  EXPECT_EMBER_ERROR(SumFn::apply(y).backward(), "modified by an inplace operation", "version");
}

TEST(Engine, NoGradGuardStopsRecording) {
  Tensor x = leaf({1});
  {
    NoGradGuard g;
    EXPECT_FALSE(ScaleFn::apply(x, 2.0).requires_grad());
  }
  EXPECT_TRUE(ScaleFn::apply(x, 2.0).requires_grad());
  {
    InferenceMode g;
    EXPECT_TRUE(InferenceMode::is_enabled());
    EXPECT_FALSE(MulFn::apply(x, x).requires_grad());
    {
      InferenceMode off(false);  // as c10: grad mode back on, inference mode off
      EXPECT_FALSE(InferenceMode::is_enabled());
      EXPECT_TRUE(GradMode::is_enabled());
    }
    EXPECT_TRUE(InferenceMode::is_enabled());
  }
  EXPECT_FALSE(InferenceMode::is_enabled());
  {
    NoGradGuard g;  // torch.is_inference_mode_enabled() is False under torch.no_grad()
    EXPECT_FALSE(InferenceMode::is_enabled());
  }
}

TEST(Engine, ErrorsForMisuse) {
  Tensor x = leaf({1, 2});
  EXPECT_EMBER_ERROR(ScaleFn::apply(x, 2.0).backward(), "implicitly created only for scalar outputs");
  EXPECT_EMBER_ERROR(tensor({1.0}).backward(), "does not require grad");
  Tensor m = ScaleFn::apply(x, 2.0);
  EXPECT_EMBER_ERROR(m.requires_grad_(false), "leaf");
}

TEST(Engine, AnomalyModeNamesTheNanNode) {
  struct NanFn : autograd::Function<NanFn> {
    static Tensor forward(AutogradContext*, Tensor x) { return x * 1.0; }
    static variable_list backward(AutogradContext*, variable_list g) { return {g[0] * std::nan("")}; }
  };
  Tensor x = leaf({1});
  autograd::DetectAnomalyGuard guard;
  Tensor y = SumFn::apply(NanFn::apply(x));
  EXPECT_EMBER_ERROR(y.backward(), "NanFn", "returned nan values");
}

TEST(Engine, SavedTensorsAreFreedAfterBackward) {
  Tensor x = leaf({1, 2, 3});
  empty_cache();
  const size_t before = memory_allocated();
  {
    Tensor y = SumFn::apply(ExpFn::apply(ExpFn::apply(x)));
    y.backward();
    x.mutable_grad().reset();
  }
  EXPECT_EQ(memory_allocated(), before);
}

TEST(Engine, ConcurrentBackwardOnIndependentGraphs) {
  std::vector<std::thread> threads;
  std::vector<double> results(8, 0);
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([t, &results] {
      Tensor x = leaf({double(t)});
      for (int rep = 0; rep < 50; ++rep) {
        x.mutable_grad().reset();
        SumFn::apply(MulFn::apply(x, ScaleFn::apply(x, 2.0))).backward();  // d/dx 2x^2 = 4x
      }
      results[t] = x.grad().item<double>();
    });
  }
  for (auto& th : threads) th.join();
  for (int t = 0; t < 8; ++t) EXPECT_EQ(results[t], 4.0 * t);
}

TEST(Engine, SequenceNumbersGrowOnEachThreadAndNeverRepeat) {
  // Note [Sequence numbers]: taken in blocks per thread, so 3000 nodes per
  // thread cross several blocks while other threads take theirs.
  constexpr int kThreads = 4, kNodes = 3000;
  std::vector<std::vector<uint64_t>> seen(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([t, &seen] {
      Tensor v = leaf({1.0});
      for (int i = 0; i < kNodes; ++i) {
        v = ScaleFn::apply(v, 1.0);
        seen[t].push_back(v.grad_fn()->sequence_nr());
      }
    });
  }
  for (auto& th : threads) th.join();
  std::vector<uint64_t> all;
  for (const auto& s : seen) {
    for (size_t i = 1; i < s.size(); ++i) ASSERT_LT(s[i - 1], s[i]);
    all.insert(all.end(), s.begin(), s.end());
  }
  std::sort(all.begin(), all.end());
  EXPECT_EQ(std::adjacent_find(all.begin(), all.end()), all.end());
}

TEST(Engine, ReentrantBackwardInsideANode) {
  // A node whose backward itself runs autograd::grad on a fresh graph (as checkpointing does).
  struct Reentrant : autograd::Function<Reentrant> {
    static Tensor forward(AutogradContext* ctx, Tensor x) {
      ctx->save_for_backward({x});
      return x * x;
    }
    static variable_list backward(AutogradContext* ctx, variable_list g) {
      Tensor x = ctx->get_saved_variables()[0].detach().requires_grad_();
      Tensor y;
      {
        EnableGradGuard eg;
        y = SumFn::apply(MulFn::apply(x, x));
      }
      auto inner = autograd::grad({y}, {x});
      return {g[0] * inner[0]};
    }
  };
  Tensor x = leaf({3.0});
  SumFn::apply(Reentrant::apply(x)).backward();
  EXPECT_EQ(x.grad().item<double>(), 6.0);
}

namespace {
// Identity forward; its first backward throws, later ones scale by 5.
struct FailsOnce : autograd::Function<FailsOnce> {
  static inline int calls = 0;
  static Tensor forward(AutogradContext*, Tensor x) { return x * 1.0; }
  static variable_list backward(AutogradContext*, variable_list g) {
    EMBER_CHECK(calls++ > 0, "FailsOnce: first backward fails");
    return {g[0] * 5.0};
  }
};
}  // namespace

TEST(Engine, AFailedBackwardLeavesTheGraphUsable) {
  // The engine keeps per-pass state in the nodes and in per-thread scratch
  // (Note [Tasks found through the node]); a pass that throws midway must
  // leave neither behind.
  Tensor x = leaf({1, 2});
  Tensor y = SumFn::apply(ScaleFn::apply(FailsOnce::apply(ScaleFn::apply(x, 2.0)), 3.0));
  EXPECT_EMBER_ERROR(y.backward({}, /*retain_graph=*/true), "first backward fails");
  EXPECT_FALSE(x.grad().defined());
  std::vector<autograd::Node*> stack{y.grad_fn().get()};
  while (!stack.empty()) {  // no node is left claimed by the failed pass
    autograd::Node* n = stack.back();
    stack.pop_back();
    EXPECT_EQ(n->engine_slot().owner.load(), nullptr) << n->name();
    for (const autograd::Edge& e : n->next_edges())
      if (e.function) stack.push_back(e.function.get());
  }
  y.backward({}, /*retain_graph=*/true);
  EXPECT_TENSOR_EQ(x.grad(), tensor({30.0, 30.0}, kDouble));
  Tensor x2 = leaf({1});
  SumFn::apply(ScaleFn::apply(x2, 4.0)).backward();
  EXPECT_TENSOR_EQ(x2.grad(), tensor({4.0}, kDouble));
}

TEST(Engine, ConcurrentBackwardOnASharedGraph) {
  // Four passes over one graph at once: one claims each node, the others find
  // their tasks through the hash table.
  // The passes overlap mostly while the threads start, so the start is repeated:
  // a pass that gave x's node two tasks (one found through the table, one claimed
  // after the other pass let go) lost half its gradient in about 1 % of starts.
  Tensor x = leaf({1, 2});
  Tensor y = SumFn::apply(MulFn::apply(ScaleFn::apply(x, 3.0), x));  // 3 x^2
  for (int start = 0; start < 200; ++start) {
    std::vector<std::thread> threads;
    std::vector<std::vector<Tensor>> grads(4);
    for (int t = 0; t < 4; ++t)
      threads.emplace_back([&, t] {
        for (int rep = 0; rep < 5; ++rep) grads[t].push_back(autograd::grad({y}, {x}, {}, /*retain_graph=*/true)[0]);
      });
    for (auto& th : threads) th.join();
    for (const auto& per_thread : grads)
      for (const Tensor& g : per_thread)
        ASSERT_TRUE(::ember::testing::tensors_close(g, tensor({6.0, 12.0}, kDouble), 0, 0)) << "start " << start;
  }
}

TEST(Engine, ReentrantBackwardThroughTheOuterGraph) {
  // The inner pass runs a node the outer pass has counted but not yet run.
  struct Reentrant : autograd::Function<Reentrant> {
    static Tensor forward(AutogradContext* ctx, Tensor z, Tensor x) {
      ctx->save_for_backward({z, x});
      return z * 1.0;
    }
    static variable_list backward(AutogradContext* ctx, variable_list g) {
      auto s = ctx->get_saved_variables();
      Tensor inner;
      {
        EnableGradGuard eg;
        inner = autograd::grad({SumFn::apply(MulFn::apply(s[0], s[0]))}, {s[1]}, {}, /*retain_graph=*/true)[0];
      }
      return {g[0] * inner, Tensor()};  // d(z^2)/dx = 8x with z = 2x
    }
  };
  Tensor x = leaf({3.0});
  Tensor z = ScaleFn::apply(x, 2.0);
  SumFn::apply(Reentrant::apply(z, x)).backward();
  EXPECT_EQ(x.grad().item<double>(), 48.0);  // ScaleFn's backward: 2 * 8x
}
