#pragma once
// Scaled dot-product attention, as torch::scaled_dot_product_attention (PyTorch 2's math
// definition): softmax(query key^T * scale + mask) @ value, with dropout on the weights.
#include <array>
#include <optional>

#include "ember/core/tensor.h"

namespace torch {

// query [..., L, E], key [..., S, E], value [..., S, Ev] -> [..., L, Ev]; the batch dims
// broadcast. attn_mask (broadcastable to [..., L, S]) is bool, true where a query may
// attend, or additive in query's dtype; is_causal masks j > i instead (not both).
// dropout_p > 0 drops weights (always: there is no training flag, as in PyTorch).
// scale defaults to 1 / sqrt(E). Note [Fused attention] in attention.cpp.
Tensor scaled_dot_product_attention(const Tensor& query, const Tensor& key, const Tensor& value,
                                    const Tensor& attn_mask = {}, double dropout_p = 0.0, bool is_causal = false,
                                    std::optional<double> scale = std::nullopt);

// The fused first-order backward of the op's fused path (Note [Fused attention]), for
// its formula (autograd/derivatives/nn_attention_grad.cpp): probs and kept are what the forward
// saved (softmax's result, the keep bits when keep > 0, keep = 1 / (1 - dropout_p));
// the gradients of q, k, v where `needed`, undefined elsewhere. float32/float64.
std::array<Tensor, 3> scaled_dot_product_attention_backward(const Tensor& grad_out, const Tensor& q, const Tensor& k,
                                                            const Tensor& v, const Tensor& probs, const Tensor& kept,
                                                            double scale, double keep, std::array<bool, 3> needed);

namespace detail {
// The mask as added to the scores: a bool mask (true = attend) and is_causal become
// 0 / -inf; an additive mask or none passes through.
Tensor additive_mask(const Tensor& mask, bool causal, int64_t L, int64_t S, const TensorOptions& opts);
// softmax(q k^T * scale + mask) with differentiable ops (mask additive or undefined).
Tensor attention_weights(const Tensor& q, const Tensor& k, const Tensor& mask, double scale);
}  // namespace detail

}  // namespace torch
