// Expands the gradient column of tables/unary.def into one backward function per
// op plus the row table record_unary dispatches on.
#include "ember/autograd/derivatives/unary_grad.h"

#include <array>
#include <cctype>
#include <cmath>
#include <cstddef>
#include <string>
#include <vector>

#include "ember/autograd/formula_node.h"
#include "ember/autograd/forward_ad.h"
#include "ember/autograd/grad_mode.h"
#include "ember/autograd/node.h"
#include "ember/core/dispatch.h"
#include "ember/core/error.h"
#include "ember/core/parallel.h"
#include "ember/core/shape.h"
#include "ember/core/tensor.h"
#include "ember/kernels/cpu/unary_kernels.h"
#include "ember/ops/all_ops.h"
#include "ember/ops/elementwise/grad_in_place.h"
#include "ember/vmap/vmap.h"

namespace torch::autograd {

namespace {

// tanh and sigmoid from their result: the fused binary ops for real dtypes
// (one kernel, itself differentiable), the conjugated product for complex.
Tensor tanh_grad(const Tensor& grad, const Tensor& result) {
  return result.is_complex() ? grad * (1 - result * result).conj() : tanh_backward(grad, result);
}
Tensor sigmoid_grad(const Tensor& grad, const Tensor& result) {
  return result.is_complex() ? grad * (result * (1 - result)).conj() : sigmoid_backward(grad, result);
}

// sgn(z) = z / |z|: zero derivative for real inputs; for complex z (z != 0)
// the conjugate-Wirtinger vjp is (grad - Re(grad * conj(sgn)) * sgn) / |z|.
Tensor sgn_backward(const Tensor& grad, const Tensor& self, const Tensor& result) {
  if (!self.is_complex()) return zeros_like(grad);
  Tensor abs = self.abs();
  Tensor safe = where(abs == 0, ones_like(abs), abs);
  Tensor r = (grad - (grad * result.conj()).real() * result) / safe;
  return where(abs == 0, zeros_like(r), r);
}

// sgn's JVP for complex z (its VJP is not the conjugate of a product, so the
// element-wise rule does not apply): (t - sgn(z) Re(conj(sgn(z)) t)) / |z|.
Tensor sgn_jvp(const Tensor& tangent, const Tensor& self, const Tensor& result) {
  if (!self.is_complex()) return zeros_like(tangent);
  Tensor abs = self.abs();
  Tensor safe = where(abs == 0, ones_like(abs), abs);
  Tensor r = (tangent - (tangent * result.conj()).real() * result) / safe;
  return where(abs == 0, zeros_like(r), r);
}

// Saved slot 0 is self, slot 1 is result; a formula only unpacks what it names.
// The JVP of a plain row is PyTorch's auto_element_wise rule: the op acts on
// each element as multiplication by its derivative d, the VJP multiplies by
// conj(d), so jvp(t) = conj(vjp(conj(t))). (For complex -> real rows such as
// abs, Recorded::finish keeps the real part, which is the exact JVP.)
#define EMBER_UNARY_ROW(name, expr, jvp_expr)                                                       \
  constexpr bool uses_self_##name = formula_mentions(#expr " " #jvp_expr, "self");                  \
  constexpr bool uses_result_##name = formula_mentions(#expr " " #jvp_expr, "result");              \
  variable_list name##_backward(const FormulaNode& n, const variable_list& g) {                     \
    const Tensor& grad = g[0];                                                                      \
    Tensor self_, result_; /* hold rebuilt saved tensors */                                         \
    [[maybe_unused]] const Tensor& self = uses_self_##name ? n.saved_ref(0, self_) : self_;         \
    [[maybe_unused]] const Tensor& result = uses_result_##name ? n.saved_ref(1, result_) : result_; \
    return gradient_list(Tensor(expr));                                                             \
  }                                                                                                 \
  variable_list name##_jvp(const FormulaNode& n, const variable_list& t, const variable_list&) {    \
    [[maybe_unused]] const Tensor& tangent = t[0];                                                  \
    [[maybe_unused]] const Tensor grad = t[0].conj();                                               \
    [[maybe_unused]] const Tensor self = uses_self_##name ? n.saved(0) : Tensor();                  \
    [[maybe_unused]] const Tensor result = uses_result_##name ? n.saved(1) : Tensor();              \
    return {jvp_expr};                                                                              \
  }
#define EMBER_UNARY_GRAD(name, expr) EMBER_UNARY_ROW(name, expr, Tensor(expr).conj())
#define EMBER_UNARY_GRAD_JVP(name, expr, jvp_expr) EMBER_UNARY_ROW(name, expr, jvp_expr)
#define EMBER_UNARY_NONDIFF(name)
#define EMBER_UNARY_NOT_IMPLEMENTED(name, reason)
// The gradient column of tables/unary.def, as one EMBER_UNARY_GRAD / _GRAD_JVP /
// _NONDIFF / _NOT_IMPLEMENTED row per op.
#define EMBER_UNARY_OP(name, kind, cplx, vec, element, gradient, ...) \
  EMBER_UNARY_##gradient(name __VA_OPT__(, ) __VA_ARGS__)
#include "ember/tables/unary.def"
#undef EMBER_UNARY_OP
#undef EMBER_UNARY_ROW
#undef EMBER_UNARY_GRAD
#undef EMBER_UNARY_GRAD_JVP
#undef EMBER_UNARY_NONDIFF
#undef EMBER_UNARY_NOT_IMPLEMENTED

struct UnaryGradRow {
  std::string node_name;         // PyTorch's grad_fn name, e.g. "ExpBackward0"
  FormulaNode::Formula formula;  // null: not differentiable / not implemented
  FormulaNode::Jvp jvp;
  const char* not_implemented;  // the reason, for rows without a formula that need one
  bool uses_self, uses_result;
};

// Rows are placed by the op's id in tables/unary.def; every row of that table has a
// gradient column (a row without one does not compile).
const std::vector<UnaryGradRow>& rows() {
  static const std::vector<UnaryGradRow> kRows = [] {
    std::vector<UnaryGradRow> r(kernels::kNumUnaryOps);  // every row assigned below
    auto at = [&](kernels::UnaryOpId id) -> UnaryGradRow& { return r[static_cast<int>(id)]; };
#define EMBER_UNARY_GRAD(name, expr)                                                                  \
  at(kernels::UnaryOpId::name) = {backward_node_name(#name), &name##_backward,  &name##_jvp, nullptr, \
                                  uses_self_##name,          uses_result_##name};
#define EMBER_UNARY_GRAD_JVP(name, expr, jvp_expr) EMBER_UNARY_GRAD(name, expr)
#define EMBER_UNARY_NONDIFF(name) at(kernels::UnaryOpId::name) = {#name, nullptr, nullptr, nullptr, false, false};
#define EMBER_UNARY_NOT_IMPLEMENTED(name, reason) \
  at(kernels::UnaryOpId::name) = {backward_node_name(#name), nullptr, nullptr, reason, false, false};
// The gradient column of tables/unary.def, as one EMBER_UNARY_GRAD / _GRAD_JVP /
// _NONDIFF / _NOT_IMPLEMENTED row per op.
#define EMBER_UNARY_OP(name, kind, cplx, vec, element, gradient, ...) \
  EMBER_UNARY_##gradient(name __VA_OPT__(, ) __VA_ARGS__)
#include "ember/tables/unary.def"
#undef EMBER_UNARY_OP
#undef EMBER_UNARY_GRAD
#undef EMBER_UNARY_GRAD_JVP
#undef EMBER_UNARY_NONDIFF
#undef EMBER_UNARY_NOT_IMPLEMENTED
    return r;
  }();
  return kRows;
}

}  // namespace

bool unary_grad_uses_self(int id) { return rows().at(id).uses_self; }

void record_unary(int id, const Tensor& self, const Tensor& self_value, const Tensor& result) {
  const UnaryGradRow& row = rows().at(id);
  if (row.formula == nullptr) {
    if (row.not_implemented == nullptr) return;  // integer / bool results carry no gradient
    // Forward works; backward through this node raises naming it and the reason.
    auto node = record(row.node_name.c_str(), &FormulaNode::not_implemented, self, result);
    node->not_implemented_reason = row.not_implemented;
    return;
  }
  auto node = record(row.node_name.c_str(), row.formula, self, result);  // no copies: one-element TensorLists
  node->jvp = row.jvp;
  row.uses_self ? node->save(self_value) : node->save_none();
  row.uses_result ? node->save(result, /*is_output=*/true) : node->save_none();
}

}  // namespace torch::autograd
