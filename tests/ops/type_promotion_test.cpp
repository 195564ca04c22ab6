// result_type and the dtypes binary ops produce, against torch.result_type
// for every dtype pair and every operand class: tensors with dims, 0-dim
// tensors and Python-like Scalars (tools/golden/gen_binary.py, "rt:" entries).
#include <sstream>

#include "common/golden.h"
#include "common/test_util.h"

namespace torch {
namespace {

using ::ember::testing::Golden;
using ::ember::testing::parse_dtype;

Scalar scalar_of_kind(const std::string& kind) {
  if (kind == "int") return Scalar(int64_t(1));
  if (kind == "float") return Scalar(2.5);
  if (kind == "bool") return Scalar(true);
  return Scalar(complex128(0, 1));
}

TEST(TypePromotion, ResultTypeMatchesTorch) {
  Golden g("binary.golden");
  int checked = 0;
  for (const std::string& name : g.names_with_prefix("rt:")) {
    std::stringstream ss(name);
    std::string rt, kind, x, y;
    std::getline(ss, rt, ':');
    std::getline(ss, kind, ':');
    std::getline(ss, x, ':');
    std::getline(ss, y, ':');
    SCOPED_TRACE(name);
    const ScalarType expected = g[name].dtype();
    const ScalarType dx = parse_dtype(x);
    Tensor a = zeros(kind[0] == 'z' ? IntArrayRef{} : IntArrayRef{2}, TensorOptions(dx));
    if (kind == "ts" || kind == "zs") {
      Scalar s = scalar_of_kind(y);
      EXPECT_EQ(result_type(a, s), expected);
      EXPECT_EQ(result_type(s, a), expected);
      EXPECT_EQ(add(a, s).dtype(), expected);  // the op follows result_type
      EXPECT_EQ(mul(s, a).dtype(), expected);
    } else {
      Tensor b = zeros(kind == "tt" ? IntArrayRef{2} : IntArrayRef{}, TensorOptions(parse_dtype(y)));
      EXPECT_EQ(result_type(a, b), expected);
      EXPECT_EQ(result_type(b, a), expected);
      EXPECT_EQ(add(a, b).dtype(), expected);
      EXPECT_EQ(eq(a, b).dtype(), kBool);
    }
    ++checked;
  }
  EXPECT_GT(checked, 500);
}

// The examples the design notes call out, with values (golden: torch 1.13).
TEST(TypePromotion, ScalarValuesAreCastToTheResultType) {
  Golden g("binary.golden");
  // uint8 tensor + 1000 stays uint8 and wraps (1000 -> 232), as torch does.
  Tensor u = g["wrap:u8:a"];
  EXPECT_TENSOR_EQ(add(u, 1000), g["wrap:u8:add1000"]);
  EXPECT_TENSOR_EQ(sub(u, 1), g["wrap:u8:sub1"]);
  EXPECT_TENSOR_EQ(eq(u, 456), g["wrap:u8:eq456"]);
  // int32 tensor + 2.5 -> float32; float16 tensor + float64 0-dim -> float16.
  EXPECT_EQ(add(ones({2}, TensorOptions(kInt)), 2.5).dtype(), kFloat);
  EXPECT_EQ(add(ones({2}, TensorOptions(kHalf)), scalar_tensor(1.0, TensorOptions(kDouble))).dtype(), kHalf);
  // bool + bool stays bool (logical or); bool + int Scalar -> int64.
  EXPECT_EQ(add(ones({2}, TensorOptions(kBool)), ones({2}, TensorOptions(kBool))).dtype(), kBool);
  EXPECT_EQ(add(ones({2}, TensorOptions(kBool)), 1).dtype(), kLong);
  // True division of integers gives the default float dtype.
  EXPECT_EQ(div(ones({2}, TensorOptions(kLong)), ones({2}, TensorOptions(kLong))).dtype(), kFloat);
  EXPECT_EQ(div(ones({2}, TensorOptions(kLong)), 2, "floor").dtype(), kLong);
}

}  // namespace
}  // namespace torch
