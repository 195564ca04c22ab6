// func::grad / grad_and_value, alone and composed with vmap. The oracle is
// plain autograd: autograd::grad on fresh leaves, one sample at a time, a path
// that never goes through the transform or a batching rule.
#include "ember/func/grad.h"

#include <gtest/gtest.h>

#include <string>

#include "common/golden.h"
#include "common/test_util.h"
#include "ember/ember.h"
#include "ember/vmap/batched_tensor.h"

namespace torch {
namespace {

using Dims = std::vector<std::optional<int64_t>>;

class FuncGrad : public ::testing::Test {
 protected:
  void SetUp() override { manual_seed(11); }
};

// d value / d inputs[argnums] by autograd::grad on fresh leaves.
std::vector<Tensor> autograd_oracle(const func::Function& f, const std::vector<Tensor>& inputs,
                                    const std::vector<size_t>& argnums) {
  std::vector<Tensor> args = inputs, leaves;
  for (size_t i : argnums) {
    args[i] = inputs[i].detach().requires_grad_(true);
    leaves.push_back(args[i]);
  }
  Tensor value = f(args)[0];
  std::vector<Tensor> g = autograd::grad({value}, leaves, {}, std::nullopt, false, /*allow_unused=*/true);
  for (size_t k = 0; k < g.size(); ++k)
    if (!g[k].defined()) g[k] = zeros_like(leaves[k]);
  return g;
}

void expect_error(const std::function<void()>& fn, const std::string& substr) {
  try {
    fn();
    ADD_FAILURE() << "expected an ember::Error containing \"" << substr << "\"";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(substr), std::string::npos) << e.what();
  }
}

// A linear classifier's loss on one sample: x [D], y a 0-dim class index.
std::vector<Tensor> linear_ce(const std::vector<Tensor>& a) {
  const Tensor logits = linear(a[2].unsqueeze(0), a[0], a[1]);
  return {cross_entropy_loss(logits, a[3].unsqueeze(0))};
}

// A two-layer regression net's loss on one sample.
std::vector<Tensor> mlp_mse(const std::vector<Tensor>& a) {
  const Tensor h = linear(a[2], a[0]).tanh();
  return {mse_loss(linear(h, a[1]), a[3])};
}

TEST_F(FuncGrad, MatchesAutogradGradOutsideVmap) {
  const Tensor x = randn({3, 4}, kDouble), w = randn({4}, kDouble);
  const func::Function f = [](const std::vector<Tensor>& a) {
    return std::vector<Tensor>{(a[0].sin() * a[1]).sum() + (a[1] * a[1]).mean()};
  };
  const std::vector<Tensor> got = func::grad(f, {0, 1})({x, w});
  const std::vector<Tensor> want = autograd_oracle(f, {x, w}, {0, 1});
  ASSERT_EQ(got.size(), 2u);
  EXPECT_TENSOR_CLOSE(got[0], want[0]);
  EXPECT_TENSOR_CLOSE(got[1], want[1]);
  EXPECT_FALSE(got[0].requires_grad());
  // The default argnums is {0}.
  EXPECT_TENSOR_CLOSE(func::grad(f)({x, w})[0], want[0]);
}

TEST_F(FuncGrad, LeavesCallersTensorsAloneAndWorksUnderNoGrad) {
  const Tensor x = randn({5}, kDouble).requires_grad_(true);
  const func::Function f = [](const std::vector<Tensor>& a) { return std::vector<Tensor>{a[0].exp().sum()}; };
  Tensor g;
  {
    NoGradGuard no_grad;
    g = func::grad(f)({x})[0];
  }
  EXPECT_TENSOR_CLOSE(g, x.detach().exp());
  EXPECT_FALSE(x.grad().defined());
  EXPECT_FALSE(g.requires_grad());  // grad mode was off in the caller: no graph to keep
}

TEST_F(FuncGrad, UnusedInputGetsZeros) {
  const Tensor x = randn({3}, kDouble), u = randn({2, 2}, kDouble);
  const func::Function f = [](const std::vector<Tensor>& a) { return std::vector<Tensor>{a[0].pow(2).sum()}; };
  const std::vector<Tensor> g = func::grad(f, {0, 1})({x, u});
  EXPECT_TENSOR_CLOSE(g[0], x * 2);
  EXPECT_TENSOR_EQ(g[1], zeros({2, 2}, kDouble));
  // A value that does not depend on any input at all.
  const func::Function c = [](const std::vector<Tensor>&) { return std::vector<Tensor>{ones({}, kDouble)}; };
  EXPECT_TENSOR_EQ(func::grad(c)({x})[0], zeros({3}, kDouble));
}

TEST_F(FuncGrad, ArgnumsSelectOrderAndNegative) {
  const Tensor x = randn({3}, kDouble), y = randn({3}, kDouble);
  const func::Function f = [](const std::vector<Tensor>& a) { return std::vector<Tensor>{(a[0] * a[1].cos()).sum()}; };
  const std::vector<Tensor> want = autograd_oracle(f, {x, y}, {0, 1});
  const std::vector<Tensor> g10 = func::grad(f, {1, 0})({x, y});
  EXPECT_TENSOR_CLOSE(g10[0], want[1]);
  EXPECT_TENSOR_CLOSE(g10[1], want[0]);
  EXPECT_TENSOR_CLOSE(func::grad(f, {-1})({x, y})[0], want[1]);
}

TEST_F(FuncGrad, GradAndValueAndAux) {
  const Tensor x = randn({4}, kDouble);
  const func::Function f = [](const std::vector<Tensor>& a) {
    const Tensor s = a[0].sin();
    return std::vector<Tensor>{s.sum(), s, a[0].sum()};
  };
  const std::vector<Tensor> gv = func::grad_and_value(f, {0}, /*has_aux=*/true)({x});
  ASSERT_EQ(gv.size(), 4u);  // gradient, value, aux...
  EXPECT_TENSOR_CLOSE(gv[0], x.cos());
  EXPECT_TENSOR_CLOSE(gv[1], x.sin().sum());
  EXPECT_TENSOR_CLOSE(gv[2], x.sin());
  EXPECT_TENSOR_CLOSE(gv[3], x.sum());
  for (const Tensor& t : gv) EXPECT_FALSE(t.requires_grad());
  const std::vector<Tensor> ga = func::grad(f, {0}, /*has_aux=*/true)({x});
  ASSERT_EQ(ga.size(), 3u);  // gradient, aux...
  EXPECT_TENSOR_CLOSE(ga[0], x.cos());
  EXPECT_TENSOR_CLOSE(ga[1], x.sin());
  const func::Function g = [](const std::vector<Tensor>& a) { return std::vector<Tensor>{a[0].pow(3).sum()}; };
  const std::vector<Tensor> v = func::grad_and_value(g)({x});
  ASSERT_EQ(v.size(), 2u);
  EXPECT_TENSOR_CLOSE(v[0], x.pow(2) * 3);
  EXPECT_TENSOR_CLOSE(v[1], x.pow(3).sum());
}

// The headline use: per-sample gradients of shared parameters.
TEST_F(FuncGrad, PerSampleGradientsLinearCrossEntropy) {
  const int64_t B = 6, D = 5, C = 4;
  const Tensor w = randn({C, D}, kDouble), b = randn({C}, kDouble);
  const Tensor x = randn({B, D}, kDouble), y = randint(0, C, {B}, kLong);
  const std::vector<Tensor> got =
      func::vmap(func::grad(linear_ce, {0, 1}), {std::nullopt, std::nullopt, 0, 0})({w, b, x, y});
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0].sizes().vec(), (std::vector<int64_t>{B, C, D}));
  EXPECT_EQ(got[1].sizes().vec(), (std::vector<int64_t>{B, C}));
  for (int64_t i = 0; i < B; ++i) {
    const std::vector<Tensor> want = autograd_oracle(linear_ce, {w, b, x[i], y[i]}, {0, 1});
    EXPECT_TENSOR_CLOSE(got[0][i], want[0]);
    EXPECT_TENSOR_CLOSE(got[1][i], want[1]);
  }
  // The per-sample gradients average to the batch gradient.
  const func::Function batch_loss = [](const std::vector<Tensor>& a) {
    return std::vector<Tensor>{cross_entropy_loss(linear(a[2], a[0], a[1]), a[3])};
  };
  const std::vector<Tensor> full = autograd_oracle(batch_loss, {w, b, x, y}, {0, 1});
  EXPECT_TENSOR_CLOSE(got[0].mean(0), full[0]);
  EXPECT_TENSOR_CLOSE(got[1].mean(0), full[1]);
  EXPECT_FALSE(w.grad().defined());
}

TEST_F(FuncGrad, PerSampleGradientsMlpMseParamsRequiringGrad) {
  const int64_t B = 5, D = 3, H = 4, O = 2;
  // Parameters that require grad, as a module's do: the results then stay
  // differentiable with respect to them (torch.func does the same).
  const Tensor w1 = randn({H, D}, kDouble).requires_grad_(true), w2 = randn({O, H}, kDouble).requires_grad_(true);
  const Tensor x = randn({B, D}, kDouble), y = randn({B, O}, kDouble);
  const std::vector<Tensor> got = vmap(func::grad(mlp_mse, {0, 1}), {std::nullopt, std::nullopt, 0, 0})({w1, w2, x, y});
  for (int64_t i = 0; i < B; ++i) {
    const std::vector<Tensor> want = autograd_oracle(mlp_mse, {w1, w2, x[i], y[i]}, {0, 1});
    EXPECT_TENSOR_CLOSE(got[0][i], want[0]);
    EXPECT_TENSOR_CLOSE(got[1][i], want[1]);
  }
  EXPECT_FALSE(w1.grad().defined());
  EXPECT_FALSE(w2.grad().defined());
  // The per-sample gradients are differentiable with respect to the shared
  // parameters: d/dw2 of the summed per-sample d loss/d w1, against a loop
  // of double backward passes.
  ASSERT_TRUE(got[0].requires_grad());
  const Tensor second = autograd::grad({got[0].sum()}, {w2})[0];
  Tensor want = zeros_like(w2);
  for (int64_t i = 0; i < B; ++i) {
    const Tensor l1 = w1.detach().requires_grad_(true), l2 = w2.detach().requires_grad_(true);
    const Tensor loss = mlp_mse({l1, l2, x[i], y[i]})[0];
    const Tensor g1 = autograd::grad({loss}, {l1}, {}, std::nullopt, /*create_graph=*/true)[0];
    want = want + autograd::grad({g1.sum()}, {l2})[0];
  }
  EXPECT_TENSOR_CLOSE(second, want);
}

// Many batching rules at once (matrix products, reductions, scans, sorting,
// indexing, where, cat): their backward passes keep every sample's gradient
// in its own slice, so the one backward pass over all samples agrees with a
// pass per sample.
TEST_F(FuncGrad, PerSampleGradientsThroughManyRules) {
  const int64_t B = 4, D = 4;
  const Tensor w = randn({D, D}, kDouble), v = randn({D}, kDouble), x = randn({B, D}, kDouble);
  const Tensor idx = tensor({2, 0, 3, 2}, kLong);
  const func::Function f = [idx](const std::vector<Tensor>& a) {
    const Tensor &W = a[0], &v = a[1], &x = a[2];
    const Tensor h = matmul(W, x) + v;
    Tensor s = (softmax(h, 0) * log_softmax(h, 0)).sum() + h.var() + h.norm() + h.max();
    s = s + cumsum(h, 0).mean() + std::get<0>(h.sort())[0] + gather(h, 0, idx).sum() + h.index_select(0, idx).prod();
    s = s + where(h > 0, h, h * 0.1).sum() + cat({h, x}).logsumexp(0) + dot(h, v) + outer(h, x).tanh().sum();
    s = s + (matmul(W, W.t()) * outer(x, x)).sum() + mm(W.t(), W).sigmoid().mean() + addmm(W, W, W).pow(2).mean();
    return std::vector<Tensor>{s};
  };
  const std::vector<Tensor> got = vmap(func::grad(f, {0, 1, 2}), {std::nullopt, std::nullopt, 0})({w, v, x});
  for (int64_t i = 0; i < B; ++i) {
    const std::vector<Tensor> want = autograd_oracle(f, {w, v, x[i]}, {0, 1, 2});
    for (size_t k = 0; k < 3; ++k) EXPECT_TENSOR_CLOSE(got[k][i], want[k]);
  }
}

TEST_F(FuncGrad, VmapOfGradWithBatchedParams) {
  const int64_t B = 4, D = 3, C = 3;
  const Tensor w = randn({B, C, D}, kDouble), b = randn({C}, kDouble);
  const Tensor x = randn({D, B}, kDouble), y = randint(0, C, {B}, kLong);
  const std::vector<Tensor> got = vmap(func::grad(linear_ce, {0, 1, 2}), {0, std::nullopt, 1, 0})({w, b, x, y});
  for (int64_t i = 0; i < B; ++i) {
    const std::vector<Tensor> want = autograd_oracle(linear_ce, {w[i], b, x.select(1, i), y[i]}, {0, 1, 2});
    for (size_t k = 0; k < 3; ++k) EXPECT_TENSOR_CLOSE(got[k][i], want[k]);
  }
}

TEST_F(FuncGrad, VmapOfGradAndValueWithAux) {
  const Tensor w = randn({3}, kDouble), x = randn({5, 3}, kDouble);
  const func::Function f = [](const std::vector<Tensor>& a) {
    const Tensor p = a[0] * a[1];
    return std::vector<Tensor>{p.tanh().sum(), p};
  };
  const std::vector<Tensor> got = vmap(func::grad_and_value(f, {0}, /*has_aux=*/true), {std::nullopt, 0})({w, x});
  ASSERT_EQ(got.size(), 3u);
  EXPECT_TENSOR_CLOSE(got[1], (w * x).tanh().sum(1));
  EXPECT_TENSOR_CLOSE(got[2], w * x);
  for (int64_t i = 0; i < 5; ++i) EXPECT_TENSOR_CLOSE(got[0][i], autograd_oracle(f, {w, x[i]}, {0})[0]);
}

// The per-sample part of f closes over a batched tensor: the gradient of a
// shared input is still per sample.
TEST_F(FuncGrad, VmapOfGradClosingOverBatchedTensor) {
  const Tensor w = randn({3}, kDouble), x = randn({4, 3}, kDouble);
  const std::vector<Tensor> got = vmap(
      [&](const std::vector<Tensor>& a) {
        const Tensor xi = a[0];
        return func::grad([xi](const std::vector<Tensor>& p) { return std::vector<Tensor>{(p[0] * xi).exp().sum()}; })(
            {w});
      },
      {0})({x});
  EXPECT_TENSOR_CLOSE(got[0], x * (w * x).exp());
}

TEST_F(FuncGrad, NestedVmapOfVmapOfGrad) {
  const int64_t B1 = 3, B2 = 2, D = 4, C = 3;
  const Tensor w = randn({C, D}, kDouble), b = randn({B2, C}, kDouble);
  const Tensor x = randn({B1, B2, D}, kDouble), y = randint(0, C, {B2, B1}, kLong);
  const func::Function inner = vmap(func::grad(linear_ce, {0, 1}), {std::nullopt, 0, 0, 0});
  const std::vector<Tensor> got = vmap(inner, {std::nullopt, std::nullopt, 0, 1})({w, b, x, y});
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0].sizes().vec(), (std::vector<int64_t>{B1, B2, C, D}));
  EXPECT_EQ(got[1].sizes().vec(), (std::vector<int64_t>{B1, B2, C}));
  for (int64_t i = 0; i < B1; ++i)
    for (int64_t j = 0; j < B2; ++j) {
      const std::vector<Tensor> want = autograd_oracle(linear_ce, {w, b[j], x[i][j], y[j][i]}, {0, 1});
      EXPECT_TENSOR_CLOSE(got[0][i][j], want[0]);
      EXPECT_TENSOR_CLOSE(got[1][i][j], want[1]);
    }
}

TEST_F(FuncGrad, GradOfFunctionUsingVmap) {
  const Tensor w = randn({3}, kDouble), xs = randn({5, 3}, kDouble);
  const func::Function f = [&](const std::vector<Tensor>& a) {
    const Tensor wv = a[0];
    const Tensor per = vmap([wv](const Tensor& x) { return (x * wv).sin().sum(); })(xs);
    return std::vector<Tensor>{per.pow(2).sum()};
  };
  const func::Function loop = [&](const std::vector<Tensor>& a) {
    Tensor total = zeros({}, kDouble);
    for (int64_t i = 0; i < 5; ++i) total = total + (xs[i] * a[0]).sin().sum().pow(2);
    return std::vector<Tensor>{total};
  };
  EXPECT_TENSOR_CLOSE(func::grad(f)({w})[0], autograd_oracle(loop, {w}, {0})[0]);
}

TEST_F(FuncGrad, GradOfGrad) {
  const Tensor x = randn({}, kDouble);
  const auto d2 = func::grad(func::grad([](const Tensor& t) { return t.sin(); }));
  EXPECT_TENSOR_CLOSE(d2(x), -x.sin());
  const auto d3 = func::grad(func::grad(func::grad([](const Tensor& t) { return t.pow(4); })));
  EXPECT_TENSOR_CLOSE(d3(x), x * 24);
  // Per sample: vmap of a second derivative.
  const Tensor xs = randn({6}, kDouble);
  EXPECT_TENSOR_CLOSE(vmap(d2)(xs), -xs.sin());
  // The inner grad's input is also used directly by the outer function:
  // d/dx [x * d/dy (x * y)] at y = x is d/dx x^2 = 2x.
  const auto mixed = func::grad([](const Tensor& t) {
    const auto inner = func::grad([t](const std::vector<Tensor>& a) { return std::vector<Tensor>{t * a[0]}; });
    return t * inner({t})[0];
  });
  EXPECT_TENSOR_CLOSE(mixed(x), x * 2);
}

TEST_F(FuncGrad, ComposesWithAutograd) {
  const Tensor x = randn({}, kDouble).requires_grad_(true);
  const Tensor y = func::grad([](const Tensor& t) { return t.sin(); })(x);
  EXPECT_TRUE(y.requires_grad());
  EXPECT_TENSOR_CLOSE(autograd::grad({y}, {x})[0], -x.detach().sin());
  // Through a tensor f closes over.
  const Tensor c = randn({3}, kDouble).requires_grad_(true), z = randn({3}, kDouble);
  const Tensor g =
      func::grad([c](const std::vector<Tensor>& a) { return std::vector<Tensor>{(a[0] * c).pow(2).sum()}; })({z})[0];
  EXPECT_TENSOR_CLOSE(g, z * c.detach().pow(2) * 2);
  EXPECT_TENSOR_CLOSE(autograd::grad({g.sum()}, {c})[0], z * c.detach() * 4);
}

// Against functorch's vmap/grad/grad_and_value (tools/golden/gen_func_grad.py).
TEST_F(FuncGrad, MatchesTorchFuncGolden) {
  const testing::Golden g("func_grad.golden");
  const Dims shared2{std::nullopt, std::nullopt, 0, 0};
  const std::vector<Tensor> ce =
      vmap(func::grad(linear_ce, {0, 1}), shared2)({g["ce_w"], g["ce_b"], g["ce_x"], g["ce_y"]});
  EXPECT_TENSOR_CLOSE(ce[0], g["ce_grad_w"]);
  EXPECT_TENSOR_CLOSE(ce[1], g["ce_grad_b"]);
  const std::vector<Tensor> mlp =
      vmap(vmap(func::grad(mlp_mse, {0, 1}), shared2), shared2)({g["mlp_w1"], g["mlp_w2"], g["mlp_x"], g["mlp_y"]});
  EXPECT_TENSOR_CLOSE(mlp[0], g["mlp_grad_w1"]);
  EXPECT_TENSOR_CLOSE(mlp[1], g["mlp_grad_w2"]);
  EXPECT_TENSOR_CLOSE(vmap(func::grad(func::grad([](const Tensor& t) { return t.tanh(); })))(g["d2_x"]), g["d2_tanh"]);
  const func::Function with_aux = [](const std::vector<Tensor>& a) {
    const Tensor p = a[0] * a[1];
    return std::vector<Tensor>{p.sin().pow(2).sum(), p.cos()};
  };
  const std::vector<Tensor> gv =
      vmap(func::grad_and_value(with_aux, {0}, /*has_aux=*/true), {std::nullopt, 0})({g["aux_w"], g["aux_x"]});
  EXPECT_TENSOR_CLOSE(gv[0], g["aux_grad"]);
  EXPECT_TENSOR_CLOSE(gv[1], g["aux_value"]);
  EXPECT_TENSOR_CLOSE(gv[2], g["aux_aux"]);
}

// An in-place op on a differentiated input inside f is refused (the input is
// a leaf that requires grad there; functorch would write to the caller's).
TEST_F(FuncGrad, InPlaceOnDifferentiatedInputRaises) {
  const Tensor x = randn({3}, kDouble);
  const func::Function f = [](const std::vector<Tensor>& a) {
    Tensor t = a[0];
    t.mul_(2);
    return std::vector<Tensor>{t.sum()};
  };
  EXPECT_EMBER_ERROR(func::grad(f)({x}), "mul", "leaf Variable that requires grad", "in-place");
  EXPECT_EMBER_ERROR(vmap(func::grad(f), {std::nullopt, 0})({x, randn({2}, kDouble)}), "mul", "leaf Variable");
}

TEST_F(FuncGrad, Errors) {
  const Tensor x = randn({3}, kDouble);
  const func::Function vec = [](const std::vector<Tensor>& a) { return std::vector<Tensor>{a[0] * 2}; };
  expect_error([&] { func::grad(vec)({x}); }, "Expected f(<inputs>) to return a scalar Tensor, got tensor with 1 dims");
  expect_error([&] { vmap(func::grad(vec))({randn({2, 3}, kDouble)}); }, "shape [3]");
  const func::Function sum = [](const std::vector<Tensor>& a) { return std::vector<Tensor>{a[0].sum()}; };
  expect_error([&] { func::grad(sum, {1})({x}); }, "Got argnum=1, but only 1 positional inputs");
  expect_error([&] { func::grad(sum, {-2})({x}); }, "Got argnum=-2");
  expect_error([&] { func::grad(sum, {})({x}); }, "argnums must be non-empty");
  expect_error([&] { func::grad(sum, {0, -2})({x, x}); }, "argnums must be unique");
  expect_error([&] { func::grad(sum, {0}, /*has_aux=*/true)({x}); }, "at least one auxiliary output");
  const func::Function two = [](const std::vector<Tensor>& a) { return std::vector<Tensor>{a[0].sum(), a[0]}; };
  expect_error([&] { func::grad(two)({x}); }, "has_aux");
  expect_error([&] { func::grad(sum)({tensor({1, 2}, kLong)}); }, "floating point");
}

}  // namespace
}  // namespace torch
