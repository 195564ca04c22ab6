#pragma once
// Internal: the pooling loops (Note [Pooling kernels] in pool_kernels.cpp). Each
// takes a contiguous float32/float64 tensor (P planes, *spatial) with 1-3 spatial
// dims and a PoolSpec fixed by ops/nn/pool.cpp, and writes a new tensor; none
// records a gradient. ops/nn/pool_ops.h wraps them as the differentiable ops
// the pooling functions and their formulas (autograd/derivatives/nn_pool_grad.cpp) call.
#include <tuple>

#include "ember/core/tensor.h"

namespace torch::pool {

struct PoolSpec {
  int64_t nd = 0;
  bool adaptive = false;
  bool count_include_pad = true;
  int64_t divisor_override = 0;  // 0: none
  DimVector kernel, stride, padding, dilation;
  DimVector in_size, out_size;  // spatial sizes
  DimVector pack() const;
  static PoolSpec unpack(IntArrayRef v);
};

// x: (..., *in_size) -> (..., *out_size); leading dims are planes.
Tensor avg_pool_kernel(const Tensor& x, const PoolSpec& s);
// grad_out: (..., *out_size) -> (..., *in_size)
Tensor avg_pool_backward_kernel(const Tensor& grad_out, const PoolSpec& s);
// (values, int64 indices flattened per plane).
std::tuple<Tensor, Tensor> max_pool_kernel(const Tensor& x, const PoolSpec& s);
// Whether max_pool_positions_kernel applies: float32 and the vectorised rows fit
// (Note [Max pooling positions]).
bool max_pool_positions_apply(const Tensor& x, const PoolSpec& s);
// max pooling's values and, with want_positions, one byte per output for the
// backward instead of int64 indices (undefined otherwise).
std::tuple<Tensor, Tensor> max_pool_positions_kernel(const Tensor& x, const PoolSpec& s, bool want_positions);
// grad_in = zeros(..., *in_size); grad_in.flat(plane)[indices] += grad_out.
Tensor max_scatter_kernel(const Tensor& grad_out, const Tensor& indices, IntArrayRef in_size);
// out[..] = grad_in.flat(plane)[indices]
Tensor max_gather_kernel(const Tensor& grad_in, const Tensor& indices, int64_t nd);

// max_pool_positions_kernel's backward from its byte positions: the raw first-order
// kernel (float32), and the int64 indices max_scatter takes instead.
Tensor max_positions_backward(const Tensor& grad_out, const Tensor& positions, const PoolSpec& s);
Tensor positions_to_indices(const Tensor& positions, const PoolSpec& s);

}  // namespace torch::pool
