// softmax / log_softmax against PyTorch (tests/golden/loss.golden, tools/golden/gen_loss.py).
#include <gtest/gtest.h>

#include <cmath>

#include "common/golden.h"
#include "common/test_util.h"
#include "ember/ember.h"
#include "ember/kernels/cpu/vec_math.h"
#include "ember/ops/nn/softmax.h"

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

// float32 rows along the last dim take the AVX-512 kernel with SLEEF's exp (Note
// [Vectorised softmax rows]); the float64 path (scalar, std::exp in double) is the
// reference. Lengths cover whole vectors, both unrolled loops and every tail size.
TEST(Softmax, VectorRowsMatchFloat64) {
  manual_seed(3);
  for (int64_t n : {1, 2, 7, 15, 16, 17, 31, 32, 33, 47, 48, 63, 64, 65, 100, 128, 1000})
    for (bool log : {false, true}) {
      SCOPED_TRACE(std::to_string(n) + (log ? " log" : ""));
      const Tensor x = randn({9, n}) * 6.0;
      const Tensor expected = run(log, x.to(kDouble), 1).to(kFloat);
      // x - max in float32 rounds by up to |x - max| * 2^-24, which exp turns into a
      // relative error of the same size (|x - max| < 60 here); log_softmax's x - (max +
      // log(sum)) is off by up to |x| * 2^-24 absolute, relative to a result near 0.
      const double atol = log ? 4e-6 : 1e-7;
      EXPECT_TENSOR_CLOSE_TOL(run(log, x, 1), expected, 1e-5, atol);
      kernels::vec::set_vec_math_enabled(false);  // the scalar float32 loop, same bound
      EXPECT_TENSOR_CLOSE_TOL(run(log, x, 1), expected, 1e-5, atol);
      kernels::vec::set_vec_math_enabled(true);
    }
}

// Note [Softmax NaN and inf] holds for the vector rows: a NaN or +inf anywhere, or a row
// of -inf, makes the whole row NaN; a single -inf is probability 0 (log: -inf). Rows of
// 40 put the special value in the unrolled part, in the tail, and in the single vector.
TEST(Softmax, VectorRowsNaNAndInf) {
  const double inf = INFINITY;
  for (int64_t n : {5, 20, 40})
    for (int64_t at : {int64_t(0), n / 2, n - 1})
      for (double v : {double(NAN), inf, -inf}) {
        SCOPED_TRACE(std::to_string(n) + " at " + std::to_string(at) + " value " + std::to_string(v));
        Tensor x = randn({3, n});
        x.select(0, 0).select(0, at).fill_(v);
        x.select(0, 2).fill_(-inf);
        for (bool log : {false, true}) {
          const Tensor got = run(log, x, 1), expected = run(log, x.to(kDouble), 1).to(kFloat);
          EXPECT_TENSOR_CLOSE_TOL(got, expected, 1e-5, 1e-6);
          EXPECT_TRUE(got.select(0, 2).isnan().all().item<bool>());
          if (!std::isinf(v) || v > 0) EXPECT_TRUE(got.select(0, 0).isnan().all().item<bool>());
        }
      }
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

// First-order backward along the last dim runs one pass per row (Note [Softmax backward
// rows]); against the float64 gradient and the composite formula (create_graph keeps it).
TEST(Softmax, LastDimBackwardRowsMatchTheComposite) {
  manual_seed(4);
  for (int64_t n : {1, 7, 8, 9, 128, 300}) {
    SCOPED_TRACE(n);
    const Tensor x0 = randn({6, n}) * 3.0, g = randn({6, n});
    Tensor x = x0.clone().requires_grad_(true);
    (softmax(x, -1) * g).sum().backward();
    Tensor x64 = x0.to(kDouble).requires_grad_(true);
    (softmax(x64, 1) * g.to(kDouble)).sum().backward();
    EXPECT_TENSOR_CLOSE_TOL(x.grad(), x64.grad().to(kFloat), 1e-5, 1e-6);
    Tensor xc = x0.clone().requires_grad_(true);
    const Tensor composite =
        autograd::grad({(softmax(xc, -1) * g).sum()}, {xc}, {}, std::nullopt, /*create_graph=*/true)[0];
    EXPECT_TENSOR_CLOSE_TOL(x.grad(), composite.detach(), 1e-5, 1e-6);
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
