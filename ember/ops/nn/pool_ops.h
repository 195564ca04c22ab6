#pragma once
// Internal: the pooling kernels (kernels/cpu/pool_kernels.h) as differentiable ops.
// Each takes a tensor (P planes, *spatial) and a PoolSpec fixed by pool.cpp, runs
// its kernel (per sample on a batched operand, Note [Pooling gradients under vmap])
// and records its backward (formulas in autograd/derivatives/nn_pool_grad.cpp), so the
// pairs (avg, avg_backward) and (max scatter, max gather) differentiate each other
// to any order.
#include <tuple>

#include "ember/core/tensor.h"
#include "ember/kernels/cpu/pool_kernels.h"

namespace torch::pool {

// x: (..., *in_size) -> (..., *out_size); leading dims are planes.
Tensor avg_forward(const Tensor& x, const PoolSpec& s);
// grad_out: (..., *out_size) -> (..., *in_size)
Tensor avg_backward(const Tensor& grad_out, const PoolSpec& s);
// (values, int64 indices flattened per plane).
std::tuple<Tensor, Tensor> max_forward(const Tensor& x, const PoolSpec& s);
// max pooling's values alone (max_pool1d/2d): where the vectorised rows apply,
// the backward keeps one byte per output instead of int64 indices (Note [Max
// pooling positions]); elsewhere this is max_forward's values.
Tensor max_forward_values(const Tensor& x, const PoolSpec& s);
// grad_in = zeros(..., *in_size); grad_in.flat(plane)[indices] += grad_out.
Tensor max_scatter(const Tensor& grad_out, const Tensor& indices, IntArrayRef in_size);
// out[..] = grad_in.flat(plane)[indices]
Tensor max_gather(const Tensor& grad_in, const Tensor& indices, int64_t nd);

}  // namespace torch::pool
