// The dropout family. Ember's random stream differs from PyTorch's, so these
// check the distribution (drop rate, scale, per-channel masks, alpha dropout's
// moments), reproducibility under manual_seed, the gradient and the errors.
#include <gtest/gtest.h>

#include <cstring>

#include "common/test_util.h"
#include "ember/ops/nn/activation.h"
#include "ember/ops/nn/dropout.h"
#include "ember/ops/nn/embedding.h"
#include "ember/ops/nn/linear.h"
#include "ember/ops/nn/normalization.h"
#include "ember/ops/nn/relu_dropout.h"
#include "ember/torch.h"

using ember::Tensor;

TEST(NnDropout, DropsAtRateAndScales) {
  torch::manual_seed(7);
  Tensor x = torch::ones({100000});
  Tensor y = torch::dropout(x, 0.3, true);
  const double zero_frac = (y == 0).to(torch::kDouble).mean().item<double>();
  EXPECT_NEAR(zero_frac, 0.3, 0.01);
  // kept values are exactly 1 / (1 - p)
  Tensor kept = y.masked_select(y != 0);
  EXPECT_TENSOR_CLOSE(kept, torch::full({kept.numel()}, 1.0 / 0.7));
  EXPECT_NEAR(y.mean().item<double>(), 1.0, 0.02);
}

TEST(NnDropout, ReproducibleWithManualSeed) {
  Tensor x = torch::randn({1000}, torch::kDouble);
  torch::manual_seed(11);
  Tensor a = torch::dropout(x, 0.5, true);
  torch::manual_seed(11);
  Tensor b = torch::dropout(x, 0.5, true);
  EXPECT_TENSOR_EQ(a, b);
  Tensor c = x.clone();
  torch::manual_seed(11);
  torch::dropout_(c, 0.5, true);
  EXPECT_TENSOR_EQ(c, a);
}

// Note [Dropout without a mask]: with nothing to differentiate, dropout writes
// input * mask in one pass; the values must be those of the mask path (taken when the
// input requires grad, or for a non-contiguous input), NaN and inf included (inf * 0 is
// NaN on both), for float32 and float64 and for lengths off the 1024-element chunks.
TEST(NnDropout, WithoutGradSameValuesAsTheMaskPath) {
  for (auto dtype : {torch::kFloat, torch::kDouble})
    for (int64_t n : {1, 1000, 40000 + 7}) {
      Tensor x = torch::randn({n}, dtype) * 3.0;
      x.index_put_({0}, INFINITY);
      if (n > 1) x.index_put_({n - 1}, NAN);
      torch::manual_seed(21);
      Tensor fused = torch::dropout(x, 0.3, true);
      torch::manual_seed(21);
      Tensor masked = torch::dropout(x.clone().requires_grad_(true), 0.3, true).detach();
      EXPECT_TENSOR_EQ(fused, masked);
      torch::manual_seed(21);
      {
        torch::NoGradGuard no_grad;
        EXPECT_TENSOR_EQ(torch::dropout(x.clone().requires_grad_(true), 0.3, true), masked);
      }
      // A strided input takes the mask path; same draws per logical element.
      Tensor wide = torch::stack({x, x}, 1);
      torch::manual_seed(21);
      EXPECT_TENSOR_EQ(torch::dropout(wide.select(1, 0), 0.3, true), masked);
    }
}

TEST(NnDropout, EdgeCases) {
  Tensor x = torch::randn({4, 5});
  EXPECT_TENSOR_EQ(torch::dropout(x, 0.5, false), x);
  EXPECT_TENSOR_EQ(torch::dropout(x, 0.0, true), x);
  // (1 - p) * 2^32 rounds to 2^32: every element is kept (and scaled by 1 / (1 - p)).
  EXPECT_TENSOR_EQ(torch::dropout(x, 1e-12, true), x * (1.0 / (1.0 - 1e-12)));
  EXPECT_TENSOR_EQ(torch::dropout(x, 1.0, true), torch::zeros({4, 5}));
  EXPECT_TENSOR_EQ(torch::alpha_dropout(x, 1.0, true), torch::zeros({4, 5}));
  EXPECT_EQ(torch::dropout(torch::empty({0, 3}), 0.5, true).numel(), 0);
  EXPECT_EMBER_ERROR(torch::dropout(x, 1.5, true), "dropout", "between 0 and 1", "1.5");
  EXPECT_EMBER_ERROR(torch::dropout(x, -0.1, false), "dropout", "between 0 and 1");
  EXPECT_EMBER_ERROR(torch::feature_dropout(torch::randn({5}), 0.5, true), "feature_dropout", "2 dimensions");
}

TEST(NnDropout, GradientIsTheMask) {
  torch::manual_seed(5);
  Tensor x = torch::randn({50, 20}, torch::kDouble).requires_grad_(true);
  Tensor y = torch::dropout(x, 0.4, true);
  y.sum().backward();
  // grad = mask * 1/(1-p), and y = x * that same factor
  EXPECT_TENSOR_CLOSE(y.detach(), x.detach() * x.grad());
  Tensor g = x.grad();
  EXPECT_TRUE(((g == 0) | ((g - 1.0 / 0.6).abs() < 1e-12)).all().item<bool>());
}

// Note [Dropout with a byte mask]: a contiguous float input that requires grad keeps
// a byte mask (NativeDropoutBackward0); a strided one multiplies by a float mask
// (MulBackward0). Same draws, so the same values and, for any incoming gradient
// (inf included: inf * 0 is NaN on both), the same gradients, bit for bit.
TEST(NnDropout, ByteMaskGradientEqualsTheMaskProduct) {
  for (auto dtype : {torch::kFloat, torch::kDouble})
    for (int64_t n : {7, 40000 + 3}) {
      Tensor x0 = torch::randn({n}, dtype);
      Tensor g = torch::randn({n}, dtype);
      g.index_put_({0}, INFINITY);
      Tensor x = x0.clone().requires_grad_(true);
      torch::manual_seed(3);
      Tensor y = torch::dropout(x, 0.25, true);
      ASSERT_TRUE(y.grad_fn());
      EXPECT_EQ(y.grad_fn()->name(), "NativeDropoutBackward0");
      y.backward(g);
      Tensor wide = torch::stack({x0, x0}, 1).requires_grad_(true);
      torch::manual_seed(3);
      Tensor ys = torch::dropout(wide.select(1, 0), 0.25, true);
      EXPECT_EQ(ys.grad_fn()->name(), "MulBackward0");
      ys.backward(g);
      EXPECT_TENSOR_EQ(y.detach(), ys.detach());
      EXPECT_TENSOR_EQ(x.grad(), wide.grad().select(1, 0));
    }
}

TEST(NnDropout, FeatureDropoutZeroesWholeChannels) {
  torch::manual_seed(9);
  Tensor x = torch::ones({8, 16, 5, 5});
  Tensor y = torch::feature_dropout(x, 0.5, true);
  Tensor per_channel_min = y.amin({2, 3}), per_channel_max = y.amax({2, 3});
  EXPECT_TENSOR_EQ(per_channel_min, per_channel_max);  // each channel is all 0 or all 2
  const double dropped = (per_channel_max == 0).to(torch::kDouble).mean().item<double>();
  EXPECT_NEAR(dropped, 0.5, 0.1);
  Tensor z = x.clone();
  torch::feature_dropout_(z, 0.5, true);
  EXPECT_TRUE(((z == 0) | (z == 2)).all().item<bool>());
}

TEST(NnDropout, AlphaDropoutKeepsMoments) {
  torch::manual_seed(13);
  Tensor x = torch::randn({200000}, torch::kDouble);
  Tensor y = torch::alpha_dropout(x, 0.2, true);
  EXPECT_NEAR(y.mean().item<double>(), 0.0, 0.02);
  EXPECT_NEAR(y.std().item<double>(), 1.0, 0.02);
  Tensor f = torch::feature_alpha_dropout(torch::randn({64, 32, 10}, torch::kDouble), 0.2, true);
  EXPECT_NEAR(f.mean().item<double>(), 0.0, 0.1);
  // dropped entries take the value alpha' = -alpha*scale transformed: a * 0 + b with the same b everywhere
  Tensor ones = torch::ones({1000}, torch::kDouble);
  Tensor d = torch::alpha_dropout(ones, 0.5, true);
  EXPECT_LE(std::get<0>(torch::unique(d)).numel(), 2);
}

// vmap over a vjp through dropout: the byte-mask node receives batched
// gradients and multiplies them with the ruled ops.
TEST(NnDropout, ByteMaskUnderVmapOfVjp) {
  Tensor x = torch::randn({50}, torch::kDouble);
  torch::manual_seed(4);
  ember::func::VjpResult r = ember::func::vjp(
      [](const std::vector<Tensor>& in) { return std::vector<Tensor>{torch::dropout(in[0], 0.5, true)}; }, {x});
  Tensor cts = torch::randn({3, 50}, torch::kDouble);
  const std::vector<Tensor> batched = ember::vmap(r.vjp_fn)({cts});
  for (int64_t b = 0; b < 3; ++b) EXPECT_TENSOR_EQ(batched[0][b], r.vjp_fn({cts[b]})[0]);
}

// Same bytes: -0 against +0 and NaN payloads too.
bool same_bits(const Tensor& a, const Tensor& b) {
  const Tensor x = a.detach().contiguous(), y = b.detach().contiguous();
  return x.sizes().equals(y.sizes()) && x.dtype() == y.dtype() &&
         std::memcmp(x.data_ptr(), y.data_ptr(), static_cast<size_t>(x.numel()) * x.itemsize()) == 0;
}

// Note [Relu then dropout]: relu_dropout(x) is dropout(relu(x)) after the same seed, bit
// for bit: values (NaN, -0 and exact zeros in x), gradients (with inf and NaN in the
// incoming gradient), double backward and forward-mode tangents.
TEST(NnDropout, ReluDropoutEqualsDropoutOfRelu) {
  for (auto dtype : {torch::kFloat, torch::kDouble})
    for (int64_t n : {9, 40000 + 5}) {
      Tensor x0 = torch::randn({n}, dtype);
      x0.index_put_({0}, NAN);
      x0.index_put_({1}, -0.0);
      x0.index_put_({2}, 0.0);
      Tensor g = torch::randn({n}, dtype);
      g.index_put_({3}, INFINITY);
      g.index_put_({4}, NAN);
      Tensor x = x0.clone().requires_grad_(true), xr = x0.clone().requires_grad_(true);
      torch::manual_seed(5);
      Tensor y = ember::relu_dropout(x, 0.3, true);
      ASSERT_TRUE(y.grad_fn());
      EXPECT_EQ(y.grad_fn()->name(), "ReluDropoutBackward0");
      torch::manual_seed(5);
      Tensor yr = torch::dropout(torch::relu(xr), 0.3, true);
      EXPECT_TRUE(same_bits(y, yr));
      const Tensor gx = torch::autograd::grad({y}, {x}, {g}, true, true)[0];
      const Tensor gr = torch::autograd::grad({yr}, {xr}, {g}, true, true)[0];
      EXPECT_TRUE(same_bits(gx, gr));
      // The fused one-pass backward (no graph) equals the composite too.
      const Tensor gx1 = torch::autograd::grad({y}, {x}, {g}, true)[0];
      EXPECT_TRUE(same_bits(gx1, gr));
      // Double backward: d/dg of <gx, v>.
      const Tensor v = torch::randn({n}, dtype);
      Tensor gg = g.nan_to_num().clone().requires_grad_(true), ggr = gg.detach().clone().requires_grad_(true);
      const Tensor a = torch::autograd::grad({y}, {x}, {gg}, true, true)[0];
      const Tensor b = torch::autograd::grad({yr}, {xr}, {ggr}, true, true)[0];
      EXPECT_TRUE(torch::equal(torch::autograd::grad({(a * v).sum()}, {gg})[0],
                               torch::autograd::grad({(b * v).sum()}, {ggr})[0]));
    }
  // Not training, p = 0, no autograd: the two ops.
  Tensor x = torch::randn({5, 3});
  EXPECT_TRUE(torch::equal(ember::relu_dropout(x, 0.5, false), torch::relu(x)));
  EXPECT_TRUE(torch::equal(ember::relu_dropout(x, 0.0, true), torch::relu(x)));
  EXPECT_EMBER_ERROR(ember::relu_dropout(x, 1.5, true), "relu_dropout", "between 0 and 1");
  EXPECT_EMBER_ERROR(ember::relu_dropout(torch::ones({3}, torch::kLong), 0.5, true), "relu_dropout", "floating point");
  EXPECT_EMBER_ERROR(ember::relu_dropout(Tensor(), 0.5, true), "relu_dropout", "defined");
}

// The transformer layers take the one-pass path for relu; a relu given as a callable
// takes the two ops. Same seed, same outputs and parameter gradients.
TEST(NnDropout, TransformerFeedForwardFusedEqualsTwoOps) {
  auto run = [](bool callable) {
    torch::manual_seed(9);
    auto opts = torch::nn::TransformerEncoderLayerOptions(16, 2).dim_feedforward(32).dropout(0.2);
    if (callable) opts.activation([](const Tensor& t) { return torch::relu(t); });
    torch::nn::TransformerEncoderLayer layer(opts);
    layer->train();
    Tensor src = torch::randn({5, 3, 16});
    Tensor out = layer(src);
    out.pow(2).sum().backward();
    std::vector<Tensor> r{out.detach()};
    for (const auto& p : layer->parameters()) r.push_back(p.grad().clone());
    return r;
  };
  const auto fused = run(false), two = run(true);
  ASSERT_EQ(fused.size(), two.size());
  for (size_t i = 0; i < fused.size(); ++i) EXPECT_TRUE(torch::allclose(fused[i], two[i], 1e-6, 1e-6)) << i;
}
