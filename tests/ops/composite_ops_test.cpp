// The composite ops PyTorch users expect (ops/pointwise_composite, products,
// distance, statistics, rearrange, triangle_indices, search), called with
// LibTorch's spellings. Expected values and gradients come from python3-torch
// (tools/golden/gen_composite_ops.py).
#include <gtest/gtest.h>

#include <limits>

#include "common/golden.h"
#include "common/test_util.h"
#include "ember/torch.h"

namespace composite_ops_test {

using ember::testing::Golden;
using Inputs = std::vector<torch::Tensor>;

const Golden& golden() {
  static const Golden g("composite_ops.golden");
  return g;
}
torch::Tensor G(const std::string& name) { return golden()[name]; }
void check(const std::string& name, int n, const std::function<torch::Tensor(const Inputs&)>& f) {
  ember::testing::expect_golden_case(golden(), name, n, f);
}

TEST(CompositeOps, Pointwise) {
  check("xlogy", 2, [](const Inputs& x) { return torch::xlogy(x[0], x[1]); });
  check("xlog1py", 2, [](const Inputs& x) { return torch::special::xlog1py(x[0], x[1]); });
  check("sinc", 1, [](const Inputs& x) { return torch::sinc(x[0]); });
  check("logaddexp", 2, [](const Inputs& x) { return torch::logaddexp(x[0], x[1]); });
  check("logaddexp2", 2, [](const Inputs& x) { return torch::logaddexp2(x[0], x[1]); });
  check("entr", 1, [](const Inputs& x) { return torch::special::entr(x[0]); });
  check("mvlgamma", 1, [](const Inputs& x) { return torch::mvlgamma(x[0], 3); });
  // Edge values: 0 * log(0) = 0 but 0 * log(nan) = nan; integers promote to float.
  EXPECT_TENSOR_EQ(torch::xlogy(G("xlogy_edges.x"), G("xlogy_edges.y")), G("xlogy_edges.out"));
  // (The generator's default dtype is float64; here it is float32, which integers promote to.)
  const torch::Tensor xi = torch::xlogy(torch::tensor({0, 1, 3}), torch::tensor({3, 2, 5}));
  EXPECT_EQ(xi.scalar_type(), torch::kFloat);
  EXPECT_TENSOR_CLOSE(xi, G("xlogy_int.out").to(torch::kFloat));
  EXPECT_TENSOR_CLOSE(torch::special::xlogy(2.0, torch::tensor({1.0, 4.0})), torch::tensor({0.0, 2.0 * std::log(4.0)}));
  EXPECT_TENSOR_CLOSE(torch::sinc(torch::tensor({0, 1, 2})), G("sinc_int.out").to(torch::kFloat));
  // Equal infinities, NaN and large arguments.
  EXPECT_TENSOR_EQ(torch::logaddexp(G("logaddexp_edges.a"), G("logaddexp_edges.b")), G("logaddexp_edges.out"));
  EXPECT_TENSOR_CLOSE(torch::logaddexp2(G("logaddexp_edges.a"), G("logaddexp_edges.b")), G("logaddexp2_edges.out"));
  EXPECT_TENSOR_CLOSE(torch::deg2rad(torch::tensor({180, -90, 45})), G("deg2rad.out").to(torch::kFloat));
  EXPECT_TENSOR_CLOSE(torch::rad2deg(torch::tensor({1.0f, -0.5f})), G("rad2deg.out"));
  EXPECT_TENSOR_EQ(torch::heaviside(G("heaviside.x"), torch::tensor({0.5}, torch::kDouble)), G("heaviside.out"));
  EXPECT_TENSOR_EQ(torch::special::entr(torch::tensor({0.0, -1.0, 0.5, std::nan("")}, torch::kDouble)),
                   G("entr_edges.out"));
  EXPECT_TENSOR_CLOSE(torch::special::ndtr(torch::tensor({-3.0, 0.0, 1.5}, torch::kDouble)), G("ndtr.out"));
  EXPECT_EMBER_ERROR(torch::logaddexp(torch::tensor({1}), torch::tensor({2})), "logaddexp", "int64");
  EXPECT_EMBER_ERROR(torch::heaviside(torch::tensor({1.0}), torch::tensor({1})), "heaviside", "different dtypes");
  EXPECT_EMBER_ERROR(torch::mvlgamma(torch::tensor({0.5}), 3), "mvlgamma", "greater than (p-1)/2");
}

// A shape mismatch is reported by the op called, not by the op inside it
// that would first see it (sub in dist, mul in xlogy, maximum in logaddexp).
TEST(CompositeOps, BroadcastErrorsNameTheOpCalled) {
  const torch::Tensor a = torch::ones({2, 3}), b = torch::ones({4});
  EXPECT_EMBER_ERROR(torch::xlogy(a, b), "xlogy:", "[2, 3]", "[4]");
  EXPECT_EMBER_ERROR(torch::special::xlog1py(a, b), "xlog1py:", "[2, 3]", "[4]");
  EXPECT_EMBER_ERROR(torch::logaddexp(a, b), "logaddexp:", "[2, 3]", "[4]");
  EXPECT_EMBER_ERROR(torch::logaddexp2(a, b), "logaddexp2:", "[2, 3]", "[4]");
  EXPECT_EMBER_ERROR(torch::heaviside(a, b), "heaviside:", "[2, 3]", "[4]");
  EXPECT_EMBER_ERROR(torch::dist(a, b), "dist:", "[2, 3]", "[4]");
}

// heaviside has no derivative in PyTorch: the result requires grad with a
// NotImplemented grad_fn, backward raises, and so does forward mode (torch
// 1.13: "derivative for aten::heaviside is not implemented", "Trying to use
// forward AD with aten::heaviside that does not support it").
TEST(CompositeOps, HeavisideHasNoDerivative) {
  torch::Tensor x = torch::tensor({-1.0, 0.0, 2.0}).requires_grad_();
  torch::Tensor v = torch::full({3}, 0.5).requires_grad_();
  torch::Tensor y = torch::heaviside(x, v);
  ASSERT_TRUE(y.requires_grad());
  EXPECT_EQ(y.grad_fn()->name(), "torch::autograd::NotImplemented");
  EXPECT_TENSOR_EQ(y.detach(), torch::tensor({0.0, 0.5, 1.0}));
  EXPECT_EMBER_ERROR(y.sum().backward(), "heaviside", "not implemented");
  namespace fwad = torch::autograd::forward_ad;
  fwad::DualLevel level;
  torch::Tensor d = fwad::make_dual(v.detach(), torch::ones({3}));
  EXPECT_EMBER_ERROR(torch::heaviside(x.detach(), d), "heaviside", "not implemented");
  torch::NoGradGuard no_grad;
  EXPECT_FALSE(torch::heaviside(x, v).requires_grad());
}

TEST(CompositeOps, ProductsAndDistances) {
  check("trace", 1, [](const Inputs& x) { return torch::trace(x[0]); });
  EXPECT_TENSOR_EQ(torch::trace(torch::arange(9, torch::kInt).view({3, 3})), G("trace_int.out"));
  check("kron", 2, [](const Inputs& x) { return torch::kron(x[0], x[1]); });
  EXPECT_TENSOR_EQ(torch::kron(torch::tensor({1, 2, 3, 4}).view({2, 2}), torch::tensor({1, -1})), G("kron_int.out"));
  check("inner", 2, [](const Inputs& x) { return torch::inner(x[0], x[1]); });
  check("inner_scalar", 2, [](const Inputs& x) { return torch::inner(x[0], x[1]); });
  check("dist", 2, [](const Inputs& x) { return torch::dist(x[0], x[1], 3); });
  check("dist_inf", 2,
        [](const Inputs& x) { return torch::dist(x[0], x[1], std::numeric_limits<double>::infinity()); });
  check("cdist", 2, [](const Inputs& x) { return torch::cdist(x[0], x[1]); });
  check("cdist_p1", 2, [](const Inputs& x) { return torch::cdist(x[0], x[1], 1); });
  check("cdist_mm", 2, [](const Inputs& x) { return torch::cdist(x[0], x[1], 2, 1); });
  check("renorm", 1, [](const Inputs& x) { return torch::renorm(x[0], 2, 0, 1.5); });
  check("renorm_p1_dim1", 1, [](const Inputs& x) { return torch::renorm(x[0], 1, 1, 1.0); });
  // Coincident points: distance 0 with a zero gradient, on both cdist paths.
  for (int64_t mode : {1, 2}) {
    torch::Tensor a = torch::ones({2, 3}, torch::kDouble).requires_grad_(true);
    torch::Tensor d = torch::cdist(a, a.detach(), 2, mode);
    EXPECT_TENSOR_EQ(d, torch::zeros({2, 2}, torch::kDouble));
    d.sum().backward();
    EXPECT_TENSOR_EQ(a.grad(), torch::zeros({2, 3}, torch::kDouble));
  }
  EXPECT_EMBER_ERROR(torch::trace(torch::ones({2})), "trace", "expected a matrix", "[2]");
  EXPECT_EMBER_ERROR(torch::inner(torch::ones({2, 3}), torch::ones({4, 2})), "inner", "[2, 3]", "[4, 2]");
  EXPECT_EMBER_ERROR(torch::cdist(torch::ones({2, 3}), torch::ones({4, 2})), "cdist", "same number of columns");
  EXPECT_EMBER_ERROR(torch::cdist(torch::ones({3}), torch::ones({4, 3})), "cdist", "at least 2D");
  EXPECT_EMBER_ERROR(torch::cdist(torch::ones({2, 3}), torch::ones({4, 3}), -1), "cdist", "non-negative p");
  EXPECT_EMBER_ERROR(torch::renorm(torch::ones({2, 3}), -1, 0, 1), "renorm", "non-positive-norm");
}

TEST(CompositeOps, Statistics) {
  check("cov", 1, [](const Inputs& x) { return torch::cov(x[0]); });
  check("cov_weights", 1,
        [](const Inputs& x) { return torch::cov(x[0], 2, G("cov_weights.fw"), G("cov_weights.aw")); });
  EXPECT_TENSOR_CLOSE(torch::cov(torch::tensor({1, 2, 4})), G("cov_1d.out").to(torch::kFloat));
  check("corrcoef", 1, [](const Inputs& x) { return torch::corrcoef(x[0]); });
  for (const char* interp : {"linear", "lower", "higher", "midpoint", "nearest"}) {
    check(std::string("quantile_") + interp, 1, [&](const Inputs& x) {
      return torch::quantile(x[0], torch::tensor({0.2, 0.5, 0.9}, torch::kDouble), 1, true, interp);
    });
  }
  check("quantile_all", 1, [](const Inputs& x) { return torch::quantile(x[0], 0.3); });
  check("quantile_all_keepdim", 1, [](const Inputs& x) {
    return torch::quantile(x[0], torch::tensor({0.25, 0.75}, torch::kDouble), std::nullopt, true);
  });
  check("quantile_dim0", 1, [](const Inputs& x) { return torch::quantile(x[0], 0.6, 0); });
  // A NaN makes its slice's quantiles NaN; nanquantile skips NaNs (an all-NaN slice stays NaN).
  EXPECT_TENSOR_EQ(torch::quantile(G("quantile_nan.x"), torch::tensor({0.1, 0.5}, torch::kDouble), 1),
                   G("quantile_nan.out"));
  EXPECT_TENSOR_CLOSE(torch::nanquantile(G("quantile_nan.x"), torch::tensor({0.1, 0.5}, torch::kDouble), 1),
                      G("nanquantile_nan.out"));
  // "nearest" rounds half-way ranks to even.
  EXPECT_TENSOR_EQ(torch::quantile(torch::tensor({1.0, 2.0, 3.0, 4.0, 5.0}, torch::kDouble),
                                   torch::tensor({0.375, 0.625}, torch::kDouble), std::nullopt, false, "nearest"),
                   G("nearest_half.out"));
  check("diff", 1, [](const Inputs& x) { return torch::diff(x[0], 2, 0); });
  check("diff_prepend", 3, [](const Inputs& x) { return torch::diff(x[0], 1, -1, x[1], x[2]); });
  EXPECT_TENSOR_EQ(torch::diff(torch::tensor({true, false, false, true})), G("diff_bool.out"));
  EXPECT_TENSOR_EQ(torch::diff(torch::tensor({1, 3, 6, 10}), 5), G("diff_int.out"));
  check("trapezoid_x", 2, [](const Inputs& x) { return torch::trapezoid(x[0], x[1]); });
  check("trapezoid_dx", 1, [](const Inputs& x) { return torch::trapezoid(x[0], 0.5, 0); });
  check("cumulative_trapezoid", 1, [](const Inputs& x) { return torch::cumulative_trapezoid(x[0], 2.0); });
  EXPECT_TENSOR_CLOSE(torch::trapezoid(torch::tensor({1, 2, 3})), G("trapezoid_int.out").to(torch::kFloat));
  EXPECT_TENSOR_CLOSE(torch::trapz(torch::tensor({1.0, 2.0, 3.0}), 2.0), torch::tensor(8.0));
  EXPECT_EMBER_ERROR(torch::quantile(torch::tensor({1, 2}), 0.5), "quantile", "float or double");
  EXPECT_EMBER_ERROR(torch::quantile(torch::tensor({1.0, 2.0}), 1.5), "quantile", "[0, 1]", "1.5");
  EXPECT_EMBER_ERROR(torch::quantile(torch::ones({0}), 0.5), "quantile", "non-empty");
  EXPECT_EMBER_ERROR(torch::quantile(torch::ones({3}), 0.5, std::nullopt, false, "cubic"), "interpolation", "cubic");
  EXPECT_EMBER_ERROR(torch::cov(torch::ones({2, 2, 2})), "cov", "two or fewer dimensions");
  EXPECT_EMBER_ERROR(torch::cov(torch::ones({2, 3}), 1, torch::tensor({1, -1, 1})), "fweights cannot be negative");
  EXPECT_EMBER_ERROR(torch::diff(torch::ones({3}), -1), "diff", "non-negative");
}

TEST(CompositeOps, RearrangementsAndIndices) {
  check("take_along_dim", 1, [](const Inputs& x) { return torch::take_along_dim(x[0], G("take_along_dim.idx"), 1); });
  check("take_along_dim_bcast", 1,
        [](const Inputs& x) { return torch::take_along_dim(x[0], G("take_along_dim_bcast.idx"), 0); });
  check("take_along_dim_flat", 1,
        [](const Inputs& x) { return torch::take_along_dim(x[0], G("take_along_dim_flat.idx")); });
  const torch::Tensor r = torch::arange(24).view({2, 3, 4});
  for (int64_t k : {1, 2, 3, -1, 0})
    EXPECT_TENSOR_EQ(torch::rot90(r, k, {2, 0}), G("rot90_k" + std::to_string(k + 1) + ".out"));
  EXPECT_TENSOR_EQ(torch::tril_indices(3, 4, -1), G("tril_indices.out"));
  EXPECT_TENSOR_EQ(torch::tril_indices(4, 3, 1), G("tril_indices_big.out"));
  EXPECT_TENSOR_EQ(torch::triu_indices(3, 4, 1), G("triu_indices.out"));
  EXPECT_TENSOR_EQ(torch::triu_indices(4, 3, -2), G("triu_indices_neg.out"));
  EXPECT_EQ(torch::triu_indices(2, 2, 0, torch::kInt).scalar_type(), torch::kInt);
  EXPECT_EMBER_ERROR(torch::rot90(r, 1, {0, 0}), "rot90", "different");
  EXPECT_EMBER_ERROR(torch::rot90(torch::ones({3}), 1), "rot90", "total dims >= 2");
  EXPECT_EMBER_ERROR(torch::take_along_dim(torch::ones({2, 3}), torch::zeros({2}, torch::kLong), 0), "take_along_dim",
                     "same number of dimensions");
}

TEST(CompositeOps, SearchSorted) {
  const torch::Tensor seq = G("searchsorted.seq"), vals = G("searchsorted.vals");
  EXPECT_TENSOR_EQ(torch::searchsorted(seq, vals), G("searchsorted_left.out"));
  EXPECT_TENSOR_EQ(torch::searchsorted(seq, vals, false, true), G("searchsorted_right.out"));
  const torch::Tensor seq2 = torch::tensor({1, 3, 5, 7, 2, 4, 6, 8}).view({2, 4});
  const torch::Tensor vals2 = torch::tensor({3, 6, 9, 3, 6, 9}).view({2, 3});
  EXPECT_TENSOR_EQ(torch::searchsorted(seq2, vals2, false, false, "right"), G("searchsorted_rows.out"));
  const torch::Tensor unsorted = torch::tensor({5.0, 1.0, 7.0, 3.0}, torch::kDouble);
  EXPECT_TENSOR_EQ(torch::searchsorted(unsorted, torch::tensor({4.0, 7.0}, torch::kDouble), false, false, std::nullopt,
                                       torch::argsort(unsorted)),
                   G("searchsorted_sorter.out"));
  EXPECT_TENSOR_EQ(torch::bucketize(torch::tensor({3, 6, 9, 1}).view({2, 2}), torch::tensor({1, 3, 5, 7}), false, true),
                   G("bucketize.out"));
  const torch::Tensor b32 = torch::bucketize(torch::tensor({3}), torch::tensor({1, 3, 5, 7}), true);
  EXPECT_EQ(b32.scalar_type(), torch::kInt);
  EXPECT_TENSOR_EQ(b32, G("bucketize_int32.out"));
  EXPECT_EQ(torch::searchsorted(torch::tensor({1, 3}), 2).item<int64_t>(), 1);
  EXPECT_EMBER_ERROR(torch::searchsorted(seq2, torch::ones({3})), "searchsorted", "[2, 4]", "[3]");
  EXPECT_EMBER_ERROR(torch::searchsorted(seq, vals, false, true, "left"), "side and right");
  EXPECT_EMBER_ERROR(torch::bucketize(torch::ones({2}), seq2), "bucketize", "1 dimension");
  // Under vmap: each sample searches its own boundaries.
  const torch::Tensor batched = torch::vmap([](const std::vector<torch::Tensor>& a) {
    return std::vector<torch::Tensor>{torch::searchsorted(a[0], a[1])};
  })({seq2, vals2})[0];
  EXPECT_TENSOR_EQ(batched, torch::searchsorted(seq2, vals2));
}

}  // namespace composite_ops_test
