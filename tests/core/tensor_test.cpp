#include <gtest/gtest.h>

#include "common/test_util.h"
#include "ember/ember.h"

using namespace ember;

TEST(Tensor, UndefinedRaises) {
  Tensor t;
  EXPECT_FALSE(t.defined());
  EXPECT_EMBER_ERROR(t.sizes(), "undefined");
}

TEST(Tensor, FactoriesShapeAndDtype) {
  auto z = zeros({2, 3});
  EXPECT_EQ(z.dtype(), kFloat);
  EXPECT_EQ(z.sizes(), IntArrayRef({2, 3}));
  EXPECT_EQ(z.numel(), 6);
  EXPECT_TRUE(z.is_contiguous());
  auto o = ones({4}, kLong);
  EXPECT_EQ(o.dtype(), kLong);
  EXPECT_EQ(o[2].item<int64_t>(), 1);
  EXPECT_EQ(full({2}, 3).dtype(), kLong);
  EXPECT_EQ(full({2}, 3.5).dtype(), kFloat);
  EXPECT_EQ(full({2}, true).dtype(), kBool);
  EXPECT_EQ(arange(5).dtype(), kLong);
  EXPECT_EQ(arange(0.0, 1.0, 0.25).numel(), 4);
  EXPECT_EQ(tensor({1, 2, 3}).dtype(), kInt);
  EXPECT_EQ(tensor({1.5, 2.5}).dtype(), kFloat);
  EXPECT_EQ(tensor({{1.0, 2.0}, {3.0, 4.0}}).sizes(), IntArrayRef({2, 2}));
  EXPECT_EMBER_ERROR(tensor({{1.0, 2.0}, {3.0}}), "tensor");
  EXPECT_EMBER_ERROR(zeros({-1, 2}), "negative dimension");
}
