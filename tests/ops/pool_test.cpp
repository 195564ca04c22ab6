// Pooling against PyTorch golden values (tools/golden/gen_pool.py): each case
// carries its configuration (<case>.cfg, layouts in the generator) and is
// replayed forward and backward.
#include <limits>
#include <string>
#include <tuple>
#include <vector>

#include "common/golden.h"
#include "common/test_util.h"
#include "ember/kernels/cpu/vec_math.h"
#include "ember/torch.h"

using ember::Tensor;
using ember::testing::Golden;
using Ints = std::vector<int64_t>;

namespace {

const Golden& golden() {
  static const Golden g("pool.golden");
  return g;
}

Ints cfg(const std::string& name) {
  const Tensor c = golden()[name + ".cfg"];
  return Ints(c.data_ptr<int64_t>(), c.data_ptr<int64_t>() + c.numel());
}

Ints part(const Ints& c, int64_t nd, int64_t i) { return Ints(c.begin() + 1 + i * nd, c.begin() + 1 + (i + 1) * nd); }

// (output, indices or undefined) for a case, by its prefix.
std::tuple<Tensor, Tensor> run(const std::string& name, const Tensor& x) {
  const Ints c = cfg(name);
  const int64_t nd = c[0];
  if (name.rfind("max_", 0) == 0) {
    const Ints k = part(c, nd, 0), s = part(c, nd, 1), p = part(c, nd, 2), d = part(c, nd, 3);
    const bool ceil = c[1 + 4 * nd] != 0;
    if (nd == 1) return torch::max_pool1d_with_indices(x, k, s, p, d, ceil);
    if (nd == 2) return torch::max_pool2d_with_indices(x, k, s, p, d, ceil);
    return torch::max_pool3d_with_indices(x, k, s, p, d, ceil);
  }
  if (name.rfind("avg_", 0) == 0) {
    const Ints k = part(c, nd, 0), s = part(c, nd, 1), p = part(c, nd, 2);
    const bool ceil = c[1 + 3 * nd] != 0, cip = c[2 + 3 * nd] != 0;
    const std::optional<int64_t> div = c[3 + 3 * nd] ? std::optional<int64_t>(c[3 + 3 * nd]) : std::nullopt;
    if (nd == 1) return {torch::avg_pool1d(x, k, s, p, ceil, cip), Tensor()};
    if (nd == 2) return {torch::avg_pool2d(x, k, s, p, ceil, cip, div), Tensor()};
    return {torch::avg_pool3d(x, k, s, p, ceil, cip, div), Tensor()};
  }
  const Ints out = part(c, nd, 0);
  if (name.rfind("amax_", 0) == 0) {
    if (nd == 1) return torch::adaptive_max_pool1d(x, out);
    if (nd == 2) return torch::adaptive_max_pool2d(x, out);
    return torch::adaptive_max_pool3d(x, out);
  }
  if (nd == 1) return {torch::adaptive_avg_pool1d(x, out), Tensor()};
  if (nd == 2) return {torch::adaptive_avg_pool2d(x, out), Tensor()};
  return {torch::adaptive_avg_pool3d(x, out), Tensor()};
}

}  // namespace

TEST(Pool, GoldenForwardBackward) {
  int cases = 0;
  for (const auto& n : golden().names_with_prefix("")) {
    if (n.size() < 5 || n.substr(n.size() - 4) != ".cfg") continue;
    const std::string name = n.substr(0, n.size() - 4);
    SCOPED_TRACE(name);
    ++cases;
    Tensor x = golden()[name + ".x"].requires_grad_(true);
    auto [y, idx] = run(name, x);
    EXPECT_TENSOR_CLOSE(y, golden()[name + ".out"]);
    if (golden().has(name + ".idx")) EXPECT_TENSOR_EQ(idx, golden()[name + ".idx"]);
    y.backward(golden()[name + ".gy"]);
    EXPECT_TENSOR_CLOSE(x.grad(), golden()[name + ".gx"]);
  }
  EXPECT_GT(cases, 50);
}

TEST(Pool, DefaultsAndGradFn) {
  const Tensor x = golden()["max_2d_cnn_f32.x"].requires_grad_(true);
  const Tensor y = torch::max_pool2d(x, 2);
  EXPECT_TENSOR_CLOSE(y, golden()["max_2d_cnn_f32.out"]);
  EXPECT_EQ(y.grad_fn()->name(), "MaxPool2DWithIndicesBackward0");
  EXPECT_EQ(torch::avg_pool2d(x, 2).grad_fn()->name(), "AvgPool2DBackward0");
  EXPECT_EQ(torch::adaptive_avg_pool2d(x, {1, 1}).grad_fn()->name(), "AdaptiveAvgPool2DBackward0");
}

TEST(Pool, EmptyBatchAndNonContiguous) {
  EXPECT_EQ(torch::max_pool2d(torch::zeros({0, 3, 4, 4}), 2).sizes(), ember::IntArrayRef({0, 3, 2, 2}));
  const Tensor x = golden()["avg_2d_basic_f64.x"];
  const Tensor xt = x.transpose(2, 3).contiguous().transpose(2, 3);
  EXPECT_TENSOR_CLOSE(torch::avg_pool2d(xt, 2), golden()["avg_2d_basic_f64.out"]);
}

TEST(Pool, Errors) {
  const Tensor x = torch::zeros({1, 1, 4, 4});
  EXPECT_EMBER_ERROR(torch::max_pool2d(torch::zeros({4, 4}), 2), "max_pool2d", "[4, 4]");
  EXPECT_EMBER_ERROR(torch::max_pool2d(x, 3, 1, 2), "max_pool2d", "pad should be at most half");
  EXPECT_EMBER_ERROR(torch::max_pool2d(x, 5), "max_pool2d", "too small");
  EXPECT_EMBER_ERROR(torch::max_pool2d(x, 0), "max_pool2d", "kernel size");
  EXPECT_EMBER_ERROR(torch::max_pool2d(x, {2, 2, 2}), "max_pool2d", "kernel_size");
  EXPECT_EMBER_ERROR(torch::avg_pool2d(x, 2, 2, 0, false, true, 0), "avg_pool2d", "divisor");
  EXPECT_EMBER_ERROR(torch::adaptive_avg_pool2d(x, {2}), "adaptive_avg_pool2d", "output_size");
  EXPECT_EMBER_ERROR(torch::max_pool2d(torch::zeros({1, 0, 4, 4}), 2), "max_pool2d", "non-zero");
  EXPECT_EMBER_ERROR(torch::max_pool2d(x.to(torch::kInt), 2), "max_pool2d", "int32");
}

// The AVX-512 rows of dense float32 max pooling (Note [Vectorised max pool rows])
// against the scalar loop (vectorised path off) and against float64 (always
// scalar): values and indices must agree exactly, also with ties (small
// integers), NaNs, row tails shorter than sixteen outputs and the strided
// (1, 2, gathered 3) loads.
TEST(Pool, VectorisedMaxRowsMatchScalar) {
  struct Case {
    Ints size, kernel, stride;
  };
  const std::vector<Case> cases = {
      {{2, 3, 8, 8}, {2, 2}, {2, 2}},
      {{2, 3, 9, 37}, {2, 2}, {2, 2}},
      {{1, 2, 7, 40}, {3, 3}, {1, 1}},
      {{1, 2, 11, 53}, {3, 3}, {2, 2}},
      {{1, 2, 9, 50}, {3, 2}, {2, 3}},
      {{4, 1, 28, 28}, {2, 2}, {2, 2}},
      {{1, 1, 5, 100}, {1, 4}, {1, 4}},
      {{3, 2, 6, 33}, {2, 1}, {1, 2}},
      // Rows of at most eight outputs, two per register: odd and even row counts, strides 1 and 2.
      {{2, 3, 14, 14}, {2, 2}, {2, 2}},
      {{1, 2, 9, 9}, {3, 3}, {1, 1}},
      {{2, 2, 10, 16}, {2, 2}, {2, 2}},
      {{1, 1, 6, 5}, {2, 2}, {1, 1}},
      {{2, 2, 7, 15}, {3, 3}, {2, 2}},
      {{1, 3, 4, 3}, {1, 2}, {1, 1}},
  };
  torch::manual_seed(3);
  for (const auto& c : cases) {
    for (const bool ties : {false, true}) {
      SCOPED_TRACE(::testing::PrintToString(c.size) + " k" + ::testing::PrintToString(c.kernel) + " s" +
                   ::testing::PrintToString(c.stride) + (ties ? " ties" : ""));
      Tensor x = ties ? torch::randint(0, 3, c.size).to(torch::kFloat) : torch::randn(c.size);
      Tensor flat = x.view({-1});
      for (int64_t i = 5; i < flat.numel(); i += 23) flat[i] = std::numeric_limits<float>::quiet_NaN();
      auto [v, i] = torch::max_pool2d_with_indices(x, c.kernel, c.stride);
      ember::kernels::vec::set_vec_math_enabled(false);
      auto [vs, is] = torch::max_pool2d_with_indices(x, c.kernel, c.stride);
      ember::kernels::vec::set_vec_math_enabled(true);
      auto [vd, id] = torch::max_pool2d_with_indices(x.to(torch::kDouble), c.kernel, c.stride);
      EXPECT_TRUE(torch::equal(i, is));
      EXPECT_TRUE(torch::equal(i, id));
      EXPECT_TRUE(torch::allclose(v, vs, 0, 0, /*equal_nan=*/true));
      EXPECT_TRUE(torch::allclose(v.to(torch::kDouble), vd, 0, 0, /*equal_nan=*/true));
      EXPECT_GT(v.isnan().sum().item<int64_t>(), 0);
    }
  }
}

// max_pool1d/2d without indices keep one byte per output (Note [Max pooling
// positions]); gradients must equal the stored-index path's bit for bit (ties,
// NaNs, overlapping windows, 1-d, padding and ceil_mode, whose border windows are
// clipped, -inf in them), and so must double backward.
TEST(Pool, MaxPoolPositionsGradientsMatchStoredIndices) {
  struct Case {
    Ints size, kernel, stride, padding = {0};
    bool ceil_mode = false;
  };
  const std::vector<Case> cases = {
      {{2, 3, 8, 8}, {2, 2}, {2, 2}},
      {{2, 2, 9, 37}, {3, 3}, {2, 2}},
      {{1, 2, 7, 40}, {3, 3}, {1, 1}},
      {{1, 2, 9, 50}, {3, 2}, {2, 3}},
      {{3, 4, 17}, {3}, {2}},
      {{2, 1, 28, 28}, {2, 2}, {2, 2}},
      {{1, 1, 40, 40}, {16, 16}, {8, 8}},
      {{2, 3, 14, 14}, {2, 2}, {2, 2}},
      {{1, 2, 9, 9}, {3, 3}, {1, 1}},
      // Padded (ResNet's stem is 3 x 3 / 2 with padding 1), also with ceil_mode and odd sizes.
      {{2, 3, 12, 13}, {3, 3}, {2, 2}, {1, 1}},
      {{1, 2, 7, 40}, {3, 3}, {1, 1}, {1, 1}},
      {{1, 2, 9, 11}, {2, 2}, {2, 2}, {1, 1}, true},
      {{2, 2, 10, 9}, {3, 2}, {2, 1}, {1, 0}, true},
      {{1, 1, 5, 6}, {5, 5}, {1, 2}, {2, 2}},
      {{3, 4, 17}, {3}, {2}, {1}},
      {{2, 2, 9}, {4}, {3}, {2}, true}};
  torch::manual_seed(4);
  for (const auto& c : cases)
    for (const bool ties : {false, true}) {
      SCOPED_TRACE(::testing::PrintToString(c.size) + " k" + ::testing::PrintToString(c.kernel) + " p" +
                   ::testing::PrintToString(c.padding) + (c.ceil_mode ? " ceil" : "") + (ties ? " ties" : ""));
      Tensor x0 = ties ? torch::randint(0, 3, c.size).to(torch::kFloat) : torch::randn(c.size);
      Tensor flat = x0.view({-1});
      for (int64_t i = 7; i < flat.numel(); i += 31) flat[i] = std::numeric_limits<float>::quiet_NaN();
      // The first row and column all -inf: clipped border windows of nothing but -inf.
      if (!ties) {
        x0.select(-1, 0).fill_(-std::numeric_limits<float>::infinity());
        if (c.size.size() == 4) x0.select(-2, 0).fill_(-std::numeric_limits<float>::infinity());
      }
      const bool one_d = c.size.size() == 3;
      auto pool = [&](const Tensor& x, bool with_indices) {
        if (one_d)
          return with_indices
                     ? std::get<0>(torch::max_pool1d_with_indices(x, c.kernel, c.stride, c.padding, 1, c.ceil_mode))
                     : torch::max_pool1d(x, c.kernel, c.stride, c.padding, 1, c.ceil_mode);
        return with_indices
                   ? std::get<0>(torch::max_pool2d_with_indices(x, c.kernel, c.stride, c.padding, 1, c.ceil_mode))
                   : torch::max_pool2d(x, c.kernel, c.stride, c.padding, 1, c.ceil_mode);
      };
      std::vector<Tensor> values, grads, grad_grads;
      for (const bool with_indices : {false, true}) {
        Tensor x = x0.clone().requires_grad_();
        Tensor y = pool(x, with_indices);
        EXPECT_EQ(y.grad_fn()->name(), one_d ? "MaxPool1DWithIndicesBackward0" : "MaxPool2DWithIndicesBackward0");
        values.push_back(y.detach());
        const Tensor gy = torch::arange(y.numel(), torch::kFloat).view(y.sizes()).sin();
        grads.push_back(torch::autograd::grad({y}, {x}, {gy})[0]);
        // Double backward: d/d(gy) of <grad_x, v> gathers v at the argmaxes.
        Tensor gyr = gy.clone().requires_grad_();
        Tensor gx = torch::autograd::grad({pool(x, with_indices)}, {x}, {gyr}, true, true)[0];
        grad_grads.push_back(torch::autograd::grad({(gx * x0.nan_to_num().cos()).sum()}, {gyr})[0]);
      }
      EXPECT_TRUE(torch::allclose(values[0], values[1], 0, 0, /*equal_nan=*/true));
      EXPECT_TRUE(torch::equal(grads[0], grads[1]));
      EXPECT_TRUE(torch::equal(grad_grads[0], grad_grads[1]));
      EXPECT_NE(grads[0].abs().sum().item<float>(), 0.0f);
    }
}

// vmap over a vjp through max pooling (values-only path, one-byte positions):
// the node receives batched gradients.
TEST(Pool, MaxPoolPositionsUnderVmapOfVjp) {
  ember::manual_seed(6);
  Tensor x = ember::randn({2, 3, 6, 6});
  ember::func::VjpResult r = ember::func::vjp(
      [](const std::vector<Tensor>& in) {
        return std::vector<Tensor>{ember::max_pool2d(in[0], {2, 2})};
      },
      {x});
  Tensor cts = ember::randn({4, 2, 3, 3, 3});
  const std::vector<Tensor> batched = ember::vmap(r.vjp_fn)({cts});
  for (int64_t b = 0; b < 4; ++b) EXPECT_TENSOR_EQ(batched[0][b], r.vjp_fn({cts[b]})[0]);
}

TEST(Pool, AvgPoolAndStoredIndicesUnderVmapOfVjp) {
  ember::manual_seed(8);
  Tensor x = ember::randn({2, 3, 6, 6}, ember::kDouble);
  for (int which = 0; which < 2; ++which) {
    ember::func::VjpResult r = ember::func::vjp(
        [which](const std::vector<Tensor>& in) {
          return std::vector<Tensor>{which == 0 ? ember::avg_pool2d(in[0], {2, 2})
                                                : std::get<0>(ember::max_pool2d_with_indices(in[0], {2, 2}))};
        },
        {x});
    Tensor cts = ember::randn({4, 2, 3, 3, 3}, ember::kDouble);
    const std::vector<Tensor> batched = ember::vmap(r.vjp_fn)({cts});
    for (int64_t b = 0; b < 4; ++b) EXPECT_TENSOR_EQ(batched[0][b], r.vjp_fn({cts[b]})[0]) << which;
  }
}
