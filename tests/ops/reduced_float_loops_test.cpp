// float16/bfloat16 elementwise loops and copies run through float blocks
// (Note [Reduced-precision blocks]). Each result must equal the float32
// computation on the widened inputs, rounded to the 16-bit dtype, element for
// element: across block boundaries (kReducedBlock = 256), broadcast operands
// (stride 0), strided inputs and outputs, bool results, NaN and infinities.
#include <gtest/gtest.h>

#include <limits>

#include "common/test_util.h"
#include "ember/ember.h"

using namespace ember;

namespace {

constexpr int64_t kN = 1000;  // four blocks, the last one partial

// Values in [-6, 6) with a NaN, both infinities and a zero of each sign.
Tensor values(ScalarType dtype, uint64_t seed) {
  manual_seed(seed);
  Tensor v = rand({kN}) * 12 - 6;
  v[3] = std::numeric_limits<float>::quiet_NaN();
  v[300] = std::numeric_limits<float>::infinity();
  v[600] = -std::numeric_limits<float>::infinity();
  v[7] = 0.0;
  v[8] = -0.0;
  return v.to(dtype);
}

class ReducedFloatLoops : public ::testing::TestWithParam<ScalarType> {};

TEST_P(ReducedFloatLoops, BinaryMatchesFloatRoundedAtEveryStride) {
  const ScalarType dt = GetParam();
  Tensor a = values(dt, 1), b = values(dt, 2);
  Tensor af = a.to(kFloat), bf = b.to(kFloat);
  EXPECT_TENSOR_EQ(a + b, (af + bf).to(dt));
  EXPECT_TENSOR_EQ(a * b, (af * bf).to(dt));
  EXPECT_TENSOR_EQ(a * 1.5, (af * 1.5).to(dt));     // Scalar operand
  EXPECT_TENSOR_EQ(a - b[5], (af - bf[5]).to(dt));  // 0-dim operand, stride 0
  EXPECT_TENSOR_EQ(b[9] / a, (bf[9] / af).to(dt));  // broadcast first operand
  EXPECT_TENSOR_EQ(maximum(a, b), maximum(af, bf).to(dt));
  EXPECT_TENSOR_EQ(a < b, af < bf);            // bool result
  EXPECT_TENSOR_EQ(a.eq(b[3]), af.eq(bf[3]));  // NaN compares unequal
  // Strided inputs, and a strided output.
  Tensor as = a.slice(0, 0, kN - 1, 3), bs = b.slice(0, 1, kN, 3);  // 333 elements each
  EXPECT_TENSOR_EQ(as + bs, (af.slice(0, 0, kN - 1, 3) + bf.slice(0, 1, kN, 3)).to(dt));
  Tensor out = zeros({2 * (kN / 3)}, TensorOptions().dtype(dt)).slice(0, 0, 2 * (kN / 3), 2);
  add_out(out, as, bs);
  EXPECT_TENSOR_EQ(out, (af.slice(0, 0, kN - 1, 3) + bf.slice(0, 1, kN, 3)).to(dt));
  Tensor flags = zeros({2 * (kN / 3)}, TensorOptions().dtype(kBool)).slice(0, 0, 2 * (kN / 3), 2);
  lt_out(flags, as, bs);
  EXPECT_TENSOR_EQ(flags, af.slice(0, 0, kN - 1, 3) < bf.slice(0, 1, kN, 3));
}

TEST_P(ReducedFloatLoops, UnaryMatchesFloatRoundedAtEveryStride) {
  const ScalarType dt = GetParam();
  Tensor a = values(dt, 3);
  Tensor af = a.to(kFloat);
  EXPECT_TENSOR_EQ(a.exp(), af.exp().to(dt));  // the SLEEF block path
  EXPECT_TENSOR_EQ(a.relu(), af.relu().to(dt));
  EXPECT_TENSOR_EQ(a.neg(), af.neg().to(dt));
  EXPECT_TENSOR_EQ(a.isnan(), af.isnan());  // bool result
  Tensor as = a.slice(0, 2, kN, 2);
  EXPECT_TENSOR_EQ(as.abs(), af.slice(0, 2, kN, 2).abs().to(dt));
  EXPECT_TENSOR_EQ(as.sigmoid(), af.slice(0, 2, kN, 2).sigmoid().to(dt));
}

TEST_P(ReducedFloatLoops, CopiesMatchConvertingThroughFloat) {
  const ScalarType dt = GetParam();
  Tensor a = values(dt, 4);
  Tensor af = a.to(kFloat);
  // To other dtypes: int64 saturates NaN to 0 and inf to the int64 range, as the float32 source does.
  for (ScalarType to : {kFloat64, kInt64, kInt32, kInt8, kBool, kComplexFloat})
    EXPECT_TENSOR_EQ(a.to(to), af.to(to)) << "to " << to;
  // From other dtypes, contiguous and strided.
  Tensor d = (rand({kN}, TensorOptions().dtype(kFloat64)) * 1e5 - 5e4);
  EXPECT_TENSOR_EQ(d.to(dt), d.to(kFloat).to(dt));
  Tensor i = arange(-500, 500, TensorOptions().dtype(kInt64)) * 97;
  EXPECT_TENSOR_EQ(i.slice(0, 0, kN, 3).to(dt), i.slice(0, 0, kN, 3).to(kFloat).to(dt));
  Tensor m = i > 0;
  EXPECT_TENSOR_EQ(m.to(dt), m.to(kFloat).to(dt));
  // Between the two 16-bit dtypes.
  const ScalarType other = dt == kHalf ? kBFloat16 : kHalf;
  EXPECT_TENSOR_EQ(a.to(other), af.to(other));
  // Into a strided 16-bit destination.
  Tensor dst = zeros({2 * kN}, TensorOptions().dtype(dt)).slice(0, 0, 2 * kN, 2);
  dst.copy_(d.to(kFloat32));
  EXPECT_TENSOR_EQ(dst, d.to(kFloat).to(dt));
}

INSTANTIATE_TEST_SUITE_P(Dtypes, ReducedFloatLoops, ::testing::Values(kHalf, kBFloat16));

}  // namespace
