// vmap of the nn ops (ember/vmap/rules_nn.h) against the per-slice oracle
// (tests/vmap/vmap_oracle.h), float64, with several in_dims and batched
// inputs, weights or both.
#include <gtest/gtest.h>

#include "common/test_util.h"
#include "ember/ember.h"
#include "ember/vmap/batched_tensor.h"
#include "vmap/vmap_oracle.h"

namespace torch {
namespace {

using namespace vmap_test;
using V = std::vector<Tensor>;
constexpr auto kNone = std::nullopt;

class VmapNn : public ::testing::Test {
 protected:
  void SetUp() override { manual_seed(11); }
};

TEST_F(VmapNn, ConvBatchedInputFoldsIntoN) {
  Tensor w1 = randn({4, 3, 3}, kDouble), w2 = randn({4, 2, 3, 3}, kDouble), w3 = randn({2, 3, 2, 2, 2}, kDouble);
  Tensor b4 = randn({4}, kDouble);
  // Batched samples [N, C, ...] and unbatched samples [C, ...], in_dims 0 and 1.
  expect_matches_loop1([&](const Tensor& x) { return conv1d(x, w1, b4, 2, 1); }, randn({5, 2, 3, 7}, kDouble));
  expect_matches_loop1([&](const Tensor& x) { return conv1d(x, w1, b4); }, randn({3, 5, 6}, kDouble), 1);
  expect_matches_loop1([&](const Tensor& x) { return conv2d(x, w2, b4, 1, 1, 1, 2); }, randn({2, 3, 4, 5, 5}, kDouble),
                       1);
  expect_matches_loop1([&](const Tensor& x) { return conv2d(x, w2, {}, 1, "same", 2, 2); },
                       randn({3, 4, 6, 5}, kDouble));
  // padding="same" with an even kernel pads asymmetrically first (constant_pad_nd's rule).
  Tensor we = randn({3, 2, 4}, kDouble);
  expect_matches_loop1([&](const Tensor& x) { return conv1d(x, we, {}, 1, "same"); }, randn({4, 2, 7}, kDouble));
  EXPECT_EMBER_ERROR(vmap([&](const Tensor& x) { return conv2d(x, w2); })(randn({3, 5, 5}, kDouble)), "conv2d",
                     "3D (unbatched) or 4D (batched)", "[5, 5]");
  expect_matches_loop1([&](const Tensor& x) { return conv3d(x, w3, {}, 1, 1); }, randn({2, 2, 3, 4, 4, 3}, kDouble));
  expect_matches_loop1([&](const Tensor& x) { return conv3d(x, w3); }, randn({3, 3, 3, 2, 4}, kDouble), 2);
  Tensor wt = randn({4, 3, 3}, kDouble), wt2 = randn({4, 1, 2, 3}, kDouble), b2 = randn({2}, kDouble);
  expect_matches_loop1([&](const Tensor& x) { return conv_transpose1d(x, wt, {}, 2, 1, 1); },
                       randn({3, 2, 4, 5}, kDouble));
  expect_matches_loop1([&](const Tensor& x) { return conv_transpose2d(x, wt2, b2, 2, 0, 1, 2); },
                       randn({4, 5, 3, 3}, kDouble), 1);
}

TEST_F(VmapNn, ConvPerSampleWeightsFoldIntoGroups) {
  auto conv2 = [](const V& a) { return V{conv2d(a[0], a[1], a[2], 1, 1, 1, 2)}; };
  Tensor x = randn({3, 2, 4, 5, 5}, kDouble), w = randn({3, 6, 2, 3, 3}, kDouble), b = randn({3, 6}, kDouble);
  expect_matches_loop(conv2, {x, w, b}, {0, 0, 0});
  expect_matches_loop(conv2, {x[0], w, b[0]}, {kNone, 0, kNone});         // one input, an ensemble of weights
  expect_matches_loop(conv2, {x, w.movedim(0, 2), b[1]}, {0, 2, kNone});  // shared bias, weight batched at dim 2
  expect_matches_loop(conv2, {x[0], w[0], b}, {kNone, kNone, 0});         // only the bias
  expect_matches_loop(conv2, {x.select(1, 0), w, b.t()}, {0, 0, 1});      // unbatched samples [C, H, W]
  auto conv1 = [](const V& a) { return V{conv1d(a[0], a[1], {}, 2, 0, 2)}; };
  expect_matches_loop(conv1, {randn({4, 3, 8}, kDouble), randn({4, 5, 3, 2}, kDouble)}, {kNone, 0});
  auto convt = [](const V& a) { return V{conv_transpose2d(a[0], a[1], a[2], 2, 1, 1, 2)}; };
  expect_matches_loop(convt, {randn({3, 2, 4, 3, 3}, kDouble), randn({3, 4, 3, 2, 2}, kDouble), randn({6, 3}, kDouble)},
                      {0, 0, 1});
  auto convt1 = [](const V& a) { return V{conv_transpose1d(a[0], a[1])}; };
  expect_matches_loop(convt1, {randn({2, 5}, kDouble), randn({3, 2, 4, 3}, kDouble)}, {kNone, 0});
}

TEST_F(VmapNn, ConvGradientsReachInputAndWeight) {
  Tensor x = randn({3, 2, 2, 5, 5}, kDouble).requires_grad_(true);
  Tensor w = randn({3, 4, 2, 3, 3}, kDouble).requires_grad_(true);
  Tensor wb = randn({4, 2, 3, 3}, kDouble).requires_grad_(true);
  auto f = [&](const V& a) { return V{conv2d(a[0], a[1], {}, 1, 1).tanh().sum() + conv2d(a[0], wb).pow(2).sum()}; };
  expect_grads_match_loop(f, {x, w}, {0, 0}, {x, w, wb});
}

TEST_F(VmapNn, Pooling) {
  Tensor x2 = randn({3, 2, 4, 6, 6}, kDouble), x1 = randn({4, 3, 9}, kDouble), x3 = randn({2, 2, 4, 4, 4}, kDouble);
  for (int64_t d : {0, 1}) {
    expect_matches_loop1([](const Tensor& t) { return max_pool2d(t, {3, 2}, {2, 2}, 1, 1, true); }, x2, d);
    expect_matches_loop1([](const Tensor& t) { return avg_pool2d(t, 3, 2, 1, false, false, 4); }, x2, d);
    expect_matches_loop1([](const Tensor& t) { return adaptive_avg_pool2d(t, {4, 3}); }, x2, d);
    expect_matches_loop1([](const Tensor& t) { return max_pool1d(t, 2) + avg_pool1d(t, 2, 2); }, x1, d);
    expect_matches_loop1([](const Tensor& t) { return adaptive_avg_pool1d(t, 5); }, x1, d);
    expect_matches_loop1([](const Tensor& t) { return max_pool3d(t, 2) - avg_pool3d(t, 2); }, x3, d);
    expect_matches_loop1([](const Tensor& t) { return adaptive_avg_pool3d(t, {2, 3, 1}); }, x3, d);
  }
  // With indices (per plane, so unchanged by folding the batch into N).
  auto maxi = [](const V& a) {
    auto [v, i] = max_pool2d_with_indices(a[0], 2, 2);
    auto [av, ai] = adaptive_max_pool2d(a[0], {2, 3});
    auto [v1, i1] = max_pool1d_with_indices(a[0].flatten(-2), 3);
    auto [v3, i3] = adaptive_max_pool3d(a[0].unsqueeze(-1), {2, 2, 1});
    return V{v, i, av, ai, v1, i1, v3, i3};
  };
  expect_matches_loop(maxi, {x2}, {0});
  expect_matches_loop(maxi, {x2.select(1, 0)}, {1});  // unbatched samples [C, H, W]
  auto maxi3 = [](const V& a) {
    auto [v, i] = max_pool3d_with_indices(a[0], 2, 1);
    auto [av, ai] = adaptive_max_pool1d(a[0].flatten(-3), 4);
    return V{v, i, av, ai};
  };
  expect_matches_loop(maxi3, {x3}, {2});
  EXPECT_EMBER_ERROR(vmap([](const Tensor& t) { return max_pool2d(t, 2); })(randn({2, 6, 6}, kDouble)), "max_pool2d",
                     "3D (unbatched) or 4D");
}

TEST_F(VmapNn, UpsamplePadPixelShuffle) {
  Tensor x = randn({3, 2, 4, 5, 6}, kDouble);
  for (int64_t d : {0, 2}) {
    expect_matches_loop1([](const Tensor& t) { return upsample_bilinear2d(t, {7, 9}, true); }, x, d);
    expect_matches_loop1([](const Tensor& t) { return upsample_nearest2d(t, {8, 3}); }, x, d);
    expect_matches_loop1([](const Tensor& t) { return upsample_bicubic2d(t, {6, 6}, false); }, x, d);
    expect_matches_loop1([](const Tensor& t) { return upsample_linear1d(t.flatten(-2), {11}, false); }, x, d);
    expect_matches_loop1([](const Tensor& t) { return upsample_trilinear3d(t.unsqueeze(2), {2, 3, 3}, false); }, x, d);
    expect_matches_loop1([](const Tensor& t) { return pad(t, {1, 2, 0, 3}, "constant", 1.5); }, x, d);
    expect_matches_loop1([](const Tensor& t) { return constant_pad_nd(t, {-1, 2}); }, x, d);
    expect_matches_loop1([](const Tensor& t) { return pad(t, {2, 1, 1, 3}, "reflect"); }, x, d);
    expect_matches_loop1([](const Tensor& t) { return pad(t, {2, 1, 1, 3}, "replicate"); }, x, d);
    expect_matches_loop1([](const Tensor& t) { return pad(t, {2, 1}, "circular"); }, x.select(1, 0), d);
    expect_matches_loop1([](const Tensor& t) { return pad(t, {1, 1, 1, 1, 1, 1}, "replicate"); }, x, d);
  }
  Tensor y = randn({3, 2, 8, 3, 4}, kDouble);
  expect_matches_loop1([](const Tensor& t) { return pixel_shuffle(t, 2); }, y, 0);
  expect_matches_loop1([](const Tensor& t) { return pixel_unshuffle(pixel_shuffle(t, 2), 2); }, y, 1);
  expect_matches_loop1([](const Tensor& t) { return pixel_shuffle(t, 2); }, y.select(1, 0), 0);
  EXPECT_EMBER_ERROR(vmap([](const Tensor& t) {
                       return upsample_nearest2d(t, {3, 3});
                     })(randn({2, 3, 4, 4}, kDouble)),
                     "upsample_nearest2d", "4D data tensor expected");
}

TEST_F(VmapNn, BatchNormPerSampleStatistics) {
  Tensor x = randn({3, 4, 2, 5}, kDouble), w = randn({2}, kDouble), b = randn({2}, kDouble);
  // Training without running statistics: each sample normalizes over its own N and spatial dims.
  for (int64_t d : {0, 1})
    expect_matches_loop1([&](const Tensor& t) { return batch_norm(t, w, b, {}, {}, true, 0.1, 1e-5, false); }, x, d);
  // Eval mode with shared running statistics, and per-sample weights.
  Tensor rm = randn({2}, kDouble), rv = rand({2}, kDouble) + 0.5;
  auto eval = [&](const V& a) { return V{batch_norm(a[0], a[1], a[2], rm, rv, false, 0.1, 1e-5, false)}; };
  expect_matches_loop(eval, {x, randn({3, 2}, kDouble), b}, {0, 0, kNone});
  expect_matches_loop(eval, {x[0], randn({2, 3}, kDouble), randn({3, 2}, kDouble)}, {kNone, 1, 0});
  // Per-sample running statistics: updated per sample, like the loop's.
  Tensor rms = randn({3, 2}, kDouble), rvs = rand({3, 2}, kDouble) + 0.5;
  Tensor rms2 = rms.clone(), rvs2 = rvs.clone();
  auto train = [&](const V& a) { return V{batch_norm(a[0], w, b, a[1], a[2], true, 0.3, 1e-5, false)}; };
  Tensor got = vmap(train, {0, 0, 0})({x, rms, rvs})[0];
  Tensor want = by_loop(train, {x, rms2, rvs2}, {0, 0, 0}, 0)[0];
  EXPECT_TENSOR_CLOSE(got, want);
  EXPECT_TENSOR_CLOSE(rms, rms2);
  EXPECT_TENSOR_CLOSE(rvs, rvs2);
  // Statistics batched along dim 1 of their buffer (a non-contiguous physical view).
  Tensor rmt = randn({2, 3}, kDouble), rmt2 = rmt.clone();
  auto train_m = [&](const V& a) { return V{batch_norm(a[0], {}, {}, a[1], {}, true, 0.5, 1e-5, false)}; };
  vmap(train_m, {1, 1})({x.movedim(0, 1), rmt});
  by_loop(train_m, {x.movedim(0, 1), rmt2}, {1, 1}, 0);
  EXPECT_TENSOR_CLOSE(rmt, rmt2);
  // Shared running statistics with a batched input in training: refused, as PyTorch.
  EXPECT_EMBER_ERROR(vmap([&](const Tensor& t) { return batch_norm(t, w, b, rm, rv, true, 0.1, 1e-5, false); })(x),
                     "batch_norm", "running_mean", "batched");
}

TEST_F(VmapNn, LayerGroupInstanceLocalResponseNorm) {
  Tensor x = randn({3, 4, 6, 5}, kDouble), w = randn({6, 5}, kDouble), b = randn({6, 5}, kDouble);
  Tensor wc = randn({6}, kDouble), bc = randn({6}, kDouble);
  for (int64_t d : {0, 2}) {
    const Tensor xd = x.movedim(0, d);  // samples [4, 6, 5] whichever dim is mapped
    expect_matches_loop1([&](const Tensor& t) { return layer_norm(t, {5}, w[0], b[1]); }, xd, d);
    expect_matches_loop1([&](const Tensor& t) { return group_norm(t, 3, wc, bc); }, xd, d);
    expect_matches_loop1(
        [&](const Tensor& t) { return instance_norm(t.transpose(-1, -2), w[0], b[0], {}, {}, true, 0.1, 1e-5, false); },
        xd, d);
    expect_matches_loop1([](const Tensor& t) { return local_response_norm(t, 3, 1e-2, 0.75, 2.0); }, xd, d);
  }
  auto ln = [](const V& a) { return V{layer_norm(a[0], {6, 5}, a[1], a[2])}; };
  expect_matches_loop(ln, {x, randn({3, 6, 5}, kDouble), b}, {0, 0, kNone});
  expect_matches_loop(ln, {x[0], w, randn({6, 5, 3}, kDouble)}, {kNone, kNone, 2});
  auto gn = [](const V& a) { return V{group_norm(a[0], 3, a[1], {})}; };
  expect_matches_loop(gn, {x, randn({3, 6}, kDouble)}, {0, 0});
  // instance_norm with per-sample running statistics (use_input_stats) and in eval mode.
  Tensor xi = randn({2, 3, 4, 5}, kDouble);
  Tensor rm = randn({2, 4}, kDouble), rv = rand({2, 4}, kDouble) + 0.5, rm2 = rm.clone(), rv2 = rv.clone();
  auto inorm = [](const V& a) { return V{instance_norm(a[0], {}, {}, a[1], a[2], true, 0.2, 1e-5, false)}; };
  Tensor got = vmap(inorm, {0, 0, 0})({xi, rm, rv})[0];
  Tensor want = by_loop(inorm, {xi, rm2, rv2}, {0, 0, 0}, 0)[0];  // once: it updates rm2 and rv2
  EXPECT_TENSOR_CLOSE(got, want);
  EXPECT_TENSOR_CLOSE(rm, rm2);
  EXPECT_TENSOR_CLOSE(rv, rv2);
  auto ieval = [&](const V& a) { return V{instance_norm(a[0], {}, {}, rm[0], rv[0], false, 0.2, 1e-5, false)}; };
  expect_matches_loop(ieval, {xi}, {1});
  EXPECT_EMBER_ERROR(
      vmap([&](const Tensor& t) { return instance_norm(t, {}, {}, rm[0], rv[0], true, 0.2, 1e-5, false); })(xi),
      "instance_norm", "running_mean");
  EXPECT_EMBER_ERROR(vmap([&](const Tensor& t) {
                       return layer_norm(t, {4, 5});
                     })(randn({2, 5}, kDouble)),
                     "layer_norm", "normalized_shape");
}

TEST_F(VmapNn, LossesWithKernelsAndComposites) {
  Tensor p = rand({3, 4, 5}, kDouble) * 0.9 + 0.05, t = rand({3, 4, 5}, kDouble), wt = rand({5}, kDouble);
  for (int64_t red : {0, 1, 2}) {
    auto bce = [&](const V& a) { return V{binary_cross_entropy(a[0], a[1], a[2], red)}; };
    expect_matches_loop(bce, {p, t, wt}, {0, 0, kNone});
    expect_matches_loop(bce, {p.movedim(0, 1), t[0], rand({5, 3}, kDouble)}, {1, kNone, 1});
    auto bcel = [&](const V& a) { return V{binary_cross_entropy_with_logits(a[0], a[1], {}, a[2], red)}; };
    expect_matches_loop(bcel, {p, t, rand({3, 5}, kDouble)}, {0, 0, 0});
    auto kl = [&](const V& a) {
      return V{kl_div(a[0].log(), a[1], red) + poisson_nll_loss(a[0], a[1], false, true, 1e-8, red)};
    };
    expect_matches_loop(kl, {p.movedim(0, 2), t}, {2, 0});
    auto soft = [&](const V& a) {
      return V{soft_margin_loss(a[0], a[1], red) + hinge_embedding_loss(a[0], a[1], 0.5, red) +
                   margin_ranking_loss(a[0], a[0] * 2, a[1], 0.1, red),
               multilabel_soft_margin_loss(a[0], a[1], std::nullopt, red)};
    };
    expect_matches_loop(soft, {p * 2 - 1, t.sign().movedim(0, 1)}, {0, 1});
    auto emb = [&](const V& a) {
      return V{cosine_embedding_loss(a[0], a[1], a[2], 0.2, red) +
               triplet_margin_loss(a[0], a[1], a[0] * 0.5, 1.0, 2, 1e-6, true, red)};
    };
    expect_matches_loop(emb, {p, t, randint(0, 2, {3, 4}, kLong) * 2 - 1}, {0, 0, 0});
    // Multi-class margins: [N, C] and [C] samples, int64 targets.
    Tensor cls = randint(0, 5, {3, 4}, kLong);
    auto mm = [&](const V& a) { return V{multi_margin_loss(a[0], a[1], 2, 0.5, wt, red)}; };
    expect_matches_loop(mm, {p, cls}, {0, 0});
    expect_matches_loop(mm, {p[0], cls[1]}, {0, 0});
    expect_matches_loop(mm, {p, cls[0]}, {0, kNone});
    Tensor labels = randint(-1, 5, {3, 4, 5}, kLong);
    auto mlm = [&](const V& a) { return V{multilabel_margin_loss(a[0], a[1], red)}; };
    expect_matches_loop(mlm, {p, labels}, {0, 0});
    expect_matches_loop(mlm, {p.movedim(0, 1), labels[0]}, {1, kNone});
  }
  EXPECT_EMBER_ERROR(vmap([](const Tensor& a) { return binary_cross_entropy(a * 2, a); })(p), "binary_cross_entropy",
                     "between 0 and 1");
  // A per-sample class weight goes through the per-sample loop.
  auto mmw = [](const V& a) { return V{multi_margin_loss(a[0], a[1], 1, 1, a[2])}; };
  expect_matches_loop(mmw, {p, randint(0, 5, {3, 4}, kLong), rand({3, 5}, kDouble)}, {0, 0, 0});
  expect_matches_loop(mmw, {p[0], randint(0, 5, {4}, kLong), rand({3, 5}, kDouble)}, {kNone, kNone, 0});
}

TEST_F(VmapNn, CtcLossSharedAndPerSampleLengths) {
  // Samples of log_probs [T=6, N=2, C=4], padded targets [2, 3].
  Tensor lp = log_softmax(randn({3, 6, 2, 4}, kDouble), -1), tg = randint(1, 4, {3, 2, 3}, kLong);
  for (int64_t red : {0, 1, 2}) {
    auto f = [&](const V& a) { return V{ctc_loss(a[0], a[1], IntArrayRef{6, 5}, IntArrayRef{3, 2}, 0, red, true)}; };
    expect_matches_loop(f, {lp, tg}, {0, 0});
    expect_matches_loop(f, {lp.movedim(0, 2), tg[1]}, {2, kNone});
    // Concatenated targets and unbatched [T, C] samples.
    auto cat1 = [&](const V& a) { return V{ctc_loss(a[0], a[1], IntArrayRef{6, 4}, IntArrayRef{2, 1}, 0, red)}; };
    expect_matches_loop(cat1, {lp, tg.flatten(1).narrow(1, 0, 3)}, {0, 0});
    auto unb = [&](const V& a) { return V{ctc_loss(a[0], a[1], IntArrayRef{6}, IntArrayRef{3}, 0, red)}; };
    expect_matches_loop(unb, {lp.select(2, 0), tg.select(1, 0)}, {0, 0});
    // Lengths as tensors: shared, then per sample (one call per sample).
    auto tens = [&](const V& a) { return V{ctc_loss(a[0], a[1], a[2], a[3], 0, red)}; };
    expect_matches_loop(tens, {lp, tg, tensor({6, 5}), tensor({3, 1})}, {0, 0, kNone, kNone});
    expect_matches_loop(tens, {lp, tg, tensor({{6, 5}, {4, 6}, {5, 5}}), tensor({{3, 1}, {2, 2}, {1, 3}})},
                        {0, 0, 0, 0});
  }
  // Gradients reach log_probs through the folded kernel.
  Tensor x = randn({3, 6, 2, 4}, kDouble).requires_grad_(true);
  auto g = [&](const V& a) { return V{ctc_loss(log_softmax(a[0], -1), a[1], IntArrayRef{6, 6}, IntArrayRef{3, 2})}; };
  vmap(g, {0, 0})({x, tg})[0].sum().backward();
  Tensor gx = x.grad().clone();
  x.mutable_grad() = Tensor();
  by_loop(g, {x, tg}, {0, 0}, 0)[0].sum().backward();
  EXPECT_TENSOR_CLOSE(gx, x.grad());
}

TEST_F(VmapNn, EmbeddingBagPerSample) {
  Tensor w = randn({3, 7, 4}, kDouble), idx = randint(0, 7, {3, 8}, kLong), off = tensor({0, 3, 3, 5});
  for (int64_t mode : {0, 1, 2}) {
    auto f = [&](const V& a) {
      auto [o, o2b, bs, mi] = embedding_bag(a[0], a[1], a[2], false, mode, false, std::nullopt, false, 2);
      return V{o, o2b, bs, mi};
    };
    expect_matches_loop(f, {w, idx, off}, {0, 0, kNone});                       // per-sample tables and indices
    expect_matches_loop(f, {w[0], idx, off}, {kNone, 0, kNone});                // shared table
    expect_matches_loop(f, {w, idx.view({3, 2, 4}), Tensor()}, {0, 0, kNone});  // 2-D bags
    expect_matches_loop(f, {w.movedim(0, 1), idx[0], tensor({{0, 2}, {0, 5}, {0, 0}})}, {1, kNone, 0});
  }
  // Per-sample weights of the summed rows.
  auto psw = [&](const V& a) { return V{std::get<0>(embedding_bag(a[0], a[1], off, false, 0, false, a[2]))}; };
  expect_matches_loop(psw, {w[0], idx, randn({3, 8}, kDouble)}, {kNone, 0, 0});
}

TEST_F(VmapNn, PreluAndBilinearAsComposites) {
  Tensor x = randn({3, 2, 4, 5}, kDouble);
  auto pr = [](const V& a) { return V{prelu(a[0], a[1])}; };
  expect_matches_loop(pr, {x, rand({4}, kDouble)}, {0, kNone});
  expect_matches_loop(pr, {x, rand({3, 4}, kDouble)}, {0, 0});
  auto bl = [](const V& a) { return V{bilinear(a[0], a[1], a[2], a[3])}; };
  Tensor x1 = randn({3, 2, 4}, kDouble), x2 = randn({3, 2, 5}, kDouble);
  Tensor w = randn({6, 4, 5}, kDouble), b = randn({6}, kDouble);
  expect_matches_loop(bl, {x1, x2, w, b}, {0, 0, kNone, kNone});
  expect_matches_loop(bl, {x1[0], x2, randn({3, 6, 4, 5}, kDouble), randn({6, 3}, kDouble)}, {kNone, 0, 0, 1});
}

// vmap of vmap: the inner level is peeled first by the same rules.
TEST_F(VmapNn, NestedVmapOverSamplesAndEnsembles) {
  // Outer: an ensemble of conv weights; inner: samples [C, H, W] with their own batch norm.
  Tensor x = randn({4, 2, 5, 5}, kDouble), w = randn({3, 4, 2, 3, 3}, kDouble);
  auto inner = [](const V& a) {
    Tensor y = conv2d(a[0], a[1], {}, 1, 1);
    y = max_pool2d(y, 2);
    return V{layer_norm(y, {2, 2}), avg_pool1d(pad(y.flatten(1), {1, 1}, "reflect"), 2)};
  };
  VmapFunction outer = vmap(vmap(inner, {0, kNone}), {kNone, 0});
  std::vector<Tensor> got = outer({x, w});
  for (int64_t e = 0; e < 3; ++e)
    for (int64_t n = 0; n < 4; ++n) {
      std::vector<Tensor> want = inner({x[n], w[e]});
      EXPECT_TENSOR_CLOSE(got[0][e][n], want[0]);
      EXPECT_TENSOR_CLOSE(got[1][e][n], want[1]);
    }
  // Both levels batch the weight, and batch norm with per-sample statistics.
  Tensor xs = randn({3, 2, 2, 4, 4, 4}, kDouble);  // [E, B, N, C, H, W]
  auto bn = [](const V& a) { return V{batch_norm(conv2d(a[0], a[1]), {}, {}, {}, {}, true, 0.1, 1e-5, false).relu()}; };
  Tensor ws = randn({3, 2, 5, 4, 3, 3}, kDouble);
  std::vector<Tensor> r = vmap(vmap(bn, {0, 0}), {0, 0})({xs, ws});
  for (int64_t e = 0; e < 3; ++e)
    for (int64_t k = 0; k < 2; ++k) EXPECT_TENSOR_CLOSE(r[0][e][k], bn({xs[e][k], ws[e][k]})[0]);
}

TEST_F(VmapNn, GradientsThroughNnRulesMatchTheLoop) {
  Tensor x = randn({3, 2, 2, 6, 6}, kDouble).requires_grad_(true);
  Tensor w = randn({3, 4, 1, 3, 3}, kDouble).requires_grad_(true);  // per-sample, groups 2
  Tensor wt = randn({4, 2, 2, 2}, kDouble).requires_grad_(true);    // shared transposed conv
  Tensor g = randn({3, 2}, kDouble).requires_grad_(true);           // per-sample batch norm weight
  Tensor lw = randn({6}, kDouble).requires_grad_(true);             // shared layer norm weight
  auto f = [&](const V& a) {
    Tensor y = conv2d(a[0], a[1], {}, 1, 1, 1, 2).tanh();
    y = max_pool2d(y, 2);
    y = conv_transpose2d(y, wt, {}, 2);
    y = batch_norm(y, a[2], {}, {}, {}, true, 0.1, 1e-5, false);
    y = layer_norm(upsample_bilinear2d(y, {6, 6}, false), {6}, lw);
    return V{(y * y).mean() + binary_cross_entropy(y.sigmoid(), (y > 0).to(kDouble))};
  };
  std::vector<Tensor> leaves{x, w, wt, g, lw};
  Tensor per_sample = vmap(f, {0, 0, 0})({x, w, g})[0];
  per_sample.pow(2).sum().backward();
  std::vector<Tensor> grads;
  for (Tensor& t : leaves) {
    grads.push_back(t.grad().clone());
    t.mutable_grad() = Tensor();
  }
  Tensor looped = by_loop(f, {x, w, g}, {0, 0, 0}, 0)[0];
  EXPECT_TENSOR_CLOSE(per_sample.detach(), looped.detach());
  looped.pow(2).sum().backward();
  for (size_t i = 0; i < leaves.size(); ++i) EXPECT_TENSOR_CLOSE(grads[i], leaves[i].grad()) << "leaf " << i;
}

}  // namespace
}  // namespace torch
