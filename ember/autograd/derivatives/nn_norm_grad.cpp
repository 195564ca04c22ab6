#include "ember/autograd/derivatives/nn_norm_grad.h"
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
#include "ember/ops/all_ops.h"
#include "ember/ops/nn/nn_util.h"
#include "ember/ops/nn/normalization.h"
#include "ember/ops/nn/normalization_backward.h"
#include "ember/vmap/vmap.h"

namespace torch::autograd {

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

}  // namespace torch::autograd
