// The fused LSTM layer (ember/ops/nn/lstm_layer.h, Note [Fused LSTM layer]) against the composite
// it replaces: values, every input's gradient (fused backward kernel), gradients of gradients
// (its create_graph path), and the saved-tensor version check. The lstm OpInfo entries
// (tests/autograd/opinfo_rnn.cpp) gradcheck/gradgradcheck it through the public op as well.
#include <gtest/gtest.h>

#include "common/test_util.h"
#include "ember/ember.h"
#include "ember/ops/nn/lstm_layer.h"

namespace torch {
namespace {

using rnn_detail::LstmLayerArgs;
using rnn_detail::LstmLayerResult;

constexpr int64_t kSteps = 5, kBatch = 3, kIn = 4, kHidden = 6;

// Fresh leaves (float64) for one layer; biases only if `biases`.
LstmLayerArgs make_args(bool reverse, bool biases, int64_t hidden = kHidden) {
  auto leaf = [](IntArrayRef s) { return (randn(s, kDouble) * 0.5).requires_grad_(true); };
  LstmLayerArgs a;
  a.x2d = leaf({kSteps * kBatch, kIn});
  a.w_ih = leaf({4 * hidden, kIn});
  a.w_hh = leaf({4 * hidden, hidden});
  if (biases) {
    a.b_ih = leaf({4 * hidden});
    a.b_hh = leaf({4 * hidden});
  }
  a.h0 = leaf({kBatch, hidden});
  a.c0 = leaf({kBatch, hidden});
  a.steps = kSteps;
  a.reverse = reverse;
  return a;
}

std::vector<Tensor> inputs_of(const LstmLayerArgs& a) {
  std::vector<Tensor> v;
  for (const Tensor& t : {a.x2d, a.w_ih, a.w_hh, a.b_ih, a.b_hh, a.h0, a.c0})
    if (t.defined()) v.push_back(t);
  return v;
}

// A scalar of all three results with weights `w`, so each result's gradient is non-trivial.
Tensor loss_of(const LstmLayerResult& r, const std::vector<Tensor>& w) {
  return (r.out * w[0]).sum() + (r.h_n * w[1]).sum() + (r.c_n * w[2]).sum();
}

TEST(LstmLayer, FusedMatchesTheCompositeInValuesAndGradients) {
  manual_seed(3);
  for (bool reverse : {false, true}) {
    for (bool biases : {true, false}) {
      const LstmLayerArgs a = make_args(reverse, biases);
      ASSERT_TRUE(rnn_detail::lstm_layer_fusable(a));
      const LstmLayerResult f = rnn_detail::lstm_layer_fused(a);
      const LstmLayerResult c = rnn_detail::lstm_layer_composite(a);
      ASSERT_EQ(f.out.grad_fn()->name(), "LstmLayerBackward0");
      EXPECT_TENSOR_CLOSE_TOL(f.out, c.out, 1e-12, 1e-13);
      EXPECT_TENSOR_CLOSE_TOL(f.h_n, c.h_n, 1e-12, 1e-13);
      EXPECT_TENSOR_CLOSE_TOL(f.c_n, c.c_n, 1e-12, 1e-13);
      const std::vector<Tensor> w = {randn(f.out.sizes(), kDouble), randn(f.h_n.sizes(), kDouble),
                                     randn(f.c_n.sizes(), kDouble)};
      const std::vector<Tensor> ins = inputs_of(a);
      const auto gf = autograd::grad({loss_of(f, w)}, ins, {}, /*retain_graph=*/true);
      const auto gc = autograd::grad({loss_of(c, w)}, ins, {}, /*retain_graph=*/true);
      for (size_t i = 0; i < ins.size(); ++i)
        EXPECT_TENSOR_CLOSE_TOL(gf[i], gc[i], 1e-11, 1e-12) << "input " << i << " reverse " << reverse;
      // Only some results used: the others' gradients are undefined in the node.
      const auto gf_h = autograd::grad({f.h_n.sum()}, ins, {}, std::nullopt, false, true);
      const auto gc_h = autograd::grad({c.h_n.sum()}, ins, {}, std::nullopt, false, true);
      for (size_t i = 0; i < ins.size(); ++i) EXPECT_TENSOR_CLOSE_TOL(gf_h[i], gc_h[i], 1e-11, 1e-12) << i;
    }
  }
}

// Note [LSTM forward slabs]: with two threads a hidden size that splits into two slabs of at
// least 32 units runs one slab per thread (64, 66); one that does not (65) splits rows.
TEST(LstmLayer, ForwardSlabsPerThreadMatchTheComposite) {
  manual_seed(8);
  const int before = get_num_threads();
  for (int threads : {1, 2}) {
    set_num_threads(threads);
    for (int64_t hidden : {64, 65, 66}) {
      for (bool reverse : {false, true}) {
        const LstmLayerArgs a = make_args(reverse, /*biases=*/hidden != 65, hidden);
        const LstmLayerResult f = rnn_detail::lstm_layer_fused(a);
        const LstmLayerResult c = rnn_detail::lstm_layer_composite(a);
        EXPECT_TENSOR_CLOSE_TOL(f.out, c.out, 1e-12, 1e-13) << threads << " threads, hidden " << hidden;
        EXPECT_TENSOR_CLOSE_TOL(f.c_n, c.c_n, 1e-12, 1e-13) << threads << " threads, hidden " << hidden;
      }
    }
  }
  set_num_threads(before);
}

// float32 uses a 3.5-ULP tanh (the Note): a few ulps from the composite, not more.
TEST(LstmLayer, Float32StaysWithinAFewUlpsOfTheComposite) {
  manual_seed(7);
  LstmLayerArgs a = make_args(false, true);
  for (Tensor* t : {&a.x2d, &a.w_ih, &a.w_hh, &a.b_ih, &a.b_hh, &a.h0, &a.c0})
    *t = t->detach().to(kFloat).requires_grad_(true);
  const LstmLayerResult f = rnn_detail::lstm_layer_fused(a);
  const LstmLayerResult c = rnn_detail::lstm_layer_composite(a);
  EXPECT_TENSOR_CLOSE_TOL(f.out, c.out, 1e-5, 1e-6);
  EXPECT_TENSOR_CLOSE_TOL(f.c_n, c.c_n, 1e-5, 1e-6);
  const std::vector<Tensor> ins = inputs_of(a);
  const auto gf = autograd::grad({f.out.sum() + f.c_n.sum()}, ins);
  const auto gc = autograd::grad({c.out.sum() + c.c_n.sum()}, ins);
  for (size_t i = 0; i < ins.size(); ++i) EXPECT_TENSOR_CLOSE_TOL(gf[i], gc[i], 1e-5, 1e-5) << "input " << i;
}

TEST(LstmLayer, GradientsOfGradientsGoThroughTheComposite) {
  manual_seed(4);
  const LstmLayerArgs a = make_args(false, true);
  const LstmLayerResult f = rnn_detail::lstm_layer_fused(a);
  const LstmLayerResult c = rnn_detail::lstm_layer_composite(a);
  const std::vector<Tensor> w = {randn(f.out.sizes(), kDouble), randn(f.h_n.sizes(), kDouble),
                                 randn(f.c_n.sizes(), kDouble)};
  const std::vector<Tensor> ins = inputs_of(a);
  const auto gf = autograd::grad({loss_of(f, w)}, ins, {}, std::nullopt, /*create_graph=*/true);
  const auto gc = autograd::grad({loss_of(c, w)}, ins, {}, std::nullopt, /*create_graph=*/true);
  Tensor sf = zeros({}, kDouble), sc = zeros({}, kDouble);
  for (size_t i = 0; i < ins.size(); ++i) {
    ASSERT_TRUE(gf[i].requires_grad()) << i;
    sf = sf + (gf[i] * gf[i]).sum();
    sc = sc + (gc[i] * gc[i]).sum();
  }
  const auto hf = autograd::grad({sf}, ins);
  const auto hc = autograd::grad({sc}, ins);
  for (size_t i = 0; i < ins.size(); ++i) EXPECT_TENSOR_CLOSE_TOL(hf[i], hc[i], 1e-10, 1e-11) << "input " << i;
}

TEST(LstmLayer, ModifyingTheOutputAfterForwardFailsBackward) {
  manual_seed(5);
  const LstmLayerArgs a = make_args(false, true);
  const LstmLayerResult f = rnn_detail::lstm_layer_fused(a);
  Tensor out = f.out;
  {
    NoGradGuard no_grad;
    out.mul_(2);
  }
  EXPECT_EMBER_ERROR(out.sum().backward(), "LstmLayerBackward0", "modified by an inplace operation");
}

TEST(LstmLayer, WhatTheFusedLayerLeavesToTheComposite) {
  manual_seed(6);
  LstmLayerArgs a = make_args(false, true);
  LstmLayerArgs mixed = a;
  mixed.h0 = a.h0.to(kFloat);
  EXPECT_FALSE(rnn_detail::lstm_layer_fusable(mixed));  // the composite raises the dtype error
  LstmLayerArgs bad = a;
  bad.w_hh = randn({4 * kHidden, kHidden + 1}, kDouble);
  EXPECT_FALSE(rnn_detail::lstm_layer_fusable(bad));  // and the shape error
  LstmLayerArgs half = a;
  for (Tensor* t : {&half.x2d, &half.w_ih, &half.w_hh, &half.b_ih, &half.b_hh, &half.h0, &half.c0})
    *t = t->detach().to(kBFloat16);
  EXPECT_FALSE(rnn_detail::lstm_layer_fusable(half));
  // The public op raises for a bad recurrent weight through the composite.
  auto params = std::vector<Tensor>{a.w_ih, bad.w_hh, a.b_ih, a.b_hh};
  EXPECT_EMBER_ERROR(lstm(a.x2d.view({kSteps, kBatch, kIn}), {a.h0.unsqueeze(0), a.c0.unsqueeze(0)}, params, true, 1,
                          0.0, false, false, false),
                     "addmm");
  // Under a dual level with a tangent: the composite, whose formulas carry it.
  autograd::forward_ad::DualLevel level;
  LstmLayerArgs dual = a;
  dual.x2d = autograd::forward_ad::make_dual(a.x2d.detach(), randn(a.x2d.sizes(), kDouble));
  EXPECT_FALSE(rnn_detail::lstm_layer_fusable(dual));
}

}  // namespace
}  // namespace torch
