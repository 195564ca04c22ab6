// vmap against its definition (tests/vmap/vmap_oracle.h): f per slice, stacked.
#include <gtest/gtest.h>

#include <thread>

#include "common/test_util.h"
#include "ember/ember.h"
#include "ember/vmap/batched_tensor.h"
#include "vmap/vmap_oracle.h"

namespace torch {
namespace {

using namespace vmap_test;

class Vmap : public ::testing::Test {
 protected:
  void SetUp() override { manual_seed(7); }
};

TEST_F(Vmap, ElementwiseUnaryAndActivations) {
  Tensor x = randn({4, 3, 2}, kDouble);
  for (int64_t d : {0, 1, 2, -1}) {
    expect_matches_loop1([](const Tensor& t) { return t.exp(); }, x, d);
    expect_matches_loop1([](const Tensor& t) { return t.relu().sigmoid(); }, x, d);
    expect_matches_loop1([](const Tensor& t) { return gelu(t, "tanh") + leaky_relu(t, 0.2); }, x, d);
    expect_matches_loop1([](const Tensor& t) { return hardtanh(t, -0.5, 0.5) * elu(t) - softplus(t); }, x, d);
    expect_matches_loop1([](const Tensor& t) { return clamp(t, -0.3, 0.4).round(1); }, x, d);
    expect_matches_loop1([](const Tensor& t) { return t.isnan().logical_not(); }, x, d);
  }
}

TEST_F(Vmap, BinaryBroadcastsLogicalShapes) {
  Tensor x = randn({5, 3}, kDouble), y = randn({2, 3}, kDouble), z = randn({3, 5}, kDouble);
  auto f = [](const std::vector<Tensor>& a) { return std::vector<Tensor>{a[0] * a[1] + 2, a[0] > a[1]}; };
  expect_matches_loop(f, {x, y}, {0, std::nullopt});                    // [3] with a shared [2, 3]
  expect_matches_loop(f, {x, z}, {0, 1});                               // both batched, different dims
  expect_matches_loop(f, {x, x}, {1, 1}, 1);                            // [5] per sample, output batch at dim 1
  expect_matches_loop(f, {randn({5}, kDouble), y}, {0, std::nullopt});  // 0-dim per sample
  // A 0-dim float64 sample with a float32 vector promotes as 0-dim does (to float32).
  Tensor s = randn({4}, kDouble), v = randn({3}, kFloat);
  auto g = [](const std::vector<Tensor>& a) { return std::vector<Tensor>{a[0] + a[1], 3.5 - a[0] * a[1]}; };
  std::vector<Tensor> r = vmap(g, {0, std::nullopt})({s, v});
  EXPECT_EQ(r[0].dtype(), kFloat);
  expect_matches_loop(g, {s, v}, {0, std::nullopt});
  expect_matches_loop(g, {randint(0, 5, {4, 3}, kLong), v}, {0, std::nullopt});
}

TEST_F(Vmap, InPlaceWritesThroughToTheInput) {
  Tensor x = randn({4, 3}, kDouble), y = randn({3}, kDouble);
  Tensor expected = x * 2 + y;
  vmap([](const Tensor& t) {
    Tensor u = t;
    return u.mul_(2);
  })(x);
  Tensor x2 = x.clone();
  vmap([&](const Tensor& t) {
    Tensor u = t;
    return u.add_(y);
  })(x2);
  EXPECT_TENSOR_CLOSE(x2, expected);
  // self not batched, other batched: the result would not fit in self.
  Tensor shared = zeros({3}, kDouble);
  EXPECT_EMBER_ERROR(vmap([&](const Tensor& t) {
                       Tensor s = shared;
                       return s.add_(t);
                     })(x),
                     "in-place", "vmap");
}

TEST_F(Vmap, Reductions) {
  Tensor x = randn({3, 4, 5}, kDouble);
  for (int64_t d : {0, 2}) {
    expect_matches_loop1([](const Tensor& t) { return t.sum(); }, x, d);
    expect_matches_loop1([](const Tensor& t) { return t.sum({-1}, true); }, x, d);
    expect_matches_loop1([](const Tensor& t) { return t.mean({0, 1}); }, x, d);
    expect_matches_loop1([](const Tensor& t) { return amax(t, {0}) - amin(t, {}, true); }, x, d);
    expect_matches_loop1([](const Tensor& t) { return std::get<0>(max(t, 1, true)); }, x, d);
    expect_matches_loop1([](const Tensor& t) { return std::get<1>(min(t, -1)); }, x, d);
    expect_matches_loop1([](const Tensor& t) { return argmax(t, std::nullopt, true); }, x, d);
    expect_matches_loop1([](const Tensor& t) { return argmin(t); }, x, d);
    expect_matches_loop1([](const Tensor& t) { return t.var(OptionalIntArrayRef(IntArrayRef{1}), Scalar(0), true); }, x,
                         d);
    expect_matches_loop1([](const Tensor& t) { return t.std() + logsumexp(t, {0}); }, x, d);
    expect_matches_loop1([](const Tensor& t) { return t.prod() + t.prod(1); }, x, d);
    expect_matches_loop1([](const Tensor& t) { return t.max() + t.min() + norm(t, 2); }, x, d);
    expect_matches_loop1([](const Tensor& t) { return cumsum(t, 1) + softmax(t, -1) - log_softmax(t, 0); }, x, d);
    expect_matches_loop1(
        [](const Tensor& t) { return (t > 0).any(0).to(kDouble) + count_nonzero(t > 0, IntArrayRef{0}); }, x, d);
  }
  // 0-dim samples: reductions over "all dims" and along dim 0 of a scalar.
  Tensor v = randn({6}, kDouble);
  expect_matches_loop1([](const Tensor& t) { return t.sum() + t.sum({0}, true) + t.mean({-1}); }, v);
  expect_matches_loop1([](const Tensor& t) { return softmax(t, 0) + cumsum(t, 0) + t.prod(0); }, v);
  expect_matches_loop1([](const Tensor& t) { return argmax(t, std::nullopt, true); }, v);
}

TEST_F(Vmap, Views) {
  Tensor x = randn({3, 4, 6}, kDouble);
  for (int64_t d : {0, 1, 2}) {
    // A view must be possible per sample; for d != 0 the sample's rows are not adjacent.
    if (d == 0) expect_matches_loop1([](const Tensor& t) { return t.view({-1}); }, x, d);
    expect_matches_loop1([](const Tensor& t) { return t.view({t.size(0), 1, t.size(1)}); }, x, d);
    expect_matches_loop1([](const Tensor& t) { return t.reshape({2, -1, 1}); }, x, d);
    expect_matches_loop1([](const Tensor& t) { return t.t().unsqueeze(0).unsqueeze(-1); }, x, d);
    expect_matches_loop1([](const Tensor& t) { return t.transpose(0, -1).contiguous().flatten(); }, x, d);
    expect_matches_loop1([](const Tensor& t) { return t.permute({1, 0}).select(1, 1); }, x, d);
    expect_matches_loop1([](const Tensor& t) { return t.narrow(1, 1, 2).slice(0, 0, 2); }, x, d);
    expect_matches_loop1([](const Tensor& t) { return t.unsqueeze(1).expand({-1, 5, -1}).squeeze(); }, x, d);
    expect_matches_loop1([](const Tensor& t) { return t.movedim(0, 1).diagonal(); }, x, d);
    expect_matches_loop1(
        [](const Tensor& t) {
          return t.chunk(2, 1)[1] + t.split((t.size(1) + 1) / 2, 1)[0] +
                 t.split_with_sizes({t.size(1) / 2, t.size(1) - t.size(1) / 2}, 1)[1];
        },
        x, d);
    expect_matches_loop1([](const Tensor& t) { return t.unbind(-1)[2]; }, x, d);
  }
  // A view inside vmap writes through to the input.
  Tensor y = zeros({3, 4}, kDouble);
  vmap([](const Tensor& t) { return t.select(0, 1).fill_(5); })(y);
  EXPECT_TENSOR_EQ(y.select(1, 1), full({3}, 5.0, kDouble));
  EXPECT_DOUBLE_EQ(y.sum().item<double>(), 15.0);
}

TEST_F(Vmap, MatmulFamily) {
  Tensor m = randn({4, 3, 5}, kDouble), v = randn({4, 5}, kDouble), w = randn({4, 3}, kDouble);
  Tensor shared_m = randn({5, 2}, kDouble), shared_v = randn({5}, kDouble), shared_b = randn({2, 3, 5}, kDouble);
  auto mm2 = [](const std::vector<Tensor>& a) { return std::vector<Tensor>{matmul(a[0], a[1])}; };
  expect_matches_loop(mm2, {v, v});                            // vec . vec
  expect_matches_loop(mm2, {m, v});                            // mat @ vec
  expect_matches_loop(mm2, {w, m});                            // vec @ mat
  expect_matches_loop(mm2, {m, shared_m}, {0, std::nullopt});  // mat @ shared mat
  expect_matches_loop(mm2, {m, shared_v}, {0, std::nullopt});  // mat @ shared vec
  expect_matches_loop(mm2, {shared_b, v}, {std::nullopt, 0});  // shared batch of mats @ vec
  expect_matches_loop(mm2, {shared_b, m.transpose(1, 2)}, {std::nullopt, 0});
  expect_matches_loop(mm2, {v, shared_b.transpose(1, 2)}, {0, std::nullopt});
  auto named = [](const std::vector<Tensor>& a) {
    return std::vector<Tensor>{mm(a[0], a[0].t()), mv(a[0], a[1]), dot(a[1], a[1]), outer(a[1], a[1])};
  };
  expect_matches_loop(named, {m, v});
  expect_matches_loop([](const std::vector<Tensor>& a) { return std::vector<Tensor>{bmm(a[0], a[0].transpose(1, 2))}; },
                      {randn({3, 2, 4, 5}, kDouble)});
  Tensor weight = randn({6, 5}, kDouble), bias = randn({6}, kDouble);
  expect_matches_loop([&](const std::vector<Tensor>& a) { return std::vector<Tensor>{linear(a[0], weight, bias)}; },
                      {m});
  expect_matches_loop([](const std::vector<Tensor>& a) { return std::vector<Tensor>{linear(a[0], a[1])}; },
                      {v, randn({4, 6, 5}, kDouble)});
}

TEST_F(Vmap, CatStackWhereClamp) {
  Tensor x = randn({4, 3}, kDouble), y = randn({2}, kDouble), z = randn({4, 3}, kDouble);
  expect_matches_loop(
      [](const std::vector<Tensor>& a) {
        return std::vector<Tensor>{cat({a[0], a[1], a[0]}), stack({a[0].narrow(0, 0, 2), a[1]}, 1),
                                   cat({a[0].unsqueeze(0), a[0].unsqueeze(0)}, -1)};
      },
      {x, y}, {0, std::nullopt});
  expect_matches_loop(
      [](const std::vector<Tensor>& a) {
        return std::vector<Tensor>{where(a[0] > a[1], a[0], a[1]), where(a[0] > 0, a[0], 0.5),
                                   clamp(a[0], a[1], std::nullopt), clamp_max(a[1], a[0])};
      },
      {x, z});
}

TEST_F(Vmap, SortingSelectionAndIndexing) {
  Tensor x = randn({4, 5, 3}, kDouble);
  for (int64_t d : {0, 1}) {
    expect_matches_loop1([](const Tensor& t) { return std::get<0>(t.sort(0, true)) + std::get<1>(t.sort(-1)); }, x, d);
    expect_matches_loop1(
        [](const Tensor& t) {
          return std::get<0>(t.topk(2, 0)).sum() + std::get<1>(t.topk(1, 1, false)).squeeze(1).to(kDouble);
        },
        x, d);
    expect_matches_loop1(
        [](const Tensor& t) { return std::get<0>(t.kthvalue(2, 1, true)) + std::get<0>(median(t, 0)); }, x, d);
    expect_matches_loop1([](const Tensor& t) { return std::get<0>(cummax(t, 0)) + std::get<1>(cummin(t, 1)); }, x, d);
    expect_matches_loop1([](const Tensor& t) { return t.argsort(0) + msort(t); }, x, d);
  }
  // Index tensors: shared, per sample, or both sides per sample.
  Tensor idx = tensor({2, 0, 2}, kLong), idxs = randint(0, 3, {4, 2}, kLong);
  auto sel = [](const std::vector<Tensor>& a) {
    return std::vector<Tensor>{a[0].index_select(1, a[1]), a[0].index_select(0, a[1].remainder(2))};
  };
  expect_matches_loop(sel, {x, idx}, {0, std::nullopt});
  expect_matches_loop(sel, {x.select(0, 0), idxs}, {std::nullopt, 0});
  expect_matches_loop(sel, {x, idxs}, {0, 0});
  expect_matches_loop(sel, {x.transpose(0, 1), idxs.t()}, {1, 1});
  Tensor gidx = randint(0, 3, {4, 2, 3}, kLong);
  auto gat = [](const std::vector<Tensor>& a) {
    return std::vector<Tensor>{gather(a[0], 0, a[1]), gather(a[0], 1, a[1])};
  };
  expect_matches_loop(gat, {x, gidx}, {0, 0});
  expect_matches_loop(gat, {x.select(0, 1), gidx}, {std::nullopt, 0});
  expect_matches_loop(gat, {x, gidx.select(0, 2)}, {0, std::nullopt});
  Tensor weight = randn({6, 3}, kDouble);
  expect_matches_loop1([&](const Tensor& t) { return embedding(weight, t); }, randint(0, 6, {4, 5}, kLong), 1);
}

TEST_F(Vmap, ScatterAndIndexAdd) {
  Tensor x = randn({4, 5, 3}, kDouble), src = randn({4, 2, 3}, kDouble);
  Tensor idx = randint(0, 5, {4, 2, 3}, kLong), vidx = tensor({4, 0}, kLong), vidxs = randint(0, 5, {4, 2}, kLong);
  auto f = [](const std::vector<Tensor>& a) {
    return std::vector<Tensor>{a[0].scatter_add(0, a[1], a[2]), a[0].scatter(0, a[1], a[2]),
                               a[0].scatter(0, a[1], 2.5)};
  };
  expect_matches_loop(f, {x, idx, src});
  expect_matches_loop(f, {x.select(0, 0), idx, src}, {std::nullopt, 0, 0});  // self shared
  expect_matches_loop(f, {x, idx.select(0, 1), src}, {0, std::nullopt, 0});  // index shared
  auto g = [](const std::vector<Tensor>& a) { return std::vector<Tensor>{a[0].index_add(0, a[1], a[2], 0.5)}; };
  expect_matches_loop(g, {x, vidx, src}, {0, std::nullopt, 0});
  expect_matches_loop(g, {x, vidxs, src}, {0, 0, 0});
  expect_matches_loop(g, {x.select(0, 2), vidxs, src.select(0, 1)}, {std::nullopt, 0, std::nullopt});
  // In place: self batched, written through to the input.
  Tensor y = zeros({4, 5}, kDouble);
  vmap([](const std::vector<Tensor>& a) {
    Tensor t = a[0];
    t.index_add_(0, a[1], ones({2}, kDouble));
    return std::vector<Tensor>{t};
  })({y, vidxs});
  for (int64_t b = 0; b < 4; ++b)
    EXPECT_TENSOR_EQ(y[b], zeros({5}, kDouble).index_add(0, vidxs[b], ones({2}, kDouble)));
  // Not batched self with a batched source: the result would not fit.
  Tensor shared = zeros({5, 3}, kDouble);
  EXPECT_EMBER_ERROR(vmap([&](const Tensor& s) {
                       Tensor t = shared;
                       return t.scatter_add_(0, zeros({2, 3}, kLong), s);
                     })(src),
                     "scatter_add_", "not batched");
}

TEST_F(Vmap, PointwiseLossesPerSample) {
  Tensor x = randn({4, 5, 3}, kDouble), y = randn({4, 5, 3}, kDouble), w = rand({3}, kDouble);
  Tensor p = rand({4, 5, 3}, kDouble), t = (rand({4, 5, 3}, kDouble) > 0.5).to(kDouble);
  const int64_t mean = Reduction::Mean, sum = Reduction::Sum, none = Reduction::None;
  expect_matches_loop(
      [&](const std::vector<Tensor>& a) {
        return std::vector<Tensor>{mse_loss(a[0], a[1], mean),
                                   l1_loss(a[0], a[1], sum),
                                   smooth_l1_loss(a[0], a[1], none, 0.5),
                                   huber_loss(a[0], a[1], mean, 0.7),
                                   soft_margin_loss(a[0], a[1].sign(), mean),
                                   margin_ranking_loss(a[0], a[1], a[1].sign(), 0.1, sum),
                                   hinge_embedding_loss(a[0], a[1].sign(), 1.0, mean)};
      },
      {x, y});
  expect_matches_loop(
      [&](const std::vector<Tensor>& a) {
        return std::vector<Tensor>{binary_cross_entropy_with_logits(a[0], a[1], w, w * 2, mean),
                                   kl_div(a[0].log_softmax(-1), a[1], sum, false),
                                   poisson_nll_loss(a[0], a[1] * 3, true, true, 1e-8, mean)};
      },
      {x, t}, {0, 0});
  expect_matches_loop([&](const std::vector<Tensor>& a) { return std::vector<Tensor>{mse_loss(a[0], a[1], mean)}; },
                      {x, p.select(1, 0)}, {1, std::nullopt});
}

TEST_F(Vmap, NllAndCrossEntropyPerSample) {
  Tensor logits = randn({4, 6, 5}, kDouble), w = rand({5}, kDouble) + 0.5;
  Tensor target = randint(0, 5, {4, 6}, kLong);
  target[1][2] = -100;  // ignored
  target[3][0] = -100;
  Tensor probs = randn({4, 6, 5}, kDouble).softmax(-1);
  for (int64_t red : {int64_t{Reduction::None}, int64_t{Reduction::Mean}, int64_t{Reduction::Sum}}) {
    expect_matches_loop(
        [&](const std::vector<Tensor>& a) {
          return std::vector<Tensor>{nll_loss(a[0].log_softmax(-1), a[1], std::nullopt, red),
                                     nll_loss(a[0].log_softmax(-1), a[1], w, red),
                                     cross_entropy_loss(a[0], a[1], w, red, -100, 0.0),
                                     cross_entropy_loss(a[0], a[1], std::nullopt, red, -100, 0.2)};
        },
        {logits, target});
    expect_matches_loop(
        [&](const std::vector<Tensor>& a) {
          return std::vector<Tensor>{cross_entropy_loss(a[0], a[1], std::nullopt, red, -100, 0.0)};
        },
        {logits, probs});
  }
  // One sample is a single [C] row with a 0-dim target.
  expect_matches_loop(
      [&](const std::vector<Tensor>& a) {
        return std::vector<Tensor>{cross_entropy_loss(a[0], a[1], w, Reduction::Mean, -100, 0.0)};
      },
      {logits.select(0, 0), target.select(0, 0).clamp_min(0)});
}

TEST_F(Vmap, CompositeOps) {
  Tensor x = randn({4, 3, 5}, kDouble), y = randn({4, 3, 5}, kDouble), m = randn({5, 2}, kDouble);
  expect_matches_loop(
      [&](const std::vector<Tensor>& a) {
        return std::vector<Tensor>{
            pairwise_distance(a[0], a[1]),
            cosine_similarity(a[0], a[1], 1),
            triplet_margin_loss(a[0], a[1], a[1].flip({0}), 1.0, 2, 1e-6, false, Reduction::Mean),
            einsum("ij,jk->ik", {a[0], m}),
            einsum("ij,ij->i", {a[0], a[1]}),
            tensordot(a[0], m, {1}, {0}),
            hstack({a[0], a[1]}),
            vstack({a[0], a[1]}),
            column_stack({a[0], a[1]}),
            dstack({a[0], a[1]}),
            atleast_3d(a[0]),
            fliplr(a[0]) + flipud(a[1]),
            concat({a[0], a[1]}, -1)};
      },
      {x, y});
}

TEST_F(Vmap, FactoriesAndCopies) {
  Tensor x = randn({3, 4}, kDouble);
  expect_matches_loop1([](const Tensor& t) { return zeros_like(t) + ones_like(t) * full_like(t, 2) + t.clone(); }, x);
  expect_matches_loop1([](const Tensor& t) { return t.to(kFloat); }, x, 1);
  Tensor dst = zeros({3, 4}, kDouble);
  vmap([](const std::vector<Tensor>& a) {
    Tensor d = a[0];
    d.copy_(a[1] * 2);
    return std::vector<Tensor>{d};
  })({dst, x});
  EXPECT_TENSOR_CLOSE(dst, x * 2);
}

TEST_F(Vmap, UnbatchedOutputsAreBroadcastAndOutDimsPlaceTheBatch) {
  Tensor x = randn({3, 2}, kDouble), c = randn({5}, kDouble);
  std::vector<Tensor> r = vmap(
      [&](const std::vector<Tensor>& a) {
        return std::vector<Tensor>{c, a[0] * 2};
      },
      {0}, {-1})({x});
  EXPECT_EQ(r[0].sizes().vec(), (std::vector<int64_t>{5, 3}));
  EXPECT_TENSOR_EQ(r[0], c.unsqueeze(1).expand({5, 3}));
  EXPECT_TENSOR_EQ(r[1], (x * 2).t());
}

TEST_F(Vmap, NestedMapsOverTwoDims) {
  Tensor x = randn({3, 4, 5}, kDouble), y = randn({4, 5}, kDouble);
  auto inner = [](const std::vector<Tensor>& a) {
    return std::vector<Tensor>{(a[0] * a[1]).sum() + softmax(a[0], 0).max(), matmul(a[0], a[1]) * a[0]};
  };
  // Outer over x's dim 0 (y shared); inner over dim 0 of both.
  VmapFunction outer = vmap(vmap(inner), {0, std::nullopt});
  std::vector<Tensor> got = outer({x, y});
  for (int64_t i = 0; i < 3; ++i)
    for (int64_t j = 0; j < 4; ++j) {
      std::vector<Tensor> want = inner({x[i][j], y[j]});
      EXPECT_TENSOR_CLOSE(got[0][i][j], want[0]);
      EXPECT_TENSOR_CLOSE(got[1][i][j], want[1]);
    }
  // The inner map over a different dim of the per-sample tensor.
  VmapFunction outer2 = vmap(vmap(inner, {1, std::nullopt}), {2, std::nullopt});
  Tensor y2 = randn({3}, kDouble);
  std::vector<Tensor> got2 = outer2({x, y2});
  EXPECT_EQ(got2[0].sizes().vec(), (std::vector<int64_t>{5, 4}));
  for (int64_t k = 0; k < 5; ++k)
    for (int64_t j = 0; j < 4; ++j) EXPECT_TENSOR_CLOSE(got2[1][k][j], inner({x.select(2, k).select(1, j), y2})[1]);
}

TEST_F(Vmap, GradientsFlowThroughVmapToItsInputs) {
  Tensor x = randn({4, 3}, kDouble).requires_grad_(true);
  Tensor w = randn({3, 2}, kDouble).requires_grad_(true);
  auto f = [&](const Tensor& t) { return (matmul(t, w).tanh() * t.sum()).sum(); };
  Tensor per_sample = vmap(f)(x);
  per_sample.pow(2).sum().backward();
  Tensor gx = x.grad().clone(), gw = w.grad().clone();
  x.mutable_grad() = Tensor();
  w.mutable_grad() = Tensor();
  Tensor looped = stack({f(x[0]), f(x[1]), f(x[2]), f(x[3])});
  EXPECT_TENSOR_CLOSE(per_sample.detach(), looped.detach());
  looped.pow(2).sum().backward();
  EXPECT_TENSOR_CLOSE(gx, x.grad());
  EXPECT_TENSOR_CLOSE(gw, w.grad());
}

TEST_F(Vmap, BadInputsRaise) {
  Tensor x = randn({3, 4}, kDouble);
  auto id = [](const std::vector<Tensor>& a) { return a; };
  EXPECT_EMBER_ERROR(vmap(id, {0, 0})({x, randn({2, 4}, kDouble)}), "same size in the mapped dimension", "[3, 2]");
  EXPECT_EMBER_ERROR(vmap(id, {2})({x}), "in_dim=2", "-2 <= in_dim < 2");
  EXPECT_EMBER_ERROR(vmap(id, {std::nullopt})({x}), "at least one input must be batched");
  EXPECT_EMBER_ERROR(vmap(id, {0, 0})({x}), "in_dims has 2 elements, but inputs has 1");
  EXPECT_EMBER_ERROR(vmap(id, {0}, {3})({x}), "out_dims");
  // An op without a batching rule names itself instead of computing sample 0's result.
  // (Every op in the OpInfo registry has one; this is the refusal such an op's
  // profiler scope makes.)
  EXPECT_EMBER_ERROR(vmap([](const Tensor& t) {
                       profiler::detail::refuse_batched("some_op", t);
                       return t;
                     })(x),
                     "some_op", "no batching rule", "[4]");
  EXPECT_TENSOR_CLOSE(vmap([](const Tensor& t) { return addmv(t, eye(4, kDouble), t); })(x), x * 2);
  // Raw memory of a batched tensor is sample 0's: reading it raises instead.
  EXPECT_EMBER_ERROR(vmap([](const Tensor& t) {
                       (void)t.data_ptr<double>();
                       return t;
                     })(x),
                     "data_ptr", "batched by vmap", "[4]");
  EXPECT_EMBER_ERROR(vmap([](const Tensor& t) {
                       (void)t.data_ptr();
                       return t;
                     })(x),
                     "data_ptr", "batched by vmap");
  // Logical shapes in the errors of ops with rules.
  EXPECT_EMBER_ERROR(vmap([](const Tensor& t) { return t.t().t().view({5}); })(x), "view");
  EXPECT_EMBER_ERROR(vmap([](const Tensor& t) { return mm(t, t); })(x), "mm");
  // A batched tensor kept past its vmap call raises when used, not sample 0's values.
  Tensor kept;
  vmap([&](const Tensor& t) {
    kept = t * 2;
    return t;
  })(x);
  EXPECT_EMBER_ERROR(kept + 1, "outside that call");
  EXPECT_EMBER_ERROR(kept.sum(), "outside that call");
  kept.reset();
  EXPECT_EMBER_ERROR(vmap([](const Tensor& t) { return scalar_tensor(t.sum().item()); })(x), "item", "vmap");
  // Afterwards ops on plain tensors run normally (the hooks are off again).
  EXPECT_EQ(x.nonzero().size(0), 12);
  EXPECT_FALSE(batching::is_batched(x + 1));
}

TEST_F(Vmap, ConcurrentVmapsOnSeveralThreads) {
  std::vector<std::thread> threads;
  std::vector<int> ok(4, 0);
  for (int i = 0; i < 4; ++i)
    threads.emplace_back([&, i] {
      Tensor x = full({8, 3}, static_cast<double>(i), kDouble);
      for (int rep = 0; rep < 50; ++rep) {
        Tensor r = vmap([](const Tensor& t) { return (t * t).sum(); })(x);
        if (!r.equal(full({8}, 3.0 * i * i, kDouble))) return;
      }
      ok[i] = 1;
    });
  for (auto& t : threads) t.join();
  EXPECT_EQ(ok, (std::vector<int>{1, 1, 1, 1}));
}

}  // namespace
}  // namespace torch
