// func::vjp, jvp, jacrev, jacfwd and hessian: against functorch 1.13
// (tools/golden/gen_func_transforms.py), against autograd::functional and
// against each other, alone and composed with vmap, grad and themselves.
#include <gtest/gtest.h>

#include <string>

#include "common/golden.h"
#include "common/test_util.h"
#include "ember/ember.h"

namespace torch {
namespace {

using V = std::vector<Tensor>;
using Dims = std::vector<std::optional<int64_t>>;

void expect_error(const std::function<void()>& fn, const std::vector<std::string>& parts) {
  try {
    fn();
    ADD_FAILURE() << "expected an ember::Error";
  } catch (const Error& e) {
    for (const std::string& p : parts) EXPECT_NE(std::string(e.what()).find(p), std::string::npos) << e.what();
  }
}

// The generator's functions, one for one.
V elementwise(const V& a) { return {a[0].sin() * a[0].exp()}; }
V matmul_tanh(const V& a) { return {matmul(a[0], a[1]).tanh()}; }
V reductions(const V& a) { return {stack({a[0].pow(2).sum(), logsumexp(a[0], {0}), a[0].prod()})}; }
V two_outputs(const V& a) { return {(a[0] * a[1]).sum(), (a[0].cos() + a[1].pow(2)).cumsum(0)}; }
V scalar_loss(const V& a) { return {(matmul(a[1], a[0]).sigmoid() - 0.5).pow(2).mean() + a[0].norm()}; }
V with_aux(const V& a) {
  const Tensor y = a[0].sin();
  return {y * 2, y.sum()};
}

class FuncTransforms : public ::testing::Test {
 protected:
  void SetUp() override { manual_seed(5); }
  const testing::Golden g{"func_transforms.golden"};
};

TEST_F(FuncTransforms, VjpMatchesFunctorch) {
  const Tensor m = g["m"], w = g["w"];
  func::VjpResult r = func::vjp(matmul_tanh, {m, w});
  EXPECT_TENSOR_CLOSE(r.outputs[0], g["vjp_out"]);
  EXPECT_TRUE(r.aux.empty());
  // Callable many times.
  for (const char* c : {"ct1", "ct2", "ct1"}) {
    const V gr = r.vjp_fn({g[c]});
    ASSERT_EQ(gr.size(), 2u);
    EXPECT_TENSOR_CLOSE(gr[0], g[std::string("vjp_m_") + c]);
    EXPECT_TENSOR_CLOSE(gr[1], g[std::string("vjp_w_") + c]);
    EXPECT_FALSE(gr[0].requires_grad());
  }
  // vmap over a batch of cotangents: one backward pass with batched gradients.
  const V gb = vmap(r.vjp_fn)({g["cts"]});
  EXPECT_TENSOR_CLOSE(gb[0], g["vmap_vjp_m"]);
  EXPECT_TENSOR_CLOSE(gb[1], g["vmap_vjp_w"]);
  // Two outputs, one cotangent each.
  func::VjpResult r2 = func::vjp(two_outputs, {g["x"], g["y"]});
  const V g2 = r2.vjp_fn({g["two_c0"], g["two_c1"]});
  EXPECT_TENSOR_CLOSE(g2[0], g["two_vjp_x"]);
  EXPECT_TENSOR_CLOSE(g2[1], g["two_vjp_y"]);
}

TEST_F(FuncTransforms, VjpAgainstAutogradFunctionalAndAux) {
  const Tensor m = g["m"], w = g["w"], ct = g["ct1"];
  const auto want = autograd::functional::vjp(matmul_tanh, {m, w}, {ct});
  const V got = func::vjp(matmul_tanh, {m, w}).vjp_fn({ct});
  EXPECT_TENSOR_CLOSE(got[0], want.values[0]);
  EXPECT_TENSOR_CLOSE(got[1], want.values[1]);
  func::VjpResult r = func::vjp(with_aux, {g["x"]}, /*has_aux=*/true);
  ASSERT_EQ(r.outputs.size(), 1u);
  ASSERT_EQ(r.aux.size(), 1u);
  EXPECT_TENSOR_CLOSE(r.aux[0], g["x"].sin().sum());
  EXPECT_TENSOR_CLOSE(r.vjp_fn({ones({4}, kDouble)})[0], g["x"].cos() * 2);
}

TEST_F(FuncTransforms, VjpInsideVmapPerSampleAndVmapOfVjpFn) {
  // vjp per sample of xs [5, 4] with the shared w; then, inside the same
  // vmap, vmap(vjp_fn) over three cotangents per sample.
  const Tensor xs = g["xs"], w = g["w"], cts = randn({5, 3, 2}, kDouble);
  const V got = vmap(
      [&](const V& a) {
        func::VjpResult r = func::vjp(matmul_tanh, {a[0], w});
        const V one = r.vjp_fn({a[1][0]});
        const V many = vmap(r.vjp_fn)({a[1]});
        return V{one[0], one[1], many[0], many[1]};
      },
      {0, 0})({xs, cts});
  for (int64_t i = 0; i < 5; ++i) {
    for (int64_t k = 0; k < 3; ++k) {
      const auto want = autograd::functional::vjp(matmul_tanh, {xs[i], w}, {cts[i][k]});
      if (k == 0) {
        EXPECT_TENSOR_CLOSE(got[0][i], want.values[0]);
        EXPECT_TENSOR_CLOSE(got[1][i], want.values[1]);
      }
      EXPECT_TENSOR_CLOSE(got[2][i][k], want.values[0]);
      EXPECT_TENSOR_CLOSE(got[3][i][k], want.values[1]);
    }
  }
}

TEST_F(FuncTransforms, VmapOfVmapOfVjpFn) {
  // Two vmap levels entered after vjp: the cotangents' two batch dims are
  // flattened into one batched backward pass (Note [vjp_fn under vmap]).
  const Tensor m = g["m"], w = g["w"], cts = randn({2, 3, 3, 2}, kDouble);
  func::VjpResult r = func::vjp(matmul_tanh, {m, w});
  const V got = vmap(vmap(r.vjp_fn), {1})({cts});
  ASSERT_EQ(got[0].sizes(), IntArrayRef({3, 2, 3, 4}));
  for (int64_t i = 0; i < 3; ++i)
    for (int64_t j = 0; j < 2; ++j) {
      const V want = r.vjp_fn({cts[j][i]});
      EXPECT_TENSOR_CLOSE(got[0][i][j], want[0]);
      EXPECT_TENSOR_CLOSE(got[1][i][j], want[1]);
    }
}

TEST_F(FuncTransforms, GradOfVjpAndVjpOfGrad) {
  // d/dx of <vjp_fn(ct), ct2> is a second derivative: against
  // autograd::functional::hessian of the same scalar.
  const Tensor x = g["x"], c = randn({4}, kDouble);
  const func::Function inner = [c](const V& a) {
    func::VjpResult r = func::vjp(elementwise, {a[0]});
    return V{(r.vjp_fn({c})[0] * c).sum()};
  };
  const Tensor got = func::grad(inner)({x})[0];
  const Tensor want =
      autograd::functional::hessian([](const Tensor& t) { return (t.sin() * t.exp()).sum(); }, x).diagonal() * c * c;
  EXPECT_TENSOR_CLOSE(got, want);
  // vjp of grad: the Hessian-vector product.
  const func::Function gr = func::grad(scalar_loss);
  const Tensor w0 = g["w"].select(1, 0), m = g["m"], v = randn({4}, kDouble);
  const Tensor hvp = func::vjp([&](const V& a) { return gr({a[0], m}); }, {w0}).vjp_fn({v})[0];
  const auto want_hvp = autograd::functional::hvp([&](const V& a) { return scalar_loss({a[0], m})[0]; }, {w0}, {v});
  EXPECT_TENSOR_CLOSE(hvp, want_hvp.values[0]);
}

TEST_F(FuncTransforms, JvpMatchesFunctorch) {
  const Tensor m = g["m"], w = g["w"], x = g["x"], y = g["y"], t1 = g["t1"];
  func::JvpResult r = func::jvp(matmul_tanh, {m, w}, {g["tm"], g["tw"]});
  EXPECT_TENSOR_CLOSE(r.outputs[0], g["jvp_out"]);
  EXPECT_TENSOR_CLOSE(r.tangents[0], g["jvp_tan"]);
  EXPECT_TENSOR_CLOSE(func::jvp(reductions, {x}, {t1}).tangents[0], g["jvp_reductions"]);
  func::JvpResult two = func::jvp(two_outputs, {x, y}, {t1, t1 * 2});
  EXPECT_TENSOR_CLOSE(two.tangents[0], g["jvp_two_0"]);
  EXPECT_TENSOR_CLOSE(two.tangents[1], g["jvp_two_1"]);
  func::JvpResult a = func::jvp(with_aux, {x}, {t1}, /*has_aux=*/true);
  EXPECT_TENSOR_CLOSE(a.tangents[0], g["jvp_aux_tan"]);
  EXPECT_TENSOR_CLOSE(a.aux[0], g["jvp_aux_aux"]);
  // Against the double-vjp jvp of autograd::functional.
  const auto want = autograd::functional::jvp(matmul_tanh, {m, w}, {g["tm"], g["tw"]});
  EXPECT_TENSOR_CLOSE(r.tangents[0], want.values[0]);
}

TEST_F(FuncTransforms, JvpUnderVmapAndKeepsCallersGraph) {
  const Tensor xs = g["xs"], w = g["w"], ts = randn({5, 4}, kDouble);
  const V got = vmap(
      [&](const V& a) {
        func::JvpResult r = func::jvp(matmul_tanh, {a[0], w}, {a[1], zeros_like(w)});
        return V{r.outputs[0], r.tangents[0]};
      },
      {0, 0})({xs, ts});
  for (int64_t i = 0; i < 5; ++i) {
    const auto want = autograd::functional::jvp(matmul_tanh, {xs[i], w}, {ts[i], zeros_like(w)});
    EXPECT_TENSOR_CLOSE(got[0][i], want.outputs[0]);
    EXPECT_TENSOR_CLOSE(got[1][i], want.values[0]);
  }
  // Reverse mode through jvp's output tangent: d/dx <J(x) t, 1> for elementwise f.
  const Tensor x = g["x"].clone().requires_grad_(true), t = ones({4}, kDouble);
  func::jvp(elementwise, {x}, {t}).tangents[0].sum().backward();
  const Tensor xd = g["x"];
  // f' = e^x (sin + cos); f'' = 2 e^x cos.
  EXPECT_TENSOR_CLOSE(x.grad(), xd.exp() * xd.cos() * 2);
}

void check_jacobians(const testing::Golden& g, const std::string& mode,
                     const std::function<func::Function(func::Function, std::vector<int64_t>, bool)>& jac) {
  SCOPED_TRACE(mode);
  const Tensor x = g["x"], m = g["m"], w = g["w"], y = g["y"];
  const std::string p = "jac" + mode + "_";
  EXPECT_TENSOR_CLOSE(jac(elementwise, {0}, false)({x})[0], g[p + "elementwise"]);
  const V mw = jac(matmul_tanh, {0, 1}, false)({m, w});
  ASSERT_EQ(mw.size(), 2u);
  EXPECT_TENSOR_CLOSE(mw[0], g[p + "matmul_m"]);
  EXPECT_TENSOR_CLOSE(mw[1], g[p + "matmul_w"]);
  EXPECT_TENSOR_CLOSE(jac(matmul_tanh, {1}, false)({m, w})[0], g[p + "matmul_arg1"]);
  EXPECT_TENSOR_CLOSE(jac(matmul_tanh, {-1}, false)({m, w})[0], g[p + "matmul_arg1"]);
  EXPECT_TENSOR_CLOSE(jac(reductions, {0}, false)({x})[0], g[p + "reductions"]);
  const V two = jac(two_outputs, {0, 1}, false)({x, y});
  ASSERT_EQ(two.size(), 4u);  // output-major
  EXPECT_TENSOR_CLOSE(two[0], g[p + "two_0x"]);
  EXPECT_TENSOR_CLOSE(two[1], g[p + "two_0y"]);
  EXPECT_TENSOR_CLOSE(two[2], g[p + "two_1x"]);
  EXPECT_TENSOR_CLOSE(two[3], g[p + "two_1y"]);
  const V aux = jac(with_aux, {0}, true)({x});
  ASSERT_EQ(aux.size(), 2u);
  EXPECT_TENSOR_CLOSE(aux[0], g[p + "aux_jac"]);
  EXPECT_TENSOR_CLOSE(aux[1], g[p + "aux_aux"]);
  // Against autograd::functional::jacobian.
  const auto want = autograd::functional::jacobian(matmul_tanh, {m, w});
  EXPECT_TENSOR_CLOSE(mw[0], want[0][0]);
  EXPECT_TENSOR_CLOSE(mw[1], want[0][1]);
}

TEST_F(FuncTransforms, JacrevMatchesFunctorch) {
  check_jacobians(g, "rev", [](func::Function f, std::vector<int64_t> a, bool h) { return func::jacrev(f, a, h); });
}

TEST_F(FuncTransforms, JacfwdMatchesFunctorch) {
  check_jacobians(g, "fwd", [](func::Function f, std::vector<int64_t> a, bool h) { return func::jacfwd(f, a, h); });
}

TEST_F(FuncTransforms, OneTensorFormsAndZeroDimAndConstants) {
  const Tensor x = g["x"];
  const auto f = [](const Tensor& t) { return t.sin() * t.exp(); };
  EXPECT_TENSOR_CLOSE(func::jacrev(f)(x), g["jacrev_elementwise"]);
  EXPECT_TENSOR_CLOSE(func::jacfwd(f)(x), g["jacrev_elementwise"]);
  // A 0-dim input and output.
  const Tensor s = tensor(0.3, kDouble);
  EXPECT_TENSOR_CLOSE(func::jacrev(f)(s), s.exp() * (s.sin() + s.cos()));
  EXPECT_EQ(func::jacfwd(f)(s).dim(), 0);
  // An output that does not depend on the input: zeros of out + in shape.
  const auto c = [](const Tensor&) { return ones({2}, kDouble); };
  EXPECT_TENSOR_EQ(func::jacrev(c)(x), zeros({2, 4}, kDouble));
  EXPECT_TENSOR_EQ(func::jacfwd(c)(x), zeros({2, 4}, kDouble));
  // Empty input.
  const Tensor e = zeros({0}, kDouble);
  EXPECT_EQ(func::jacrev(f)(e).sizes(), IntArrayRef({0, 0}));
  EXPECT_EQ(func::jacfwd(f)(e).sizes(), IntArrayRef({0, 0}));
}

TEST_F(FuncTransforms, CompositionsMatchFunctorch) {
  const Tensor xs = g["xs"], w = g["w"], x = g["x"], m = g["m"];
  EXPECT_TENSOR_CLOSE(vmap(func::jacrev(matmul_tanh), {0, std::nullopt})({xs, w})[0], g["vmap_jacrev"]);
  EXPECT_TENSOR_CLOSE(vmap(func::jacfwd(matmul_tanh), {0, std::nullopt})({xs, w})[0], g["vmap_jacfwd"]);
  EXPECT_TENSOR_CLOSE(func::jacrev(func::jacrev(elementwise))({x})[0], g["jacrev_jacrev"]);
  const V h = func::hessian(scalar_loss, {0, 1})({w.select(1, 0), m});
  ASSERT_EQ(h.size(), 4u);
  EXPECT_TENSOR_CLOSE(h[0], g["hess_ww"]);
  EXPECT_TENSOR_CLOSE(h[1], g["hess_wx"]);
  EXPECT_TENSOR_CLOSE(h[2], g["hess_xw"]);
  EXPECT_TENSOR_CLOSE(h[3], g["hess_xx"]);
  EXPECT_TENSOR_CLOSE(vmap(func::hessian(scalar_loss), {std::nullopt, 0})({w.select(1, 0), xs.view({5, 1, 4})})[0],
                      g["vmap_hessian"]);
}

TEST_F(FuncTransforms, HessianAgainstAutogradFunctional) {
  const Tensor w0 = g["w"].select(1, 0), m = g["m"];
  const auto want = autograd::functional::hessian([](const V& a) { return scalar_loss(a)[0]; }, {w0, m});
  const V got = func::hessian(scalar_loss, {0, 1})({w0, m});
  EXPECT_TENSOR_CLOSE(got[0], want[0][0]);
  EXPECT_TENSOR_CLOSE(got[1], want[0][1]);
  EXPECT_TENSOR_CLOSE(got[2], want[1][0]);
  EXPECT_TENSOR_CLOSE(got[3], want[1][1]);
  // jacrev(jacrev) and jacfwd(jacrev) agree, and so does jacrev(jacfwd).
  const func::Function f = [](const V& a) { return V{(a[0].tanh() * a[0].sum()).sum()}; };
  const Tensor x = randn({3}, kDouble);
  const Tensor h = func::hessian(f)({x})[0];
  EXPECT_TENSOR_CLOSE(func::jacrev(func::jacrev(f))({x})[0], h);
  EXPECT_TENSOR_CLOSE(func::jacrev(func::jacfwd(f))({x})[0], h);
  EXPECT_TENSOR_CLOSE(h, h.t());
}

TEST_F(FuncTransforms, JacobiansAreDifferentiableByAutograd) {
  // sum(J) of an elementwise f is sum f'(x); its gradient is f''(x) = 2 e^x cos x.
  const Tensor xd = g["x"];
  for (const auto& jac : {func::jacrev(func::Function(elementwise)), func::jacfwd(func::Function(elementwise))}) {
    const Tensor x = xd.clone().requires_grad_(true);
    const Tensor j = jac({x})[0];
    ASSERT_TRUE(j.requires_grad());
    j.sum().backward();
    EXPECT_TENSOR_CLOSE(x.grad(), xd.exp() * xd.cos() * 2);
  }
  // Without a graph in the caller, results are detached.
  EXPECT_FALSE(func::jacrev(func::Function(elementwise))({xd})[0].requires_grad());
}

TEST_F(FuncTransforms, Errors) {
  const Tensor x = randn({3}, kDouble);
  const func::Function sin = [](const V& a) { return V{a[0].sin()}; };
  // Wrong tangent shape, count and dtype.
  expect_error([&] { func::jvp(sin, {x}, {randn({2}, kDouble)}); },
               {"jvp(f, primals, tangents)", "same shape", "[3]", "[2]", "float64"});
  expect_error([&] { func::jvp(sin, {x}, {x, x}); }, {"jvp", "1 primals and 2 tangents"});
  expect_error([&] { func::jvp(sin, {tensor({1, 2}, kLong)}, {x}); }, {"jvp", "primal 0", "int64"});
  // Wrong cotangent shape / dtype / count.
  func::VjpResult r = func::vjp(sin, {x});
  expect_error([&] { r.vjp_fn({randn({2}, kDouble)}); }, {"vjp_fn", "shape [2]", "shape [3]", "float64"});
  expect_error([&] { r.vjp_fn({tensor({1, 2, 3}, kLong)}); }, {"vjp_fn", "int64"});
  expect_error([&] { r.vjp_fn({x, x}); }, {"vjp_fn", "Expected 1 cotangents", "got 2"});
  // Non-tensor (undefined) and integer outputs.
  const func::Function undef = [](const V&) { return V{Tensor()}; };
  expect_error([&] { func::vjp(undef, {x}); }, {"vjp(f, *primals)", "only tensors", "output 0"});
  expect_error([&] { func::jvp(undef, {x}, {x}); }, {"jvp(f, primals, tangents)", "only tensors"});
  expect_error([&] { func::jacrev(undef)({x}); }, {"vjp", "output 0"});
  const func::Function to_long = [](const V& a) { return V{a[0].to(kLong)}; };
  expect_error([&] { func::jacrev(to_long)({x}); }, {"floating-point or complex", "int64", "[3]"});
  // argnums and has_aux.
  expect_error([&] { func::jacrev(sin, {1})({x}); }, {"jacrev", "Got argnum=1"});
  expect_error([&] { func::jacfwd(sin, {0, 0})({x}); }, {"jacfwd", "unique"});
  expect_error([&] { func::jacrev(sin, {0}, true)({x}); }, {"has_aux", "auxiliary"});
  expect_error([&] { func::jacfwd(sin, {0}, true)({x}); }, {"has_aux", "auxiliary"});
  // A vjp_fn kept past the vmap its vjp ran in.
  func::VjpFunction kept;
  vmap([&](const V& a) {
    kept = func::vjp(sin, {a[0]}).vjp_fn;
    return V{a[0]};
  })({randn({2, 3}, kDouble)});
  expect_error([&] { kept({x}); }, {"vjp_fn", "level 0", "level 1"});
  // One forward-mode level: jvp inside jvp.
  expect_error([&] { func::jacfwd(func::jacfwd(sin))({x}); }, {"nested forward mode AD"});
}

}  // namespace
}  // namespace torch
