#pragma once
// F::multi_head_attention_forward, as torch::nn::functional (PyTorch 1.13 semantics).
#include <tuple>

#include "ember/core/tensor.h"
#include "ember/nn/options/transformer.h"

namespace torch::nn::functional {

// query (L, N, E), key (S, N, kdim), value (S, N, vdim); unbatched (L, E) inputs are
// accepted. Returns (attn_output (L, N, E), attn_weights) where the weights are (N, L, S)
// averaged over heads, (N, num_heads, L, S) when !average_attn_weights, and undefined
// when !need_weights. attn_mask (L, S) or (N*num_heads, L, S) and key_padding_mask
// (N, S) are bool (true = not allowed to attend) or float (added to the scores).
std::tuple<Tensor, Tensor> multi_head_attention_forward(const Tensor& query, const Tensor& key, const Tensor& value,
                                                        const MultiheadAttentionForwardFuncOptions& options);

}  // namespace torch::nn::functional
