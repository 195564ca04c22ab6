// scaled_dot_product_attention (Note [Fused attention]): the fused kernels against the
// math definition written with the separate ops (matmul, softmax, dropout — each checked
// against PyTorch elsewhere), values and gradients; dropout's kept elements after the same
// seed; the packed q|k|v gradient; errors. gradcheck / gradgradcheck: the OpInfo entries.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "common/test_util.h"
#include "ember/ops/nn/attention.h"
#include "ember/torch.h"

using ember::Tensor;

namespace {

// The math definition with the separate ops; mask additive or bool (true = attend).
Tensor reference(const Tensor& q, const Tensor& k, const Tensor& v, const Tensor& mask, double p, double scale,
                 bool causal = false) {
  Tensor s = torch::matmul(q, k.transpose(-2, -1)) * scale;
  if (causal) {
    Tensor allowed = torch::ones({q.size(-2), k.size(-2)}, torch::kBool).tril();
    s = s.masked_fill(allowed.logical_not(), -std::numeric_limits<double>::infinity());
  }
  if (mask.defined())
    s = mask.scalar_type() == torch::kBool ? s.masked_fill(mask.logical_not(), -std::numeric_limits<double>::infinity())
                                           : s + mask;
  Tensor w = torch::softmax(s, -1);
  if (p > 0) w = torch::dropout(w, p, true);
  return torch::matmul(w, v);
}

struct Case {
  const char* name;
  std::vector<int64_t> q, k, v;
  Tensor mask;
  bool causal = false;
  std::optional<double> scale;
  double p = 0;
};

// Values and the gradients of q, k and v, fused against the reference after one seed.
void expect_matches_reference(const Case& c, torch::Dtype dtype, double tol) {
  SCOPED_TRACE(c.name);
  torch::manual_seed(11);
  Tensor q = torch::randn(c.q, dtype).requires_grad_(), k = torch::randn(c.k, dtype).requires_grad_(),
         v = torch::randn(c.v, dtype).requires_grad_();
  Tensor mask = c.mask.defined() && c.mask.is_floating_point() ? c.mask.to(dtype) : c.mask;
  const double scale = c.scale ? *c.scale : 1.0 / std::sqrt(static_cast<double>(c.q.back()));
  torch::manual_seed(5);
  Tensor out = ember::scaled_dot_product_attention(q, k, v, mask, c.p, c.causal, c.scale);
  ASSERT_EQ(out.grad_fn()->name(), "ScaledDotProductAttentionBackward0");
  torch::manual_seed(5);
  Tensor expected = reference(q, k, v, mask, c.p, scale, c.causal);
  EXPECT_TENSOR_CLOSE_TOL(out, expected, tol, tol);
  Tensor g = torch::randn(expected.sizes(), dtype);
  auto got = torch::autograd::grad({out}, {q, k, v}, {g});
  auto want = torch::autograd::grad({expected}, {q, k, v}, {g});
  for (size_t i = 0; i < 3; ++i) EXPECT_TENSOR_CLOSE_TOL(got[i], want[i], tol, tol);
}

std::vector<Case> cases() {
  return {
      {"plain", {2, 3, 5, 4}, {2, 3, 7, 4}, {2, 3, 7, 6}},
      {"2-D, own scale", {5, 4}, {7, 4}, {7, 3}, {}, false, 0.37},
      {"broadcast batch", {2, 3, 5, 4}, {3, 7, 4}, {1, 3, 7, 6}},
      {"float mask", {2, 3, 5, 4}, {2, 3, 7, 4}, {2, 3, 7, 6}, torch::randn({5, 7})},
      {"bool mask", {2, 3, 5, 4}, {2, 3, 7, 4}, {2, 3, 7, 6}, torch::rand({2, 1, 5, 7}) > 0.3},
      {"mask by column", {2, 5, 4}, {2, 7, 4}, {2, 7, 6}, torch::randn({7, 5}).t()},
      {"causal, L < S", {2, 5, 4}, {2, 7, 4}, {2, 7, 6}, {}, true},
      {"causal, L > S", {2, 7, 4}, {2, 5, 4}, {2, 5, 6}, {}, true},
      {"dropout", {2, 3, 5, 4}, {2, 3, 7, 4}, {2, 3, 7, 6}, {}, false, {}, 0.4},
      {"dropout and mask", {3, 9, 8}, {3, 9, 8}, {3, 9, 8}, torch::randn({9, 9}), false, 0.5, 0.2},
  };
}

}  // namespace

TEST(Attention, MatchesMathDefinitionFloat64) {
  for (const Case& c : cases()) expect_matches_reference(c, torch::kDouble, 1e-12);
}

TEST(Attention, MatchesMathDefinitionFloat32) {
  for (const Case& c : cases()) expect_matches_reference(c, torch::kFloat, 2e-5);
}

// The draws are numbered as the weights tensor's elements: the same weights are dropped
// as by dropout(softmax(...)) after the same seed, at any thread count.
TEST(Attention, DropsDropoutsElements) {
  for (int threads : {1, 2}) {
    torch::set_num_threads(threads);
    torch::manual_seed(3);
    Tensor q = torch::randn({4, 2, 16, 8}, torch::kDouble), k = torch::randn({4, 2, 16, 8}, torch::kDouble);
    // Identity-like values make each output element one weight: v = I picks the weights.
    Tensor v = torch::eye(16, torch::kDouble).expand({4, 2, 16, 16});
    torch::manual_seed(9);
    Tensor out = ember::scaled_dot_product_attention(q, k, v, {}, 0.5);
    torch::manual_seed(9);
    Tensor expected = reference(q, k, v, {}, 0.5, 1.0 / std::sqrt(8.0));
    EXPECT_TENSOR_EQ(out == 0, expected == 0);
    EXPECT_TENSOR_CLOSE_TOL(out, expected, 1e-13, 1e-13);
    const double dropped = (out == 0).to(torch::kDouble).mean().item<double>();
    EXPECT_NEAR(dropped, 0.5, 0.05);
  }
  torch::set_num_threads(1);
}

// Multi-head attention's packed projection: q, k and v as pieces of one [T, N, 3, H, hd]
// tensor. The output is laid out so that the heads merge by a view, and the gradient of
// the packed tensor is the reference's.
TEST(Attention, PackedHeadsOfOneProjection) {
  torch::manual_seed(2);
  const int64_t T = 6, N = 2, H = 2, hd = 4;
  Tensor x = torch::randn({T, N, 3 * H * hd}, torch::kDouble).requires_grad_();
  auto heads = [&] { return x.view({T, N, 3, H, hd}).permute({2, 1, 3, 0, 4}).unbind(0); };
  auto p = heads();
  Tensor out = ember::scaled_dot_product_attention(p[0], p[1], p[2], {}, 0.0, true);
  EXPECT_TRUE(out.permute({2, 0, 1, 3}).is_contiguous());
  Tensor g = torch::randn(out.sizes(), torch::kDouble);
  Tensor got = torch::autograd::grad({out}, {x}, {g})[0];
  auto r = heads();
  Tensor want = torch::autograd::grad({reference(r[0], r[1], r[2], {}, 0.0, 0.5, true)}, {x}, {g})[0];
  EXPECT_TENSOR_CLOSE_TOL(got, want, 1e-12, 1e-12);
  // Only the value is differentiated: its gradient alone, the others' parts zero.
  Tensor xv = x.detach().clone().requires_grad_();
  auto pv = xv.view({T, N, 3, H, hd}).permute({2, 1, 3, 0, 4}).unbind(0);
  Tensor gv = torch::autograd::grad(
      {ember::scaled_dot_product_attention(pv[0].detach(), pv[1].detach(), pv[2], {}, 0.0, true)}, {xv}, {g})[0];
  EXPECT_TENSOR_CLOSE_TOL(gv.view({T, N, 3, H * hd}).select(2, 2), want.view({T, N, 3, H * hd}).select(2, 2), 1e-12,
                          1e-12);
  EXPECT_EQ(gv.view({T, N, 3, H * hd}).narrow(2, 0, 2).abs().max().item<double>(), 0.0);
}

// A row whose keys are all masked has NaN weights, as softmax of all -inf; no grad mode.
TEST(Attention, FullyMaskedRowAndNoGrad) {
  torch::NoGradGuard no_grad;
  Tensor q = torch::randn({3, 4}), k = torch::randn({5, 4}), v = torch::randn({5, 2});
  Tensor mask = torch::ones({3, 5}, torch::kBool);
  mask[1].fill_(false);
  Tensor out = ember::scaled_dot_product_attention(q, k, v, mask);
  EXPECT_TRUE(out[1].isnan().all().item<bool>());
  EXPECT_FALSE(out[0].isnan().any().item<bool>());
  EXPECT_TENSOR_CLOSE(out[0], reference(q, k, v, mask, 0, 0.5)[0]);
}

// Other dtypes and a mask that requires grad take the composite, with the same values.
TEST(Attention, CompositeCases) {
  Tensor q = torch::randn({2, 3, 4}, torch::kDouble), k = torch::randn({2, 5, 4}, torch::kDouble),
         v = torch::randn({2, 5, 3}, torch::kDouble);
  Tensor mask = torch::randn({3, 5}, torch::kDouble).requires_grad_();
  Tensor out = ember::scaled_dot_product_attention(q, k, v, mask);
  EXPECT_TENSOR_CLOSE(out, reference(q, k, v, mask, 0, 0.5));
  Tensor gm = torch::autograd::grad({out.sum()}, {mask})[0];
  Tensor want = torch::autograd::grad({reference(q, k, v, mask, 0, 0.5).sum()}, {mask})[0];
  EXPECT_TENSOR_CLOSE(gm, want);
  Tensor b =
      ember::scaled_dot_product_attention(q.to(torch::kBFloat16), k.to(torch::kBFloat16), v.to(torch::kBFloat16));
  EXPECT_EQ(b.scalar_type(), torch::kBFloat16);
  EXPECT_TENSOR_CLOSE_TOL(b.to(torch::kDouble), reference(q, k, v, {}, 0, 0.5), 0.05, 0.05);
}

TEST(Attention, Errors) {
  Tensor q = torch::randn({2, 3, 4}), k = torch::randn({2, 5, 4}), v = torch::randn({2, 5, 3});
  using ember::scaled_dot_product_attention;
  EXPECT_EMBER_ERROR(scaled_dot_product_attention(Tensor(), k, v), "scaled_dot_product_attention", "defined");
  EXPECT_EMBER_ERROR(scaled_dot_product_attention(torch::randn({4}), k, v), "scaled_dot_product_attention", "[4]");
  EXPECT_EMBER_ERROR(scaled_dot_product_attention(q, k.to(torch::kDouble), v), "scaled_dot_product_attention",
                     "float64");
  EXPECT_EMBER_ERROR(scaled_dot_product_attention(q.to(torch::kLong), k.to(torch::kLong), v.to(torch::kLong)),
                     "scaled_dot_product_attention", "int64");
  EXPECT_EMBER_ERROR(scaled_dot_product_attention(q, torch::randn({2, 5, 3}), v), "scaled_dot_product_attention",
                     "[2, 3, 4]", "[2, 5, 3]");
  EXPECT_EMBER_ERROR(scaled_dot_product_attention(q, k, torch::randn({2, 4, 3})), "scaled_dot_product_attention",
                     "[2, 4, 3]");
  EXPECT_EMBER_ERROR(scaled_dot_product_attention(q, torch::randn({3, 5, 4}), torch::randn({3, 5, 3})),
                     "scaled_dot_product_attention");
  EXPECT_EMBER_ERROR(scaled_dot_product_attention(q, k, v, {}, 1.5), "scaled_dot_product_attention", "1.5");
  EXPECT_EMBER_ERROR(scaled_dot_product_attention(q, k, v, torch::zeros({3, 5}), 0.0, true),
                     "scaled_dot_product_attention", "is_causal");
  EXPECT_EMBER_ERROR(scaled_dot_product_attention(q, k, v, torch::zeros({3, 5}, torch::kLong)),
                     "scaled_dot_product_attention", "int64");
  EXPECT_EMBER_ERROR(scaled_dot_product_attention(q, k, v, torch::zeros({3, 4})), "scaled_dot_product_attention",
                     "[3, 4]", "[2, 3, 5]");
}
