// vmap of the indexing and shape ops with rules in ember/vmap/rules_indexing.cpp,
// against the per-slice oracle (tests/vmap/vmap_oracle.h), and the refusals
// PyTorch's vmap makes (data-dependent shapes, randomness='error').
#include <gtest/gtest.h>

#include "common/test_util.h"
#include "ember/ember.h"
#include "ember/vmap/batched_tensor.h"
#include "vmap/vmap_oracle.h"

namespace torch {
namespace {

using namespace vmap_test;
using indexing::Ellipsis;
using indexing::None;
using indexing::Slice;
using T = std::vector<Tensor>;

class VmapIndexing : public ::testing::Test {
 protected:
  void SetUp() override { manual_seed(11); }
};

// x's samples are [5, 6, 3] wherever the batch (4) sits.
Tensor sample_batch(int64_t in_dim) {
  Tensor x = randn({4, 5, 6, 3}, kDouble);
  return in_dim == 0 ? x : x.movedim(0, in_dim);
}

TEST_F(VmapIndexing, IndexWithSharedAndPerSampleIndexTensors) {
  Tensor i1 = randint(-5, 5, {2, 2}, kLong), i2 = randint(0, 3, {2}, kLong);
  Tensor pi1 = randint(0, 5, {4, 2, 2}, kLong), pi2 = randint(-6, 6, {4, 2}, kLong);
  auto f = [](const T& a) {
    const Tensor &t = a[0], &i = a[1], &j = a[2];
    return T{t.index({i}),                                        // first dims, in place
             t.index({Slice(), j}),                               // adjacent after dim 0: stays in place
             t.index({i, Slice(), j.remainder(3)}),               // separated: broadcast dims go first
             t.index({Ellipsis, j.remainder(3)}),                 // after an ellipsis
             t.index({None, Slice(1, 4), i.remainder(6)}),        // None and a slice before
             t.index({Slice(), i.remainder(6), j.remainder(3)}),  // two adjacent, broadcast together
             t[i.remainder(5)]};
  };
  for (int64_t d : {0, 1, -1}) {
    Tensor x = sample_batch(d);
    expect_matches_loop(f, {x, i1, i2}, {d, std::nullopt, std::nullopt});
    expect_matches_loop(f, {x, pi1, pi2}, {d, 0, 0});
    expect_matches_loop(f, {x, i1, pi2.t()}, {d, std::nullopt, 1});
  }
  // A shared self with per-sample indices.
  expect_matches_loop(f, {randn({5, 6, 3}, kDouble), pi1, pi2}, {std::nullopt, 0, 0});
  expect_matches_loop(f, {randn({5, 6, 3}, kDouble), pi1.movedim(0, 2), i2}, {std::nullopt, 2, std::nullopt});
}

TEST_F(VmapIndexing, IndexWithSharedMasksAndPerSampleScalars) {
  Tensor m2 = rand({5, 6}) > 0.5, m1 = tensor({true, false, true}, kBool);
  auto f = [&](const T& a) {
    const Tensor& t = a[0];
    return T{t.index({m2}), t.index({Slice(), Slice(), m1}), t.index({Slice(), m2.select(0, 1), Slice(0, 2)}),
             t.index({true}), t.index({Slice(), false})};
  };
  for (int64_t d : {0, 2, -1}) expect_matches_loop(f, {sample_batch(d)}, {d});
  // A 0-dim index per sample selects each sample's own position.
  Tensor pos = randint(0, 5, {4}, kLong), pos2 = randint(-3, 3, {4}, kLong);
  auto g = [](const T& a) {
    const Tensor& t = a[0];
    return T{t.index({a[1]}), t.index({Slice(), a[1]}), t.index({a[1], Slice(), a[2]}),
             t.index({a[1], tensor({1, 0}, kLong)})};
  };
  expect_matches_loop(g, {sample_batch(1), pos, pos2}, {1, 0, 0});
  expect_matches_loop(g, {randn({5, 6, 3}, kDouble), pos, pos2}, {std::nullopt, 0, 0});
  // 0-dim samples of an indexed vector.
  expect_matches_loop(
      [](const T& a) {
        return T{a[0].index({a[1]}), a[0].index({a[1].unsqueeze(0)})};
      },
      {randn({4, 7}, kDouble), randint(0, 7, {4}, kLong)}, {0, 0});
}

TEST_F(VmapIndexing, NestedIndex) {
  Tensor x = randn({3, 4, 5, 2}, kDouble), idx = randint(0, 5, {3, 4, 2}, kLong);
  auto inner = [](const T& a) { return T{a[0].index({a[1]}), a[0].index({Slice(), a[1].remainder(2)})}; };
  std::vector<Tensor> got = vmap(vmap(inner), {0, 0})({x, idx});
  for (int64_t i = 0; i < 3; ++i)
    for (int64_t j = 0; j < 4; ++j) {
      T want = inner({x[i][j], idx[i][j]});
      EXPECT_TENSOR_CLOSE(got[0][i][j], want[0]);
      EXPECT_TENSOR_CLOSE(got[1][i][j], want[1]);
    }
  // index_put_ with self batched at both levels, values only at the outer one.
  Tensor v = randn({3, 2}, kDouble);
  auto put = [](const T& a) {
    Tensor c = a[0].clone();
    std::vector<std::optional<Tensor>> at0{a[1]};
    index_put_(c, at0, a[2].unsqueeze(1), /*accumulate=*/true);
    c.index_put_({Slice(), a[1].remainder(2)}, a[2].sum());
    return T{c};
  };
  std::vector<Tensor> got2 = vmap(vmap(put, {0, 0, std::nullopt}), {0, 0, 0})({x, idx, v});
  for (int64_t i = 0; i < 3; ++i)
    for (int64_t j = 0; j < 4; ++j) EXPECT_TENSOR_CLOSE(got2[0][i][j], put({x[i][j], idx[i][j], v[i]})[0]);
}

TEST_F(VmapIndexing, IndexPutOutOfPlaceAndThroughTensorIndex) {
  // Distinct positions per sample where values differ (no write order to depend on).
  Tensor idx = tensor({3, 0, 1}, kLong),
         pidx = stack({randperm(5, kLong).narrow(0, 0, 3), randperm(5, kLong).narrow(0, 0, 3),
                       randperm(5, kLong).narrow(0, 0, 3), tensor({4, 1, 2}, kLong)});
  auto out_of_place = [](const T& a) {
    const Tensor &t = a[0], &i = a[1], &v = a[2];  // v: [3, 6, 3] per sample
    std::vector<std::optional<Tensor>> at0{i}, at1{std::nullopt, i.remainder(6)};
    return T{index_put(t, at0, v, true), index_put(t, at0, v.select(0, 0), false),
             index_put(t, at1, v.transpose(0, 1).narrow(0, 0, 5), true), index_put(t, at0, v.sum(), true)};
  };
  auto in_place = [](const T& a) {
    const Tensor &t = a[0], &i = a[1], &v = a[2];
    Tensor c = t.clone();
    c.index_put_({Slice(), i.remainder(6)}, v.transpose(0, 1).narrow(0, 0, 5));  // adjacent after dim 0
    Tensor e = t.clone();
    e.index_put_({i, Slice(), i.remainder(3)}, v.select(2, 0));  // separated
    Tensor s = t.clone();
    s.index_put_({Ellipsis, i.remainder(3)}, 1.5);
    Tensor n = t.clone();
    n.index_put_({None, i}, v.sum(0));
    return T{c, e, s, n};
  };
  auto f = [&](const T& a) {
    T r = out_of_place(a), q = in_place(a);
    r.insert(r.end(), q.begin(), q.end());
    return r;
  };
  Tensor v = randn({4, 3, 6, 3}, kDouble);
  for (int64_t d : {0, 1, -1}) {
    Tensor x = sample_batch(d);
    expect_matches_loop(f, {x, idx, v}, {d, std::nullopt, 0});
    expect_matches_loop(f, {x, pidx, v.select(0, 0)}, {d, 0, std::nullopt});
    expect_matches_loop(f, {x, pidx.t(), v.movedim(0, 3)}, {d, 1, 3});
  }
  // Only the values, or only the index, per sample: out of place fits.
  expect_matches_loop(out_of_place, {randn({5, 6, 3}, kDouble), idx, v}, {std::nullopt, std::nullopt, 0});
  expect_matches_loop(out_of_place, {randn({5, 6, 3}, kDouble), pidx, v.select(0, 1)}, {std::nullopt, 0, std::nullopt});
  // A shared mask, values per sample.
  Tensor m = rand({5, 6}) > 0.3;
  const int64_t n = m.sum().item<int64_t>();
  expect_matches_loop(
      [&](const T& a) {
        Tensor c = a[0].clone();
        c.index_put_({m}, a[1]);
        return T{c};
      },
      {randn({4, 5, 6, 3}, kDouble), randn({4, n, 3}, kDouble)}, {0, 0});
}

TEST_F(VmapIndexing, IndexPutInPlaceWritesThroughAndRefusesUnbatchedSelf) {
  Tensor y = zeros({5, 4}, kDouble), pidx = randint(0, 5, {4, 2}, kLong), v = randn({4, 2}, kDouble);
  vmap(
      [](const T& a) {
        Tensor t = a[0];
        std::vector<std::optional<Tensor>> at0{a[1]};
        index_put_(t, at0, a[2], true);
        return T{t};
      },
      {1, 0, 0})({y, pidx, v});
  for (int64_t b = 0; b < 4; ++b) {
    std::vector<std::optional<Tensor>> at0{pidx[b]};
    EXPECT_TENSOR_CLOSE(y.select(1, b), index_put(zeros({5}, kDouble), at0, v[b], true));
  }
  Tensor shared = zeros({5}, kDouble);
  EXPECT_EMBER_ERROR(vmap(
                         [&](const T& a) {
                           Tensor t = shared;
                           t.index_put_({a[0]}, a[1]);
                           return T{t};
                         },
                         {0, 0})({pidx, v}),
                     "index_put_", "not possible", "self");
  EXPECT_EMBER_ERROR(vmap([&](const Tensor& i) {
                       Tensor t = shared;
                       std::vector<std::optional<Tensor>> at0{i};
                       return index_put_(t, at0, ones({2}, kDouble), false);
                     })(pidx),
                     "index_put_", "not possible");
}

TEST_F(VmapIndexing, MasksAndDataDependentShapesAreRefused) {
  Tensor x = randn({4, 5}, kDouble), m = rand({4, 5}) > 0.5;
  auto by_mask = [](const T& a) { return T{a[0].index({a[1]})}; };
  EXPECT_EMBER_ERROR(vmap(by_mask, {0, 0})({x, m}), "index", "boolean mask", "dynamic shape");
  EXPECT_EMBER_ERROR(vmap(by_mask, {0, 0})({x, rand({4}) > 0.5}), "index", "dynamic shape");
  EXPECT_EMBER_ERROR(vmap([](const Tensor& t) { return masked_select(t, t > 0); })(x), "masked_select",
                     "dynamic shape");
  EXPECT_EMBER_ERROR(vmap([](const Tensor& t) { return t.nonzero(); })(x), "nonzero", "dynamic shape");
  EXPECT_EMBER_ERROR(vmap([](const Tensor& t) { return argwhere(t); })(x), "argwhere", "dynamic shape");
  EXPECT_EMBER_ERROR(vmap([](const Tensor& r) { return repeat_interleave(r); })(randint(0, 3, {4, 2}, kLong)),
                     "repeat_interleave", "dynamic shape");
  EXPECT_EMBER_ERROR(
      vmap([](const T& a) { return T{a[0].repeat_interleave(a[1], 0)}; }, {0, 0})({x, randint(0, 3, {4, 5}, kLong)}),
      "repeat_interleave", "dynamic shape");
}

TEST_F(VmapIndexing, IndexCopyIndexFillTake) {
  Tensor x = randn({4, 5, 3}, kDouble), src = randn({4, 2, 3}, kDouble), vals = randn({4}, kDouble);
  Tensor idx = tensor({4, 1}, kLong),
         pidx = stack({tensor({0, 3}, kLong), tensor({2, 1}, kLong), tensor({4, 0}, kLong), tensor({1, 2}, kLong)});
  auto out_of_place = [](const T& a) {
    const Tensor &t = a[0], &i = a[1], &s = a[2], &v = a[3];
    return T{t.index_copy(0, i, s),
             t.index_copy(1, i.remainder(3).narrow(0, 0, 1), s.select(0, 1).narrow(0, 0, 1).expand({5, 1})),
             t.index_fill(0, i, -2.0),
             index_fill(t, 1, i.remainder(3), v),
             take(t, i.unsqueeze(1) * 3 - 7),
             take(t, i[0])};
  };
  auto f = [&](const T& a) {
    const Tensor &t = a[0], &i = a[1], &s = a[2], &v = a[3];
    Tensor c = t.clone();
    c.index_copy_(0, i, s);
    Tensor g = t.clone();
    index_fill_(g, 1, i.remainder(3), v);
    T r = out_of_place(a);
    r.push_back(c);
    r.push_back(g);
    return r;
  };
  expect_matches_loop(f, {x, idx, src, vals}, {0, std::nullopt, 0, 0});
  expect_matches_loop(f, {x, pidx, src, vals}, {0, 0, 0, 0});
  expect_matches_loop(f, {x.movedim(0, 2), pidx.t(), src.movedim(0, 1), vals}, {2, 1, 1, 0});
  expect_matches_loop(out_of_place, {x.select(0, 0), pidx, src.select(0, 0), vals}, {std::nullopt, 0, std::nullopt, 0});
  expect_matches_loop(out_of_place, {x.select(0, 0), idx, src.select(0, 0), vals},
                      {std::nullopt, std::nullopt, std::nullopt, 0});
  // 0-dim samples.
  expect_matches_loop(
      [](const T& a) {
        return T{a[0].index_fill(0, zeros({}, kLong), 3.0), take(a[0], zeros({2}, kLong)),
                 a[0].index_copy(0, zeros({1}, kLong), a[1])};
      },
      {randn({4}, kDouble), randn({4, 1}, kDouble)}, {0, 0});
  // In place into a shared self from a per-sample source.
  Tensor shared = zeros({5, 3}, kDouble);
  EXPECT_EMBER_ERROR(vmap([&](const Tensor& s) {
                       Tensor t = shared;
                       return t.index_copy_(0, tensor({1, 2}, kLong), s);
                     })(src),
                     "index_copy_", "not possible");
  EXPECT_EMBER_ERROR(vmap([&](const Tensor& i) {
                       Tensor t = shared;
                       return t.index_fill_(0, i, 1.0);
                     })(pidx),
                     "index_fill_", "not possible");
}

TEST_F(VmapIndexing, ScatterReduceEveryMode) {
  Tensor x = randn({4, 5, 3}, kDouble), src = randn({4, 4, 3}, kDouble);
  Tensor idx = randint(0, 5, {4, 3}, kLong), pidx = randint(0, 5, {4, 4, 3}, kLong);
  for (const char* mode : {"sum", "prod", "mean", "amax", "amin"})
    for (bool include_self : {true, false}) {
      auto out_of_place = [&](const T& a) {
        return T{a[0].scatter_reduce(0, a[1], a[2], mode, include_self),
                 a[0].scatter_reduce(1, a[1].remainder(3), a[2], mode, include_self)};
      };
      auto f = [&](const T& a) {
        Tensor c = a[0].clone();
        c.scatter_reduce_(0, a[1], a[2], mode, include_self);
        T r = out_of_place(a);
        r.push_back(c);
        return r;
      };
      expect_matches_loop(f, {x, pidx, src});
      expect_matches_loop(f, {x, idx, src}, {0, std::nullopt, 0});
      expect_matches_loop(out_of_place, {x.select(0, 0), pidx, src.movedim(0, 2)}, {std::nullopt, 0, 2});
    }
  for (const char* mode : {"add", "multiply"})
    expect_matches_loop(
        [&](const T& a) {
          return T{scatter(a[0], 0, a[1], a[2], mode), scatter(a[0], 1, a[1].remainder(3), 2.0, mode)};
        },
        {x, pidx, src});
  Tensor shared = zeros({5, 3}, kDouble);
  EXPECT_EMBER_ERROR(vmap([&](const Tensor& s) {
                       Tensor t = shared;
                       return t.scatter_reduce_(0, zeros({4, 3}, kLong), s, "amax");
                     })(src),
                     "scatter_reduce_", "not possible");
}

TEST_F(VmapIndexing, RollRepeatTileRepeatInterleave) {
  for (int64_t d : {0, 1, -1}) {
    Tensor x = sample_batch(d);
    expect_matches_loop1([](const Tensor& t) { return t.roll({2}, {}) + t.roll({-1, 4}, {0, -2}); }, x, d);
    expect_matches_loop1([](const Tensor& t) { return t.repeat({2, 1, 1, 2}).sum(0); }, x, d);
    expect_matches_loop1([](const Tensor& t) { return t.tile({2}); }, x, d);
    expect_matches_loop1([](const Tensor& t) { return t.tile({2, 1, 1, 1}); }, x, d);
    expect_matches_loop1([](const Tensor& t) { return t.repeat_interleave(2, 1); }, x, d);
    expect_matches_loop1([](const Tensor& t) { return t.repeat_interleave(tensor({1, 0, 2}, kLong), -1); }, x, d);
    expect_matches_loop1([](const Tensor& t) { return t.repeat_interleave(3); }, x, d);
  }
  // 0-dim samples.
  Tensor s = randn({4}, kDouble);
  expect_matches_loop1([](const Tensor& t) { return t.roll({1}, {}) + t.repeat({3}).sum(); }, s);
  expect_matches_loop1([](const Tensor& t) { return t.repeat({2, 3}); }, s);
  expect_matches_loop1([](const Tensor& t) { return t.repeat_interleave(2); }, s);
  EXPECT_EMBER_ERROR(vmap([](const Tensor& t) { return t.repeat({2}); })(randn({4, 2, 2}, kDouble)), "repeat",
                     "Number of dimensions");
}

TEST_F(VmapIndexing, TrianglesAndDiagonals) {
  for (int64_t d : {0, 1, -1}) {
    Tensor x = sample_batch(d);
    expect_matches_loop1([](const Tensor& t) { return t.tril() + t.triu(1) * 2 + t.tril(-2); }, x, d);
    expect_matches_loop1([](const Tensor& t) { return t.diag_embed(); }, x, d);
    expect_matches_loop1([](const Tensor& t) { return t.diag_embed(1, 0, 2); }, x, d);
    expect_matches_loop1([](const Tensor& t) { return t.diag_embed(-1, -1, 1); }, x, d);
    expect_matches_loop1([](const Tensor& t) { return t.select(2, 0).diag(1) + 1; }, x, d);
    expect_matches_loop1([](const Tensor& t) { return t.select(1, 2).diag() + t.select(1, 0).diag(-4); }, x, d);
    expect_matches_loop1([](const Tensor& t) { return t.diagflat(-1); }, x, d);
    expect_matches_loop1([](const Tensor& t) { return t.diagonal(0, 0, 2).sum(-1); }, x, d);  // a trace per slice
  }
  // In place, written through to the input whatever the batch dim.
  Tensor y = randn({3, 3, 4}, kDouble), expected = y.clone();
  vmap(
      [](const Tensor& t) {
        Tensor u = t;
        return u.tril_(0);
      },
      2)(y);
  for (int64_t b = 0; b < 4; ++b) EXPECT_TENSOR_EQ(y.select(2, b), expected.select(2, b).tril());
  EXPECT_EMBER_ERROR(vmap([](const Tensor& t) { return t.tril(); })(randn({4, 3}, kDouble)), "tril",
                     "at least 2 dimensions");
  EXPECT_EMBER_ERROR(vmap([](const Tensor& t) { return t.diag(); })(randn({4, 2, 2, 2}, kDouble)), "diag", "[2, 2, 2]");
}

TEST_F(VmapIndexing, PaddingAndOneHot) {
  for (int64_t d : {0, 1, -1}) {
    Tensor x = sample_batch(d);
    expect_matches_loop1([](const Tensor& t) { return constant_pad_nd(t, {1, 2, 0, -1}, 0.5); }, x, d);
    expect_matches_loop1([](const Tensor& t) { return pad(t, {2, 1}, "reflect"); }, x, d);          // [C, N, W]
    expect_matches_loop1([](const Tensor& t) { return pad(t, {1, 1, 2, 0}, "replicate"); }, x, d);  // [C, H, W]
    expect_matches_loop1([](const Tensor& t) { return pad(t.select(0, 1), {1, 2}, "circular"); }, x, d);
    expect_matches_loop1([](const Tensor& t) { return pad(t, {1, 0, 0, 1}, "constant", 2.0); }, x, d);
  }
  Tensor labels = randint(0, 4, {5, 3}, kLong);
  expect_matches_loop1([](const Tensor& t) { return one_hot(t, 4); }, labels);
  expect_matches_loop1([](const Tensor& t) { return one_hot(t, 6); }, labels, 1);
  EXPECT_EMBER_ERROR(vmap([](const Tensor& t) { return one_hot(t); })(labels), "one_hot", "dynamic shape");
  EXPECT_EMBER_ERROR(vmap([](const Tensor& t) { return std::get<0>(unique(t)); })(labels), "unique", "dynamic shape");
  EXPECT_EMBER_ERROR(vmap([](const Tensor& t) { return bincount(t); })(labels), "bincount", "dynamic shape");
}

TEST_F(VmapIndexing, BlockDiagAndMaskedFillWithPerSampleValues) {
  Tensor a = randn({4, 2, 3}, kDouble), b = randn({4}, kDouble), c = randint(0, 5, {3, 4}, kLong);
  auto f = [](const T& t) { return T{block_diag({t[0], t[1], t[2]}), block_diag({t[1].unsqueeze(0), t[0]})}; };
  expect_matches_loop(f, {a, b, c}, {0, 0, std::nullopt});
  expect_matches_loop(f, {a, b, c}, {0, 0, 1});
  expect_matches_loop(f, {a.select(0, 0), b, c}, {std::nullopt, 0, std::nullopt});
  Tensor x = randn({4, 5, 3}, kDouble), m = rand({5, 3}) > 0.5;
  auto g = [&](const T& t) {
    Tensor y = t[0].clone();
    masked_fill_(y, m, t[1]);
    return T{masked_fill(t[0], t[0] > 0, t[1]), masked_fill(t[0], m.select(0, 1), t[1]), y};
  };
  expect_matches_loop(g, {x, b}, {0, 0});
  expect_matches_loop(g, {x.movedim(0, 2), b}, {2, 0});
  expect_matches_loop([&](const T& t) { return T{masked_fill(t[0], m, t[1])}; }, {x.select(0, 0), b},
                      {std::nullopt, 0});
  Tensor shared = zeros({5, 3}, kDouble);
  EXPECT_EMBER_ERROR(vmap([&](const Tensor& v) {
                       Tensor y = shared;
                       return masked_fill_(y, m, v);
                     })(b),
                     "masked_fill_", "not possible");
}

TEST_F(VmapIndexing, GridsOfPerSampleVectors) {
  Tensor a = randn({4, 3}, kDouble), b = randn({2}, kDouble);
  auto f = [](const T& t) {
    std::vector<Tensor> g = meshgrid({t[0], t[1]}, "xy");
    return T{g[0] * g[1], cartesian_prod({t[0], t[1]})};
  };
  expect_matches_loop(f, {a, b}, {0, std::nullopt});
  expect_matches_loop(f, {a, a.t()}, {0, 1});
}

TEST_F(VmapIndexing, RandomOpsRaiseAsRandomnessError) {
  Tensor x = randn({4, 3}, kDouble);
  auto expect_random_error = [&](const std::function<Tensor(const Tensor&)>& f, const char* op) {
    EXPECT_EMBER_ERROR(vmap(f)(x), op, "randomness");
  };
  expect_random_error([](const Tensor& t) { return rand_like(t); }, "rand_like");
  expect_random_error([](const Tensor& t) { return randn_like(t) + t; }, "randn_like");
  expect_random_error([](const Tensor& t) { return t + rand({3}, kDouble); }, "rand");
  expect_random_error([](const Tensor& t) { return bernoulli(t.sigmoid()); }, "bernoulli");
  expect_random_error([](const Tensor& t) { return t.clone().normal_(); }, "normal_");
  expect_random_error([](const Tensor& t) { return t.clone().uniform_(); }, "uniform_");
  // Random tensors drawn outside vmap are fine inside it.
  Tensor noise = rand({3}, kDouble);
  expect_matches_loop1([&](const Tensor& t) { return t * noise; }, x);
}

// Backward through vmap's output reaches the inputs with the per-slice loop's gradients.
TEST_F(VmapIndexing, GradientsThroughIndexAndIndexPut) {
  Tensor x = randn({4, 5, 3}, kDouble).requires_grad_(true), v = randn({4, 2, 3}, kDouble).requires_grad_(true);
  Tensor pidx = randint(0, 5, {4, 2}, kLong), w = randn({2, 3}, kDouble);
  // Each term alone, so a failure names the op whose gradient is wrong.
  std::vector<std::function<Tensor(const T&)>> terms{
      [&](const T& a) { return (a[0].index({a[2]}) * w).pow(2).sum() * a[1].sum(); },
      [&](const T& a) {
        return a[0].index({Slice(), tensor({2, 0}, kLong)}).pow(2).sum();
      },
      [&](const T& a) {
        std::vector<std::optional<Tensor>> at0{a[2]};
        return index_put(a[0], at0, a[1] * a[1], true).sin().sum();
      },
      [&](const T& a) {
        Tensor c = a[0] * 1.0;
        c.index_put_({Slice(), tensor({1}, kLong)}, a[1].sum(0).unsqueeze(1).narrow(0, 0, 1).expand({5, 1}));
        return c.cos().sum();
      },
  };
  auto grads = [&](const std::vector<Tensor>& out) {
    out[0].sum().backward();
    auto taken = [](const Tensor& t) { return t.grad().defined() ? t.grad().clone() : zeros_like(t); };
    T g{taken(x), taken(v)};
    x.mutable_grad() = Tensor();
    v.mutable_grad() = Tensor();
    return g;
  };
  for (size_t k = 0; k < terms.size(); ++k) {
    VmapFunction f = [&](const T& a) { return T{terms[k](a)}; };
    // x batched at dim 0 (its physical tensor) and at dim 1 (writes go through a moved view).
    for (int64_t d : {0, 1}) {
      const Tensor xin = d == 0 ? x : x.movedim(0, 1);
      T via_vmap = grads(vmap(f, {d, 0, 0})({xin, v, pidx}));
      T via_loop = grads(by_loop(f, {xin, v, pidx}, {d, 0, 0}, 0));
      EXPECT_TENSOR_CLOSE(via_vmap[0], via_loop[0]) << "term " << k << ", in_dim " << d;
      EXPECT_TENSOR_CLOSE(via_vmap[1], via_loop[1]) << "term " << k << ", in_dim " << d;
      EXPECT_GT(via_vmap[0].abs().sum().item<double>(), 0) << "term " << k;
    }
  }
}

}  // namespace
}  // namespace torch
