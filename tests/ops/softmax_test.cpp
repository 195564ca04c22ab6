// softmax / log_softmax against PyTorch (tests/golden/loss.golden, tools/golden/gen_loss.py).
#include <gtest/gtest.h>

#include <cmath>

#include "common/golden.h"
#include "common/test_util.h"
#include "ember/ember.h"
#include "ember/ops/softmax.h"

using namespace ember;
using ember::testing::Golden;

namespace {

const Golden& golden() {
  static Golden g("loss.golden");
  return g;
}
Tensor in(const std::string& name) { return golden()["in:" + name]; }

Tensor run(bool log, const Tensor& x, int64_t dim, std::optional<ScalarType> dtype = std::nullopt) {
  return log ? log_softmax(x, dim, dtype) : softmax(x, dim, dtype);
}

}  // namespace

TEST(Softmax, MatchesPyTorchAlongEveryDim) {
  for (bool log : {false, true}) {
    const std::string op = log ? "log_softmax" : "softmax";
    for (const char* name : {"x3", "x3d"})
      for (int64_t d : {0, 1, 2, -1}) {
        SCOPED_TRACE(op + ":" + name + ":" + std::to_string(d));
        const Tensor expected = golden()[op + ":" + name + ":" + std::to_string(d)];
        EXPECT_TENSOR_CLOSE(run(log, in(name), d), expected);
      }
    for (const char* name : {"big", "special", "wide"})
      for (int64_t d : {0, 1}) {
        SCOPED_TRACE(op + ":" + name + ":" + std::to_string(d));
        EXPECT_TENSOR_CLOSE(run(log, in(name), d), golden()[op + ":" + name + ":" + std::to_string(d)]);
      }
    EXPECT_TENSOR_CLOSE(run(log, in("scalar"), 0), golden()[op + ":scalar:0"]);
    EXPECT_TENSOR_CLOSE(run(log, in("scalar"), -1), golden()[op + ":scalar:0"]);
  }
}

TEST(Softmax, NonContiguousAndDtypeArgument) {
  EXPECT_TENSOR_CLOSE(softmax(in("x3").transpose(0, 2), 1), golden()["softmax:x3:T1"]);
  EXPECT_TENSOR_CLOSE(softmax(in("i64"), 1, kDouble), golden()["softmax:i64:1:f64"]);
  EXPECT_TENSOR_CLOSE(log_softmax(in("i64"), 1, kFloat), golden()["log_softmax:i64:1:f32"]);
  EXPECT_EQ(softmax(in("x3"), 1, kDouble).scalar_type(), kDouble);
}

TEST(Softmax, EmptyInputsAndErrors) {
  const Tensor e = in("empty");
  EXPECT_EQ(softmax(e, 0).sizes(), e.sizes());
  EXPECT_EQ(log_softmax(e, 1).sizes(), e.sizes());
  EXPECT_EMBER_ERROR(softmax(in("i64"), 1), "softmax", "int64");
  EXPECT_EMBER_ERROR(log_softmax(in("x3").to(kHalf), 1), "log_softmax", "float16");
  EXPECT_EMBER_ERROR(softmax(in("x3"), 3), "softmax");
  EXPECT_EMBER_ERROR(softmax(in("scalar"), 1), "softmax");
}

TEST(Softmax, BFloat16ComputesInFloat) {
  const Tensor x = in("x3").to(kBFloat16);
  const Tensor got = softmax(x, 1);
  EXPECT_EQ(got.scalar_type(), kBFloat16);
  EXPECT_TENSOR_CLOSE_TOL(got.to(kFloat), golden()["softmax:x3:1"], 1e-2, 1e-2);
}

TEST(Softmax, LargeRowsRunInParallelAndSumToOne) {
  // Enough rows that parallel_for splits them; every row of a softmax sums to 1.
  const Tensor x = randn({512, 300});
  EXPECT_TENSOR_CLOSE_TOL(softmax(x, 1).sum({1}), ones({512}), 1e-5, 1e-5);
  EXPECT_TENSOR_CLOSE_TOL(softmax(x, 0).sum({0}), ones({300}), 1e-5, 1e-5);
  EXPECT_TENSOR_CLOSE_TOL(log_softmax(x, 0).exp().sum({0}), ones({300}), 1e-5, 1e-5);
}

TEST(Softmax, BackwardMatchesPyTorch) {
  for (bool log : {false, true})
    for (int64_t d : {0, 2}) {
      const std::string op = log ? "log_softmax" : "softmax";
      SCOPED_TRACE(op + std::to_string(d));
      Tensor x = in("x3d").clone().requires_grad_(true);
      Tensor y = run(log, x, d);
      EXPECT_EQ(y.grad_fn()->name(), log ? "LogSoftmaxBackward0" : "SoftmaxBackward0");
      (y * in("g3")).sum().backward();
      EXPECT_TENSOR_CLOSE(x.grad(), golden()[op + ":x3d:" + std::to_string(d) + ":vjp"]);
    }
}

TEST(Softmax, DtypeArgumentKeepsTheGraph) {
  Tensor x = in("x3").clone().requires_grad_(true);
  Tensor y = softmax(x, 1, kDouble);
  y.select(1, 0).sum().backward();
  ASSERT_TRUE(x.grad().defined());
  EXPECT_EQ(x.grad().scalar_type(), kFloat);
}

TEST(Softmax, TensorMethods) {
  EXPECT_TENSOR_CLOSE(in("x3").transpose(0, 2).softmax(1), golden()["softmax:x3:T1"]);
  EXPECT_TENSOR_CLOSE(in("x3").log_softmax(2), golden()["log_softmax:x3:2"]);
  EXPECT_EQ(in("i64").softmax(1, kDouble).scalar_type(), kDouble);
}
