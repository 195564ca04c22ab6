// The pooling kernels as differentiable ops; their formulas are in autograd/derivatives/nn_pool_grad.cpp.
#include "ember/ops/nn/pool_ops.h"

#include <vector>

#include "ember/autograd/derivatives/nn_pool_grad.h"
#include "ember/autograd/formula_node.h"
#include "ember/core/tensor.h"
#include "ember/vmap/batched_tensor.h"
#include "ember/vmap/rules_nn.h"

namespace torch::pool {

namespace {

// Note [Pooling gradients under vmap]
// The pooling ops refuse vmap, but their backward formulas call these kernels
// with whatever gradient arrives, and vmap over a vjp (func::vjp's vjp_fn)
// sends a batched one. The kernels read raw memory, so a batched operand runs
// them per sample (batching::per_sample_loop); before, the batch dim was read
// as part of the planes and the result was silently wrong.
template <typename F>
Tensor per_sample(const char* op, std::initializer_list<const Tensor*> in, const F& f) {
  return batching::per_sample_loop(in, op, [&](const std::vector<Tensor>& a) { return std::vector<Tensor>{f(a)}; })[0];
}

}  // namespace

Tensor avg_forward(const Tensor& x, const PoolSpec& s) {
  if (batching::any_batched(x)) [[unlikely]]
    return per_sample("avg_pool", {&x}, [&](const std::vector<Tensor>& a) { return avg_forward(a[0], s); });
  Tensor y = avg_pool_kernel(x.contiguous(), s);
  if (autograd::needs_grad(x)) autograd::record_avg_pool(x, y, s, /*backward=*/false);
  return y;
}

Tensor avg_backward(const Tensor& g, const PoolSpec& s) {
  if (batching::any_batched(g)) [[unlikely]]
    return per_sample("avg_pool_backward", {&g}, [&](const std::vector<Tensor>& a) { return avg_backward(a[0], s); });
  Tensor gi = avg_pool_backward_kernel(g.contiguous(), s);
  if (autograd::needs_grad(g)) autograd::record_avg_pool(g, gi, s, /*backward=*/true);
  return gi;
}

std::tuple<Tensor, Tensor> max_forward(const Tensor& x, const PoolSpec& s) {
  auto [y, idx] = max_pool_kernel(x.contiguous(), s);
  if (autograd::needs_grad(x)) autograd::record_max_pool_indices(x, y, idx, s);
  return {y, idx};
}

Tensor max_forward_values(const Tensor& x, const PoolSpec& s) {
  if (!max_pool_positions_apply(x, s)) return std::get<0>(max_forward(x, s));
  const bool grad = autograd::needs_grad(x);
  auto [y, pos] = max_pool_positions_kernel(x.contiguous(), s, grad);
  if (grad) autograd::record_max_pool_positions(x, y, pos, s);
  return y;
}

Tensor max_scatter(const Tensor& g, const Tensor& indices, IntArrayRef in_size) {
  if (batching::any_batched(g, indices)) [[unlikely]] {
    const DimVector size(in_size);
    return per_sample("max_pool_backward", {&g, &indices},
                      [&](const std::vector<Tensor>& a) { return max_scatter(a[0], a[1], size); });
  }
  Tensor gi = max_scatter_kernel(g.contiguous(), indices.contiguous(), in_size);
  if (autograd::needs_grad(g)) autograd::record_max_pool_scatter(g, gi, indices, in_size);
  return gi;
}

Tensor max_gather(const Tensor& gi, const Tensor& indices, int64_t nd) {
  if (batching::any_batched(gi, indices)) [[unlikely]]
    return per_sample("max_pool_backward_backward", {&gi, &indices},
                      [&](const std::vector<Tensor>& a) { return max_gather(a[0], a[1], nd); });
  Tensor out = max_gather_kernel(gi.contiguous(), indices.contiguous(), nd);
  if (autograd::needs_grad(gi)) autograd::record_max_pool_gather(gi, out, indices, gi.sizes().slice(gi.dim() - nd));
  return out;
}

}  // namespace torch::pool
