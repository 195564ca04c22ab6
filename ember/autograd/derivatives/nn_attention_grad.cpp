#include "ember/autograd/derivatives/nn_attention_grad.h"
#include "ember/autograd/raw_backward.h"

#include <array>

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
#include "ember/ops/nn/attention.h"
#include "ember/vmap/vmap.h"

namespace torch::autograd {

namespace {

// ScaledDotProductAttentionBackward0 with differentiable ops; softmax's result is
// recomputed from q and k so that a second derivative sees its dependence on them.
variable_list attention_backward_composite(const FormulaNode& n, const Tensor& gout, const Tensor& q, const Tensor& k,
                                           const Tensor& v, const Tensor& kept, const Tensor& mask, double scale,
                                           double keep, bool causal) {
  const Tensor m = causal ? detail::additive_mask({}, true, q.size(-2), k.size(-2), q.options()) : mask;
  const Tensor w = detail::attention_weights(q, k, m, scale);
  const Tensor factor = keep > 0 ? kept.to(q.scalar_type()) * keep : Tensor();
  Tensor dq, dk, dv;
  if (n.needs_input_grad(2)) dv = matmul((factor.defined() ? w * factor : w).transpose(-2, -1), gout);
  if (n.needs_input_grad(0) || n.needs_input_grad(1)) {
    Tensor dw = matmul(gout, v.transpose(-2, -1));
    if (factor.defined()) dw = dw * factor;
    const Tensor ds = w * (dw - (dw * w).sum({-1}, true));
    if (n.needs_input_grad(0)) dq = matmul(ds, k) * scale;
    if (n.needs_input_grad(1)) dk = matmul(ds.transpose(-2, -1), q) * scale;
  }
  return {dq, dk, dv};
}

// Saved: 0 query, 1 key, 2 value, 3 softmax's result, 4 keep bits (with dropout),
// 5 the additive attn_mask; scalars: scale, keep factor (0 without dropout); ints: is_causal.
// The fused backward (Note [Fused attention]) unless a graph is to be built.
variable_list attention_backward(const FormulaNode& n, const variable_list& g) {
  const Tensor& gout = g[0];
  if (!gout.defined()) return {Tensor(), Tensor(), Tensor()};
  const Tensor q = n.saved(0), k = n.saved(1), v = n.saved(2), probs = n.saved(3), kept = n.saved(4);
  const double scale = n.scalars[0].toDouble(), keep = n.scalars[1].toDouble();
  const bool causal = n.ints[0] != 0;
  if (!raw_backward_ok(g) || gout.scalar_type() != q.scalar_type())
    return attention_backward_composite(n, gout, q, k, v, kept, n.saved(5), scale, keep, causal);
  const std::array<Tensor, 3> grads = scaled_dot_product_attention_backward(
      gout, q, k, v, probs, kept, scale, keep, {n.needs_input_grad(0), n.needs_input_grad(1), n.needs_input_grad(2)});
  return {grads[0], grads[1], grads[2]};
}

}  // namespace

void record_scaled_dot_product_attention(const Tensor& query, const Tensor& key, const Tensor& value, const Tensor& out,
                                         const Tensor& probs, const Tensor& kept, const Tensor& mask, double scale,
                                         double keep, bool is_causal) {
  auto node = record("ScaledDotProductAttentionBackward0", &attention_backward, {query, key, value}, {out});
  node->save(query);
  node->save(key);
  node->save(value);
  node->save(probs);
  if (kept.defined())
    node->save(kept);
  else
    node->save_none();
  if (mask.defined())
    node->save(mask);
  else
    node->save_none();
  node->scalars = {Scalar(scale), Scalar(keep)};
  node->ints = {is_causal ? 1 : 0};
}

}  // namespace torch::autograd
