#pragma once
// Internal: pooling kernels as differentiable ops (Note [Pooling kernels]).
// Each takes a contiguous tensor (P planes, *spatial) with 1-3 spatial dims
// and a PoolSpec fixed by pool.cpp, and records its backward (formulas in
// autograd/derivatives/pool_grad.cpp), so the pairs (avg, avg_backward) and
// (max scatter, max gather) differentiate each other to any order.
#include <tuple>

#include "ember/core/tensor.h"

namespace ember::pool {

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
Tensor avg_forward(const Tensor& x, const PoolSpec& s);
// grad_out: (..., *out_size) -> (..., *in_size)
Tensor avg_backward(const Tensor& grad_out, const PoolSpec& s);
// (values, int64 indices flattened per plane). node_name names the grad_fn.
std::tuple<Tensor, Tensor> max_forward(const Tensor& x, const PoolSpec& s, const char* node_name);
// max pooling's values alone (max_pool1d/2d): where the vectorised rows apply,
// the backward keeps one byte per output instead of int64 indices (Note [Max
// pooling positions]); elsewhere this is max_forward's values.
Tensor max_forward_values(const Tensor& x, const PoolSpec& s, const char* node_name);
// grad_in = zeros(..., *in_size); grad_in.flat(plane)[indices] += grad_out.
Tensor max_scatter(const Tensor& grad_out, const Tensor& indices, IntArrayRef in_size);
// out[..] = grad_in.flat(plane)[indices]
Tensor max_gather(const Tensor& grad_in, const Tensor& indices, int64_t nd);

// max_forward_values' backward from its byte positions: the raw first-order kernel
// (float32, not differentiable), and the int64 indices max_scatter takes instead.
Tensor max_positions_backward(const Tensor& grad_out, const Tensor& positions, const PoolSpec& s);
Tensor positions_to_indices(const Tensor& positions, const PoolSpec& s);
}  // namespace ember::pool
