// The binary family against PyTorch golden values (tools/golden/gen_binary.py):
// every op x dtype x case (broadcast, 0-dim, Scalar on either side,
// non-contiguous, empty, NaN/inf specials, integer division by zero), the
// out= and in-place variants, operators, and the error messages.
#include <functional>
#include <limits>
#include <map>
#include <set>
#include <sstream>

#include "common/golden.h"
#include "common/test_util.h"
#include "ember/tables/binary_ops.h"

namespace torch {
namespace {

using ::ember::testing::Golden;

const Golden& golden() {
  static const Golden g("binary.golden");
  return g;
}

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> parts;
  std::stringstream ss(s);
  for (std::string p; std::getline(ss, p, ':');) parts.push_back(p);
  return parts;
}

struct OpFns {
  std::function<Tensor(const Tensor&, const Tensor&)> tt;
  std::function<Tensor(const Tensor&, const Scalar&)> ts;
  std::function<Tensor(const Scalar&, const Tensor&)> st;
  std::function<void(Tensor&, const Tensor&, const Tensor&)> out;
  std::function<void(Tensor&, const Tensor&)> inplace;
  std::function<Tensor(const Tensor&, const Tensor&)> oper;  // the C++ operator, when there is one
};

// Ops of the uniform table: free functions, out=, in-place method.
#define TABLE_OP(n)                                                                   \
  OpFns {                                                                             \
    [](const Tensor& a, const Tensor& b) { return ember::n(a, b); },                  \
        [](const Tensor& a, const Scalar& s) { return ember::n(a, s); },              \
        [](const Scalar& s, const Tensor& b) { return ember::n(s, b); },              \
        [](Tensor& o, const Tensor& a, const Tensor& b) { ember::n##_out(o, a, b); }, \
        [](Tensor& a, const Tensor& b) { a.n##_(b); }, nullptr                        \
  }
#define WITH_OPER(fns, OP)                                            \
  [] {                                                                \
    OpFns f = fns;                                                    \
    f.oper = [](const Tensor& a, const Tensor& b) { return a OP b; }; \
    f.st = [](const Scalar& s, const Tensor& b) { return s OP b; };   \
    return f;                                                         \
  }()

const std::map<std::string, OpFns>& ops() {
  static const std::map<std::string, OpFns> m = [] {
    std::map<std::string, OpFns> m;
    // Every uniform row of the table, from the table; the operators and the kernel
    // rows' hand-written signatures are added below.
#define EMBER_BINARY_OP(name, ...) m[#name] = TABLE_OP(name);
#include "ember/tables/binary.def"
#undef EMBER_BINARY_OP
    m["add"] = {[](const Tensor& a, const Tensor& b) { return add(a, b); },
                [](const Tensor& a, const Scalar& s) { return add(a, s); },
                [](const Scalar& s, const Tensor& b) { return s + b; },
                [](Tensor& o, const Tensor& a, const Tensor& b) { add_out(o, a, b); },
                [](Tensor& a, const Tensor& b) { a += b; },
                [](const Tensor& a, const Tensor& b) { return a + b; }};
    m["add_alpha"] = {[](const Tensor& a, const Tensor& b) { return add(a, b, 2); },
                      nullptr,
                      nullptr,
                      [](Tensor& o, const Tensor& a, const Tensor& b) { add_out(o, a, b, 2); },
                      [](Tensor& a, const Tensor& b) { a.add_(b, 2); },
                      nullptr};
    m["sub"] = {[](const Tensor& a, const Tensor& b) { return sub(a, b); },
                [](const Tensor& a, const Scalar& s) { return sub(a, s); },
                [](const Scalar& s, const Tensor& b) { return s - b; },
                [](Tensor& o, const Tensor& a, const Tensor& b) { sub_out(o, a, b); },
                [](Tensor& a, const Tensor& b) { a -= b; },
                [](const Tensor& a, const Tensor& b) { return a - b; }};
    m["sub_alpha"] = {[](const Tensor& a, const Tensor& b) { return sub(a, b, 2); },
                      nullptr,
                      nullptr,
                      [](Tensor& o, const Tensor& a, const Tensor& b) { sub_out(o, a, b, 2); },
                      [](Tensor& a, const Tensor& b) { a.sub_(b, 2); },
                      nullptr};
    m["div"] = {[](const Tensor& a, const Tensor& b) { return div(a, b); },
                [](const Tensor& a, const Scalar& s) { return div(a, s); },
                [](const Scalar& s, const Tensor& b) { return s / b; },
                [](Tensor& o, const Tensor& a, const Tensor& b) { div_out(o, a, b); },
                [](Tensor& a, const Tensor& b) { a /= b; },
                [](const Tensor& a, const Tensor& b) { return a / b; }};
    for (const char* mode : {"trunc", "floor"}) {
      std::string md = mode;
      m[std::string("div_") + mode] = {[md](const Tensor& a, const Tensor& b) { return div(a, b, md); },
                                       [md](const Tensor& a, const Scalar& s) { return div(a, s, md); },
                                       nullptr,
                                       [md](Tensor& o, const Tensor& a, const Tensor& b) { div_out(o, a, b, md); },
                                       [md](Tensor& a, const Tensor& b) { a.div_(b, md); },
                                       nullptr};
    }
    m["mul"] = WITH_OPER(TABLE_OP(mul), *);
    m["mul"].inplace = [](Tensor& a, const Tensor& b) { a *= b; };
    m["remainder"] = WITH_OPER(TABLE_OP(remainder), %);
    m["tanh_backward"] = {[](const Tensor& g, const Tensor& y) { return tanh_backward(g, y); }};
    m["sigmoid_backward"] = {[](const Tensor& g, const Tensor& y) { return sigmoid_backward(g, y); }};
    m["threshold_backward"] = {[](const Tensor& g, const Tensor& x) { return threshold_backward(g, x, 0.5); }};
    m["bitwise_and"] = WITH_OPER(TABLE_OP(bitwise_and), &);
    m["bitwise_and"].inplace = [](Tensor& a, const Tensor& b) { a &= b; };
    m["bitwise_or"] = WITH_OPER(TABLE_OP(bitwise_or), |);
    m["bitwise_or"].inplace = [](Tensor& a, const Tensor& b) { a |= b; };
    m["bitwise_xor"] = WITH_OPER(TABLE_OP(bitwise_xor), ^);
    m["bitwise_xor"].inplace = [](Tensor& a, const Tensor& b) { a ^= b; };
    m["bitwise_left_shift"] = WITH_OPER(TABLE_OP(bitwise_left_shift), <<);
    m["bitwise_left_shift"].ts = [](const Tensor& a, const Scalar& s) { return a << s; };
    m["bitwise_right_shift"] = WITH_OPER(TABLE_OP(bitwise_right_shift), >>);
    m["bitwise_right_shift"].ts = [](const Tensor& a, const Scalar& s) { return a >> s; };
    m["eq"] = WITH_OPER(TABLE_OP(eq), ==);
    m["ne"] = WITH_OPER(TABLE_OP(ne), !=);
    m["lt"] = WITH_OPER(TABLE_OP(lt), <);
    m["le"] = WITH_OPER(TABLE_OP(le), <=);
    m["gt"] = WITH_OPER(TABLE_OP(gt), >);
    m["ge"] = WITH_OPER(TABLE_OP(ge), >=);
    for (const char* n : {"maximum", "minimum", "fmax", "fmin"}) {
      using F = Tensor (*)(const Tensor&, const Tensor&);
      using FO = Tensor& (*)(Tensor&, const Tensor&, const Tensor&);
      std::string s = n;
      F f = s == "maximum" ? &maximum : s == "minimum" ? &minimum : s == "fmax" ? &fmax : &fmin;
      FO fo = s == "maximum" ? &maximum_out : s == "minimum" ? &minimum_out : s == "fmax" ? &fmax_out : &fmin_out;
      m[s] = {f,       nullptr, nullptr, [fo](Tensor& o, const Tensor& a, const Tensor& b) { fo(o, a, b); },
              nullptr, nullptr};
    }
    m["isclose"] = {[](const Tensor& a, const Tensor& b) { return isclose(a, b); }};
    m["isclose_tol"] = {[](const Tensor& a, const Tensor& b) { return isclose(a, b, 0.1, 0.5, true); }};
    m["clamp_min"] = {[](const Tensor& a, const Tensor& b) { return clamp_min(a, b); },
                      [](const Tensor& a, const Scalar& s) { return clamp_min(a, s); },
                      nullptr,
                      [](Tensor& o, const Tensor& a, const Tensor& b) { clamp_out(o, a, b); },
                      [](Tensor& a, const Tensor& b) { clamp_(a, b); },
                      nullptr};
    m["clamp_max"] = {[](const Tensor& a, const Tensor& b) { return clamp_max(a, b); },
                      [](const Tensor& a, const Scalar& s) { return clamp_max(a, s); },
                      nullptr,
                      [](Tensor& o, const Tensor& a, const Tensor& b) { clamp_out(o, a, std::nullopt, b); },
                      [](Tensor& a, const Tensor& b) { clamp_(a, std::nullopt, b); },
                      nullptr};
    return m;
  }();
  return m;
}

// Compares with dtype-default tolerances; float16 results of transcendental
// ops may differ from PyTorch by one half ulp step.
// A golden "PyTorch raises here" case: the error must be the op's own (its
// message names the op), not an unrelated check failing first.
template <typename F>
void expect_op_error(F&& f, const std::vector<std::string>& names) {
  try {
    f();
    ADD_FAILURE() << "expected ember::Error from " << names[0];
  } catch (const Error& e) {
    const std::string msg = e.what();
    bool named = false;
    for (const std::string& n : names) named |= msg.rfind(n + ":", 0) == 0;
    EXPECT_TRUE(named) << "message '" << msg << "' does not start with " << names[0];
  }
}

void expect_matches(const Tensor& actual, const Tensor& expected, const std::string& what) {
  SCOPED_TRACE(what);
  EXPECT_TENSOR_CLOSE(actual, expected);
}

std::vector<std::string> cases_with_role(const std::string& prefix, const std::set<std::string>& roles) {
  std::vector<std::string> out;
  for (const std::string& n : golden().names_with_prefix(prefix)) {
    auto p = split(n);
    if (roles.count(p.back())) out.push_back(n);
  }
  return out;
}

std::string stem(const std::string& name) { return name.substr(0, name.rfind(':')); }

// The names an op's messages may start with: the rows add_alpha and sub_alpha are add
// or sub with alpha; clamp_min/clamp_max are clamp with one bound (PyTorch's
// messages say clamp too); a comparison with the scalar first is the mirrored
// comparison with the tensor first, as Python's `2 > t` is `t < 2`.
std::vector<std::string> op_names(const std::string& row, const std::string& kase = "") {
  if (row == "add_alpha" || row == "sub_alpha") return {"add", "sub"};
  if (row == "clamp_min" || row == "clamp_max") return {row, "clamp"};
  static const std::map<std::string, std::string> mirrored = {{"lt", "gt"}, {"gt", "lt"}, {"le", "ge"}, {"ge", "le"}};
  if (kase == "st" && mirrored.count(row)) return {row, mirrored.at(row)};
  return {row};
}

TEST(BinaryGolden, EveryOpDtypeAndCase) {
  const Golden& g = golden();
  int checked = 0;
  for (const auto& entry : ops()) {
    // Named references, not a structured binding: the lambdas below use them, which
    // clang 14 (the sanitizer build's compiler) does not allow for bindings.
    const std::string& op = entry.first;
    const OpFns& fns = entry.second;
    for (const std::string& name : cases_with_role(op + ":", {"out", "error"})) {
      auto p = split(name);
      if (p[0] != op) continue;  // "add" must not pick up "add_alpha"
      const std::string& kase = p[1];
      const std::string base = stem(name);
      const bool want_error = p.back() == "error";
      std::function<Tensor()> run;
      if (kase.rfind("ts", 0) == 0) {
        if (!fns.ts) continue;
        run = [&] { return fns.ts(g[base + ":a"], g[base + ":s"].item()); };
      } else if (kase == "st") {
        if (!fns.st) continue;
        run = [&] { return fns.st(g[base + ":s"].item(), g[base + ":b"]); };
      } else {
        run = [&] {
          Tensor a = g[base + ":a"];
          return fns.tt(kase == "nc" ? a.t() : a, g[base + ":b"]);
        };
      }
      SCOPED_TRACE(name);
      ++checked;
      if (want_error) {
        expect_op_error(run, op_names(op, kase));
        continue;
      }
      Tensor expected = g[name];
      try {
        expect_matches(run(), expected, name);
      } catch (const Error& e) {
        ADD_FAILURE() << name << " raised: " << e.what();
      }
    }
  }
  EXPECT_GT(checked, 2000);
}

// Coverage: every row of the table has golden cases and a test entry (the uniform
// rows' entries come from the table itself; the kernel rows' are written above).
TEST(BinaryGolden, EveryTableRowIsTested) {
  const std::vector<std::string> rows = {
#define EMBER_BINARY_OP(name, ...) #name,
#define EMBER_BINARY_KERNEL(name, ...) #name,
#include "ember/tables/binary.def"
#undef EMBER_BINARY_KERNEL
#undef EMBER_BINARY_OP
  };
  EXPECT_EQ(rows.size(), kBinaryOpCount);
  for (std::string row : rows) {
    if (row == "add_scaled") row = "add_alpha";  // add/sub with alpha != 1
    EXPECT_TRUE(ops().count(row)) << row;
    EXPECT_GT(golden().names_with_prefix(row + ":tt:").size(), 8u) << row;
  }
}

// The C++ operators on Tensor pairs give the golden results of their ops.
TEST(BinaryGolden, Operators) {
  const Golden& g = golden();
  for (const auto& entry : ops()) {
    // Named references, not a structured binding: clang 14 does not let the lambda below capture one.
    const std::string& op = entry.first;
    const OpFns& fns = entry.second;
    if (!fns.oper) continue;
    for (const std::string& name : cases_with_role(op + ":tt:", {"out", "error"})) {
      const std::string base = stem(name);
      SCOPED_TRACE(name);
      if (split(name).back() == "error") {
        expect_op_error([&] { fns.oper(g[base + ":a"], g[base + ":b"]); }, op_names(op));
      } else {
        expect_matches(fns.oper(g[base + ":a"], g[base + ":b"]), g[name], name);
      }
    }
  }
}

// out= resizes an empty output; out of another (castable) dtype receives a
// converted copy; a non-castable dtype raises.
TEST(BinaryGolden, OutVariants) {
  const Golden& g = golden();
  for (const auto& [op, fns] : ops()) {
    if (!fns.out) continue;
    for (const std::string& name : cases_with_role(op + ":tt:", {"out"})) {
      const std::string base = stem(name);
      SCOPED_TRACE(name);
      Tensor expected = g[name];
      Tensor a = g[base + ":a"], b = g[base + ":b"];
      Tensor out = empty({0}, TensorOptions(expected.dtype()));
      fns.out(out, a, b);
      expect_matches(out, expected, name + " (out=)");
      // A complex64 output accepts every result dtype.
      Tensor wide = empty({3, 4}, TensorOptions(kComplexDouble));
      fns.out(wide, a, b);
      EXPECT_TENSOR_CLOSE(wide, expected.to(kComplexDouble));
      if (expected.dtype() != kBool) {
        Tensor narrow = empty({3, 4}, TensorOptions(kBool));
        EXPECT_EMBER_ERROR(fns.out(narrow, a, b), "can't be cast to the desired output type Bool");
      }
    }
  }
}

// In-place: self [2,3] op other [3]; the result is written in self's dtype
// when the result dtype can be cast to it, and raises otherwise.
TEST(BinaryGolden, InplaceVariants) {
  const Golden& g = golden();
  for (const auto& [op, fns] : ops()) {
    if (!fns.inplace) continue;
    for (const std::string& name : cases_with_role(op + ":vec:", {"out"})) {
      const std::string base = stem(name);
      SCOPED_TRACE(name);
      Tensor expected = g[name];
      Tensor self = g[base + ":a"].clone();
      const uint32_t version = self._version();
      if (can_cast(expected.dtype(), self.dtype())) {
        fns.inplace(self, g[base + ":b"]);
        expect_matches(self, expected.to(self.dtype()), name + " (in-place)");
        EXPECT_GT(self._version(), version);
      } else {
        EXPECT_EMBER_ERROR(fns.inplace(self, g[base + ":b"]), "can't be cast to the desired output type");
      }
    }
  }
}

TEST(BinaryGolden, TernaryOps) {
  const Golden& g = golden();
  int checked = 0;
  for (const std::string prefix : {"clamp:", "lerp:", "addcmul:", "addcdiv:"}) {
    for (const std::string& name : cases_with_role(prefix, {"out", "error"})) {
      auto p = split(name);
      const std::string base = stem(name);
      const std::string& op = p[0];
      const std::string& kase = p[1];
      std::function<Tensor()> run;
      if (op == "clamp" && kase[0] == 's') {
        run = [&] {
          std::optional<Scalar> mn, mx;
          if (g.has(base + ":min")) mn = g[base + ":min"].item();
          if (g.has(base + ":max")) mx = g[base + ":max"].item();
          return clamp(g[base + ":self"], mn, mx);
        };
      } else if (op == "clamp") {
        run = [&] { return clamp(g[base + ":self"], g[base + ":min"], g[base + ":max"]); };
      } else if (op == "lerp" && kase[0] == 's') {
        run = [&] { return lerp(g[base + ":self"], g[base + ":t1"], g[base + ":w"].item()); };
      } else if (op == "lerp") {
        run = [&] { return lerp(g[base + ":self"], g[base + ":t1"], g[base + ":w"]); };
      } else if (op == "addcmul") {
        run = [&] { return addcmul(g[base + ":self"], g[base + ":t1"], g[base + ":t2"], 2); };
      } else {
        run = [&] { return addcdiv(g[base + ":self"], g[base + ":t1"], g[base + ":t2"], 2); };
      }
      SCOPED_TRACE(name);
      ++checked;
      if (p.back() == "error") {
        expect_op_error(run, op_names(op));
        continue;
      }
      try {
        expect_matches(run(), g[name], name);
      } catch (const Error& e) {
        ADD_FAILURE() << name << " raised: " << e.what();
      }
    }
  }
  EXPECT_GT(checked, 60);
}

TEST(BinaryGolden, TernaryInplaceAndOut) {
  const Golden& g = golden();
  {
    Tensor x = g["clamp:s_both:float32:self"].clone();
    x.clamp_(-1, 2);
    EXPECT_TENSOR_CLOSE(x, g["clamp:s_both:float32:out"]);
    Tensor y = g["clamp:s_min:float32:self"].clone();
    y.clamp_min_(0);
    EXPECT_TENSOR_CLOSE(y, g["clamp:s_min:float32:out"]);
    Tensor z = g["clamp:s_max:float32:self"].clone();
    z.clamp_max_(1);
    EXPECT_TENSOR_CLOSE(z, g["clamp:s_max:float32:out"]);
    Tensor o = empty({0});
    clamp_out(o, g["clamp:t_both:float32:self"], g["clamp:t_both:float32:min"], g["clamp:t_both:float32:max"]);
    EXPECT_TENSOR_CLOSE(o, g["clamp:t_both:float32:out"]);
    EXPECT_TENSOR_CLOSE(clip(g["clamp:s_inv:float64:self"], 3, 1), g["clamp:s_inv:float64:out"]);
  }
  {
    Tensor x = g["lerp:s03:float64:self"].clone();
    x.lerp_(g["lerp:s03:float64:t1"], 0.3);
    EXPECT_TENSOR_CLOSE(x, g["lerp:s03:float64:out"]);
    Tensor o = empty({0}, TensorOptions(kFloat));
    lerp_out(o, g["lerp:t:float32:self"], g["lerp:t:float32:t1"], g["lerp:t:float32:w"]);
    EXPECT_TENSOR_CLOSE(o, g["lerp:t:float32:out"]);
    Tensor y = g["lerp:t:float32:self"].clone();
    y.lerp_(g["lerp:t:float32:t1"], g["lerp:t:float32:w"]);
    EXPECT_TENSOR_CLOSE(y, g["lerp:t:float32:out"]);
    // In place, self's shape is the result's: a weight that broadcasts it larger is an error.
    Tensor z = g["lerp:t:float32:t1"].clone();
    EXPECT_EMBER_ERROR(z.lerp_(g["lerp:t:float32:t1"], g["lerp:t:float32:w"]), "lerp", "[4]", "[3, 4]");
    EXPECT_EMBER_ERROR(z.lerp_(g["lerp:t:float32:t1"], ones({4}, kDouble)), "lerp", "weight", "float64");
  }
  {
    Tensor x = g["addcmul:v2:float32:self"].clone();
    x.addcmul_(g["addcmul:v2:float32:t1"], g["addcmul:v2:float32:t2"], 2);
    EXPECT_TENSOR_CLOSE(x, g["addcmul:v2:float32:out"]);
    Tensor y = g["addcdiv:v2:float64:self"].clone();
    y.addcdiv_(g["addcdiv:v2:float64:t1"], g["addcdiv:v2:float64:t2"], 2);
    EXPECT_TENSOR_CLOSE(y, g["addcdiv:v2:float64:out"]);
    Tensor o = empty({7});
    addcmul_out(o, g["addcmul:v2:float32:self"], g["addcmul:v2:float32:t1"], g["addcmul:v2:float32:t2"], 2);
    EXPECT_TENSOR_CLOSE(o, g["addcmul:v2:float32:out"]);
  }
}

TEST(BinaryGolden, ClampNanPropagation) {
  const Golden& g = golden();
  Tensor x = g["clampnan:x"], lo = g["clampnan:lo"], hi = g["clampnan:hi"];
  EXPECT_TENSOR_EQ(clamp(x, lo, hi), g["clampnan:tt"]);
  EXPECT_TENSOR_EQ(clamp(x, lo), g["clampnan:t_min"]);
  EXPECT_TENSOR_EQ(clamp(x, std::nullopt, hi), g["clampnan:t_max"]);
  EXPECT_TENSOR_EQ(clamp(x, 0.0, 2.0), g["clampnan:s"]);
  EXPECT_TENSOR_EQ(clamp(x, NAN, 2.0), g["clampnan:s_nanmin"]);
  EXPECT_TENSOR_EQ(clamp_max(x, NAN), g["clampnan:s_nanmax"]);
}

TEST(BinaryGolden, UnaryOperators) {
  const Golden& g = golden();
  for (const std::string& name : cases_with_role("unop:", {"out", "error"})) {
    auto p = split(name);
    SCOPED_TRACE(name);
    Tensor x = g["unop:" + p[2] + ":x"];
    std::function<Tensor()> run = p[1] == "neg"      ? std::function<Tensor()>([&] { return -x; })
                                  : p[1] == "invert" ? std::function<Tensor()>([&] { return ~x; })
                                                     : std::function<Tensor()>([&] { return !x; });
    if (p.back() == "error") {
      // PyTorch's op for each operator: - is neg, ~ is bitwise_not, ! is logical_not.
      const char* op = p[1] == "neg" ? "neg: " : p[1] == "invert" ? "bitwise_not: " : "logical_not: ";
      EXPECT_EMBER_ERROR(run(), op);
    } else {
      EXPECT_TENSOR_EQ(run(), g[name]);
    }
  }
}

TEST(BinaryGolden, AllcloseAndEqual) {
  const Golden& g = golden();
  for (const std::string& name : cases_with_role("close:", {"equal", "allclose", "allclose_error"})) {
    auto p = split(name);
    const std::string base = "close:" + p[1];
    SCOPED_TRACE(name);
    Tensor a = g[base + ":a"], b = g[base + ":b"];
    if (p[2] == "equal") EXPECT_EQ(equal(a, b), g[name].item<bool>());
    if (p[2] == "allclose") EXPECT_EQ(allclose(a, b), g[name].item<bool>());
    // allclose is isclose(...).all(), and PyTorch's message names isclose.
    if (p[2] == "allclose_error") EXPECT_EMBER_ERROR(allclose(a, b), "isclose: ");
  }
}

// ---- layouts and aliasing ------------------------------------------------------------
TEST(BinaryLayout, NonContiguousOutAndAliasing) {
  const Golden& g = golden();
  Tensor a = g["add:tt:float32:a"], b = g["add:tt:float32:b"];
  Tensor out_t = empty({4, 3}).t();  // non-contiguous [3, 4]
  add_out(out_t, a, b);
  EXPECT_TENSOR_CLOSE(out_t, g["add:tt:float32:out"]);
  EXPECT_FALSE(out_t.is_contiguous());

  // x + x.t() written into x itself: the input covers the output's memory in
  // another layout, a partial overlap PyTorch refuses; through a clone it works.
  Tensor x = g["alias:a"].clone();
  EXPECT_EMBER_ERROR(x.add_(x.t()), "add", "some elements of the input tensor");
  EXPECT_EMBER_ERROR(add_out(x, x, x.t()), "add", "some elements of the input tensor");
  EXPECT_EMBER_ERROR(x.slice(0, 1).add_(x.slice(0, 0, 2)), "add", "some elements of the input tensor");
  EXPECT_TENSOR_CLOSE(x, g["alias:a"]);  // nothing was written
  x.add_(x.t().clone());
  EXPECT_TENSOR_CLOSE(x, g["alias:out"]);
  // A non-dense input sharing memory is computed as if cloned (PyTorch leaves it undecided).
  Tensor z = arange(6, kFloat);
  Tensor z_head = z.slice(0, 0, 3);
  add_out(z_head, z.slice(0, 0, 6, 2), 1);
  EXPECT_TENSOR_EQ(z, tensor({1.0f, 3.0f, 5.0f, 3.0f, 4.0f, 5.0f}));

  // An output whose elements share memory cannot be written elementwise.
  Tensor row = zeros({3});
  Tensor expanded = row.expand({2, 3});
  EXPECT_EMBER_ERROR(expanded.add_(ones({2, 3})), "add", "more than one element");
  EXPECT_EMBER_ERROR(add_out(expanded, ones({2, 3}), ones({2, 3})), "add", "more than one element");

  // Expanded (stride-0) and sliced inputs.
  Tensor v = g["mul:vec:float64:b"];  // [3]
  Tensor m = g["mul:vec:float64:a"];  // [2,3]
  EXPECT_TENSOR_CLOSE(mul(m, v.expand({2, 3})), g["mul:vec:float64:out"]);
  Tensor wide = empty({2, 6}, TensorOptions(kDouble));
  wide.slice(1, 0, 6, 2).copy_(m);
  EXPECT_TENSOR_CLOSE(mul(wide.slice(1, 0, 6, 2), v), g["mul:vec:float64:out"]);
}

TEST(BinaryLayout, EmptyAndZeroDim) {
  Tensor e = empty({0, 3});
  EXPECT_EQ(add(e, ones({3})).sizes().vec(), std::vector<int64_t>({0, 3}));
  EXPECT_EQ(add(e, ones({1, 1})).sizes().vec(), std::vector<int64_t>({0, 3}));
  Tensor z = add(scalar_tensor(3, TensorOptions(kLong)), scalar_tensor(4.5));
  EXPECT_EQ(z.dim(), 0);
  EXPECT_EQ(z.dtype(), kFloat);
  EXPECT_DOUBLE_EQ(z.item<double>(), 7.5);
}

// Where C++ leaves integer results undefined, Ember follows current PyTorch
// (see Note [Shift amounts] in kernels/cpu/binary_kernels.cpp): shifting by
// >= the bit width or a negative amount gives 0 (left) or the sign fill
// (right). torch 1.13, which the golden file comes from, still has the UB.
TEST(BinaryIntegerEdges, ShiftsOutOfRangeAndMinOverMinusOne) {
  Tensor a = tensor({int64_t(3), int64_t(-7)});
  Tensor big = tensor({int64_t(70), int64_t(-1)});
  EXPECT_TENSOR_EQ(bitwise_left_shift(a, big), tensor({int64_t(0), int64_t(0)}));
  EXPECT_TENSOR_EQ(bitwise_right_shift(a, big), tensor({int64_t(0), int64_t(-1)}));
  EXPECT_TENSOR_EQ(bitwise_right_shift(tensor({int32_t(-7)}), 40), tensor({int32_t(-1)}));
  // INT64_MIN / -1 overflows; it wraps to INT64_MIN (PyTorch's CPU kernel traps).
  const int64_t kMin = std::numeric_limits<int64_t>::min();
  Tensor m = tensor({kMin});
  EXPECT_TENSOR_EQ(div(m, -1, "floor"), m);
  EXPECT_TENSOR_EQ(div(m, -1, "trunc"), m);
  EXPECT_TENSOR_EQ(remainder(m, -1), tensor({int64_t(0)}));
  EXPECT_TENSOR_EQ(fmod(m, -1), tensor({int64_t(0)}));
}

// ---- errors ------------------------------------------------------------------------
TEST(BinaryErrors, Messages) {
  Tensor f = ones({2, 3}), i = ones({3}, TensorOptions(kLong)), bo = ones({3}, TensorOptions(kBool));
  EXPECT_EMBER_ERROR(add(ones({2, 3}), ones({4, 3})), "add", "[2, 3]", "[4, 3]");
  EXPECT_EMBER_ERROR(mul(ones({2}), ones({3})), "mul", "[2]", "[3]");
  EXPECT_EMBER_ERROR(bitwise_and(f, f), "bitwise_and", "float32");
  EXPECT_EMBER_ERROR(bitwise_or(i, 1.5), "bitwise_or", "float32");
  EXPECT_EMBER_ERROR(lt(ones({2}, TensorOptions(kComplexFloat)), 1), "lt", "complex64");
  EXPECT_EMBER_ERROR(div(i, zeros({3}, TensorOptions(kLong)), "floor"), "ZeroDivisionError");
  EXPECT_EMBER_ERROR(remainder(i, 0), "remainder", "ZeroDivisionError");
  EXPECT_EMBER_ERROR(div(i, 2, "round"), "div", "rounding_mode", "round");
  EXPECT_EMBER_ERROR(i.clone().add_(1.5), "add", "Float can't be cast to the desired output type Long");
  EXPECT_EMBER_ERROR(i.clone().div_(2), "div", "can't be cast");
  EXPECT_EMBER_ERROR(ones({3}).add_(ones({2, 3})), "add", "[3]", "[2, 3]");
  EXPECT_EMBER_ERROR(sub(bo, bo), "sub", "two bool tensors");
  EXPECT_EMBER_ERROR(sub(bo, i), "sub", "with a bool tensor");
  EXPECT_EMBER_ERROR(-bo, "neg", "bool");
  EXPECT_EMBER_ERROR(~f, "bitwise_not", "float32");
  EXPECT_EMBER_ERROR(add(i, i, 1.5), "add", "alpha must not be a floating point number");
  EXPECT_EMBER_ERROR(add(f, f, true), "add", "Boolean alpha");
  EXPECT_EMBER_ERROR(add(f, f, Scalar(complex128(0, 1))), "add", "alpha must not be a complex number");
  EXPECT_EMBER_ERROR(pow(i, -1), "pow", "Integers to negative integer powers");
  EXPECT_EMBER_ERROR(i.clone().pow_(-2), "pow", "Integers to negative integer powers");
  EXPECT_EMBER_ERROR(hypot(i, i), "hypot", "int64");
  EXPECT_EMBER_ERROR(clamp(f, std::optional<Scalar>(), std::optional<Scalar>()), "clamp",
                     "At least one of 'min' or 'max'");
  EXPECT_EMBER_ERROR(clamp(ones({2}, TensorOptions(kComplexFloat)), 0, 1), "clamp", "complex");
  EXPECT_EMBER_ERROR(ones({2}, TensorOptions(kInt)).clamp_(0.5), "clamp", "can't be cast");
  EXPECT_EMBER_ERROR(lerp(f, ones({2, 3}, TensorOptions(kDouble)), 0.5), "lerp", "`end`", "float64");
  EXPECT_EMBER_ERROR(lerp(f, f, ones({2, 3}, TensorOptions(kDouble))), "lerp", "`weight`");
  EXPECT_EMBER_ERROR(lerp(i, i, 0.5), "lerp", "int64");
  EXPECT_EMBER_ERROR(addcdiv(f, i, i), "addcdiv", "Integer division");
  EXPECT_EMBER_ERROR(addcmul(f, f, f, Scalar(complex128(0, 1))), "addcmul", "cannot be converted");
  EXPECT_EMBER_ERROR(isclose(i, ones({3})), "isclose", "int64", "float32");
  EXPECT_EMBER_ERROR(isclose(f, f, -1), "isclose", "rtol");
  EXPECT_EMBER_ERROR(isclose(f, f, 0, -1), "isclose", "atol");
  EXPECT_EMBER_ERROR(add(Tensor(), f), "add", "defined");
  Tensor undefined;
  EXPECT_EMBER_ERROR(add_out(undefined, f, f), "add_out", "defined");
}

}  // namespace
}  // namespace torch

namespace torch {
namespace {

// The loop engine with more dims than the iterator keeps inline (six after
// coalescing): eight dims that cannot merge (a permuted view) plus a
// broadcast operand, checked element by element through the operands' own
// strides.
TEST(BinaryLoops, EightDimsThatDoNotCoalesce) {
  Tensor x = arange(256, TensorOptions(kFloat)).reshape({2, 2, 2, 2, 2, 2, 2, 2}).permute({7, 5, 3, 1, 6, 4, 2, 0});
  Tensor y = arange(2, TensorOptions(kFloat)).reshape({2, 1, 1, 1, 1, 1, 1, 1}) * 1000;
  const std::vector<std::pair<Tensor, std::function<float(float, float)>>> cases = {
      {x + y, [](float a, float b) { return a + b; }},
      {x * y, [](float a, float b) { return a * b; }},
      {y - x, [](float a, float b) { return b - a; }}};
  const float* xd = x.data_ptr<float>();
  const float* yd = y.data_ptr<float>();
  for (const auto& [z, f] : cases) {
    ASSERT_TRUE(z.sizes().equals(x.sizes()));
    ASSERT_TRUE(z.is_contiguous());
    const float* zd = z.data_ptr<float>();
    for (int64_t lin = 0; lin < 256; ++lin) {
      int64_t xo = 0, yo = 0;
      for (int64_t d = 7, rem = lin; d >= 0; --d, rem /= 2) {
        const int64_t i = rem % 2;
        xo += i * x.stride(d);
        yo += i * (y.size(d) == 1 ? 0 : y.stride(d));
      }
      ASSERT_EQ(zd[lin], f(xd[xo], yd[yo])) << "element " << lin;
    }
  }
}

}  // namespace
}  // namespace torch

// Every binary row has a gradient decision (the gradient column of tables/binary.def);
// the rounding divisions had none and silently gave no grad_fn. torch 1.13:
// torch.div(x, y, rounding_mode='floor' | 'trunc') records DivBackward2 and
// gives x.grad = zeros; torch.floor_divide records a node whose backward raises.
namespace torch {
namespace {

TEST(BinaryGrad, RoundingDivisionsGiveZeroGradientsFloorDivideNone) {
  for (const char* mode : {"floor", "trunc"}) {
    SCOPED_TRACE(mode);
    auto x = ember::tensor({1.5, -2.5, 3.25}, ember::requires_grad());
    const auto y = ember::tensor({2.0, 2.0, -1.5});
    const auto r = ember::div(x, y, mode);
    ASSERT_TRUE(r.requires_grad());
    EXPECT_EQ(r.grad_fn()->name(), "DivBackward2");
    r.sum().backward();
    EXPECT_TENSOR_EQ(x.grad(), ember::zeros({3}));
    EXPECT_EQ(ember::div(x, 2.0, mode).grad_fn()->name(), "DivBackward3");
  }
  auto x = ember::tensor({1.5, -2.5}, ember::requires_grad());
  const auto q = ember::floor_divide(x, ember::tensor({2.0, 2.0}));
  EXPECT_TENSOR_EQ(q.detach(), ember::tensor({0.f, -2.f}));
  ASSERT_TRUE(q.requires_grad());
  EXPECT_EMBER_ERROR(q.sum().backward(), "the derivative for 'floor_divide' is not implemented");
  EXPECT_EMBER_ERROR(ember::floor_divide(x, 2.0).sum().backward(), "floor_divide");
}

}  // namespace
}  // namespace torch
