// OpInfo entries for the unary family (formulas: the gradient column of ember/tables/unary.def).
#include <cmath>

#include "opinfo.h"

namespace torch::testing {
namespace {

using Fn = Tensor (*)(const Tensor&);

// Real samples in [lo, hi) (a matrix, a transposed view, a 0-dim tensor),
// plus complex samples when `cplx` is set.
std::vector<variable_list> unary_samples(double lo, double hi, bool cplx) {
  std::vector<variable_list> s = {{sample({3, 4}, lo, hi, 1)}, {sample({}, lo, hi, 2)}, {sample({5}, lo, hi, 3)}};
  if (cplx) {
    Tensor re = sample({4}, std::max(lo, 0.3), hi, 4).detach(), im = sample({4}, -1, 1, 5).detach();
    s.push_back({ember::complex(re, im).requires_grad_()});
  }
  return s;
}

OpInfo unary(const char* name, Fn f, double lo = -2, double hi = 2, bool cplx = false, bool gradgrad = true) {
  OpInfo op;
  op.name = name;
  op.fn = [f](const variable_list& x) { return variable_list{f(x[0])}; };
  op.samples = [=] { return unary_samples(lo, hi, cplx); };
  op.gradgrad = gradgrad;
  return op;
}

// Non-contiguous input: the op applied to a transposed view.
OpInfo unary_transposed(const char* name, Fn f) {
  OpInfo op;
  op.name = std::string(name) + "(transposed input)";
  op.fn = [f](const variable_list& x) { return variable_list{f(x[0].t())}; };
  op.samples = [] { return std::vector<variable_list>{{sample({4, 3}, 0.5, 2, 9)}}; };
  return op;
}

#define U(name, ...) \
  unary(             \
      #name, [](const Tensor& x) { return ember::name(x); }, ##__VA_ARGS__)

RegisterOps reg({
    U(abs, 0.2, 2),
    U(neg, -2, 2, true),
    U(sign, 0.2, 2),
    U(sgn, 0.2, 2, true),
    U(exp, -2, 2, true),
    U(exp2),
    U(expm1),
    U(log, 0.5, 2, true),
    U(log2, 0.5, 2),
    U(log10, 0.5, 2),
    U(log1p, -0.5, 2),
    U(sqrt, 0.5, 2, true),
    U(rsqrt, 0.5, 2),
    U(sin, -2, 2, true),
    U(cos, -2, 2, true),
    U(tan, -1, 1),
    U(asin, -0.8, 0.8),
    U(acos, -0.8, 0.8),
    U(atan),
    U(sinh, -2, 2, true),
    U(cosh, -2, 2, true),
    U(tanh, -2, 2, true),
    U(asinh),
    U(acosh, 1.5, 3),
    U(atanh, -0.8, 0.8),
    U(sigmoid, -2, 2, true),
    U(erf),
    U(erfc),
    U(erfinv, -0.8, 0.8),
    U(lgamma, 0.5, 3),
    U(digamma, 0.5, 3),
    U(floor, 0.1, 0.9),
    U(ceil, 0.1, 0.9),
    U(trunc, 0.1, 0.9),
    U(frac, 0.1, 0.9),
    U(reciprocal, 0.5, 2, true),
    U(square, -2, 2, true),
    U(relu, 0.1, 2),
    U(silu),
    U(mish),
    U(hardswish, -2.5, 2.5),
    U(hardsigmoid, -2.5, 2.5),
    U(selu, 0.1, 2),
    unary_transposed("exp", [](const Tensor& x) { return ember::exp(x); }),
    unary_transposed("log", [](const Tensor& x) { return ember::log(x); }),
});

}  // namespace
}  // namespace torch::testing
