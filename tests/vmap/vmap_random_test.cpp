// vmap's randomness argument (ember/vmap/rules_random.h, Note [Random ops
// under vmap]): "error" refuses random ops, "different" draws per sample,
// "same" draws once for every sample. RNG values are not compared with a
// loop (the draws are arranged differently); the tests check structure and
// statistics: samples differ or are equal, values follow the distribution,
// dropout masks scale kept elements by 1 / (1 - p).
#include <gtest/gtest.h>

#include "common/test_util.h"
#include "ember/ember.h"
#include "ember/vmap/batched_tensor.h"
#include "vmap/vmap_oracle.h"

namespace torch {
namespace {

using V = std::vector<Tensor>;
constexpr auto kNone = std::nullopt;
constexpr auto kDiff = Randomness::Different;
constexpr auto kSame = Randomness::Same;

class VmapRandom : public ::testing::Test {
 protected:
  void SetUp() override { manual_seed(5); }
};

// Every pair of rows of `r` (the batch at dim 0) differs / is equal.
void expect_rows_differ(const Tensor& r) {
  for (int64_t i = 1; i < r.size(0); ++i) EXPECT_FALSE(r[0].equal(r[i])) << "row " << i;
}
void expect_rows_equal(const Tensor& r) {
  for (int64_t i = 1; i < r.size(0); ++i) EXPECT_TRUE(r[0].equal(r[i])) << "row " << i;
}

TEST_F(VmapRandom, ParseAndDefault) {
  EXPECT_EQ(parse_randomness("error"), Randomness::Error);
  EXPECT_EQ(parse_randomness("different"), kDiff);
  EXPECT_EQ(parse_randomness("same"), kSame);
  EXPECT_STREQ(randomness_name(kSame), "same");
  EXPECT_EMBER_ERROR(parse_randomness("foo"), "Only allowed values for randomness are 'error', 'different', or 'same'",
                     "foo");
  // The default (and an explicit "error") still refuses, naming the op.
  Tensor x = randn({3, 4}, kDouble);
  EXPECT_EMBER_ERROR(vmap([](const Tensor& t) { return rand_like(t); })(x), "rand_like", "randomness error mode");
  EXPECT_EMBER_ERROR(vmap([](const Tensor& t) { return dropout(t, 0.5, true); }, 0, 0, Randomness::Error)(x), "dropout",
                     "randomness error mode");
  // Eval-mode dropout draws nothing, so it runs under "error".
  vmap_test::expect_matches_loop1([](const Tensor& t) { return dropout(t, 0.5, false); }, x);
}

TEST_F(VmapRandom, FactoriesDifferPerSampleOrAreShared) {
  Tensor x = zeros({4, 50}, kDouble);
  for (auto make : std::vector<std::function<Tensor(const Tensor&)>>{
           [](const Tensor& t) { return t + rand({50}, kDouble); },
           [](const Tensor& t) { return t + randn({50}, kDouble); },
           [](const Tensor& t) { return t + randint(0, 1000, {50}, kDouble); },
           [](const Tensor& t) { return t + normal(2.0, 3.0, {50}, std::nullopt, kDouble); },
           [](const Tensor& t) { return t + rand_like(t); },
           [](const Tensor& t) { return t + randn_like(t); },
           [](const Tensor& t) { return t + randint_like(t, 0, 1000); },
           [](const Tensor& t) { return t + randperm(50, kDouble); },
       }) {
    Tensor d = vmap(make, 0, 0, kDiff)(x);
    EXPECT_EQ(d.sizes().vec(), (std::vector<int64_t>{4, 50}));
    EXPECT_FALSE(batching::is_batched(d));
    expect_rows_differ(d);
    expect_rows_equal(vmap(make, 0, 0, kSame)(x));
  }
  // randperm: each sample a permutation of its own.
  Tensor p = vmap([](const Tensor& t) { return randperm(10) + t; }, 0, 0, kDiff)(zeros({3, 10}, kLong));
  for (int64_t i = 0; i < 3; ++i) EXPECT_TRUE(std::get<0>(p[i].sort()).equal(arange(10)));
}

TEST_F(VmapRandom, DistributionsHoldPerSample) {
  // 8 samples of 4000 draws: every sample's moments are those of the law.
  Tensor x = zeros({8, 4000}, kDouble);
  Tensor u = vmap([](const Tensor& t) { return rand_like(t); }, 0, 0, kDiff)(x);
  EXPECT_TENSOR_CLOSE_TOL(u.mean({1}), full({8}, 0.5, kDouble), 0, 0.03);
  EXPECT_TRUE((u >= 0).all().item<bool>() && (u < 1).all().item<bool>());
  Tensor n = vmap([](const Tensor& t) { return randn_like(t) * 2 + 1; }, 0, 0, kDiff)(x);
  EXPECT_TENSOR_CLOSE_TOL(n.mean({1}), full({8}, 1.0, kDouble), 0, 0.15);
  EXPECT_TENSOR_CLOSE_TOL(n.std(std::vector<int64_t>{1}), full({8}, 2.0, kDouble), 0, 0.15);
  // Tensor-parameter ops read each sample's own parameters.
  Tensor mean = arange(8, kDouble).unsqueeze(1).expand({8, 4000}).contiguous();
  Tensor m = vmap([](const Tensor& t) { return normal(t, 0.5); }, 0, 0, kDiff)(mean);
  EXPECT_TENSOR_CLOSE_TOL(m.mean({1}), arange(8, kDouble), 0, 0.05);
  Tensor s = vmap([](const V& a) { return V{normal(a[0], a[1])}; }, {0, kNone}, {0},
                  kDiff)({mean, full({4000}, 0.1, kDouble)})[0];
  EXPECT_TENSOR_CLOSE_TOL(s.std(std::vector<int64_t>{1}), full({8}, 0.1, kDouble), 0, 0.01);
  Tensor probs = linspace(0.1, 0.8, 8, kDouble).unsqueeze(1).expand({8, 4000}).contiguous();
  Tensor b = vmap([](const Tensor& p) { return bernoulli(p); }, 0, 0, kDiff)(probs);
  EXPECT_TRUE(((b == 0) | (b == 1)).all().item<bool>());
  EXPECT_TENSOR_CLOSE_TOL(b.mean({1}), linspace(0.1, 0.8, 8, kDouble), 0, 0.04);
  // An unbatched p with "different": still one draw per sample.
  Tensor bu = vmap([&](const Tensor& t) { return bernoulli(full({200}, 0.5, kDouble)) + t; }, 0, 0,
                   kDiff)(zeros({3, 200}, kDouble));
  expect_rows_differ(bu);
  Tensor bs = vmap([](const Tensor& t) { return bernoulli(t, 0.3); }, 0, 0, kDiff)(x);
  EXPECT_TENSOR_CLOSE_TOL(bs.mean({1}), full({8}, 0.3, kDouble), 0, 0.04);
}

TEST_F(VmapRandom, InPlaceFills) {
  Tensor x = zeros({4, 300}, kDouble);
  auto fills = std::vector<std::function<void(Tensor&)>>{
      [](Tensor& t) { t.uniform_(-1, 1); }, [](Tensor& t) { t.normal_(3, 1); },   [](Tensor& t) { t.bernoulli_(0.5); },
      [](Tensor& t) { t.random_(0, 100); }, [](Tensor& t) { t.exponential_(2); },
  };
  for (const auto& fill : fills) {
    auto f = [&](const Tensor& t) {
      Tensor c = t.clone();
      fill(c);
      return c;
    };
    expect_rows_differ(vmap(f, 0, 0, kDiff)(x));
    Tensor same = vmap(f, 0, 0, kSame)(x);
    expect_rows_equal(same);
    EXPECT_FALSE(same[0].equal(zeros({300}, kDouble)));
  }
  // The fill writes through to the vmapped input.
  Tensor y = zeros({3, 100}, kDouble);
  vmap([](const Tensor& t) { return Tensor(t).normal_(); }, 0, 0, kDiff)(y);
  expect_rows_differ(y);
  EXPECT_GT(y.abs().sum().item<double>(), 0);
  // "different" cannot fill an unbatched tensor: every sample would write the one tensor.
  EXPECT_EMBER_ERROR(vmap([](const Tensor& t) { return zeros({3}, kDouble).normal_() + t; }, 0, 0, kDiff)(x), "normal_",
                     "Cannot ask for different inplace randomness on an unbatched tensor");
  // "same" fills an unbatched tensor with one draw.
  Tensor u = vmap([](const Tensor& t) { return zeros({300}, kDouble).uniform_() + t; }, 0, 0, kSame)(x);
  expect_rows_equal(u);
}

TEST_F(VmapRandom, SameRefusesBatchedParameters) {
  Tensor p = rand({3, 5}, kDouble);
  EXPECT_EMBER_ERROR(vmap([](const Tensor& t) { return bernoulli(t); }, 0, 0, kSame)(p), "bernoulli",
                     "same randomness with a batched tensor input");
  EXPECT_EMBER_ERROR(vmap([](const Tensor& t) { return normal(t, 1.0); }, 0, 0, kSame)(p), "normal",
                     "same randomness with a batched tensor input");
  EXPECT_EMBER_ERROR(vmap([](const Tensor& t) { return multinomial(t, 2); }, 0, 0, kSame)(p), "multinomial",
                     "same randomness with a batched tensor input");
  EXPECT_EMBER_ERROR(vmap([](const Tensor& t) { return bernoulli(t, 0.5); }, 0, 0, kSame)(p), "bernoulli",
                     "same randomness with a batched tensor input");
  // rand_like only reads the shape: "same" is fine with a batched argument.
  expect_rows_equal(vmap([](const Tensor& t) { return rand_like(t); }, 0, 0, kSame)(p));
  // A shared parameter is fine with "same": one draw for all.
  Tensor shared = rand({50}, kDouble);
  expect_rows_equal(vmap([&](const Tensor& t) { return bernoulli(shared) + t; }, 0, 0, kSame)(zeros({3, 50}, kDouble)));
  // Value checks see every sample.
  Tensor bad = p.clone();
  bad[2][1] = 1.5;
  EXPECT_EMBER_ERROR(vmap([](const Tensor& t) { return bernoulli(t); }, 0, 0, kDiff)(bad), "bernoulli", "[0, 1]");
}

TEST_F(VmapRandom, MultinomialPerSample) {
  // Sample k puts all its mass on category k (with replacement) / samples
  // without replacement are distinct categories with positive mass.
  Tensor probs = eye(4, kDouble) + 0.0;
  Tensor r = vmap([](const Tensor& p) { return multinomial(p, 6, true); }, 0, 0, kDiff)(probs);
  EXPECT_TRUE(r.equal(arange(4).unsqueeze(1).expand({4, 6})));
  Tensor w = rand({5, 2, 6}, kDouble) + 0.01;
  Tensor nr = vmap([](const Tensor& p) { return multinomial(p, 6, false); }, 0, 0, kDiff)(w);
  EXPECT_EQ(nr.sizes().vec(), (std::vector<int64_t>{5, 2, 6}));
  EXPECT_TRUE(std::get<0>(nr.sort(-1)).equal(arange(6).expand({5, 2, 6})));  // a permutation per row
  // Frequencies follow the probabilities.
  Tensor pr = tensor(std::vector<double>{0.1, 0.2, 0.7}).to(kDouble).expand({4, 3}).contiguous();
  Tensor draws = vmap([](const Tensor& p) { return multinomial(p, 3000, true); }, 0, 0, kDiff)(pr);
  for (int64_t c = 0; c < 3; ++c) EXPECT_TENSOR_CLOSE_TOL((draws == c).to(kDouble).mean({1}), pr.select(1, c), 0, 0.04);
  expect_rows_differ(draws);
  // Not enough positive categories without replacement, as the op itself.
  EXPECT_EMBER_ERROR(vmap([](const Tensor& p) { return multinomial(p, 2, false); }, 0, 0, kDiff)(probs), "multinomial",
                     "not enough");
}

TEST_F(VmapRandom, DropoutMasks) {
  const double p = 0.4;
  Tensor x = ones({6, 2000}, kDouble);
  Tensor d = vmap([&](const Tensor& t) { return dropout(t, p, true); }, 0, 0, kDiff)(x);
  // Kept elements are scaled by 1 / (1 - p), dropped ones are 0, at rate p per sample.
  EXPECT_TRUE(((d == 0) | ((d - 1.0 / (1 - p)).abs() < 1e-12)).all().item<bool>());
  EXPECT_TENSOR_CLOSE_TOL((d == 0).to(kDouble).mean({1}), full({6}, p, kDouble), 0, 0.04);
  expect_rows_differ(d);
  Tensor s = vmap([&](const Tensor& t) { return dropout(t, p, true); }, 0, 0, kSame)(x);
  expect_rows_equal(s);
  // "same": one mask for all samples, applied to each sample's values.
  Tensor y = randn({3, 500}, kDouble);
  Tensor sy = vmap([&](const Tensor& t) { return dropout(t, p, true); }, 0, 0, kSame)(y);
  Tensor mask = sy[0] != 0;
  for (int64_t i = 0; i < 3; ++i) {
    EXPECT_TRUE((sy[i] != 0).equal(mask));
    EXPECT_TENSOR_CLOSE(sy[i], y[i] * mask.to(kDouble) / (1 - p));
  }
  // An unbatched input with "different" gets a mask per sample.
  Tensor shared = ones({300}, kDouble);
  expect_rows_differ(
      vmap([&](const Tensor& t) { return dropout(shared, 0.5, true) + t; }, 0, 0, kDiff)(zeros({3, 300}, kDouble)));
  // Feature dropout: whole channels per sample; alpha dropout keeps the
  // mean and variance of a standard normal input.
  Tensor f =
      vmap([](const Tensor& t) { return feature_dropout(t, 0.5, true); }, 0, 0, kDiff)(ones({4, 2, 50, 6}, kDouble));
  Tensor per_channel = f.amax({3}) == f.amin({3});
  EXPECT_TRUE(per_channel.all().item<bool>());
  expect_rows_differ(f);
  Tensor a = vmap([](const Tensor& t) { return alpha_dropout(t, 0.3, true); }, 0, 0, kDiff)(randn({4, 20000}, kDouble));
  EXPECT_TENSOR_CLOSE_TOL(a.mean({1}), zeros({4}, kDouble), 0, 0.05);
  EXPECT_TENSOR_CLOSE_TOL(a.std(std::vector<int64_t>{1}), ones({4}, kDouble), 0, 0.05);
  // In place on the vmapped input.
  Tensor z = ones({3, 400}, kDouble);
  vmap(
      [](const Tensor& t) {
        Tensor c = t;
        return dropout_(c, 0.5, true);
      },
      0, 0, kDiff)(z);
  expect_rows_differ(z);
}

TEST_F(VmapRandom, GradientsThroughDropout) {
  // d/dx sum(dropout(x)^2) = 2 * dropout(x) * mask / (1 - p), per sample.
  Tensor x = randn({4, 30}, kDouble).requires_grad_(true);
  Tensor y = vmap([](const Tensor& t) { return dropout(t, 0.5, true); }, 0, 0, kDiff)(x);
  y.pow(2).sum().backward();
  EXPECT_TENSOR_CLOSE(x.grad(), 2 * y.detach() * (y.detach() != 0).to(kDouble) * 2.0);
  // Per-sample gradients of a model with dropout (func::grad under vmap).
  Tensor w = randn({30}, kDouble);
  auto loss = [](const V& a) { return V{(dropout(a[1], 0.5, true) * a[0]).sum()}; };
  Tensor g = vmap(func::grad(loss), {kNone, 0}, {0}, kDiff)({w, x.detach()})[0];
  EXPECT_EQ(g.sizes().vec(), (std::vector<int64_t>{4, 30}));
  // Each sample's gradient is its input where kept (scaled by 2), 0 where dropped.
  Tensor kept = g != 0;
  EXPECT_TENSOR_CLOSE(g, x.detach() * 2.0 * kept.to(kDouble));
  expect_rows_differ(kept);
}

TEST_F(VmapRandom, NestedLevels) {
  Tensor x = zeros({3, 4, 20}, kDouble);
  auto draw = [](const Tensor& t) { return t + rand_like(t); };
  // Inner "different", outer "same": samples differ along the inner dim only.
  auto inner_diff = vmap([&](const Tensor& t) { return vmap(draw, 0, 0, kDiff)(t); }, 0, 0, kSame);
  Tensor r = inner_diff(x);
  for (int64_t i = 1; i < 3; ++i) EXPECT_TRUE(r[0].equal(r[i]));
  expect_rows_differ(r[0]);
  auto outer_diff = vmap([&](const Tensor& t) { return vmap(draw, 0, 0, kSame)(t); }, 0, 0, kDiff);
  Tensor o = outer_diff(x);
  expect_rows_differ(o);
  expect_rows_equal(o[1]);
  auto both = vmap([&](const Tensor& t) { return vmap(draw, 0, 0, kDiff)(t); }, 0, 0, kDiff);
  Tensor bb = both(x).reshape({12, 20});
  expect_rows_differ(bb);
  // An "error" level anywhere refuses.
  auto outer_error = vmap([&](const Tensor& t) { return vmap(draw, 0, 0, kDiff)(t); });
  EXPECT_EMBER_ERROR(outer_error(x), "rand_like", "randomness error mode");
}

}  // namespace
}  // namespace torch
