#include <gtest/gtest.h>

#include "common/golden.h"
#include "common/test_util.h"

using namespace ember;
using ember::testing::Golden;

TEST(DType, PromoteTypesMatchesPyTorch) {
  Golden g("core.golden");
  Tensor table = g["promote_table"];
  for (int a = 0; a < kNumScalarTypes; ++a)
    for (int b = 0; b < kNumScalarTypes; ++b)
      EXPECT_EQ(static_cast<int>(promote_types(ScalarType(a), ScalarType(b))), table[a][b].item<int64_t>())
          << dtype_name(ScalarType(a)) << " + " << dtype_name(ScalarType(b));
}

TEST(DType, NamesAndSizes) {
  EXPECT_EQ(element_size(kComplexDouble), 16u);
  EXPECT_EQ(element_size(kBFloat16), 2u);
  EXPECT_STREQ(dtype_name(kFloat32), "float32");
}

TEST(DType, HalfAndBFloat16RoundLikePyTorch) {
  Golden g("core.golden");
  Tensor in = g["half_in"];
  EXPECT_TENSOR_EQ(in.to(kHalf), g["half_out"]);
  EXPECT_TENSOR_EQ(in.to(kBFloat16), g["bf16_out"]);
  // And back: half -> float is exact.
  EXPECT_TENSOR_EQ(g["half_out"].to(kFloat).to(kHalf), g["half_out"]);
}

TEST(DType, CanCast) {
  EXPECT_TRUE(can_cast(kLong, kFloat));
  EXPECT_FALSE(can_cast(kFloat, kLong));
  EXPECT_FALSE(can_cast(kComplexFloat, kDouble));
  EXPECT_FALSE(can_cast(kLong, kBool));
  EXPECT_TRUE(can_cast(kBool, kLong));
}

TEST(Scalar, ConversionsAndTypes) {
  EXPECT_EQ(Scalar(3).type(), kLong);
  EXPECT_EQ(Scalar(2.5).type(), kDouble);
  EXPECT_EQ(Scalar(true).type(), kBool);
  EXPECT_EQ(Scalar(complex64(1, 2)).type(), kComplexDouble);
  EXPECT_EQ(Scalar(2.9).to<int64_t>(), 2);
  EXPECT_EQ(Scalar(std::nan("")).to<int32_t>(), 0);  // defined, not UB
  EXPECT_EQ((-Scalar(3)).toLong(), -3);
  EXPECT_EMBER_ERROR(-Scalar(true), "neg");
}

TEST(Device, ParsesAndReportsCpuOnly) {
  Device d = kCPU;
  EXPECT_TRUE(d.is_cpu());
  EXPECT_EQ(Device("cuda:1").index(), 1);
  EXPECT_EMBER_ERROR(Device("tpu"), "Device");
  EXPECT_FALSE(cuda::is_available());
  EXPECT_EMBER_ERROR(zeros({2}, Device(kCUDA)), "cuda");
  EXPECT_EMBER_ERROR(zeros({2}).to(kCUDA), "cuda");
}
