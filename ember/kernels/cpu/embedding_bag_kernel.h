#pragma once
// embedding_bag's sum and mean modes, fused (Note [Fused embedding_bag]).
#include <cstdint>

#include "ember/core/tensor.h"

namespace torch::kernels {

// Note [Fused embedding_bag]
// out[b] = sum over i in [starts[b], min(starts[b + 1], n)) with idx[i] != padding_idx
// of weight[idx[i]] (times per_sample_weights[i] when defined), divided by the
// number of rows kept when `mean` (an empty bag stays zero). Each bag's rows are
// accumulated straight into its output row in index order, prefetching the rows
// a few ids ahead, instead of gathering every row into a [n, d] tensor and
// segment-summing it (W7: 40,960 random rows of a 256 MB table per call). The
// composite in ops/nn/embedding.cpp stays the path that records gradients and
// the path of max mode. weight: contiguous 2-D float32 or float64; out: [bags, d].
bool embedding_bag_fused_applies(const Tensor& weight);
void embedding_bag_fused(const Tensor& weight, const int64_t* idx, const int64_t* starts, int64_t bags, int64_t n,
                         const Tensor& per_sample_weights, int64_t padding_idx, bool mean, const Tensor& out);

}  // namespace torch::kernels
