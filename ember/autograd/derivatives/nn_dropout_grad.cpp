#include "ember/autograd/derivatives/nn_dropout_grad.h"
#include "ember/autograd/raw_backward.h"

#include "ember/autograd/formula_node.h"
#include "ember/autograd/forward_ad.h"
#include "ember/autograd/grad_mode.h"
#include "ember/autograd/node.h"
#include "ember/core/dispatch.h"
#include "ember/core/error.h"
#include "ember/core/parallel.h"
#include "ember/core/shape.h"
#include "ember/core/tensor.h"
#include "ember/kernels/cpu/dropout_backward.h"
#include "ember/ops/all_ops.h"
#include "ember/vmap/vmap.h"

namespace torch::autograd {

namespace {

// The byte-mask backward of both dropout nodes (Note [Dropout with a byte mask],
// Note [Relu then dropout], ops/nn/dropout.cpp): with a graph to build or batched
// gradients, `composite` (ordinary ops); otherwise the one-pass kernel, written over
// the gradient when the formula owns it (Note [Gradients overwritten in place]).
Tensor byte_mask_backward(const variable_list& g, const Tensor& mask, double scale, bool relu_first,
                          Tensor (*composite)(const Tensor&, const Tensor&, double)) {
  const bool overwrite = can_overwrite_grad(g[0]);
  Tensor grad = g[0];
  const bool fused = raw_backward_ok(g) && grad.sizes().equals(mask.sizes()) &&
                     (grad.scalar_type() == kFloat || grad.scalar_type() == kDouble);
  if (!fused) return composite(grad, mask, scale);
  Tensor r = overwrite ? grad : empty(grad.sizes(), grad.options());
  kernels::byte_mask_dropout_backward(grad.contiguous(), mask, scale, relu_first, r);
  return r;
}

Tensor dropout_mask_composite(const Tensor& g, const Tensor& mask, double scale) {
  return g * (mask.to(g.scalar_type()) * scale);
}
// The product with ordinary (differentiable, batchable) ops: mask 3 = kept and passing,
// 2 = dropped and passing (g * 0), below 2 = relu stops it (0, not g * 0).
Tensor relu_dropout_composite(const Tensor& g, const Tensor& mask, double scale) {
  return where(mask.ge(2), g * (mask.eq(3).to(g.scalar_type()) * scale), zeros_like(g));
}

// saved: the mask; scalars: the scale.
variable_list dropout_mask_backward(const FormulaNode& n, const variable_list& g) {
  return {byte_mask_backward(g, n.saved(0), n.scalars[0].toDouble(), false, &dropout_mask_composite)};
}
variable_list dropout_mask_jvp(const FormulaNode& n, const variable_list& t, const variable_list&) {
  return {dropout_mask_composite(t[0], n.saved(0), n.scalars[0].toDouble())};
}
variable_list relu_dropout_backward(const FormulaNode& n, const variable_list& g) {
  return {byte_mask_backward(g, n.saved(0), n.scalars[0].toDouble(), true, &relu_dropout_composite)};
}
variable_list relu_dropout_jvp(const FormulaNode& n, const variable_list& t, const variable_list&) {
  return {relu_dropout_composite(t[0], n.saved(0), n.scalars[0].toDouble())};
}

}  // namespace

void record_dropout_with_mask(const Tensor& input, const Tensor& out, const Tensor& mask, double scale,
                              bool relu_first) {
  auto node = relu_first ? record("ReluDropoutBackward0", &relu_dropout_backward, {input}, {out})
                         : record("NativeDropoutBackward0", &dropout_mask_backward, {input}, {out});
  node->jvp = relu_first ? &relu_dropout_jvp : &dropout_mask_jvp;
  node->save(mask);
  node->scalars = {Scalar(scale)};
}

}  // namespace torch::autograd
