// The SLEEF unary table, gelu and the LSTM's 3.5-ULP tanh at every CPU capability the
// machine has: each float32 result within its table row's ULP bound of the float64
// std:: value, each float64 one within it (plus the std:: function's own ulp) of the
// float64 std:: value, and the dispatch choosing the variant the level names.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "common/test_util.h"
#include "ember/kernels/cpu/vec_math.h"
#include "ember/torch.h"
#include "kernels/isa_levels.h"

using namespace ember_test;
using torch::Tensor;

namespace {

// |y - ref| in units of the last place of ref rounded to T; NaN and inf must match exactly.
template <typename T>
double ulp_error(T y, double ref) {
  const T r = static_cast<T>(ref);
  if (std::isnan(r) || std::isinf(r) || std::isnan(y) || std::isinf(y))
    return (std::isnan(r) && std::isnan(y)) || y == r ? 0.0 : std::numeric_limits<double>::infinity();
  const T a = std::fabs(r);
  const double ulp = static_cast<double>(std::nextafter(a, std::numeric_limits<T>::infinity()) - a);
  return std::fabs(static_cast<double>(y) - ref) / ulp;
}

// The largest ulp_error of actual against the float64 reference.
template <typename T>
double max_ulp(const Tensor& actual, const Tensor& reference) {
  const Tensor a = actual.contiguous(), r = reference.to(torch::kDouble).contiguous();
  const T* pa = a.data_ptr<T>();
  const double* pr = r.data_ptr<double>();
  double worst = 0;
  for (int64_t i = 0; i < a.numel(); ++i) worst = std::max(worst, ulp_error<T>(pa[i], pr[i]));
  return worst;
}

struct Row {
  std::string name;
  std::function<Tensor(const Tensor&)> f;
  double lo, hi, bound;  // input range; the SLEEF row's accuracy in ULP
};

const std::vector<Row>& rows() {
  static const std::vector<Row> r = {
      {"exp", [](const Tensor& t) { return t.exp(); }, -90, 90, 1.0},
      {"exp2", [](const Tensor& t) { return t.exp2(); }, -130, 130, 1.0},
      {"expm1", [](const Tensor& t) { return t.expm1(); }, -5, 5, 1.0},
      {"log", [](const Tensor& t) { return t.log(); }, 1e-3, 1e4, 1.0},
      {"log2", [](const Tensor& t) { return t.log2(); }, 1e-3, 1e4, 1.0},
      {"log10", [](const Tensor& t) { return t.log10(); }, 1e-3, 1e4, 1.0},
      {"log1p", [](const Tensor& t) { return t.log1p(); }, -0.9, 100, 1.0},
      {"sqrt", [](const Tensor& t) { return t.sqrt(); }, 0, 100, 0.5},
      {"sin", [](const Tensor& t) { return t.sin(); }, -20, 20, 1.0},
      {"cos", [](const Tensor& t) { return t.cos(); }, -20, 20, 1.0},
      {"tan", [](const Tensor& t) { return t.tan(); }, -1.5, 1.5, 1.0},
      {"asin", [](const Tensor& t) { return t.asin(); }, -1, 1, 1.0},
      {"acos", [](const Tensor& t) { return t.acos(); }, -1, 1, 1.0},
      {"atan", [](const Tensor& t) { return t.atan(); }, -20, 20, 1.0},
      {"sinh", [](const Tensor& t) { return t.sinh(); }, -10, 10, 1.0},
      {"cosh", [](const Tensor& t) { return t.cosh(); }, -10, 10, 1.0},
      {"tanh", [](const Tensor& t) { return t.tanh(); }, -10, 10, 1.0},
      {"asinh", [](const Tensor& t) { return t.asinh(); }, -20, 20, 1.0},
      {"acosh", [](const Tensor& t) { return t.acosh(); }, 1, 20, 1.0},
      {"atanh", [](const Tensor& t) { return t.atanh(); }, -0.99, 0.99, 1.0},
      {"erf", [](const Tensor& t) { return t.erf(); }, -4, 4, 1.0},
      {"erfc", [](const Tensor& t) { return t.erfc(); }, -3, 9, 1.5},
      {"lgamma", [](const Tensor& t) { return t.lgamma(); }, 2.5, 30, 1.0},
  };
  return r;
}

// n values spread over [lo, hi] (1005: eight-lane groups and a tail), ±inf and NaN last.
Tensor inputs(double lo, double hi, torch::ScalarType dtype) {
  torch::manual_seed(7);
  Tensor x = torch::rand({1005}, torch::kDouble) * (hi - lo) + lo;
  x = torch::cat({x, torch::tensor({std::numeric_limits<double>::quiet_NaN()}, torch::kDouble)});
  return x.to(dtype);
}

}  // namespace

TEST(IsaUnary, SleefRowsWithinTheirUlpBoundAtEveryLevel) {
  for (const Row& row : rows()) {
    const Tensor x32 = inputs(row.lo, row.hi, torch::kFloat), x64 = inputs(row.lo, row.hi, torch::kDouble);
    Tensor ref32, ref64;
    {
      AtLevel scalar(CpuCapability::Default);  // std:: in float64
      ref32 = row.f(x32.to(torch::kDouble));
      ref64 = row.f(x64);
    }
    for (CpuCapability level : isa_levels()) {
      SCOPED_TRACE(row.name + " at " + ember::kernels::cpu_capability_name(level));
      AtLevel at(level);
      // float32: SLEEF's bound plus the reference's rounding to float32; at default the
      // float32 std:: functions run, which glibc documents to a few ulp (tanhf, lgammaf).
      const double bound = level == CpuCapability::Default ? 4.0 : row.bound + 0.5 + 1e-3;
      EXPECT_LE(max_ulp<float>(row.f(x32), ref32), bound);
      // float64: both sides within about one ulp of the exact value.
      EXPECT_LE(max_ulp<double>(row.f(x64), ref64), level == CpuCapability::Default ? 0.0 : row.bound + 1.0 + 1e-3);
      // Element-by-element kernels: a tail of 3 gives what the same elements give in a long run.
      EXPECT_TENSOR_EQ(row.f(x32.slice(0, 0, 3)), row.f(x32).slice(0, 0, 3));
    }
  }
}

TEST(IsaUnary, CustomRowsAndGeluMatchFloat64AtEveryLevel) {
  const Tensor x = inputs(-12, 12, torch::kFloat);
  const std::vector<std::pair<std::string, std::function<Tensor(const Tensor&)>>> fs = {
      {"sigmoid", [](const Tensor& t) { return t.sigmoid(); }},
      {"silu", [](const Tensor& t) { return torch::silu(t); }},
      {"gelu", [](const Tensor& t) { return torch::gelu(t); }},
      {"gelu_tanh", [](const Tensor& t) { return torch::gelu(t, "tanh"); }},
  };
  for (const auto& [name, f] : fs) {
    Tensor ref;
    {
      AtLevel scalar(CpuCapability::Default);
      ref = f(x.to(torch::kDouble));
    }
    for (CpuCapability level : isa_levels()) {
      SCOPED_TRACE(name + " at " + ember::kernels::cpu_capability_name(level));
      AtLevel at(level);
      // gelu's x/2 + x/2 t cancels where t is near -1: an absolute error of |x|/2 ulp(1).
      EXPECT_TENSOR_CLOSE_TOL(f(x).to(torch::kDouble), ref, 1e-6, 1e-6);
      EXPECT_TENSOR_CLOSE_TOL(f(x.to(torch::kDouble)), ref, 1e-14, 3e-15);
    }
  }
}

TEST(IsaUnary, LstmTanhWithinItsLooserBound) {
  const Tensor x = inputs(-10, 10, torch::kFloat);
  Tensor ref;
  {
    AtLevel scalar(CpuCapability::Default);
    ref = x.to(torch::kDouble).tanh();
  }
  for (CpuCapability level : isa_levels()) {
    SCOPED_TRACE(ember::kernels::cpu_capability_name(level));
    AtLevel at(level);
    const auto fast = ember::kernels::vec::tanh_f32_u35();
    if (level == CpuCapability::Default) {
      EXPECT_EQ(fast, nullptr);
      continue;
    }
    ASSERT_NE(fast, nullptr);
    Tensor y = torch::empty_like(x);
    fast(x.data_ptr<float>(), y.data_ptr<float>(), x.numel());
    EXPECT_LE(max_ulp<float>(y, ref), 3.5 + 0.5 + 1e-3);
  }
}

TEST(IsaUnary, DispatchPicksTheLevelsVariant) {
  namespace vec = ember::kernels::vec;
  const auto exp_id = ember::kernels::UnaryOpId::exp;
  for (CpuCapability level : isa_levels()) {
    AtLevel at(level);
    const vec::UnaryF32 want = level == CpuCapability::AVX512 ? vec::avx512::kUnaryTable[static_cast<int>(exp_id)].f32
                               : level == CpuCapability::AVX2 ? vec::avx2::kUnaryTable[static_cast<int>(exp_id)].f32
                                                              : nullptr;
    EXPECT_EQ(vec::unary_vec(exp_id).f32, want);
    const vec::UnaryF32 row = level == CpuCapability::AVX512 ? vec::avx512::kSoftmaxRow[0]
                              : level == CpuCapability::AVX2 ? vec::avx2::kSoftmaxRow[0]
                                                             : nullptr;
    EXPECT_EQ(vec::softmax_row_f32(false), row);
    const vec::MaxPoolRowF32 pool = level == CpuCapability::AVX512 ? vec::avx512::kMaxPoolRow
                                    : level == CpuCapability::AVX2 ? vec::avx2::kMaxPoolRow
                                                                   : nullptr;
    EXPECT_EQ(vec::max_pool_row_f32(), pool);
  }
}
