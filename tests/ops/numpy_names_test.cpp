// The elementwise ops and aliases PyTorch took from NumPy and C: gcd, lcm,
// nextafter, ldexp, float_power, frexp, signbit, positive, copysign's
// gradient, and the alias spellings (arccos, greater, swapdims, moveaxis,
// ravel, ...), called with LibTorch's spellings. Expected values are torch
// 1.13's, given in each test.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>

#include "common/test_util.h"
#include "ember/torch.h"

namespace {

torch::Tensor l(std::vector<int64_t> v) { return torch::tensor(v, torch::kLong); }
torch::Tensor d(std::vector<double> v) { return torch::tensor(v, torch::kDouble); }
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

TEST(NumpyNames, GcdAndLcmAreNonNegative) {
  // torch.gcd([-12, 0, 0, 7], [18, 0, -5, -21]) == [6, 0, 5, 7]
  EXPECT_TENSOR_EQ(torch::gcd(l({-12, 0, 0, 7}), l({18, 0, -5, -21})), l({6, 0, 5, 7}));
  // torch.lcm([-12, 0, 4, 7], [18, 5, -6, -21]) == [36, 0, 12, 21]
  EXPECT_TENSOR_EQ(torch::lcm(l({-12, 0, 4, 7}), l({18, 5, -6, -21})), l({36, 0, 12, 21}));
  // int16 keeps its dtype; an int8 with an int64 promotes
  const auto s = torch::tensor({4, -6, 0}, torch::kShort);
  EXPECT_TENSOR_EQ(s.lcm(torch::tensor({6, 4, 7}, torch::kShort)), torch::tensor({12, 12, 0}, torch::kShort));
  EXPECT_EQ(torch::gcd(torch::tensor({12}, torch::kChar), l({18})).scalar_type(), torch::kLong);
  // The most negative int64 has no int64 magnitude; Ember computes on the unsigned
  // magnitude (gcd(-2^63, 6) = 2), where torch 1.13's abs overflows and gives -2.
  EXPECT_EQ(torch::gcd(l({std::numeric_limits<int64_t>::min()}), l({6})).item<int64_t>(), 2);
  auto x = l({12, 9});
  x.gcd_(l({8, 6}));
  EXPECT_TENSOR_EQ(x, l({4, 3}));
  EXPECT_EMBER_ERROR(torch::gcd(d({1.}), d({2.})), "gcd", "float64");
  EXPECT_EMBER_ERROR(torch::lcm(torch::tensor({true}), torch::tensor({true})), "lcm", "bool");
}

TEST(NumpyNames, NextafterStepsOneValueOfTheDtype) {
  // torch.nextafter([1, 0, -1], [2, -1, -2]) in float64
  const auto r = torch::nextafter(d({1, 0, -1, 2, kNaN}), d({2, -1, -2, 2, 0}));
  EXPECT_EQ(r[0].item<double>(), std::nextafter(1.0, 2.0));
  EXPECT_EQ(r[1].item<double>(), -std::numeric_limits<double>::denorm_min());
  EXPECT_EQ(r[2].item<double>(), std::nextafter(-1.0, -2.0));
  EXPECT_EQ(r[3].item<double>(), 2.0);
  EXPECT_TRUE(std::isnan(r[4].item<double>()));
  // bfloat16 steps its own 8-bit mantissa: torch gives 1.0078 after 1
  const auto b = torch::nextafter(torch::ones({1}, torch::kBFloat16), torch::full({1}, 2.0, torch::kBFloat16));
  EXPECT_EQ(b.item<float>(), 1.0f + 1.0f / 128);
  const auto h = torch::nextafter(torch::ones({1}, torch::kHalf), torch::zeros({1}, torch::kHalf));
  EXPECT_EQ(h.item<float>(), 1.0f - 1.0f / 2048);  // NumPy's float16 nextafter
  // PyTorch records a node whose backward raises
  auto x = torch::ones({2}, torch::requires_grad());
  auto y = torch::nextafter(x, torch::zeros({2}));
  EXPECT_TRUE(y.requires_grad());
  EXPECT_EMBER_ERROR(y.sum().backward(), "the derivative for 'nextafter' is not implemented");
  EXPECT_EMBER_ERROR(torch::nextafter(l({1}), l({2})), "nextafter", "int64");
}

TEST(NumpyNames, LdexpAndFloatPowerFollowTheirDefinitions) {
  // torch.ldexp([1.5, -2.0], [2, -3]) == [6, -0.25]
  EXPECT_TENSOR_EQ(torch::ldexp(torch::tensor({1.5f, -2.f}), torch::tensor({2, -3}, torch::kLong)),
                   torch::tensor({6.f, -0.25f}));
  // integers promote to the default float dtype, as pow(2.0, other) does
  EXPECT_EQ(torch::ldexp(l({1, 2}), l({3, 4})).scalar_type(), torch::kFloat);
  auto y = torch::tensor({1.f, 3.f});
  y.ldexp_(torch::tensor({1.f, -1.f}));
  EXPECT_TENSOR_EQ(y, torch::tensor({2.f, 1.5f}));
  // torch.float_power(int32 [2, 3], [0.5, -1.0]) is float64 [sqrt(2), 1/3]
  const auto p = torch::float_power(torch::tensor({2, 3}, torch::kInt), torch::tensor({0.5f, -1.f}));
  EXPECT_EQ(p.scalar_type(), torch::kDouble);
  EXPECT_TENSOR_CLOSE(p, d({std::sqrt(2.0), 1.0 / 3}));
  EXPECT_EQ(torch::tensor({1.f}).float_power(2).scalar_type(), torch::kDouble);
  EXPECT_EQ(torch::float_power(torch::ones({1}, torch::kComplexFloat), 2).scalar_type(), torch::kComplexDouble);
  auto f = torch::ones({2});
  EXPECT_EMBER_ERROR(f.float_power_(2), "float_power_", "float32", "float64");
  auto g = d({2, 3});
  g.float_power_(2);
  EXPECT_TENSOR_EQ(g, d({4, 9}));
}

TEST(NumpyNames, FrexpSplitsMantissaAndExponent) {
  // torch.frexp(float64 [8, 0, -3, inf, nan, 1e-310]):
  //   mantissa [0.5, 0, -0.75, inf, nan, 0.5753], exponent (int32) [4, 0, 2, 0, 0, -1029]
  auto [m, e] = torch::frexp(d({8, 0, -3, kInf, kNaN, 1e-310}));
  EXPECT_EQ(e.scalar_type(), torch::kInt);
  EXPECT_TENSOR_EQ(e, torch::tensor({4, 0, 2, 0, 0, -1029}, torch::kInt));
  EXPECT_TENSOR_EQ(m.slice(0, 0, 5), d({0.5, 0, -0.75, kInf, kNaN}));
  EXPECT_EQ(m[5].item<double>(), std::ldexp(1e-310, 1029));
  // float32 subnormal and -0.0: torch gives mantissa [-0.0, 0.5444] and exponent [0, -132]
  auto [m32, e32] = torch::tensor({-0.0f, 1e-40f}).frexp();
  EXPECT_TRUE(std::signbit(m32[0].item<float>()));
  EXPECT_EQ(e32[1].item<int>(), -132);
  EXPECT_EQ(m32[1].item<float>(), std::ldexp(1e-40f, 132));
  EXPECT_EQ(std::get<0>(torch::frexp(torch::full({1}, 8.0, torch::kHalf))).scalar_type(), torch::kHalf);
  // the mantissa's gradient is grad / 2^exponent
  auto x = d({3, 0.3}).requires_grad_();
  std::get<0>(torch::frexp(x)).sum().backward();
  EXPECT_TENSOR_EQ(x.grad(), d({0.25, 2}));
  EXPECT_EMBER_ERROR(torch::frexp(l({1, 2})), "frexp", "only supports floating-point dtypes", "int64");
}

TEST(NumpyNames, SignbitAndPositive) {
  // torch.signbit([-0.0, 0.0, -1.0, nan, -nan]) == [True, False, True, False, True]
  EXPECT_TENSOR_EQ(torch::signbit(d({-0.0, 0.0, -1.0, kNaN, -kNaN})), torch::tensor({true, false, true, false, true}));
  EXPECT_TENSOR_EQ(l({-1, 2}).signbit(), torch::tensor({true, false}));
  EXPECT_TENSOR_EQ(torch::signbit(torch::tensor({true})), torch::tensor({false}));
  EXPECT_EMBER_ERROR(torch::signbit(torch::ones({1}, torch::kComplexFloat)), "signbit", "complex");
  const auto x = l({1, -2});
  EXPECT_TRUE(torch::positive(x).is_same(x));
  EXPECT_EMBER_ERROR(torch::tensor({true}).positive(), "positive", "bool tensor is not supported");
}

TEST(NumpyNames, CopysignHasAGradient) {
  // torch: copysign(x, y).sum().backward() gives x.grad [-1, -1, 0, 0] for these
  auto x = torch::tensor({1.5f, -2.f, 0.f, -0.f}, torch::requires_grad());
  const auto y = torch::tensor({-1.f, 2.f, -3.f, 1.f});
  auto r = torch::copysign(x, y);
  EXPECT_EQ(r.grad_fn()->name(), "CopysignBackward0");
  r.sum().backward();
  EXPECT_TENSOR_EQ(x.grad(), torch::tensor({-1.f, -1.f, 0.f, 0.f}));
  auto s = torch::tensor({2.f}, torch::requires_grad());
  EXPECT_EQ(s.copysign(-1).grad_fn()->name(), "CopysignBackward1");
}

TEST(NumpyNames, AliasesAreTheirOps) {
  const auto x = torch::linspace(-0.9, 0.9, 5);
  EXPECT_TENSOR_EQ(torch::arccos(x), torch::acos(x));
  EXPECT_TENSOR_EQ(x.arcsin(), x.asin());
  EXPECT_TENSOR_EQ(torch::arctan2(x, x.flip(0)), torch::atan2(x, x.flip(0)));
  EXPECT_TENSOR_EQ(torch::arctanh(x), x.atanh());
  EXPECT_TENSOR_EQ((x + 2).arccosh(), torch::acosh(x + 2));
  EXPECT_TENSOR_EQ(torch::fix(x * 3), torch::trunc(x * 3));
  EXPECT_TENSOR_EQ(torch::greater(x, 0), x > 0);
  EXPECT_TENSOR_EQ(x.less_equal(x.flip(0)), x <= x.flip(0));
  EXPECT_TENSOR_EQ(torch::not_equal(x, 0.0), x != 0);
  auto c = x.clone();
  c.clip_(-0.5, 0.5);
  EXPECT_TENSOR_EQ(c, x.clamp(-0.5, 0.5));
  auto a = -x;
  a.absolute_();
  EXPECT_TENSOR_EQ(a, x.abs());
  auto cp = torch::arange(1., 5.);
  cp.cumprod_(0);
  EXPECT_TENSOR_EQ(cp, torch::tensor({1.f, 2.f, 6.f, 24.f}));

  const auto t = torch::arange(24.).view({2, 3, 4});
  EXPECT_TENSOR_EQ(t.swapdims(0, 2), t.transpose(0, 2));
  EXPECT_TENSOR_EQ(torch::moveaxis(t, 0, -1), t.permute({1, 2, 0}));
  EXPECT_TENSOR_EQ(t.moveaxis({0, 1}, {2, 0}), t.movedim({0, 1}, {2, 0}));
  EXPECT_TENSOR_EQ(t.transpose(0, 1).ravel(), t.transpose(0, 1).reshape({-1}));
  EXPECT_EQ(torch::broadcast_to(torch::ones({3, 1}), {2, 3, 4}).sizes(), std::vector<int64_t>({2, 3, 4}));
  EXPECT_EQ(t.nelement(), 24);
  EXPECT_TRUE(t.is_same_size(torch::zeros({2, 3, 4})));
  EXPECT_FALSE(t.is_same_size(torch::zeros({3, 2, 4})));
  EXPECT_FALSE(t.is_conj());
  EXPECT_TRUE(t.resolve_conj().is_same(t));
  // linalg::norm takes nullopt for dim with a string ord, as LibTorch's optional dim
  EXPECT_EQ(torch::linalg::norm(torch::tensor({3.f, 4.f}).view({2, 1}), "fro", std::nullopt).item<float>(), 5.f);
}

}  // namespace
