#pragma once
// Embedding lookups with LibTorch's at:: signatures (ops/nn/embedding.cpp).
#include <optional>
#include <tuple>

#include "ember/core/tensor.h"

namespace torch {

// weight [V, D] rows gathered by integer `indices` (any shape) -> [*indices, D].
// padding_idx >= 0: that row receives no gradient. scale_grad_by_freq divides
// each row's gradient by how often it occurs in indices. sparse gradients are
// not supported (sparse = true raises).
Tensor embedding(const Tensor& weight, const Tensor& indices, int64_t padding_idx = -1, bool scale_grad_by_freq = false,
                 bool sparse = false);
// The gradient of embedding w.r.t. weight: grad rows summed into [num_weights, D].
// Differentiable (its own backward gathers the rows again).
Tensor embedding_dense_backward(const Tensor& grad_output, const Tensor& indices, int64_t num_weights,
                                int64_t padding_idx, bool scale_grad_by_freq);
// In place, without autograd: rows of weight named in indices whose norm_type-norm
// exceeds max_norm are rescaled to norm max_norm (PyTorch's 1e-7 guard included).
Tensor& embedding_renorm_(Tensor& weight, const Tensor& indices, double max_norm, double norm_type);
// Bags of rows reduced by mode 0 = sum, 1 = mean, 2 = max. indices 1-D with
// offsets (bag starts), or 2-D [B, L] (fixed-size bags, offsets ignored).
// Returns {output [B, D], offset2bag, bag_size, max_indices}; only the first is
// guaranteed to match PyTorch's values, the others are PyTorch's bookkeeping
// (bag of each index, indices per bag, and for max the argmax rows).
std::tuple<Tensor, Tensor, Tensor, Tensor> embedding_bag(const Tensor& weight, const Tensor& indices,
                                                         const Tensor& offsets, bool scale_grad_by_freq = false,
                                                         int64_t mode = 0, bool sparse = false,
                                                         const std::optional<Tensor>& per_sample_weights = {},
                                                         bool include_last_offset = false,
                                                         std::optional<int64_t> padding_idx = std::nullopt);

}  // namespace torch
