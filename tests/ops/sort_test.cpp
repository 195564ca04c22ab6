// Properties of the sort family that the golden file cannot show compactly:
// stability on long rows, NaN placement, parallel rows, unique's optional outputs.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "common/test_util.h"
#include "ember/ember.h"

using namespace ember;

namespace {
// Checks that `values` is ordered along the last dim (NaN last ascending / first descending),
// that indices gather values from x, and that equal values keep increasing indices (stability).
void expect_sorted_stable(const Tensor& x, const Tensor& values, const Tensor& indices, bool descending) {
  Tensor xc = x.contiguous().to(kDouble), v = values.contiguous().to(kDouble), ix = indices.contiguous();
  const int64_t n = x.size(-1), rows = x.numel() / n;
  const double* px = xc.data_ptr<double>();
  const double* pv = v.data_ptr<double>();
  const int64_t* pi = ix.data_ptr<int64_t>();
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t k = 0; k < n; ++k) {
      const double a = pv[r * n + k];
      const double src = px[r * n + pi[r * n + k]];
      ASSERT_TRUE((std::isnan(a) && std::isnan(src)) || a == src) << "row " << r << " pos " << k;
      if (k == 0) continue;
      const double prev = pv[r * n + k - 1];
      if (std::isnan(prev) || std::isnan(a)) {
        ASSERT_TRUE(descending ? !std::isnan(a) || std::isnan(prev) : std::isnan(a)) << "NaN misplaced";
        continue;
      }
      ASSERT_TRUE(descending ? prev >= a : prev <= a) << "row " << r << " pos " << k;
      if (prev == a) ASSERT_LT(pi[r * n + k - 1], pi[r * n + k]) << "not stable at row " << r;
    }
  }
}
}  // namespace

TEST(Sort, StableOnLongRowsWithTies) {
  manual_seed(3);
  Tensor x = empty({8, 5000});
  x.random_(0, 10);  // many ties
  for (bool desc : {false, true}) {
    auto [v, i] = x.sort(true, -1, desc);
    expect_sorted_stable(x, v, i, desc);
  }
}

TEST(Sort, NonContiguousAndDim0) {
  manual_seed(4);
  Tensor base = randn({50, 40});
  Tensor x = base.t();  // [40, 50], strided
  auto [v, i] = x.sort(-1);
  expect_sorted_stable(x, v, i, false);
  auto [v0, i0] = base.sort(0, true);  // along dim 0 = sorting columns of base
  expect_sorted_stable(base.t(), v0.t(), i0.t(), true);
  EXPECT_TENSOR_EQ(msort(base), std::get<0>(base.sort(0)));
}

TEST(Sort, NaNPlacementAndTopk) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  Tensor x = tensor({3.0, nan, -1.0, 7.0, nan, 0.5});
  auto [v, i] = x.sort();
  expect_sorted_stable(x.unsqueeze(0), v.unsqueeze(0), i.unsqueeze(0), false);
  EXPECT_EQ(i[4].item<int64_t>(), 1);
  EXPECT_EQ(i[5].item<int64_t>(), 4);
  auto [vd, id] = x.sort(-1, true);
  EXPECT_EQ(id[0].item<int64_t>(), 1);  // NaN first when descending
  auto [tv, ti] = x.topk(3);
  EXPECT_TRUE(std::isnan(tv[0].item<double>()));
  EXPECT_TRUE(std::isnan(tv[1].item<double>()));
  EXPECT_EQ(tv[2].item<double>(), 7.0);
  auto [sv, si] = x.topk(2, -1, /*largest=*/false);
  EXPECT_EQ(sv[0].item<double>(), -1.0);
  EXPECT_EQ(si[1].item<int64_t>(), 5);
  EXPECT_EQ(std::get<0>(x.topk(0)).numel(), 0);
}

TEST(Sort, ParallelRowsMatchSingleThread) {
  manual_seed(5);
  Tensor x = randn({400, 700});
  const int saved = get_num_threads();
  set_num_threads(std::max(saved, 2));
  auto [v1, i1] = x.sort(-1);
  auto [t1, ti1] = x.topk(5, 0);
  set_num_threads(1);
  auto [v2, i2] = x.sort(-1);
  auto [t2, ti2] = x.topk(5, 0);
  set_num_threads(saved);
  EXPECT_TENSOR_EQ(v1, v2);
  EXPECT_TENSOR_EQ(i1, i2);
  EXPECT_TENSOR_EQ(t1, t2);
  EXPECT_TENSOR_EQ(ti1, ti2);
}

TEST(Sort, UniqueOptionalOutputs) {
  Tensor x = tensor({3, 1, 3, 2, 1});
  auto [u, inv, cnt] = _unique2(x);
  EXPECT_TENSOR_EQ(u, tensor({1, 2, 3}));
  EXPECT_EQ(inv.numel(), 0);  // not requested
  EXPECT_EQ(cnt.numel(), 0);
  auto [u2, inv2, cnt2] = unique(x, true, true, true);
  EXPECT_TENSOR_EQ(inv2, tensor({int64_t(2), int64_t(0), int64_t(2), int64_t(1), int64_t(0)}));
  EXPECT_TENSOR_EQ(cnt2, tensor({int64_t(2), int64_t(1), int64_t(2)}));
  auto [c, cinv, ccnt] = unique_consecutive(tensor({1, 1, 2, 2, 2, 1}), true, true);
  EXPECT_TENSOR_EQ(c, tensor({1, 2, 1}));
  EXPECT_TENSOR_EQ(ccnt, tensor({int64_t(2), int64_t(3), int64_t(1)}));
  Tensor empty_in = zeros({0});
  EXPECT_EQ(std::get<0>(unique(empty_in)).numel(), 0);
}

TEST(Sort, KthvalueAndMedianBasics) {
  Tensor x = tensor({{5.0, 1.0, 4.0}, {2.0, 9.0, 7.0}});
  auto [kv, ki] = x.kthvalue(2, 1, true);
  EXPECT_EQ(kv.sizes(), IntArrayRef({2, 1}));
  EXPECT_EQ(kv[0][0].item<double>(), 4.0);
  EXPECT_EQ(ki[1][0].item<int64_t>(), 2);
  auto [mv, mi] = x.median(0);
  EXPECT_EQ(mv[1].item<double>(), 1.0);  // lower median of {1, 9}
  EXPECT_EQ(mi[1].item<int64_t>(), 0);
  EXPECT_EMBER_ERROR(x.kthvalue(4, 1), "kthvalue()", "out of range");
  EXPECT_EMBER_ERROR(x.topk(4, 1), "topk()", "out of range");
}
