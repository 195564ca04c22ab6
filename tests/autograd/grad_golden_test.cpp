// Gradients of the error-prone formulas (prod/cumprod with zeros, norms at
// zero, extremes with ties, logcumsumexp at large magnitudes, clamp with
// crossing bounds, indexing with duplicates) against PyTorch's, from
// tests/golden/grad.golden (tools/golden/gen_grad.py).
#include <gtest/gtest.h>

#include <functional>
#include <limits>
#include <map>

#include "common/golden.h"
#include "common/test_util.h"
#include "ember/ember.h"

using namespace ember;
using ember::indexing::Slice;

namespace {

using Fn = std::function<Tensor(const Tensor&)>;

Tensor longs(std::vector<int64_t> v, IntArrayRef shape) { return tensor(v, kLong).reshape(shape); }
Tensor doubles(std::vector<double> v) { return tensor(v, kDouble); }

const std::map<std::string, Fn>& cases() {
  const double inf = std::numeric_limits<double>::infinity();
  static const std::map<std::string, Fn> table = [inf] {
    std::map<std::string, Fn> t = {
        {"prod_nozero", [](const Tensor& x) { return x.prod(); }},
        {"prod_one_zero", [](const Tensor& x) { return x.prod(); }},
        {"prod_two_zeros", [](const Tensor& x) { return x.prod(); }},
        {"prod_dim1", [](const Tensor& x) { return x.prod(1); }},
        {"prod_dim0_keepdim", [](const Tensor& x) { return x.prod(0, true); }},
        {"cumprod_zeros", [](const Tensor& x) { return x.cumprod(0); }},
        {"cumprod_one_zero", [](const Tensor& x) { return x.cumprod(1); }},
        {"max_dim_ties", [](const Tensor& x) { return std::get<0>(x.max(1)); }},
        {"min_dim_ties", [](const Tensor& x) { return std::get<0>(x.min(1)); }},
        {"amax_ties", [](const Tensor& x) { return x.amax({1}); }},
        {"max_all_ties", [](const Tensor& x) { return x.max(); }},
        {"median_all_ties", [](const Tensor& x) { return x.median(); }},
        {"median_dim_ties", [](const Tensor& x) { return std::get<0>(x.median(1)); }},
        {"sort_ties", [](const Tensor& x) { return std::get<0>(x.sort(1)); }},
        {"topk", [](const Tensor& x) { return std::get<0>(x.topk(2, 1)); }},
        {"kthvalue_ties", [](const Tensor& x) { return std::get<0>(x.kthvalue(2, 1)); }},
        {"mode_ties", [](const Tensor& x) { return std::get<0>(x.mode(1)); }},
        {"cummax_ties", [](const Tensor& x) { return std::get<0>(x.cummax(0)); }},
        {"cummin_ties", [](const Tensor& x) { return std::get<0>(x.cummin(0)); }},
        {"logcumsumexp_large", [](const Tensor& x) { return x.logcumsumexp(0); }},
        {"clamp_tensor_self",
         [](const Tensor& x) {
           return x.clamp(std::optional<Tensor>(doubles({2.5, 0.5, 0.5, 2.9})),
                          std::optional<Tensor>(doubles({1.0, 2.0, 1.5, 3.5})));
         }},
        {"index_dup",
         [](const Tensor& x) {
           return x.index({longs({1, 0, 1, -1}, {4})});
         }},
        {"take_neg",
         [](const Tensor& x) {
           return x.take(longs({0, -1, 5, 0}, {2, 2}));
         }},
        {"index_fill_neg", [](const Tensor& x) { return x.index_fill(1, longs({-1}, {1}), 7.0); }},
        {"masked_select_bcast",
         [](const Tensor& x) {
           return x.masked_select(longs({1, 0, 1, 1, 1, 0}, {2, 3}) != 0);
         }},
        {"unfold_overlap", [](const Tensor& x) { return x.unfold(0, 3, 2); }},
        {"as_strided_overlap",
         [](const Tensor& x) {
           return x.as_strided({3, 3}, {1, 1});
         }},
        {"repeat_lead",
         [](const Tensor& x) {
           return x.repeat({2, 3, 2});
         }},
    };
    const std::vector<std::pair<std::string, double>> ps = {{"2", 2}, {"1", 1},     {"inf", inf}, {"ninf", -inf},
                                                            {"3", 3}, {"1.5", 1.5}, {"0.5", 0.5}, {"0", 0}};
    for (const auto& [tag, p] : ps) {
      t["norm_p" + tag + "_zero"] = [p = p](const Tensor& x) { return x.norm(p); };
      t["norm_p" + tag + "_mixed"] = [p = p](const Tensor& x) {
        return x.norm(std::optional<Scalar>(p), IntArrayRef{1});
      };
    }
    return t;
  }();
  return table;
}

}  // namespace

TEST(GradGolden, MatchesPyTorch) {
  ember::testing::Golden g("grad.golden");
  int checked = 0;
  for (const auto& [name, fn] : cases()) {
    SCOPED_TRACE(name);
    ASSERT_TRUE(g.has(name + ":x")) << name;
    Tensor x = g[name + ":x"].clone().requires_grad_(true);
    Tensor y = fn(x);
    ASSERT_TRUE(y.grad_fn()) << name << ": no grad_fn";
    auto grads = autograd::grad({y}, {x}, {g[name + ":g"]}, std::nullopt, false, /*allow_unused=*/true);
    Tensor dx = grads[0].defined() ? grads[0] : zeros_like(x);
    EXPECT_TENSOR_CLOSE(dx, g[name + ":dx"]);
    ++checked;
  }
  EXPECT_EQ(checked * 3, static_cast<int>(g.names_with_prefix("").size()));
}

// norm(p = 0) has no gradient in PyTorch (x.grad stays None); Ember leaves it undefined too.
TEST(GradGolden, NormZeroLeavesGradientUndefined) {
  Tensor x = tensor(std::vector<double>{0.0, 1.0, -2.0}, kDouble).requires_grad_(true);
  x.norm(0).backward();
  EXPECT_FALSE(x.grad().defined());
}
