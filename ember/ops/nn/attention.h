#pragma once
// Scaled dot-product attention, as torch::scaled_dot_product_attention (PyTorch 2's math
// definition): softmax(query key^T * scale + mask) @ value, with dropout on the weights.
#include <optional>

#include "ember/core/tensor.h"

namespace ember {

// query [..., L, E], key [..., S, E], value [..., S, Ev] -> [..., L, Ev]; the batch dims
// broadcast. attn_mask (broadcastable to [..., L, S]) is bool, true where a query may
// attend, or additive in query's dtype; is_causal masks j > i instead (not both).
// dropout_p > 0 drops weights (always: there is no training flag, as in PyTorch).
// scale defaults to 1 / sqrt(E). Note [Fused attention] in attention.cpp.
Tensor scaled_dot_product_attention(const Tensor& query, const Tensor& key, const Tensor& value,
                                    const Tensor& attn_mask = {}, double dropout_p = 0.0, bool is_causal = false,
                                    std::optional<double> scale = std::nullopt);

}  // namespace ember
