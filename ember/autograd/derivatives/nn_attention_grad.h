#pragma once
// Backward recording for ops/nn/attention.cpp's fused scaled_dot_product_attention.
// Formula in nn_attention_grad.cpp: the fused backward when no graph is being
// built, else a composite of differentiable ops.
#include "ember/core/tensor.h"

namespace torch::autograd {

// scaled_dot_product_attention's fused path (Note [Fused attention]): probs and kept
// (undefined without dropout) as the forward wrote them, mask the additive mask or none.
void record_scaled_dot_product_attention(const Tensor& query, const Tensor& key, const Tensor& value, const Tensor& out,
                                         const Tensor& probs, const Tensor& kept, const Tensor& mask, double scale,
                                         double keep, bool is_causal);

}  // namespace torch::autograd
