// vmap of the remaining reductions (median/nanmedian over all dims and with
// dim, mode, histc), as_strided with functorch's per-sample semantics, and
// embedding's batched weight, backward and renorm, against the per-slice
// oracle (tests/vmap/vmap_oracle.h) or the definition.
#include <gtest/gtest.h>

#include "common/test_util.h"
#include "ember/ember.h"
#include "vmap/vmap_oracle.h"

namespace torch {
namespace {

using namespace vmap_test;
using V = std::vector<Tensor>;
constexpr auto kNone = std::nullopt;

class VmapReduceView : public ::testing::Test {
 protected:
  void SetUp() override { manual_seed(7); }
};

TEST_F(VmapReduceView, MedianAndMode) {
  Tensor x = randn({4, 5, 6}, kDouble);
  for (int64_t d : {0, 1, 2}) {
    SCOPED_TRACE(d);
    expect_matches_loop1([](const Tensor& t) { return median(t); }, x, d);
    expect_matches_loop1([](const Tensor& t) { return t.median(); }, x.select(2, 0), d == 2 ? 1 : d);
    expect_matches_loop(
        [](const V& a) {
          auto [v, i] = nanmedian(a[0], 1, true);
          auto [v2, i2] = nanmedian(a[0], -2);
          return V{v, i, v2, i2};
        },
        {x}, {d});
  }
  // NaNs: median propagates them, nanmedian skips them, per sample.
  Tensor n = x.clone();
  n[1][2][3] = std::nan("");
  n[3].select(1, 0).fill_(std::nan(""));
  expect_matches_loop1([](const Tensor& t) { return median(t); }, n);
  expect_matches_loop1([](const Tensor& t) { return nanmedian(t); }, n);
  expect_matches_loop1([](const Tensor& t) { return nanmedian(t); }, n, 2);
  expect_matches_loop(
      [](const V& a) {
        auto [v, i] = nanmedian(a[0], 0);
        return V{v, i};
      },
      {n});
  // 0-dim samples.
  expect_matches_loop1([](const Tensor& t) { return median(t) + nanmedian(t); }, randn({5}, kDouble));
  // mode: values and indices, with ties (small integers), several dims, keepdim.
  Tensor m = randint(0, 3, {3, 4, 7}, kDouble);
  for (int64_t d : {0, 1, 2}) {
    SCOPED_TRACE(d);
    expect_matches_loop(
        [](const V& a) {
          auto [v, i] = mode(a[0], -1);
          auto [v2, i2] = a[0].mode(0, true);
          return V{v, i, v2, i2};
        },
        {m}, {d});
  }
  expect_matches_loop(
      [](const V& a) {
        auto [v, i] = mode(a[0], 0);
        return V{v, i};
      },
      {randint(0, 3, {6}, kLong)});
  EXPECT_EMBER_ERROR(vmap([](const Tensor& t) { return std::get<0>(mode(t, 2)); })(m), "Dimension out of range",
                     "[-2, 1]");
}

TEST_F(VmapReduceView, GradientsOfMedians) {
  Tensor x = randn({3, 4, 5}, kDouble).requires_grad_(true);
  expect_grads_match_loop([](const V& a) { return V{median(a[0]) * 2 + nanmedian(a[0])}; }, {x}, {0}, {x});
  expect_grads_match_loop([](const V& a) { return V{std::get<0>(median(a[0], 1)) + std::get<0>(nanmedian(a[0], -1))}; },
                          {x}, {1}, {x});
  Tensor m = randint(0, 3, {3, 6}, kDouble).requires_grad_(true);
  expect_grads_match_loop([](const V& a) { return V{std::get<0>(mode(a[0], 0))}; }, {m}, {0}, {m});
  // Ties: median()'s gradient is spread over the elements equal to the median (nanmedian's
  // over those equal to it, skipping NaNs).
  Tensor t = randint(0, 3, {4, 7}, kDouble);
  t[2].fill_(1.0);
  t = t.requires_grad_(true);
  expect_grads_match_loop([](const V& a) { return V{median(a[0]) * 3 + nanmedian(a[0])}; }, {t}, {0}, {t});
  Tensor tn = randint(0, 3, {4, 7}, kDouble);
  tn[1][3] = std::nan("");
  tn[3][0] = std::nan("");
  tn = tn.requires_grad_(true);
  expect_grads_match_loop([](const V& a) { return V{nanmedian(a[0])}; }, {tn}, {0}, {tn});
}

TEST_F(VmapReduceView, HistcPerSample) {
  Tensor x = randn({4, 50}, kDouble);
  // min == max: each sample over its own range.
  expect_matches_loop1([](const Tensor& t) { return histc(t, 7); }, x);
  expect_matches_loop1([](const Tensor& t) { return t.histc(5, -1, 1); }, x, 1);
  expect_matches_loop1([](const Tensor& t) { return histc(t, 3); }, randn({3, 4, 5}, kFloat), 2);
  EXPECT_EMBER_ERROR(vmap([](const Tensor& t) { return histc(t, 0); })(x), "histc", "bins must be > 0");
}

TEST_F(VmapReduceView, AsStridedPerSample) {
  // Definition (functorch): sample k is as_strided(size, stride, offset + k * batch stride) of
  // the vmapped tensor's storage.
  auto check = [](const Tensor& xs, int64_t in_dim, IntArrayRef size, IntArrayRef stride, std::optional<int64_t> off) {
    Tensor got = vmap([&](const Tensor& t) { return t.as_strided(size, stride, off); }, in_dim)(xs);
    const int64_t base = off.value_or(xs.storage_offset());
    std::vector<Tensor> want;
    for (int64_t k = 0; k < xs.size(in_dim); ++k)
      want.push_back(xs.as_strided(size, stride, base + k * xs.stride(in_dim)));
    EXPECT_TENSOR_EQ(got, stack(want, 0));
  };
  Tensor x = arange(12, kDouble).view({3, 4});
  check(x, 0, {2, 2}, {1, 2}, 0);
  check(x, 0, {2, 2}, {1, 2}, std::nullopt);
  check(x, 1, {2}, {1}, 0);  // samples are columns: each reaches its column's memory
  check(x, 1, {2}, {4}, 0);
  check(x.narrow(1, 1, 3), 0, {2}, {1}, 2);
  check(arange(3, kDouble), 0, {2}, {0}, std::nullopt);
  // Nested: both levels' batch strides.
  Tensor y = arange(24, kDouble).view({2, 3, 4});
  Tensor nested =
      vmap([](const Tensor& t) { return vmap([](const Tensor& s) { return s.as_strided({2}, {2}, 0); })(t); })(y);
  EXPECT_TENSOR_EQ(nested, y.as_strided({2, 3, 2}, {12, 4, 2}, 0));
  // The result is a view: writes reach the input; gradients flow.
  Tensor z = zeros({3, 4}, kDouble);
  vmap([](const Tensor& t) { return t.as_strided({2}, {2}, 0).fill_(1); })(z);
  EXPECT_TENSOR_EQ(z.sum({1}), full({3}, 2.0, kDouble));
  Tensor g = randn({3, 4}, kDouble).requires_grad_(true);
  expect_grads_match_loop(
      [](const V& a) {
        return V{a[0].as_strided({2, 2}, {1, 1}, a[0].storage_offset())};
      },
      {g}, {0}, {g});
  // Views reaching outside the sample raise PyTorch's error.
  EXPECT_EMBER_ERROR(vmap([](const Tensor& t) {
                       return t.as_strided({2, 2}, {1, 2}, 1);
                     })(x),
                     "can access memory outside", "[1, 5]", "[0, 4]");
  EXPECT_EMBER_ERROR(vmap([](const Tensor& t) { return t.as_strided({4, 4}, {1, 1}); })(x), "[0, 7]", "[0, 4]");
  EXPECT_EMBER_ERROR(vmap([](const Tensor& t) { return t.as_strided({2}, {1, 1}); })(x), "as_strided", "mismatch");
}

TEST_F(VmapReduceView, EmbeddingBatchedWeight) {
  Tensor w = randn({3, 10, 4}, kDouble), idx = randint(0, 10, {3, 2, 5}, kLong);
  auto emb = [](const V& a) { return V{embedding(a[0], a[1])}; };
  expect_matches_loop(emb, {w, idx}, {0, 0});
  expect_matches_loop(emb, {w, idx[0]}, {0, kNone});
  expect_matches_loop(emb, {w.movedim(0, 2), idx.movedim(0, 1)}, {2, 1});
  expect_matches_loop(emb, {w[0], idx}, {kNone, 0});
  expect_matches_loop(emb, {w, randint(0, 10, {3}, kLong)}, {0, 0});  // 0-dim indices per sample
  EXPECT_EMBER_ERROR(vmap(emb, {0, 0})({w, idx + 10}), "embedding", "out of range");
}

TEST_F(VmapReduceView, EmbeddingGradients) {
  // Repeated indices so that scale_grad_by_freq counts differ per sample.
  Tensor idx = tensor(std::vector<int64_t>{1, 1, 2, 3, 0, 4, 4, 4, 4, 1, 2, 2, 0, 0, 5}).view({3, 5});
  for (int64_t pad : {-1, 1, 4}) {
    for (bool scale : {false, true}) {
      SCOPED_TRACE(std::to_string(pad) + (scale ? " scaled" : ""));
      auto f = [&](const V& a) { return V{embedding(a[0], a[1], pad, scale)}; };
      Tensor ws = randn({6, 3}, kDouble).requires_grad_(true);
      expect_grads_match_loop(f, {ws, idx}, {kNone, 0}, {ws});
      Tensor wb = randn({3, 6, 3}, kDouble).requires_grad_(true);
      expect_grads_match_loop(f, {wb, idx}, {0, 0}, {wb});
      expect_grads_match_loop(f, {wb, idx[1]}, {0, kNone}, {wb});
      // The module with padding_idx, as users call it.
      auto m = [&](const V& a) {
        return V{nn::functional::embedding(a[1], a[0],
                                           nn::functional::EmbeddingFuncOptions()
                                               .padding_idx(pad >= 0 ? std::optional<int64_t>(pad) : std::nullopt)
                                               .scale_grad_by_freq(scale))};
      };
      expect_grads_match_loop(m, {ws, idx}, {kNone, 0}, {ws});
      // embedding_dense_backward itself with batched grads (what vmap over
      // a vjp runs), against the loop.
      auto bw = [&](const V& a) { return V{embedding_dense_backward(a[0], a[1], 6, pad, scale)}; };
      Tensor g = randn({3, 5, 3}, kDouble);
      expect_matches_loop(bw, {g, idx}, {0, 0});
      expect_matches_loop(bw, {g, idx[0]}, {0, kNone});
      expect_matches_loop(bw, {g[0], idx}, {kNone, 0});
    }
  }
  // Vectorized jacobian of an embedding lookup runs its backward under vmap.
  Tensor w = randn({6, 2}, kDouble);
  auto look = [&](const Tensor& t) { return embedding(t, idx[0], -1, true); };
  EXPECT_TENSOR_CLOSE(autograd::functional::jacobian(look, w, false, false, true),
                      autograd::functional::jacobian(look, w));
}

TEST_F(VmapReduceView, EmbeddingRenorm) {
  // Per-sample weights are renormalized sample by sample, as a loop would.
  Tensor idx = randint(0, 8, {3, 4}, kLong);
  auto renorm = [](const V& a) {
    Tensor w = a[0].clone();
    embedding_renorm_(w, a[1], 1.0, 2.0);
    return V{w};
  };
  Tensor w = randn({3, 8, 5}, kDouble) * 2;
  expect_matches_loop(renorm, {w, idx}, {0, 0});
  expect_matches_loop(renorm, {w, idx[0]}, {0, kNone});
  // F.embedding with max_norm and a batched weight: in place on each sample's weight.
  auto f = [](const V& a) {
    return V{nn::functional::embedding(a[1], a[0], nn::functional::EmbeddingFuncOptions().max_norm(1.0))};
  };
  expect_matches_loop(f, {w.clone(), idx}, {0, 0});
  Tensor wb = w.clone();
  vmap(f, {0, 0})({wb, idx});
  Tensor norms = wb.norm(2, {2});
  EXPECT_TRUE(
      (norms.flatten().index_select(0, (idx + arange(3).unsqueeze(1) * 8).flatten()) <= 1.0 + 1e-6).all().item<bool>());
  // A shared weight with batched indices: every sample would write into it (PyTorch refuses).
  Tensor shared = randn({8, 5}, kDouble);
  EXPECT_EMBER_ERROR(vmap([&](const V& a) { return f({shared, a[0]}); })({idx}), "embedding_renorm_", "not batched");
}

}  // namespace
}  // namespace torch
