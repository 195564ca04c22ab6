// Expands the gradient column of tables/binary.def into backward functions and a
// table indexed by the op id (ember/tables/binary_ops.h).
#include "ember/autograd/derivatives/binary_grad.h"

#include <array>
#include <cstddef>
#include <string>

#include "ember/autograd/derivatives/elementwise_grad.h"
#include "ember/autograd/formula_node.h"
#include "ember/autograd/forward_ad.h"
#include "ember/autograd/grad_mode.h"
#include "ember/autograd/node.h"
#include "ember/core/dispatch.h"
#include "ember/core/error.h"
#include "ember/core/parallel.h"
#include "ember/core/shape.h"
#include "ember/core/tensor.h"
#include "ember/ops/all_ops.h"
#include "ember/vmap/vmap.h"

namespace torch::autograd {

namespace {

// grad * alpha, skipped for alpha == 1 (add's and sub's usual case): one op
// fewer per node, and the gradient passes through as it does in PyTorch.
Tensor maybe_multiply(const Tensor& grad, const Scalar& alpha) { return alpha.equal(Scalar(1)) ? grad : grad * alpha; }

// d(self^other)/d(other) = result * log(self), taken as 0 where self == 0 and the
// exponent is real and >= 0 (there result is 0 or 1 and log(0) = -inf would give
// NaN); at self == 0 with a negative exponent it is inf * -inf = -inf, as PyTorch.
// copysign's gradient for self: grad times the sign it was given (result / self),
// 0 where self is 0 (PyTorch's copysign_tensor_self_backward).
Tensor copysign_self_backward(const Tensor& grad, const Tensor& self, const Tensor& result) {
  return where(self == 0, zeros_like(grad), grad * (result / self));
}

Tensor pow_exponent_grad(const Tensor& grad, const Tensor& self, const Tensor& other, const Tensor& result) {
  const Tensor nonneg = other.is_complex() ? (imag(other) == 0) & (real(other) >= 0) : other >= 0;
  return grad * where((self == 0) & nonneg, zeros_like(result), result * self.log()).conj();
}

// Saved: 0 self, 1 other, 2 result (each only when the row's formulas name
// it); scalars[0] = alpha. The forward-mode JVP is the element-wise rule of
// unary.def applied to each operand (tangent_self and tangent_other enter
// their own formula as conj(grad), the results are conjugated and summed):
// every binary row is holomorphic in each operand or real-only.
#define EMBER_BINARY_GRAD(name, self_expr, other_expr)                                                               \
  constexpr const char* text_##name = #self_expr " " #other_expr;                                                    \
  variable_list name##_backward(const FormulaNode& n, const variable_list& g) {                                      \
    const Tensor& grad = g[0];                                                                                       \
    Tensor self_, other_, result_; /* hold rebuilt saved tensors */                                                  \
    [[maybe_unused]] const Tensor& self = formula_mentions(text_##name, "self") ? n.saved_ref(0, self_) : self_;     \
    [[maybe_unused]] const Tensor& other = formula_mentions(text_##name, "other") ? n.saved_ref(1, other_) : other_; \
    [[maybe_unused]] const Tensor& result =                                                                          \
        formula_mentions(text_##name, "result") ? n.saved_ref(2, result_) : result_;                                 \
    [[maybe_unused]] const Scalar alpha = n.scalars.empty() ? Scalar(1) : n.scalars[0];                              \
    return gradient_list(n.needs_input_grad(0) ? Tensor(self_expr) : Tensor(),                                       \
                         n.needs_input_grad(1) ? Tensor(other_expr) : Tensor());                                     \
  }                                                                                                                  \
  variable_list name##_jvp(const FormulaNode& n, const variable_list& t, const variable_list&) {                     \
    [[maybe_unused]] const Tensor self = formula_mentions(text_##name, "self") ? n.saved(0) : Tensor();              \
    [[maybe_unused]] const Tensor other = formula_mentions(text_##name, "other") ? n.saved(1) : Tensor();            \
    [[maybe_unused]] const Tensor result = formula_mentions(text_##name, "result") ? n.saved(2) : Tensor();          \
    [[maybe_unused]] const Scalar alpha = n.scalars.empty() ? Scalar(1) : n.scalars[0];                              \
    auto self_part = [&](const Tensor& grad) { return Tensor(self_expr); };                                          \
    auto other_part = [&](const Tensor& grad) { return Tensor(other_expr); };                                        \
    Tensor r = t[0].defined() ? self_part(t[0].conj()).conj() : Tensor();                                            \
    if (t.size() > 1 && t[1].defined()) {                                                                            \
      Tensor p = other_part(t[1].conj()).conj();                                                                     \
      r = r.defined() ? r + p : p;                                                                                   \
    }                                                                                                                \
    return {r};                                                                                                      \
  }
#define EMBER_BINARY_NOT_IMPLEMENTED(name)
#define EMBER_BINARY_NONDIFF(name)
#define EMBER_BINARY_RECORDED_ELSEWHERE(name, where)
// The gradient column of tables/binary.def, as one EMBER_BINARY_GRAD / _NONDIFF /
// _NOT_IMPLEMENTED / _RECORDED_ELSEWHERE row per op.
#define EMBER_BINARY_OP(name, promotion, dtypes, functor, gradient, ...) \
  EMBER_BINARY_##gradient(name __VA_OPT__(, ) __VA_ARGS__)
#define EMBER_BINARY_KERNEL(...) EMBER_BINARY_OP(__VA_ARGS__)
#include "ember/tables/binary.def"
#undef EMBER_BINARY_KERNEL
#undef EMBER_BINARY_OP
#undef EMBER_BINARY_GRAD
#undef EMBER_BINARY_NOT_IMPLEMENTED
#undef EMBER_BINARY_NONDIFF
#undef EMBER_BINARY_RECORDED_ELSEWHERE

struct Row {
  enum class Kind : uint8_t { kNoNode, kFormula, kNotImplemented } kind = Kind::kNoNode;
  FormulaNode::Formula formula = nullptr;
  FormulaNode::Jvp jvp = nullptr;
  std::string node0, node1;  // "MulBackward0" (tensor other), "MulBackward1" (Scalar other)
  bool uses_self = false, uses_other = false, uses_result = false;
  // PyTorch numbers pow's overloads differently: (Tensor, Scalar) is PowBackward0,
  // (Tensor, Tensor) PowBackward1, (Scalar, Tensor) PowBackward2. fmod and
  // remainder list the Scalar overload first: (Tensor, Scalar) is 0, (Tensor, Tensor) 1.
  enum class Overloads { kTensorFirst, kPow, kScalarFirst } overloads = Overloads::kTensorFirst;
  const char* reason = nullptr;  // kNotImplemented: the error its node raises
};

Row::Overloads overloads_of(BinaryOp op) {
  if (op == BinaryOp::pow) return Row::Overloads::kPow;
  if (op == BinaryOp::fmod || op == BinaryOp::remainder) return Row::Overloads::kScalarFirst;
  return Row::Overloads::kTensorFirst;
}

// The table, indexed by BinaryOp.
const std::array<Row, kBinaryOpCount>& rows() {
  static const std::array<Row, kBinaryOpCount> kRows = [] {
    std::array<Row, kBinaryOpCount> r;
#define EMBER_BINARY_GRAD(name, ...)                                                    \
  r[static_cast<size_t>(BinaryOp::name)] = {Row::Kind::kFormula,                        \
                                            &name##_backward,                           \
                                            &name##_jvp,                                \
                                            binary_node_name(BinaryOp::name, #name, 0), \
                                            binary_node_name(BinaryOp::name, #name, 1), \
                                            formula_mentions(text_##name, "self"),      \
                                            formula_mentions(text_##name, "other"),     \
                                            formula_mentions(text_##name, "result"),    \
                                            overloads_of(BinaryOp::name)};
#define EMBER_BINARY_NOT_IMPLEMENTED(name)                                  \
  r[static_cast<size_t>(BinaryOp::name)].kind = Row::Kind::kNotImplemented; \
  r[static_cast<size_t>(BinaryOp::name)].reason = "the derivative for '" #name "' is not implemented.";
#define EMBER_BINARY_NONDIFF(name)
#define EMBER_BINARY_RECORDED_ELSEWHERE(name, where)
// The gradient column of tables/binary.def, as one EMBER_BINARY_GRAD / _NONDIFF /
// _NOT_IMPLEMENTED / _RECORDED_ELSEWHERE row per op.
#define EMBER_BINARY_OP(name, promotion, dtypes, functor, gradient, ...) \
  EMBER_BINARY_##gradient(name __VA_OPT__(, ) __VA_ARGS__)
#define EMBER_BINARY_KERNEL(...) EMBER_BINARY_OP(__VA_ARGS__)
#include "ember/tables/binary.def"
#undef EMBER_BINARY_KERNEL
#undef EMBER_BINARY_OP
#undef EMBER_BINARY_GRAD
#undef EMBER_BINARY_NOT_IMPLEMENTED
#undef EMBER_BINARY_NONDIFF
#undef EMBER_BINARY_RECORDED_ELSEWHERE
    return r;
  }();
  return kRows;
}

}  // namespace

// `name`'s CamelCase + "Backward0/1", except the rounding divisions, which are
// overloads of PyTorch's div (div.Tensor_mode, div.Scalar_mode).
std::string binary_node_name(BinaryOp op, const char* name, int overload) {
  if (op == BinaryOp::div_trunc || op == BinaryOp::div_floor) return overload == 0 ? "DivBackward2" : "DivBackward3";
  return backward_node_name(name, overload);
}

bool binary_is_differentiable(BinaryOp op) { return rows()[static_cast<size_t>(op)].kind != Row::Kind::kNoNode; }

void record_binary(BinaryOp op, const Tensor& a_in, const Tensor& b_in, const Tensor& a, const Tensor& b,
                   const Tensor& result, const Scalar& alpha, bool scalar_other) {
  const Row* row = &rows()[static_cast<size_t>(op)];
  if (row->kind == Row::Kind::kNoNode) return;
  if (row->kind == Row::Kind::kNotImplemented) {
    std::vector<Tensor> inputs;
    for (const Tensor* t : {&a_in, &b_in})
      if (t->defined()) inputs.push_back(*t);
    record_not_implemented(row->reason, inputs, result);
    return;
  }
  const char* node_name = scalar_other ? row->node1.c_str() : row->node0.c_str();
  if (row->overloads == Row::Overloads::kPow)
    node_name = scalar_other ? "PowBackward0" : a_in.defined() ? "PowBackward1" : "PowBackward2";
  else if (row->overloads == Row::Overloads::kScalarFirst)
    node_name = scalar_other ? row->node0.c_str() : row->node1.c_str();
  auto node = record(node_name, row->formula, {&a_in, &b_in}, result);
  node->jvp = row->jvp;
  // When no cast happened `a`/`b` are the user's tensors themselves (with their
  // history, so double backward reaches them); in-place ops pass a copy of self.
  row->uses_self ? node->save(a) : node->save_none();
  row->uses_other ? node->save(b) : node->save_none();
  row->uses_result ? node->save(result, /*is_output=*/true) : node->save_none();
  if (!alpha.equal(Scalar(1))) node->scalars.push_back(alpha);  // the formulas read none as 1
}

}  // namespace torch::autograd
