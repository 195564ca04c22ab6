#pragma once
// Backward recording for the pooling kernels (ops/nn/pool_ops.cpp, Note [Pooling
// kernels]): each formula is the paired kernel, so avg / avg_backward and max scatter /
// max gather differentiate each other to any order.
#include "ember/core/tensor.h"
#include "ember/kernels/cpu/pool_kernels.h"

namespace torch::autograd {

// avg_forward (backward = false: AvgPool<N>DBackward0 / AdaptiveAvgPool<N>DBackward0) and
// avg_backward (backward = true: the ...BackwardBackward0 nodes).
void record_avg_pool(const Tensor& input, const Tensor& out, const pool::PoolSpec& s, bool backward);
// max_forward's node (MaxPool<N>DWithIndicesBackward0, AdaptiveMaxPool<N>DBackward0 by
// s.nd and s.adaptive): saves the int64 indices.
void record_max_pool_indices(const Tensor& input, const Tensor& out, const Tensor& indices, const pool::PoolSpec& s);
// max_forward_values' node (named as above): saves the byte positions (Note [Max pooling positions]).
void record_max_pool_positions(const Tensor& input, const Tensor& out, const Tensor& positions,
                               const pool::PoolSpec& s);
// max_scatter (MaxPoolWithIndicesBackwardBackward0) and max_gather (MaxPoolGatherBackward0).
void record_max_pool_scatter(const Tensor& grad_out, const Tensor& grad_in, const Tensor& indices, IntArrayRef in_size);
void record_max_pool_gather(const Tensor& grad_in, const Tensor& out, const Tensor& indices, IntArrayRef spatial);

}  // namespace torch::autograd
