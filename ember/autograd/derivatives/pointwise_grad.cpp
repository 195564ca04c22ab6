#include "ember/autograd/derivatives/pointwise_grad.h"

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

namespace ember::autograd {

namespace {

// Inputs: self, end. scalars: weight.
variable_list lerp_scalar_backward(const FormulaNode& n, const variable_list& g) {
  const Scalar& w = n.scalars[0];
  return {n.needs_input_grad(0) ? g[0] * (1 - w.toDouble()) : Tensor(), n.needs_input_grad(1) ? g[0] * w : Tensor()};
}
// Inputs: self, end, weight. Saved: 0 self, 1 end, 2 weight.
variable_list lerp_tensor_backward(const FormulaNode& n, const variable_list& g) {
  const Tensor weight = n.saved(2);
  return {n.needs_input_grad(0) ? g[0] * (weight.neg() + 1).conj() : Tensor(),
          n.needs_input_grad(1) ? g[0] * weight.conj() : Tensor(),
          n.needs_input_grad(2) ? g[0] * (n.saved(1) - n.saved(0)).conj() : Tensor()};
}
// Inputs: self, tensor1, tensor2. Saved: 0 tensor1, 1 tensor2; scalars: value.
variable_list addcmul_backward(const FormulaNode& n, const variable_list& g) {
  const Scalar& v = n.scalars[0];
  const Tensor t1 = n.saved(0), t2 = n.saved(1);
  return {g[0], n.needs_input_grad(1) ? g[0] * t2.conj() * v : Tensor(),
          n.needs_input_grad(2) ? g[0] * t1.conj() * v : Tensor()};
}
variable_list addcdiv_backward(const FormulaNode& n, const variable_list& g) {
  const Scalar& v = n.scalars[0];
  const Tensor t1 = n.saved(0), t2 = n.saved(1);
  return {g[0], n.needs_input_grad(1) ? g[0] * v / t2.conj() : Tensor(),
          n.needs_input_grad(2) ? (g[0] * v * (t1 / (t2 * t2)).conj()).neg() : Tensor()};
}
// Inputs: self, min, max. Saved: 0 self, 1 min, 2 max (undefined when absent).
// PyTorch's clamp_backward_min_max: with min > max the result is max, so max
// takes the gradient there.
variable_list clamp_tensor_backward(const FormulaNode& n, const variable_list& g) {
  const Tensor self = n.saved(0), min = n.saved(1), max = n.saved(2);
  const Tensor zero = zeros({}, g[0].options());
  Tensor gs, gmin, gmax;
  if (min.defined() && max.defined()) {
    if (n.needs_input_grad(0)) gs = where((self >= min) & (self <= max), g[0], zero);
    if (n.needs_input_grad(1)) gmin = where((self < min) & (min < max), g[0], zero);
    if (n.needs_input_grad(2)) gmax = where((self > max) | (max < min), g[0], zero);
  } else if (min.defined()) {
    if (n.needs_input_grad(0)) gs = where(self >= min, g[0], zero);
    if (n.needs_input_grad(1)) gmin = where(self < min, g[0], zero);
  } else {
    if (n.needs_input_grad(0)) gs = where(self <= max, g[0], zero);
    if (n.needs_input_grad(2)) gmax = where(self > max, g[0], zero);
  }
  return {gs, gmin, gmax};
}

// Saved: 0 self; ints: has_min, has_max; scalars: min, max.
variable_list clamp_scalar_backward(const FormulaNode& n, const variable_list& g) {
  const Tensor self = n.saved(0);
  Tensor keep = ones_like(self, TensorOptions(kBool));
  if (n.ints[0]) keep = keep & (self >= n.scalars[0]);
  if (n.ints[1]) keep = keep & (self <= n.scalars[1]);
  return {g[0] * keep};
}

}  // namespace

void record_clamp_scalar(ClampOp op, const Tensor& self, const Tensor& self_value, const std::optional<Scalar>& min,
                         const std::optional<Scalar>& max, const Tensor& out) {
  const char* name = op == ClampOp::Clamp      ? "ClampBackward1"
                     : op == ClampOp::ClampMin ? "ClampMinBackward0"
                                               : "ClampMaxBackward0";
  auto node = record(name, &clamp_scalar_backward, {self}, {out});
  node->save(self_value);
  node->ints = {min ? 1 : 0, max ? 1 : 0};
  node->scalars = {min.value_or(0), max.value_or(0)};
}

void record_lerp(const Tensor& self, const Tensor& self_value, const Tensor& end, const Scalar& scalar_weight,
                 const Tensor& weight, const Tensor& out) {
  if (!weight.defined()) {
    record("LerpBackward0", &lerp_scalar_backward, {self, end}, {out})->scalars = {scalar_weight};
    return;
  }
  auto node = record("LerpBackward1", &lerp_tensor_backward, {self, end, weight}, {out});
  node->save(self_value);
  node->save(end);
  node->save(weight);
}

void record_addcmul(const Tensor& self, const Tensor& t1, const Tensor& t2, const Scalar& value, const Tensor& out) {
  auto node = record("AddcmulBackward0", &addcmul_backward, {self, t1, t2}, {out});
  node->save(t1);
  node->save(t2);
  node->scalars = {value};
}

void record_addcdiv(const Tensor& self, const Tensor& t1, const Tensor& t2, const Scalar& value, const Tensor& out) {
  auto node = record("AddcdivBackward0", &addcdiv_backward, {self, t1, t2}, {out});
  node->save(t1);
  node->save(t2);
  node->scalars = {value};
}

void record_clamp_tensor(const Tensor& self, const Tensor& self_value, const Tensor& min, const Tensor& max,
                         const Tensor& out) {
  const char* name = !max.defined() ? "ClampMinBackward1" : !min.defined() ? "ClampMaxBackward1" : "ClampBackward0";
  auto node = record(name, &clamp_tensor_backward, {self, min, max}, {out});
  node->save(self_value);
  node->save(min);
  node->save(max);
}

}  // namespace ember::autograd
