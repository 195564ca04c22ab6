// OpInfo entries for the binary family (formulas: the gradient column of ember/tables/binary.def).
#include "opinfo.h"

namespace torch::testing {
namespace {

using Fn = Tensor (*)(const Tensor&, const Tensor&);

// Same shapes, broadcasting both ways, a 0-dim operand, and a transposed one.
std::vector<variable_list> binary_samples(double lo, double hi, double lo2, double hi2) {
  return {
      {sample({3, 4}, lo, hi, 1), sample({3, 4}, lo2, hi2, 2)},
      {sample({3, 4}, lo, hi, 3), sample({4}, lo2, hi2, 4)},
      {sample({2, 1, 3}, lo, hi, 5), sample({4, 1}, lo2, hi2, 6)},
      {sample({}, lo, hi, 7), sample({3}, lo2, hi2, 8)},
  };
}

OpInfo binary(const char* name, Fn f, double lo = -2, double hi = 2, double lo2 = -2, double hi2 = 2,
              const char* grad_fn = "") {
  OpInfo op;
  op.name = name;
  op.fn = [f](const variable_list& x) { return variable_list{f(x[0], x[1])}; };
  op.samples = [=] { return binary_samples(lo, hi, lo2, hi2); };
  op.grad_fn_name = grad_fn;
  return op;
}

OpInfo with_scalar(const char* name, Tensor (*f)(const Tensor&), const char* grad_fn = "", double lo = -2,
                   double hi = 2) {
  OpInfo op;
  op.name = name;
  op.fn = [f](const variable_list& x) { return variable_list{f(x[0])}; };
  op.samples = [=] { return std::vector<variable_list>{{sample({3, 4}, lo, hi, 11)}, {sample({}, lo, hi, 12)}}; };
  op.grad_fn_name = grad_fn;
  return op;
}

// Complex operands (conjugate Wirtinger convention).
OpInfo complex_binary(const char* name, Fn f) {
  OpInfo op;
  op.name = std::string(name) + "(complex)";
  op.fn = [f](const variable_list& x) { return variable_list{f(x[0], x[1])}; };
  op.samples = [] {
    auto c = [](uint64_t seed) {
      return ember::complex(sample({3}, 0.5, 2, seed).detach(), sample({3}, -1, 1, seed + 1).detach()).requires_grad_();
    };
    return std::vector<variable_list>{{c(21), c(23)}};
  };
  return op;
}

// A complex operand with a real one: the real one is promoted for the kernel, and the double
// backward must still reach it through the saved operand (the gradient of the complex side
// depends on the real one).
OpInfo mixed_complex_real(const char* name, Fn f) {
  OpInfo op;
  op.name = std::string(name) + "(complex, real)";
  op.fn = [f](const variable_list& x) { return variable_list{f(x[0], x[1])}; };
  op.samples = [] {
    const Tensor c = ember::complex(sample({3}, 0.5, 2, 31).detach(), sample({3}, -1, 1, 32).detach()).requires_grad_();
    return std::vector<variable_list>{{c, sample({3}, 0.5, 2, 33)}, {sample({3}, 0.5, 2, 34), c}};
  };
  return op;
}

#define B(name, ...) \
  binary(            \
      #name, [](const Tensor& a, const Tensor& b) { return ember::name(a, b); }, ##__VA_ARGS__)

RegisterOps reg({
    B(add, -2, 2, -2, 2, "AddBackward0"),
    binary("add(alpha)", [](const Tensor& a, const Tensor& b) { return ember::add(a, b, 2.5); }),
    B(sub, -2, 2, -2, 2, "SubBackward0"),
    binary("sub(alpha)", [](const Tensor& a, const Tensor& b) { return ember::sub(a, b, -1.5); }),
    // The derivatives of tanh and sigmoid from their result (kept inside (-1, 1) and (0, 1)).
    B(tanh_backward, -2, 2, -0.9, 0.9, "TanhBackwardBackward0"),
    B(sigmoid_backward, -2, 2, 0.05, 0.95, "SigmoidBackwardBackward0"),
    // Piecewise constant in its second operand (zero gradient), linear in the first.
    binary(
        "threshold_backward", [](const Tensor& a, const Tensor& b) { return ember::threshold_backward(a, b, 0.5); }, -2,
        2, -2, 2, "ThresholdBackwardBackward0"),
    B(mul, -2, 2, -2, 2, "MulBackward0"),
    B(div, -2, 2, 0.5, 2, "DivBackward0"),
    // Piecewise constant: zero gradients (the samples' quotients sit away from the steps).
    binary(
        "div_floor", [](const Tensor& a, const Tensor& b) { return ember::div(a, b, "floor"); }, -2, 2, 0.5, 2,
        "DivBackward2"),
    binary(
        "div_trunc", [](const Tensor& a, const Tensor& b) { return ember::div(a, b, "trunc"); }, -2, 2, 0.5, 2,
        "DivBackward2"),
    B(pow, 0.5, 2, -1, 2, "PowBackward1"),
    B(maximum),
    B(minimum),
    // The two-tensor max and min are maximum and minimum, gradients included.
    binary("max(a, b)", [](const Tensor& a, const Tensor& b) { return ember::max(a, b); }),
    binary("min(a, b)", [](const Tensor& a, const Tensor& b) { return ember::min(a, b); }),
    B(fmax),
    B(fmin),
    B(atan2, 0.5, 2, 0.5, 2),
    B(hypot, 0.5, 2, 0.5, 2),
    B(copysign, -2, 2, -2, 2, "CopysignBackward0"),
    B(fmod, 0.1, 0.9, 2, 3),
    B(remainder, 0.1, 0.9, 2, 3),
    with_scalar(
        "add(Scalar)", [](const Tensor& x) { return x + 1.5; }, "AddBackward1"),
    with_scalar(
        "sub(Scalar)", [](const Tensor& x) { return x - 1.5; }, "SubBackward1"),
    with_scalar("rsub(Scalar)", [](const Tensor& x) { return 1.5 - x; }),
    with_scalar(
        "mul(Scalar)", [](const Tensor& x) { return x * 2.5; }, "MulBackward1"),
    with_scalar(
        "div(Scalar)", [](const Tensor& x) { return x / 2.5; }, "DivBackward1"),
    with_scalar(
        "div(Scalar, floor)", [](const Tensor& x) { return ember::div(x, 0.7, "floor"); }, "DivBackward3"),
    with_scalar(
        "Scalar / Tensor", [](const Tensor& x) { return 2.5 / x; }, "", 0.5, 2),
    with_scalar(
        "pow(Scalar exponent)", [](const Tensor& x) { return x.pow(3); }, "PowBackward0", 0.5, 2),
    with_scalar("pow(Scalar base)", [](const Tensor& x) { return ember::pow(2.0, x); }),
    // The Tensor-Scalar overloads of the other table ops (their second node name).
    with_scalar(
        "atan2(Scalar)", [](const Tensor& x) { return ember::atan2(x, Scalar(1.5)); }, "Atan2Backward1", 0.5, 2),
    with_scalar(
        "hypot(Scalar)", [](const Tensor& x) { return ember::hypot(x, Scalar(1.5)); }, "HypotBackward1", 0.5, 2),
    with_scalar(
        "copysign(Scalar)", [](const Tensor& x) { return ember::copysign(x, Scalar(-1.5)); }, "CopysignBackward1"),
    complex_binary("mul", [](const Tensor& a, const Tensor& b) { return a * b; }),
    complex_binary("div", [](const Tensor& a, const Tensor& b) { return a / b; }),
    complex_binary("add", [](const Tensor& a, const Tensor& b) { return a + b; }),
    mixed_complex_real("mul", [](const Tensor& a, const Tensor& b) { return a * b; }),
    mixed_complex_real("div", [](const Tensor& a, const Tensor& b) { return a / b; }),
    mixed_complex_real("sub", [](const Tensor& a, const Tensor& b) { return a - b; }),
});

}  // namespace
}  // namespace torch::testing
