#include "ember/autograd/derivatives/nn_grad.h"
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
#include "ember/kernels/cpu/dropout_backward.h"
#include "ember/ops/all_ops.h"
#include "ember/ops/elementwise/grad_in_place.h"
#include "ember/ops/nn/attention.h"
#include "ember/ops/nn/embedding.h"
#include "ember/ops/nn/nn_util.h"
#include "ember/ops/nn/normalization.h"
#include "ember/ops/nn/normalization_backward.h"
#include "ember/vmap/vmap.h"

namespace ember::autograd {
namespace {

DimVector all_but_channel(int64_t dim) {
  DimVector d{0};
  for (int64_t i = 2; i < dim; ++i) d.push_back(i);
  return d;
}

// Note [Normalization backward]
// With xhat = (x - mean) * invstd over the reduced dims R (|R| = M values):
//   d input = invstd * (gx - mean_R(gx) - xhat * mean_R(gx * xhat)),  gx = g * weight
// in training mode (the statistics depend on x); in eval mode the statistics
// are constants and d input = gx * invstd. Written with differentiable ops,
// recomputing the statistics from x so double backward sees their dependence.
Tensor normalized_input_grad(const Tensor& gx, const Tensor& xhat, const Tensor& invstd, IntArrayRef red) {
  return invstd * (gx - gx.mean(red, true) - xhat * (gx * xhat).mean(red, true));
}

variable_list batch_norm_backward(const FormulaNode& n, const variable_list& grads) {
  const Tensor& g = grads[0];
  if (!g.defined()) return {Tensor(), Tensor(), Tensor()};
  const Tensor x = n.saved(0), w = n.saved(1), mean = n.saved(2), invstd = n.saved(3);
  const bool training = n.ints[0] != 0;
  const bool ni = n.needs_input_grad(0), nw = n.needs_input_grad(1), nb = n.needs_input_grad(2);
  const bool fast_dtype = (x.dtype() == kFloat || x.dtype() == kDouble) && g.dtype() == x.dtype();
  if (training && raw_backward_ok(grads) && fast_dtype) {
    auto [gi, gw, gb] = ember::detail::batch_norm_backward_fast(g, x, w, mean, invstd, ni, nw, nb);
    return {gi, gw, gb};
  }
  const DimVector red = all_but_channel(x.dim());
  const DimVector cs = nn_detail::channel_shape(x.dim(), x.size(1));
  Tensor xhat, rstd;
  if (training) {
    const Tensor xc = x - x.mean(red, true);
    const Tensor var = (xc * xc).mean(red, true);
    const double eps = n.scalars[0].toDouble();
    rstd = (var + eps).rsqrt();
    xhat = xc * rstd;
  } else {
    rstd = invstd.view(cs);
    xhat = (x - mean.view(cs)) * rstd;
  }
  Tensor gi, gw, gb;
  if (ni) {
    const Tensor gx = w.defined() ? g * w.view(cs) : g;
    gi = training ? normalized_input_grad(gx, xhat, rstd, red) : gx * rstd;
  }
  if (nw) gw = (g * xhat).sum(red);
  if (nb) gb = g.sum(red);
  return {gi, gw, gb};
}

variable_list layer_norm_backward(const FormulaNode& n, const variable_list& grads) {
  const Tensor& g = grads[0];
  if (!g.defined()) return {Tensor(), Tensor(), Tensor()};
  const Tensor x = n.saved(0), w = n.saved(1);
  const int64_t k = n.ints[0];
  const double eps = n.scalars[0].toDouble();
  const bool fast_dtype = (x.dtype() == kFloat || x.dtype() == kDouble) && g.dtype() == x.dtype();
  if (raw_backward_ok(grads) && fast_dtype) {
    auto [gi, gw, gb] = ember::detail::layer_norm_backward_fast(
        g, x, k, w, n.saved(2), n.saved(3), n.needs_input_grad(0), n.needs_input_grad(1), n.needs_input_grad(2));
    return {gi, gw, gb};
  }
  DimVector red, lead;
  for (int64_t d = 0; d < x.dim(); ++d) (d >= x.dim() - k ? red : lead).push_back(d);
  const Tensor xc = x - x.mean(red, true);
  const Tensor rstd = ((xc * xc).mean(red, true) + eps).rsqrt();
  const Tensor xhat = xc * rstd;
  Tensor gi, gw, gb;
  if (n.needs_input_grad(0)) gi = normalized_input_grad(w.defined() ? g * w : g, xhat, rstd, red);
  // sum over the leading dims; with none, the gradient is the product itself.
  if (n.needs_input_grad(1)) gw = lead.empty() ? g * xhat : (g * xhat).sum(lead);
  if (n.needs_input_grad(2)) gb = lead.empty() ? g : g.sum(lead);
  return {gi, gw, gb};
}

variable_list hardtanh_backward(const FormulaNode& n, const variable_list& g) {
  return {hardtanh_backward(g[0], n.saved(0), n.scalars[0], n.scalars[1])};
}

variable_list threshold_formula(const FormulaNode& n, const variable_list& g) {
  Tensor rebuilt;
  return {threshold_backward_over_grad(g[0], n.saved_ref(0, rebuilt), n.scalars[0])};
}

variable_list embedding_backward(const FormulaNode& n, const variable_list& g) {
  const Tensor indices = n.saved(0);
  return {embedding_dense_backward(g[0], indices, n.ints[0], n.ints[1], n.ints[2] != 0), Tensor()};
}

// embedding_dense_backward is linear in grad: its adjoint gathers the rows back
// (zero for padding_idx, divided by the counts when scaled).
variable_list embedding_dense_backward_backward(const FormulaNode& n, const variable_list& g) {
  const Tensor indices = n.saved(0);
  const int64_t padding_idx = n.ints[0];
  const bool scale = n.ints[1] != 0;
  Tensor r = embedding(g[0], indices);
  if (padding_idx >= 0 || scale) {
    Tensor factor;
    {
      autograd::BelowAutogradGuard no_grad;
      const Tensor flat = indices.reshape({-1});
      factor = ones(indices.sizes(), g[0].options());
      if (scale) {
        Tensor counts = flat.bincount(std::nullopt, g[0].size(0)).to(g[0].dtype());
        factor = factor / counts.index_select(0, flat).view(indices.sizes());
      }
      if (padding_idx >= 0) factor = factor.masked_fill(indices == padding_idx, 0);
    }
    r = r * factor.unsqueeze(-1);
  }
  return {r, Tensor()};
}

}  // namespace

void record_batch_norm(const Tensor& input, const Tensor& weight, const Tensor& bias, const Tensor& out,
                       const Tensor& mean, const Tensor& invstd, bool training, double eps) {
  auto node = record("NativeBatchNormBackward0", &batch_norm_backward, {input, weight, bias}, {out});
  node->save(input);
  node->save(weight);
  node->save(mean);
  node->save(invstd);
  node->ints = {training ? 1 : 0};
  node->scalars = {eps};
}

void record_layer_norm(const Tensor& input, const Tensor& weight, const Tensor& bias, const Tensor& out,
                       int64_t normalized_dims, double eps, const Tensor& mean, const Tensor& rstd) {
  auto node = record("NativeLayerNormBackward0", &layer_norm_backward, {input, weight, bias}, {out});
  node->save(input);
  node->save(weight);
  node->save(mean);
  node->save(rstd);
  node->ints = {normalized_dims};
  node->scalars = {eps};
}

void record_hardtanh(const Tensor& self, const Tensor& self_value, const Tensor& out, double min, double max) {
  auto node = record("HardtanhBackward0", &hardtanh_backward, {self}, {out});
  node->save(self_value);
  node->scalars = {min, max};
}

void record_threshold(const Tensor& self, const Tensor& self_value, const Tensor& out, const Scalar& threshold) {
  auto node = record("ThresholdBackward0", &threshold_formula, {self}, {out});
  node->save(self_value);
  node->scalars = {threshold};
}

void record_embedding(const Tensor& weight, const Tensor& indices, const Tensor& out, int64_t padding_idx,
                      bool scale_grad_by_freq) {
  auto node = record("EmbeddingBackward0", &embedding_backward, {weight, indices}, {out});
  node->save(indices);
  node->ints = {weight.size(0), padding_idx, scale_grad_by_freq ? 1 : 0};
}

void record_embedding_dense_backward(const Tensor& grad, const Tensor& indices, const Tensor& out, int64_t padding_idx,
                                     bool scale_grad_by_freq) {
  auto node = record("EmbeddingDenseBackwardBackward0", &embedding_dense_backward_backward, {grad, indices}, {out});
  node->save(indices);
  node->ints = {padding_idx, scale_grad_by_freq ? 1 : 0};
}

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

}  // namespace ember::autograd
