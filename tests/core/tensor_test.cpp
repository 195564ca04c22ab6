#include <gtest/gtest.h>

#include "common/golden.h"
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
  EXPECT_EQ(tensor({1, 2, 3}).dtype(), kLong);  // as LibTorch
  EXPECT_EQ(tensor({1.5, 2.5}).dtype(), kFloat);
  EXPECT_EQ(tensor({{1.0, 2.0}, {3.0, 4.0}}).sizes(), IntArrayRef({2, 2}));
  EXPECT_EMBER_ERROR(tensor({{1.0, 2.0}, {3.0}}), "tensor");
  EXPECT_EMBER_ERROR(zeros({-1, 2}), "negative dimension");
}

TEST(Factories, MatchPyTorchGolden) {
  ember::testing::Golden g("core.golden");
  EXPECT_TENSOR_CLOSE(linspace(0, 1, 7), g["linspace_0_1_7"]);
  EXPECT_TENSOR_CLOSE(linspace(-3, 5, 4, kDouble), g["linspace_m3_5_4_f64"]);
  EXPECT_TENSOR_EQ(linspace(0, 10, 4, kLong), g["linspace_int"]);
  EXPECT_TENSOR_CLOSE(logspace(0, 3, 4), g["logspace_0_3_4"]);
  EXPECT_TENSOR_CLOSE(logspace(0, 4, 5, 2.0, kDouble), g["logspace_base2"]);
  EXPECT_TENSOR_CLOSE(arange(0.0, 1.0, 0.3), g["arange_f"]);
  EXPECT_TENSOR_EQ(arange(5, -3, -2), g["arange_neg"]);
  EXPECT_TENSOR_CLOSE(arange(1, 2.5, 0.5, kDouble), g["arange_f64_frac"]);
  EXPECT_TENSOR_EQ(eye(3, 4), g["eye_3_4"]);
  EXPECT_EMBER_ERROR(arange(0, 10, 0), "arange", "step");
  EXPECT_EMBER_ERROR(arange(10, 0, 1), "arange");
  EXPECT_EMBER_ERROR(linspace(0, 1, -1), "linspace");
}

TEST(Factories, LikeFormsAndOptions) {
  Tensor x = zeros({2, 3}, kDouble);
  EXPECT_EQ(ones_like(x).dtype(), kDouble);
  EXPECT_EQ(zeros_like(x, kInt).dtype(), kInt);
  EXPECT_EQ(full_like(x, 7).sizes(), x.sizes());
  EXPECT_EQ(full_like(x, 7)[1][2].item<double>(), 7.0);
  EXPECT_EQ(empty_like(x).sizes(), x.sizes());
  auto opts = TensorOptions().dtype(kFloat64).requires_grad(true);
  Tensor r = randn({3}, opts);
  EXPECT_TRUE(r.requires_grad());
  EXPECT_EQ(r.dtype(), kDouble);
  EXPECT_TRUE(randn(3, requires_grad()).requires_grad());
  EXPECT_EMBER_ERROR(zeros({2}, kLong).requires_grad_(), "requires_grad", "floating");
}

TEST(Factories, FromBlobWithAndWithoutDeleter) {
  float data[6] = {1, 2, 3, 4, 5, 6};
  Tensor t = from_blob(data, {2, 3});
  EXPECT_EQ(t.data_ptr(), data);
  EXPECT_EQ(t[1][2].item<float>(), 6.0f);
  t[0][0] = 10;  // writes through to the caller's memory
  EXPECT_EQ(data[0], 10.0f);
  int calls = 0;
  {
    Tensor u = from_blob(data, {6}, [&](void* p) {
      EXPECT_EQ(p, data);
      ++calls;
    });
    Tensor v = u.view({3, 2});
    u.reset();
    EXPECT_EQ(calls, 0);  // the view keeps the storage alive
  }
  EXPECT_EQ(calls, 1);
  uint8_t bytes[4] = {1, 2, 3, 4};
  EXPECT_EQ(from_blob(bytes, {2, 2}, kUInt8)[1][1].item<int>(), 4);
}

TEST(Factories, TensorFromNestedLists) {
  Tensor t = tensor({{1, 2, 3}, {4, 5, 6}}, kFloat);
  EXPECT_EQ(t.dtype(), kFloat);
  EXPECT_EQ(t[1][0].item<float>(), 4.0f);
  EXPECT_EQ(tensor(int64_t(5), kLong).dim(), 0);
  EXPECT_EQ(tensor(1.0, requires_grad()).requires_grad(), true);
  EXPECT_EQ(tensor({true, false}).dtype(), kBool);
  EXPECT_EQ(tensor(std::vector<double>{1, 2, 3}).sizes(), IntArrayRef({3}));
  EXPECT_EQ(tensor({complex64(1, 2)}).dtype(), kComplexFloat);
  EXPECT_EMBER_ERROR(tensor({1, 2}).item(), "item", "2 elements");
}

TEST(Random, ManualSeedIsDeterministic) {
  manual_seed(123);
  Tensor a = randn({100});
  Tensor b = rand({10}, kDouble);
  Tensor c = randint(0, 10, {50});
  Tensor p = randperm(20);
  manual_seed(123);
  EXPECT_TENSOR_EQ(randn({100}), a);
  EXPECT_TENSOR_EQ(rand({10}, kDouble), b);
  EXPECT_TENSOR_EQ(randint(0, 10, {50}), c);
  EXPECT_TENSOR_EQ(randperm(20), p);
  // Separate generators have independent, reproducible streams.
  Generator g1(7), g2(7);
  EXPECT_TENSOR_EQ(rand({5}, g1), rand({5}, g2));
}

TEST(Random, DistributionsHaveTheRightMoments) {
  manual_seed(0);
  const int64_t n = 200000;
  std::vector<double> u = ember::testing::to_vector(rand({n}, kDouble));
  std::vector<double> z = ember::testing::to_vector(randn({n}, kDouble));
  double mu = 0, mz = 0, vz = 0;
  for (int64_t i = 0; i < n; ++i) {
    EXPECT_TRUE(u[i] >= 0 && u[i] < 1);
    mu += u[i];
    mz += z[i];
  }
  mu /= n;
  mz /= n;
  for (double x : z) vz += (x - mz) * (x - mz);
  vz /= n;
  EXPECT_NEAR(mu, 0.5, 0.005);
  EXPECT_NEAR(mz, 0.0, 0.01);
  EXPECT_NEAR(vz, 1.0, 0.02);
  std::vector<double> r = ember::testing::to_vector(randint(3, 7, {1000}));
  for (double x : r) EXPECT_TRUE(x >= 3 && x < 7);
  std::vector<double> perm = ember::testing::to_vector(randperm(50));
  std::sort(perm.begin(), perm.end());
  for (int i = 0; i < 50; ++i) EXPECT_EQ(perm[i], i);
  std::vector<double> b = ember::testing::to_vector(bernoulli(full({10000}, 0.3, kDouble)));
  double mb = 0;
  for (double x : b) mb += x;
  EXPECT_NEAR(mb / 10000, 0.3, 0.02);
  EXPECT_EMBER_ERROR(randint(5, 5, {2}), "random_");
  EXPECT_EMBER_ERROR(normal(0, -1, {2}), "normal_");
}

TEST(Tensor, CopyConvertsAndBroadcasts) {
  Tensor src = tensor({1.7, -2.2, 3.9});
  Tensor dst = zeros({2, 3}, kInt);
  dst.copy_(src);
  EXPECT_EQ(dst[1][2].item<int>(), 3);
  EXPECT_EQ(dst[0][1].item<int>(), -2);
  EXPECT_EMBER_ERROR(zeros({3}).copy_(zeros({2, 3})), "copy_", "[2, 3]");
  Tensor c = tensor({complex64(1.5, 2)}).to(kFloat);
  EXPECT_EQ(c.item<float>(), 1.5f);
  // A self-copy through a shifted view partially overlaps: an error, as in PyTorch.
  Tensor a = arange(5, kFloat);
  EXPECT_EMBER_ERROR(a.slice(0, 1, 5).copy_(a.slice(0, 0, 4)), "copy_", "some elements of the input tensor", "[4]");
  a.slice(0, 1, 5).copy_(a.slice(0, 0, 4).clone());
  EXPECT_TENSOR_EQ(a, tensor({0.0f, 0.0f, 1.0f, 2.0f, 3.0f}));
  // A non-dense source sharing memory is copied out first.
  Tensor s = arange(6, kFloat);
  s.slice(0, 0, 3).copy_(s.slice(0, 0, 6, 2));
  EXPECT_TENSOR_EQ(s, tensor({0.0f, 2.0f, 4.0f, 3.0f, 4.0f, 5.0f}));
}

// The contiguous bool source path reads bytes (ops/shape/copy.cpp); 37 elements run
// through the vector body and the tail.
TEST(Tensor, CopyFromBoolGivesZeroAndOne) {
  Tensor m = arange(37, kFloat).remainder(3) == 1;
  for (ScalarType t : {kFloat, kDouble, kInt, kLong, kByte, kHalf, kBool}) {
    Tensor r = m.to(t);
    ASSERT_EQ(r.dtype(), t);
    Tensor back = r.to(kDouble);
    for (int64_t i = 0; i < 37; ++i) EXPECT_EQ(back[i].item<double>(), i % 3 == 1 ? 1.0 : 0.0) << t << " " << i;
  }
}

TEST(Tensor, VersionCounterSharedByViews) {
  Tensor a = zeros({4});
  Tensor v = a.view({2, 2});
  uint32_t before = a._version();
  v.fill_(1);
  EXPECT_GT(a._version(), before);
  EXPECT_EQ(a._version(), v._version());
}

TEST(Tensor, HugeOrInvalidGeometryIsAnErrorNotACrash) {
  EXPECT_EMBER_ERROR(empty({(int64_t(1) << 60) - 1}, kComplexDouble), "empty");
  Tensor t = zeros({4});
  EXPECT_EMBER_ERROR(t.resize_({int64_t(1) << 62}), "resize_");
  EXPECT_EMBER_ERROR(t.as_strided({2, 2}, {-1, 1}), "as_strided", "negative");
  EXPECT_EMBER_ERROR(t.as_strided({3, 3}, {int64_t(1) << 62, int64_t(1) << 62}), "as_strided");
  EXPECT_EMBER_ERROR(t.as_strided({3}, {2}), "as_strided", "storage");
  EXPECT_EMBER_ERROR(empty_strided({3, 3}, {int64_t(1) << 62, 1}), "empty_strided");
  float data[4] = {};
  EXPECT_EMBER_ERROR(from_blob(data, {2, 2}, {-2, 1}), "from_blob", "negative");
  // Python-style slicing with an enormous step is legal and gives one element.
  EXPECT_EQ(t.slice(0, 0, 4, INT64_MAX).numel(), 1);
  EXPECT_EQ(t.split(INT64_MAX).size(), 1u);
  EXPECT_EQ(t.chunk(INT64_MAX).size(), 4u);
}
