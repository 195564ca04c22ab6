// vmap of the recurrent layers and cells (ember/ops/nn/rnn.cpp: composites over
// ruled ops under vmap) and of the nn::RNN/LSTM/GRU modules and cells, against
// the per-slice oracle (tests/vmap/vmap_oracle.h), float64: batched input,
// batched initial state, both, per-sample weights, packed data, gradients.
#include <gtest/gtest.h>

#include "common/test_util.h"
#include "ember/ember.h"
#include "ember/vmap/batching_rules.h"
#include "vmap/vmap_oracle.h"

namespace torch {
namespace {

using namespace vmap_test;
using V = std::vector<Tensor>;
constexpr auto kNone = std::nullopt;

class VmapRnn : public ::testing::Test {
 protected:
  void SetUp() override { manual_seed(3); }
};

// Parameters in ATen's order for `layers` x `dirs` of a cell with `gates` gates.
V make_params(int64_t gates, int64_t in, int64_t hidden, int64_t layers, int64_t dirs, bool bias) {
  V p;
  for (int64_t l = 0; l < layers; ++l)
    for (int64_t d = 0; d < dirs; ++d) {
      p.push_back(randn({gates * hidden, l == 0 ? in : hidden * dirs}, kDouble) * 0.5);
      p.push_back(randn({gates * hidden, hidden}, kDouble) * 0.5);
      if (bias) {
        p.push_back(randn({gates * hidden}, kDouble) * 0.1);
        p.push_back(randn({gates * hidden}, kDouble) * 0.1);
      }
    }
  return p;
}

TEST_F(VmapRnn, LstmDenseBatchedInputAndState) {
  const int64_t B = 3, T = 4, N = 2, in = 3, h = 5;
  V params = make_params(4, in, h, 2, 2, true);
  auto f = [&](const V& a) {
    auto [out, hn, cn] = lstm(a[0], {a[1], a[2]}, params, true, 2, 0.0, false, true, false);
    return V{out, hn, cn};
  };
  Tensor x = randn({B, T, N, in}, kDouble), h0 = randn({4, B, N, h}, kDouble), c0 = randn({4, N, h}, kDouble);
  expect_matches_loop(f, {x, h0, c0}, {0, 1, kNone});
  expect_matches_loop(f, {x, h0.select(1, 0), c0}, {0, kNone, kNone});
  expect_matches_loop(f, {x[0], h0, c0.unsqueeze(0).expand({B, 4, N, h}).contiguous()}, {kNone, 1, 0});
  // batch_first and in_dims other than 0.
  auto fb = [&](const V& a) {
    auto [out, hn, cn] = lstm(a[0], {a[1], a[2]}, params, true, 2, 0.0, false, true, true);
    return V{out, hn, cn};
  };
  expect_matches_loop(fb, {randn({N, T, B, in}, kDouble), h0.select(1, 0), c0}, {2, kNone, kNone}, 1);
}

TEST_F(VmapRnn, SingleStateLayers) {
  const int64_t B = 3, T = 5, N = 2, in = 4, h = 3;
  for (int kind = 0; kind < 3; ++kind) {
    SCOPED_TRACE(kind);
    const int64_t gates = kind == 0 ? 3 : 1;
    V params = make_params(gates, in, h, 2, kind == 1 ? 2 : 1, kind != 2);
    const int64_t dirs = kind == 1 ? 2 : 1;
    auto f = [&](const V& a) {
      std::tuple<Tensor, Tensor> r = kind == 0   ? gru(a[0], a[1], params, true, 2, 0.0, false, false, false)
                                     : kind == 1 ? rnn_tanh(a[0], a[1], params, true, 2, 0.0, false, true, false)
                                                 : rnn_relu(a[0], a[1], params, false, 2, 0.0, false, false, false);
      return V{std::get<0>(r), std::get<1>(r)};
    };
    Tensor x = randn({B, T, N, in}, kDouble), h0 = randn({B, 2 * dirs, N, h}, kDouble);
    expect_matches_loop(f, {x, h0}, {0, 0});
    expect_matches_loop(f, {x, h0[0]}, {0, kNone});
    expect_matches_loop(f, {x[0], h0}, {kNone, 0});
  }
}

TEST_F(VmapRnn, PerSampleWeights) {
  // An ensemble: each sample its own weights (batched params), input shared or batched.
  const int64_t B = 3, T = 3, N = 2, in = 3, h = 4;
  V shapes = make_params(3, in, h, 1, 1, true);
  V stacked;
  for (const Tensor& p : shapes) stacked.push_back(randn(batching::batch_shape(B, p.sizes()), kDouble) * 0.5);
  auto f = [&](const V& a) {
    V ps(a.begin() + 2, a.end());
    auto [out, hn] = gru(a[0], a[1], ps, true, 1, 0.0, false, false, false);
    return V{out, hn};
  };
  Tensor x = randn({B, T, N, in}, kDouble), h0 = randn({1, N, h}, kDouble);
  V in_args{x, h0};
  in_args.insert(in_args.end(), stacked.begin(), stacked.end());
  expect_matches_loop(f, in_args, {0, kNone, 0, 0, 0, 0});
  in_args[0] = x[0];
  expect_matches_loop(f, in_args, {kNone, kNone, 0, 0, 0, 0});
  // Only the biases per sample.
  in_args[2] = stacked[0][0];
  in_args[3] = stacked[1][0];
  expect_matches_loop(f, in_args, {kNone, kNone, kNone, kNone, 0, 0});
}

TEST_F(VmapRnn, PackedData) {
  // Three sequences of lengths 3, 2, 2 packed: batch_sizes [3, 3, 1]; every sample its own data.
  const int64_t B = 2, in = 3, h = 4;
  Tensor batch_sizes = tensor(std::vector<int64_t>{3, 3, 1});
  V params = make_params(4, in, h, 1, 2, true);
  auto f = [&](const V& a) {
    auto [out, hn, cn] = lstm(a[0], batch_sizes, {a[1], a[2]}, params, true, 1, 0.0, false, true);
    return V{out, hn, cn};
  };
  Tensor data = randn({B, 7, in}, kDouble), h0 = randn({B, 2, 3, h}, kDouble), c0 = randn({2, 3, h}, kDouble);
  expect_matches_loop(f, {data, h0, c0}, {0, 0, kNone});
  expect_matches_loop(f, {data[0], h0, c0}, {kNone, 0, kNone});
  V p1 = make_params(1, in, h, 1, 1, true);
  auto g = [&](const V& a) {
    auto [out, hn] = rnn_tanh(a[0], batch_sizes, a[1], p1, true, 1, 0.0, false, false);
    return V{out, hn};
  };
  expect_matches_loop(g, {data, randn({1, 3, h}, kDouble)}, {0, kNone});
  // Per-sample lengths cannot be batched: the steps would differ per sample.
  Tensor h1 = randn({1, 3, h}, kDouble);
  EXPECT_EMBER_ERROR(vmap([&](const V& a) {
                       return V{std::get<0>(rnn_tanh(a[0], a[1], h1, p1, true, 1, 0.0, false, false))};
                     })({data, tensor(std::vector<int64_t>{3, 3, 1, 3, 3, 1}).view({2, 3})}),
                     "rnn_tanh", "batch_sizes", "cannot be batched");
}

TEST_F(VmapRnn, Cells) {
  const int64_t B = 4, N = 3, in = 5, h = 2;
  Tensor wi4 = randn({4 * h, in}, kDouble), wh4 = randn({4 * h, h}, kDouble), bi4 = randn({4 * h}, kDouble),
         bh4 = randn({4 * h}, kDouble);
  auto lstm_f = [&](const V& a) {
    auto [hh, cc] = lstm_cell(a[0], {a[1], a[2]}, wi4, wh4, bi4, bh4);
    return V{hh, cc};
  };
  Tensor x = randn({B, N, in}, kDouble), h0 = randn({B, N, h}, kDouble), c0 = randn({N, h}, kDouble);
  expect_matches_loop(lstm_f, {x, h0, c0}, {0, 0, kNone});
  expect_matches_loop(lstm_f, {x, h0[0], c0}, {0, kNone, kNone});
  expect_matches_loop(lstm_f, {x[0], h0.transpose(0, 1), c0}, {kNone, 1, kNone});
  Tensor wi3 = randn({3 * h, in}, kDouble), wh3 = randn({3 * h, h}, kDouble), b3 = randn({3 * h}, kDouble);
  Tensor wi1 = randn({h, in}, kDouble), wh1 = randn({h, h}, kDouble), b1 = randn({h}, kDouble);
  auto simple = [&](const V& a) {
    return V{gru_cell(a[0], a[1], wi3, wh3, b3, b3 * 0.5), rnn_tanh_cell(a[0], a[1], wi1, wh1, b1, {}),
             rnn_relu_cell(a[0], a[1], wi1, wh1)};
  };
  expect_matches_loop(simple, {x, h0}, {0, 0});
  expect_matches_loop(simple, {x, h0[1]}, {0, kNone});
  expect_matches_loop(simple, {x[2], h0}, {kNone, 0});
  // Per-sample cell weights.
  auto per_w = [&](const V& a) { return V{gru_cell(a[0], a[1], a[2], a[3], a[4])}; };
  expect_matches_loop(
      per_w, {x, h0, randn({B, 3 * h, in}, kDouble), randn({B, 3 * h, h}, kDouble), randn({B, 3 * h}, kDouble)},
      {0, 0, 0, 0, 0});
  // Nested vmaps: input batched at both levels, state at the outer one only.
  auto inner = [&](const V& a) { return vmap(lstm_f, {0, kNone, kNone})(a); };
  Tensor x2 = randn({2, B, N, in}, kDouble), h2 = randn({2, N, h}, kDouble);
  Tensor nested = vmap(inner, {0, 0, kNone})({x2, h2, c0})[1];
  for (int64_t i = 0; i < 2; ++i)
    for (int64_t j = 0; j < B; ++j)
      EXPECT_TENSOR_CLOSE(nested[i][j], std::get<1>(lstm_cell(x2[i][j], {h2[i], c0}, wi4, wh4, bi4, bh4)));
  // The cells' checks read the per-sample shapes.
  EXPECT_EMBER_ERROR(
      vmap([&](const V& a) { return V{gru_cell(a[0], a[1], wi3, wh3)}; })({x, randn({B, N + 1, h}, kDouble)}),
      "gru_cell", "Input batch size 3 doesn't match hidden batch size 4");
}

TEST_F(VmapRnn, Modules) {
  const int64_t B = 3, T = 4, N = 2;
  nn::LSTM lstm_m(nn::LSTMOptions(3, 4).num_layers(2).batch_first(true));
  lstm_m->to(kDouble);
  auto f = [&](const V& a) {
    auto [out, state] = lstm_m->forward(a[0]);
    return V{out, std::get<0>(state), std::get<1>(state)};
  };
  expect_matches_loop(f, {randn({B, N, T, 3}, kDouble)});
  expect_matches_loop(f, {randn({T, B, 3}, kDouble)}, {1});  // unbatched samples [T, in]
  nn::GRU gru_m(nn::GRUOptions(3, 4).bidirectional(true));
  gru_m->to(kDouble);
  auto g = [&](const V& a) {
    auto [out, hn] = gru_m->forward(a[0], a[1]);
    return V{out, hn};
  };
  expect_matches_loop(g, {randn({B, T, N, 3}, kDouble), randn({B, 2, N, 4}, kDouble)});
  nn::RNN rnn_m(nn::RNNOptions(3, 4).nonlinearity(ember::kReLU));
  rnn_m->to(kDouble);
  expect_matches_loop1([&](const Tensor& x) { return std::get<0>(rnn_m->forward(x)); }, randn({B, T, N, 3}, kDouble));
  nn::LSTMCell cell(nn::LSTMCellOptions(3, 4));
  cell->to(kDouble);
  expect_matches_loop1([&](const Tensor& x) { return std::get<1>(cell->forward(x)); }, randn({B, N, 3}, kDouble));
  expect_matches_loop1([&](const Tensor& x) { return std::get<0>(cell->forward(x)); }, randn({B, 3}, kDouble));
  nn::GRUCell gcell(nn::GRUCellOptions(3, 4));
  gcell->to(kDouble);
  expect_matches_loop([&](const V& a) { return V{gcell->forward(a[0], a[1])}; },
                      {randn({B, N, 3}, kDouble), randn({N, 4, B}, kDouble)}, {0, 2});
  nn::RNNCell rcell(nn::RNNCellOptions(3, 4));
  rcell->to(kDouble);
  expect_matches_loop1([&](const Tensor& x) { return rcell->forward(x); }, randn({B, N, 3}, kDouble));
}

TEST_F(VmapRnn, Gradients) {
  const int64_t B = 3, T = 3, N = 2, in = 3, h = 3;
  V params = make_params(4, in, h, 2, 1, true);
  for (Tensor& p : params) p.requires_grad_(true);
  Tensor x = randn({B, T, N, in}, kDouble).requires_grad_(true);
  Tensor h0 = randn({B, 2, N, h}, kDouble).requires_grad_(true);
  Tensor c0 = randn({2, N, h}, kDouble).requires_grad_(true);
  auto f = [&](const V& a) {
    auto [out, hn, cn] = lstm(a[0], {a[1], a[2]}, params, true, 2, 0.0, false, false, false);
    return V{out.sum({0}) + hn.sum({0}) + cn.sum({0})};
  };
  V leaves{x, h0, c0};
  leaves.insert(leaves.end(), params.begin(), params.end());
  expect_grads_match_loop(f, {x, h0, c0}, {0, 0, kNone}, leaves);
  // A GRU cell with per-sample weights.
  Tensor w = randn({B, 3 * h, in}, kDouble).requires_grad_(true), u = randn({3 * h, h}, kDouble).requires_grad_(true);
  Tensor xc = randn({B, N, in}, kDouble).requires_grad_(true);
  expect_grads_match_loop([&](const V& a) { return V{gru_cell(a[0], a[2], a[1], u)}; }, {xc, w, randn({N, h}, kDouble)},
                          {0, 0, kNone}, {xc, w, u});
  // Per-sample gradients of shared weights (func::grad under vmap).
  nn::LSTM m(nn::LSTMOptions(in, h));
  m->to(kDouble);
  V mp = m->all_weights();
  auto loss = [&](const V& a) {
    V ps(a.begin() + 1, a.end());
    auto [out, hn, cn] =
        lstm(a[0], {zeros({1, N, h}, kDouble), zeros({1, N, h}, kDouble)}, ps, true, 1, 0.0, false, false, false);
    return V{out.pow(2).sum()};
  };
  Dims dims{0};
  V args{x.detach()};
  for (const Tensor& p : mp) {
    args.push_back(p.detach());
    dims.push_back(kNone);
  }
  std::vector<int64_t> argnums{1, 2, 3, 4};
  V per_sample = vmap(func::grad(loss, argnums), dims)(args);
  for (int64_t k = 0; k < B; ++k) {
    V leaf;
    for (const Tensor& p : mp) leaf.push_back(p.detach().clone().requires_grad_(true));
    V a{x.detach()[k]};
    a.insert(a.end(), leaf.begin(), leaf.end());
    V g = autograd::grad({loss(a)[0]}, leaf);
    for (size_t i = 0; i < g.size(); ++i) EXPECT_TENSOR_CLOSE(per_sample[i][k], g[i]);
  }
}

TEST_F(VmapRnn, InterLayerDropoutFollowsRandomness) {
  V params = make_params(1, 3, 4, 2, 1, true);
  auto f = [&](const Tensor& x) {
    return std::get<0>(rnn_tanh(x, zeros({2, 2, 4}, kDouble), params, true, 2, 0.5, true, false, false));
  };
  Tensor x = randn({3, 5, 2, 3}, kDouble);
  EXPECT_EMBER_ERROR(vmap(f)(x), "dropout", "randomness error mode");
  Tensor r = vmap(f, 0, 0, Randomness::Different)(x);
  EXPECT_EQ(r.sizes().vec(), (std::vector<int64_t>{3, 5, 2, 4}));
  // Without dropout in training, the loop oracle holds.
  expect_matches_loop1(
      [&](const Tensor& t) {
        return std::get<0>(rnn_tanh(t, zeros({2, 2, 4}, kDouble), params, true, 2, 0.0, true, false, false));
      },
      x);
}

}  // namespace
}  // namespace torch
