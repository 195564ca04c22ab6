// Unary elementwise ops against PyTorch golden values (tools/golden/gen_unary.py).
// One table of ops (UnaryCase) drives every suite: all dtypes with PyTorch's
// promotion and error cases, non-contiguous/broadcast/0-dim/empty inputs, the
// SLEEF and scalar paths, in-place and out= forms.
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "common/golden.h"
#include "common/test_util.h"
#include "ember/kernels/cpu/cpu_capability.h"
#include "ember/kernels/cpu/vec_math.h"

namespace {

using namespace ember;
using ember::testing::Golden;
using ember::testing::tensors_close;

const Golden& golden() {
  static const Golden g("unary.golden");
  return g;
}

const std::vector<std::string> kDtypes = {"bool",    "uint8",    "int8",    "int16",   "int32",     "int64",
                                          "float16", "bfloat16", "float32", "float64", "complex64", "complex128"};

struct UnaryCase {
  std::string name;  // golden key
  std::string op;    // name errors start with
  std::function<Tensor(const Tensor&)> fn;
  std::function<Tensor&(Tensor&)> inplace;             // empty: no in-place form
  std::function<Tensor&(Tensor&, const Tensor&)> out;  // empty: no out= form
  bool cls = false;                                    // complex inputs with NaN/inf (predicates, views)
};

std::vector<UnaryCase> make_cases() {
  std::vector<UnaryCase> c = {
#define EMBER_UNARY_OP(name, ...)                                                                            \
  {#name, #name, [](const Tensor& x) { return x.name(); }, [](Tensor& x) -> Tensor& { return x.name##_(); }, \
   [](Tensor& o, const Tensor& x) -> Tensor& { return ember::name##_out(o, x); }},
#include "ember/tables/unary.def"
#undef EMBER_UNARY_OP
  };
  c.push_back({"round", "round", [](const Tensor& x) { return x.round(); },
               [](Tensor& x) -> Tensor& { return x.round_(); },
               [](Tensor& o, const Tensor& x) -> Tensor& { return round_out(o, x); }});
  c.push_back({"round_d2", "round", [](const Tensor& x) { return x.round(2); },
               [](Tensor& x) -> Tensor& { return x.round_(2); },
               [](Tensor& o, const Tensor& x) -> Tensor& { return round_out(o, x, 2); }});
  c.push_back({"round_dm1", "round", [](const Tensor& x) { return ember::round(x, -1); },
               [](Tensor& x) -> Tensor& { return ember::round_(x, -1); },
               [](Tensor& o, const Tensor& x) -> Tensor& { return round_out(o, x, -1); }});
  c.push_back({"gelu", "gelu", [](const Tensor& x) { return x.gelu(); }, [](Tensor& x) -> Tensor& { return gelu_(x); },
               [](Tensor& o, const Tensor& x) -> Tensor& { return gelu_out(o, x); }});
  c.push_back({"gelu_tanh", "gelu", [](const Tensor& x) { return x.gelu("tanh"); },
               [](Tensor& x) -> Tensor& { return gelu_(x, "tanh"); },
               [](Tensor& o, const Tensor& x) -> Tensor& { return gelu_out(o, x, "tanh"); }});
  c.push_back({"softplus", "softplus", [](const Tensor& x) { return x.softplus(); }, nullptr,
               [](Tensor& o, const Tensor& x) -> Tensor& { return softplus_out(o, x); }});
  c.push_back({"softplus_b2t5", "softplus", [](const Tensor& x) { return x.softplus(2, 5); }, nullptr,
               [](Tensor& o, const Tensor& x) -> Tensor& { return softplus_out(o, x, 2, 5); }});
  c.push_back({"elu", "elu", [](const Tensor& x) { return x.elu(); }, [](Tensor& x) -> Tensor& { return elu_(x); },
               [](Tensor& o, const Tensor& x) -> Tensor& { return elu_out(o, x); }});
  c.push_back({"elu_a05s2i15", "elu", [](const Tensor& x) { return x.elu(0.5, 2.0, 1.5); },
               [](Tensor& x) -> Tensor& { return elu_(x, 0.5, 2.0, 1.5); },
               [](Tensor& o, const Tensor& x) -> Tensor& { return elu_out(o, x, 0.5, 2.0, 1.5); }});
  c.push_back({"leaky_relu", "leaky_relu", [](const Tensor& x) { return x.leaky_relu(); },
               [](Tensor& x) -> Tensor& { return x.leaky_relu_(); },
               [](Tensor& o, const Tensor& x) -> Tensor& { return leaky_relu_out(o, x); }});
  c.push_back({"leaky_relu_02", "leaky_relu", [](const Tensor& x) { return x.leaky_relu(0.2); },
               [](Tensor& x) -> Tensor& { return x.leaky_relu_(0.2); },
               [](Tensor& o, const Tensor& x) -> Tensor& { return leaky_relu_out(o, x, 0.2); }});
  c.push_back({"logit", "logit", [](const Tensor& x) { return x.logit(); },
               [](Tensor& x) -> Tensor& { return logit_(x); },
               [](Tensor& o, const Tensor& x) -> Tensor& { return logit_out(o, x); }});
  c.push_back({"logit_eps", "logit", [](const Tensor& x) { return x.logit(0.1); },
               [](Tensor& x) -> Tensor& { return logit_(x, 0.1); },
               [](Tensor& o, const Tensor& x) -> Tensor& { return logit_out(o, x, 0.1); }});
  c.push_back({"nan_to_num", "nan_to_num", [](const Tensor& x) { return x.nan_to_num(); },
               [](Tensor& x) -> Tensor& { return x.nan_to_num_(); },
               [](Tensor& o, const Tensor& x) -> Tensor& { return nan_to_num_out(o, x); }});
  c.push_back({"nan_to_num_args", "nan_to_num", [](const Tensor& x) { return x.nan_to_num(1.5, 100.0, -200.0); },
               [](Tensor& x) -> Tensor& { return x.nan_to_num_(1.5, 100.0, -200.0); },
               [](Tensor& o, const Tensor& x) -> Tensor& { return nan_to_num_out(o, x, 1.5, 100.0, -200.0); }});
  c.push_back({"isnan", "isnan", [](const Tensor& x) { return x.isnan(); }, nullptr, nullptr, true});
  c.push_back({"isinf", "isinf", [](const Tensor& x) { return x.isinf(); }, nullptr, nullptr, true});
  c.push_back({"isposinf", "isposinf", [](const Tensor& x) { return x.isposinf(); }, nullptr,
               [](Tensor& o, const Tensor& x) -> Tensor& { return isposinf_out(o, x); }, true});
  c.push_back({"isneginf", "isneginf", [](const Tensor& x) { return x.isneginf(); }, nullptr,
               [](Tensor& o, const Tensor& x) -> Tensor& { return isneginf_out(o, x); }, true});
  c.push_back({"isfinite", "isfinite", [](const Tensor& x) { return x.isfinite(); }, nullptr, nullptr, true});
  c.push_back({"isreal", "isreal", [](const Tensor& x) { return x.isreal(); }, nullptr, nullptr, true});
  c.push_back({"angle", "angle", [](const Tensor& x) { return x.angle(); }, nullptr,
               [](Tensor& o, const Tensor& x) -> Tensor& { return angle_out(o, x); }, true});
  c.push_back({"real", "real", [](const Tensor& x) { return x.real(); }, nullptr, nullptr, true});
  c.push_back({"imag", "imag", [](const Tensor& x) { return x.imag(); }, nullptr, nullptr, true});
  c.push_back({"conj", "conj", [](const Tensor& x) { return x.conj(); }, nullptr, nullptr, true});
  return c;
}

const std::vector<UnaryCase>& cases() {
  static const std::vector<UnaryCase> c = make_cases();
  return c;
}

Tensor input(const UnaryCase& c, const std::string& dt) {
  const bool use_cls = c.cls && (dt == "complex64" || dt == "complex128");
  return golden()[(use_cls ? "cls." : "in.") + dt];
}
bool raises(const UnaryCase& c, const std::string& dt) { return golden().has("err." + c.name + "." + dt); }
Tensor expected(const UnaryCase& c, const std::string& dt) { return golden()["out." + c.name + "." + dt]; }

// float16 results are rounded from float32 on both sides; allow one half ulp more.
::testing::AssertionResult close(const Tensor& a, const Tensor& e) {
  const double rtol = e.dtype() == kHalf ? 2e-3 : ember::testing::default_rtol(e.dtype());
  return tensors_close(a, e, rtol, ember::testing::default_atol(e.dtype()));
}

void expect_op_error(const std::function<void()>& f, const std::string& op) {
  try {
    f();
    ADD_FAILURE() << "expected ember::Error from " << op;
  } catch (const ember::Error& e) {
    EXPECT_EQ(std::string(e.what()).rfind(op, 0), 0u) << "message '" << e.what() << "' should start with " << op;
  }
}

// A golden entry for every op and dtype, so a missing generator row fails here.
TEST(UnaryGolden, EveryCaseHasGoldenValues) {
  for (const auto& c : cases())
    for (const auto& dt : kDtypes)
      EXPECT_TRUE(raises(c, dt) || golden().has("out." + c.name + "." + dt)) << c.name << " " << dt;
}

TEST(UnaryGolden, AllDtypesMatchPyTorch) {
  for (const auto& c : cases()) {
    for (const auto& dt : kDtypes) {
      SCOPED_TRACE(c.name + " on " + dt);
      const Tensor x = input(c, dt);
      if (raises(c, dt)) {
        expect_op_error([&] { c.fn(x); }, c.op);
      } else {
        EXPECT_TRUE(close(c.fn(x), expected(c, dt)));
      }
    }
  }
}

TEST(UnaryGolden, SleefPathIsUsedWithVectorKernels) {
  // Note [CPU capability]: the level in use, not cpuid, decides (EMBER_CPU_CAPABILITY may cap it).
  if (kernels::cpu_capability() == kernels::CpuCapability::Default) GTEST_SKIP() << "scalar level in use";
  EXPECT_NE(kernels::vec::unary_vec(kernels::UnaryOpId::exp).f32, nullptr);
  EXPECT_NE(kernels::vec::unary_vec(kernels::UnaryOpId::tanh).f64, nullptr);
  EXPECT_NE(kernels::vec::unary_vec(kernels::UnaryOpId::sigmoid).f32, nullptr);
  EXPECT_EQ(kernels::vec::unary_vec(kernels::UnaryOpId::abs).f32, nullptr);
  EXPECT_NE(kernels::vec::gelu_vec(true).f32, nullptr);
  kernels::vec::set_vec_math_enabled(false);
  EXPECT_EQ(kernels::vec::unary_vec(kernels::UnaryOpId::exp).f32, nullptr);
  kernels::vec::set_vec_math_enabled(true);
}

TEST(UnaryGolden, ScalarFallbackMatchesPyTorch) {
  kernels::vec::set_vec_math_enabled(false);
  for (const auto& c : cases())
    for (const std::string dt : {"float32", "float64", "float16", "bfloat16"}) {
      SCOPED_TRACE(c.name + " on " + dt);
      if (!raises(c, dt)) EXPECT_TRUE(close(c.fn(input(c, dt)), expected(c, dt)));
    }
  kernels::vec::set_vec_math_enabled(true);
}

// SLEEF (u10) against the C library over a dense range: both are within about
// an ulp of the true value, so they must agree to a few ulps.
TEST(UnaryGolden, SleefAgreesWithLibmOnDenseRange) {
  for (const std::string dt : {"float32", "float64"}) {
    const ScalarType t = dt == "float32" ? kFloat : kDouble;
    const Tensor x = linspace(-12, 12, 50001, TensorOptions(t));
    const double rtol = t == kFloat ? 4 * 1.2e-7 : 4 * 2.3e-16;  // 4 ulp
    const double atol = t == kFloat ? 1e-6 : 1e-13;
    for (const auto& c : cases()) {
      if (c.cls || raises(c, dt)) continue;
      SCOPED_TRACE(c.name + " on " + dt);
      const Tensor fast = c.fn(x);
      kernels::vec::set_vec_math_enabled(false);
      const Tensor slow = c.fn(x);
      kernels::vec::set_vec_math_enabled(true);
      EXPECT_TRUE(tensors_close(fast, slow, rtol, atol));
    }
  }
}

// Transposed, strided, broadcast, large (threaded, full SIMD vectors), 0-dim and empty inputs.
TEST(UnaryGolden, LayoutsMatchPyTorch) {
  for (const auto& c : cases()) {
    for (const std::string dt : {"float32", "float64", "int32", "complex64", "bfloat16"}) {
      SCOPED_TRACE(c.name + " on " + dt);
      if (raises(c, dt)) continue;
      const Tensor x = input(c, dt), e = expected(c, dt);
      EXPECT_TRUE(close(c.fn(x.t()), e.t()));
      EXPECT_TRUE(close(c.fn(x.slice(1, 0, 8, 3)), e.slice(1, 0, 8, 3)));
      EXPECT_TRUE(close(c.fn(x.slice(0, 1, 2).expand({3, 8})), e.slice(0, 1, 2).expand({3, 8})));
      EXPECT_TRUE(close(c.fn(x.unsqueeze(0).expand({1100, 4, 8}).contiguous()), e.unsqueeze(0).expand({1100, 4, 8})));
      const Tensor r0 = c.fn(x.select(0, 1).select(0, 2));
      EXPECT_EQ(r0.dim(), 0);
      EXPECT_TRUE(close(r0, e.select(0, 1).select(0, 2)));
      const Tensor r_empty = c.fn(x.slice(0, 0, 0));
      EXPECT_EQ(r_empty.sizes().vec(), (std::vector<int64_t>{0, 8}));
      EXPECT_EQ(r_empty.dtype(), e.dtype());
    }
  }
}

// In-place: allowed when the result dtype can be written back into self's
// dtype (PyTorch's rule), except complex -> real results (abs_ on complex).
TEST(UnaryGolden, InPlace) {
  for (const auto& c : cases()) {
    if (!c.inplace) continue;
    for (const auto& dt : kDtypes) {
      SCOPED_TRACE(c.name + "_ on " + dt);
      const Tensor x = input(c, dt);
      const ScalarType self_t = x.dtype();
      bool ok = !raises(c, dt);
      Tensor e;
      if (ok) {
        e = expected(c, dt);
        ok = can_cast(e.dtype(), self_t) && !(is_complex(self_t) && !is_complex(e.dtype()));
      }
      Tensor y = x.clone();
      if (!ok) {
        try {
          c.inplace(y);
          ADD_FAILURE() << "expected ember::Error";
        } catch (const ember::Error&) {
        }
        continue;
      }
      const uint32_t v0 = y._version();
      Tensor& r = c.inplace(y);
      EXPECT_EQ(&r, &y);
      EXPECT_GT(y._version(), v0);
      EXPECT_TRUE(close(y, e.to(self_t)));
      Tensor yt = x.clone().t();  // in place through a non-contiguous view
      c.inplace(yt);
      EXPECT_TRUE(close(yt, e.to(self_t).t()));
    }
  }
}

ScalarType wider(ScalarType t) {
  if (is_complex(t)) return kComplexDouble;
  if (is_floating_point(t)) return t == kDouble ? kComplexDouble : kDouble;
  return t == kBool ? kFloat : kDouble;
}

TEST(UnaryGolden, OutVariants) {
  for (const auto& c : cases()) {
    if (!c.out) continue;
    for (const auto& dt : kDtypes) {
      SCOPED_TRACE(c.name + "_out on " + dt);
      const Tensor x = input(c, dt);
      if (raises(c, dt)) {
        Tensor o = empty({4, 8}, TensorOptions(x.dtype()));
        try {
          c.out(o, x);
          ADD_FAILURE() << "expected ember::Error";
        } catch (const ember::Error&) {
        }
        continue;
      }
      const Tensor e = expected(c, dt);
      // Same dtype, resized from a wrong shape.
      Tensor o = empty({0}, TensorOptions(e.dtype()));
      Tensor& r = c.out(o, x);
      EXPECT_EQ(&r, &o);
      EXPECT_TRUE(close(o, e));
      // Non-contiguous out keeps its strides.
      Tensor ot = empty({8, 4}, TensorOptions(e.dtype())).t();
      c.out(ot, x);
      EXPECT_FALSE(ot.is_contiguous());
      EXPECT_TRUE(close(ot, e));
      // A wider dtype the result can be cast to (PyTorch's isposinf/isneginf take bool outputs only).
      if (c.op == "isposinf" || c.op == "isneginf") continue;
      Tensor ow = empty({4, 8}, TensorOptions(wider(e.dtype())));
      c.out(ow, x);
      EXPECT_EQ(ow.dtype(), wider(e.dtype()));
      EXPECT_TRUE(close(ow.to(e.dtype()), e));
      // Floating/complex results can't go into integer outputs.
      if (is_floating_point(e.dtype()) || is_complex(e.dtype())) {
        Tensor oi = empty({4, 8}, TensorOptions(kLong));
        EXPECT_EMBER_ERROR(c.out(oi, x), "can't be cast to the desired output type Long");
      }
    }
  }
}

TEST(Unary, DtypeErrorsNameTheOp) {
  EXPECT_EMBER_ERROR(ember::neg(tensor({true, false})), "neg", "Negation");
  EXPECT_EMBER_ERROR(bitwise_not(tensor({1.0, 2.0})), "bitwise_not", "float");
  EXPECT_EMBER_ERROR(ember::sign(tensor({complex64(1, 1)})), "sign", "sgn");
  EXPECT_EMBER_ERROR(ember::abs(tensor({true})), "abs", "bool");
  Tensor c = tensor({complex64(3, 4)});
  EXPECT_EMBER_ERROR(ember::abs_(c), "abs_", "complex");
  Tensor i = tensor({1, 2});
  EXPECT_EMBER_ERROR(ember::exp_(i), "exp_", "can't be cast");
  EXPECT_EMBER_ERROR(frac(i), "frac", "int64");  // tensor({1, 2}) is int64, as in LibTorch
  EXPECT_EMBER_ERROR(ember::round(tensor({1.5}).to(kLong), 1), "round", "decimals");
  EXPECT_EMBER_ERROR(ember::round(tensor({true})), "round", "bool");
  EXPECT_EMBER_ERROR(gelu(tensor({1.0}), "fast"), "gelu", "none or tanh");
  EXPECT_EMBER_ERROR(isposinf(tensor({complex64(1, 1)})), "isposinf", "complex");
  EXPECT_EMBER_ERROR(nan_to_num(tensor({complex64(1, 1)})), "nan_to_num", "complex");
  EXPECT_EMBER_ERROR(ember::exp(Tensor()), "exp");
  Tensor of = empty({1});
  EXPECT_EMBER_ERROR(isposinf_out(of, tensor({1.0})), "isposinf", "non-boolean");
}

TEST(Unary, InPlaceOnBroadcastTensorRaises) {
  Tensor x = ones({3}).expand({2, 3});
  EXPECT_EMBER_ERROR(ember::exp_(x), "exp_", "single memory location");
  Tensor o = zeros({1, 3}).expand({2, 3});
  EXPECT_EMBER_ERROR(ember::sin_out(o, ones({2, 3})), "sin", "single memory location");
}

TEST(Unary, PartiallyOverlappingOutRaises) {
  Tensor y = golden()["in.float32"].reshape({8, 4}).clone();
  Tensor o = y.slice(0, 1, 5);  // writes rows 1..4 while reading rows 0..3
  EXPECT_EMBER_ERROR(ember::exp_out(o, y.slice(0, 0, 4)), "exp", "single memory location");
  Tensor z = y.slice(0, 0, 4);
  Tensor zt = z.t();  // the same memory, other element order
  EXPECT_EMBER_ERROR(ember::neg_out(zt, z), "neg", "single memory location");
  // A non-dense output sharing memory with the input (PyTorch leaves the
  // result undecided) is computed as if the input were cloned.
  Tensor c = golden()["in.complex64"].clone();
  const Tensor expected = ember::angle(c);
  Tensor re = c.real();
  ember::angle_out(re, c);
  EXPECT_TENSOR_EQ(re, expected);
  // The same elements (the in-place case) and disjoint parts of one buffer are fine.
  ember::neg_out(z, y.slice(0, 0, 4));
  Tensor lower = y.slice(0, 4, 8);
  ember::neg_out(lower, y.slice(0, 0, 4));
  EXPECT_TRUE(close(y.slice(0, 4, 8), golden()["in.float32"].reshape({8, 4}).slice(0, 0, 4)));
}

TEST(Unary, IntegerInputsUseDefaultDtype) {
  const Tensor x = golden()["in.int32"];
  set_default_dtype(kDouble);
  const Tensor r = ember::exp(x);
  set_default_dtype(kFloat);
  EXPECT_EQ(r.dtype(), kDouble);
  EXPECT_TRUE(close(r.to(kFloat), golden()["out.exp.int32"]));
  EXPECT_EQ(ember::exp(x).dtype(), kFloat);
}

// LibTorch programs pass ops by address, e.g. nn::Functional(torch::relu).
TEST(Unary, OpsAreAddressable) {
  std::function<Tensor(const Tensor&)> relu_fn = ember::relu, tanh_fn = ember::tanh, sigmoid_fn = ember::sigmoid;
  const Tensor x = golden()["in.float32"];
  EXPECT_TRUE(close(relu_fn(x), golden()["out.relu.float32"]));
  EXPECT_TRUE(close(tanh_fn(x), golden()["out.tanh.float32"]));
  EXPECT_TRUE(close(sigmoid_fn(x), golden()["out.sigmoid.float32"]));
}

TEST(Unary, FreeFunctionsMatchMethods) {
  const Tensor x = golden()["in.float32"];
  EXPECT_TRUE(close(ember::exp(x), golden()["out.exp.float32"]));
  EXPECT_TRUE(close(absolute(x), golden()["out.abs.float32"]));
  EXPECT_TRUE(close(negative(x), golden()["out.neg.float32"]));
  EXPECT_TRUE(close(x.absolute(), golden()["out.abs.float32"]));
  EXPECT_TRUE(close(ember::sigmoid(x), golden()["out.sigmoid.float32"]));
}

// ---- complex views and constructors --------------------------------------------
TEST(UnaryComplex, RealImagAreViews) {
  Tensor c = golden()["in.complex64"].clone();
  EXPECT_TRUE(close(c.t().real(), golden()["real.t"]));
  EXPECT_TRUE(close(c.t().imag(), golden()["imag.t"]));
  Tensor re = c.real();
  re.fill_(7.0);  // writes through to the complex storage
  EXPECT_EQ(c.select(0, 0).select(0, 0).item().toComplexDouble().real(), 7.0);
  c.imag().zero_();
  EXPECT_TRUE(close(c.isreal(), ones({4, 8}, TensorOptions(kBool))));
  const Tensor r = golden()["in.float32"];
  EXPECT_TRUE(r.real().is_same(r));
  EXPECT_EMBER_ERROR(r.imag(), "imag", "non-complex");
}

TEST(UnaryComplex, ConjIsACopyForComplexAndSelfForReal) {
  const Tensor r = golden()["in.float64"];
  EXPECT_TRUE(r.conj().is_same(r));
  const Tensor c = golden()["cls.complex128"];
  const Tensor cc = c.conj();
  EXPECT_FALSE(cc.is_same(c));
  EXPECT_NE(cc.data_ptr(), c.data_ptr());
  EXPECT_TRUE(close(cc, golden()["out.conj.complex128"]));
}

TEST(UnaryComplex, ViewAsRealAndComplex) {
  const Tensor c = golden()["in.complex64"];
  const Tensor vr = view_as_real(c);
  EXPECT_EQ(vr.data_ptr(), c.data_ptr());
  EXPECT_TRUE(close(vr, golden()["view_as_real.out"]));
  EXPECT_TRUE(close(view_as_real(c.t()), golden()["view_as_real.t"]));
  const Tensor back = view_as_complex(vr);
  EXPECT_EQ(back.dtype(), kComplexFloat);
  EXPECT_EQ(back.data_ptr(), c.data_ptr());
  EXPECT_TRUE(close(back, c));
  // Strided views are fine as long as the (re, im) pairs are contiguous.
  const Tensor strided = view_as_complex(vr.slice(0, 0, 4, 2));
  EXPECT_TRUE(close(strided, c.slice(0, 0, 4, 2)));
  EXPECT_TRUE(close(view_as_complex(ones({2}, TensorOptions(kDouble)).expand({3, 2})),
                    tensor({complex128(1, 1), complex128(1, 1), complex128(1, 1)})));

  EXPECT_EMBER_ERROR(view_as_real(ones({2})), "view_as_real", "complex");
  EXPECT_EMBER_ERROR(view_as_complex(ones({3})), "view_as_complex", "last dimension of size 2");
  EXPECT_EMBER_ERROR(view_as_complex(ones({2, 2}).t()), "view_as_complex", "stride 1");
  EXPECT_EMBER_ERROR(view_as_complex(ones({2, 2}, TensorOptions(kLong))), "view_as_complex", "int64");
  EXPECT_EMBER_ERROR(view_as_complex(ones({2}, TensorOptions(kHalf))), "view_as_complex", "float16");
  EXPECT_EMBER_ERROR(view_as_complex(ones({})), "view_as_complex", "one or more dimensions");
  EXPECT_EMBER_ERROR(view_as_complex(ones({5}).slice(0, 1).view({2, 2})), "view_as_complex", "storage_offset");
  EXPECT_EMBER_ERROR(view_as_complex(ones({3, 5}).slice(1, 0, 2)), "view_as_complex", "divisible by 2");
}

TEST(UnaryComplex, PolarAndComplexMatchPyTorch) {
  for (const std::string dt : {"float32", "float64"}) {
    SCOPED_TRACE(dt);
    const Tensor a = golden()["polar.abs." + dt], b = golden()["polar.angle." + dt];
    EXPECT_TRUE(close(polar(a, b), golden()["polar.out." + dt]));  // b broadcasts over a
    EXPECT_TRUE(close(ember::complex(a, b), golden()["complex.out." + dt]));
    Tensor o = empty({0}, TensorOptions(kComplexDouble));
    polar_out(o, a, b);
    EXPECT_TRUE(close(o, golden()["polar.out." + dt].to(kComplexDouble)));
    complex_out(o, a, b);
    EXPECT_TRUE(close(o, golden()["complex.out." + dt].to(kComplexDouble)));
  }
  EXPECT_EMBER_ERROR(polar(ones({2}), ones({2}, TensorOptions(kDouble))), "polar", "float32", "float64");
  EXPECT_EMBER_ERROR(ember::complex(ones({2}, TensorOptions(kLong)), ones({2}, TensorOptions(kLong))), "complex",
                     "int64");
  EXPECT_EMBER_ERROR(ember::complex(ones({2}), ones({3})), "complex");
  Tensor bad = empty({2}, TensorOptions(kFloat));
  EXPECT_EMBER_ERROR(complex_out(bad, ones({2}), ones({2})), "complex", "can't be cast");
}

}  // namespace
