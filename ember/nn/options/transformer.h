#pragma once
// Options of MultiheadAttention and the Transformer modules, as LibTorch's
// torch/nn/options/{activation,transformerlayer,transformercoder,transformer}.h.
// Beyond LibTorch 1.13 they carry PyTorch 1.13's layer_norm_eps, batch_first and
// norm_first (LibTorch has no such fields; Python's defaults are kept).
#include <cstdint>
#include <functional>
#include <variant>

#include "ember/core/arg.h"
#include "ember/core/tensor.h"
#include "ember/nn/enum.h"

namespace torch::nn {

// MultiheadAttentionOptions(8, 2).kdim(5).vdim(7).add_bias_kv(true)
struct MultiheadAttentionOptions {
  MultiheadAttentionOptions(int64_t embed_dim, int64_t num_heads)
      : embed_dim_(embed_dim), num_heads_(num_heads), kdim_(embed_dim), vdim_(embed_dim) {}
  TORCH_ARG(int64_t, embed_dim);
  TORCH_ARG(int64_t, num_heads);
  TORCH_ARG(double, dropout) = 0.0;
  TORCH_ARG(bool, bias) = true;
  TORCH_ARG(bool, add_bias_kv) = false;
  TORCH_ARG(bool, add_zero_attn) = false;
  TORCH_ARG(int64_t, kdim);
  TORCH_ARG(int64_t, vdim);
  // PyTorch's batch_first: inputs and output are (N, L, E) instead of (L, N, E).
  TORCH_ARG(bool, batch_first) = false;
};

// The feed-forward activation of the transformer layers: kReLU, kGELU or any callable.
using TransformerActivation = std::variant<enumtype::kReLU, enumtype::kGELU, std::function<Tensor(const Tensor&)>>;

// TransformerEncoderLayerOptions(512, 8).dim_feedforward(1024).activation(torch::kGELU)
struct TransformerEncoderLayerOptions {
  using activation_t = TransformerActivation;
  TransformerEncoderLayerOptions(int64_t d_model, int64_t nhead) : d_model_(d_model), nhead_(nhead) {}
  TORCH_ARG(int64_t, d_model);
  TORCH_ARG(int64_t, nhead);
  TORCH_ARG(int64_t, dim_feedforward) = 2048;
  TORCH_ARG(double, dropout) = 0.1;
  TORCH_ARG(activation_t, activation) = enumtype::kReLU();
  TORCH_ARG(double, layer_norm_eps) = 1e-5;
  TORCH_ARG(bool, batch_first) = false;
  TORCH_ARG(bool, norm_first) = false;
};

// TransformerDecoderLayerOptions(512, 8): same fields as the encoder layer.
struct TransformerDecoderLayerOptions {
  using activation_t = TransformerActivation;
  TransformerDecoderLayerOptions(int64_t d_model, int64_t nhead) : d_model_(d_model), nhead_(nhead) {}
  TORCH_ARG(int64_t, d_model);
  TORCH_ARG(int64_t, nhead);
  TORCH_ARG(int64_t, dim_feedforward) = 2048;
  TORCH_ARG(double, dropout) = 0.1;
  TORCH_ARG(activation_t, activation) = enumtype::kReLU();
  TORCH_ARG(double, layer_norm_eps) = 1e-5;
  TORCH_ARG(bool, batch_first) = false;
  TORCH_ARG(bool, norm_first) = false;
};

namespace functional {
// F::multi_head_attention_forward(q, k, v, MultiheadAttentionForwardFuncOptions(...)), as LibTorch.
struct MultiheadAttentionForwardFuncOptions {
  MultiheadAttentionForwardFuncOptions(int64_t embed_dim_to_check, int64_t num_heads, Tensor in_proj_weight,
                                       Tensor in_proj_bias, Tensor bias_k, Tensor bias_v, bool add_zero_attn,
                                       double dropout_p, Tensor out_proj_weight, Tensor out_proj_bias)
      : embed_dim_to_check_(embed_dim_to_check),
        num_heads_(num_heads),
        in_proj_weight_(std::move(in_proj_weight)),
        in_proj_bias_(std::move(in_proj_bias)),
        bias_k_(std::move(bias_k)),
        bias_v_(std::move(bias_v)),
        add_zero_attn_(add_zero_attn),
        dropout_p_(dropout_p),
        out_proj_weight_(std::move(out_proj_weight)),
        out_proj_bias_(std::move(out_proj_bias)) {}
  TORCH_ARG(int64_t, embed_dim_to_check);
  TORCH_ARG(int64_t, num_heads);
  TORCH_ARG(Tensor, in_proj_weight);
  TORCH_ARG(Tensor, in_proj_bias);
  TORCH_ARG(Tensor, bias_k);
  TORCH_ARG(Tensor, bias_v);
  TORCH_ARG(bool, add_zero_attn);
  TORCH_ARG(double, dropout_p);
  TORCH_ARG(Tensor, out_proj_weight);
  TORCH_ARG(Tensor, out_proj_bias);
  TORCH_ARG(bool, training) = true;
  TORCH_ARG(Tensor, key_padding_mask) = {};
  TORCH_ARG(bool, need_weights) = true;
  TORCH_ARG(Tensor, attn_mask) = {};
  TORCH_ARG(bool, use_separate_proj_weight) = false;
  TORCH_ARG(Tensor, q_proj_weight) = {};
  TORCH_ARG(Tensor, k_proj_weight) = {};
  TORCH_ARG(Tensor, v_proj_weight) = {};
  TORCH_ARG(Tensor, static_k) = {};
  TORCH_ARG(Tensor, static_v) = {};
  TORCH_ARG(bool, average_attn_weights) = true;
  // Ember extension (PyTorch's module-level batch_first): inputs and output are (N, L, E).
  TORCH_ARG(bool, batch_first) = false;
};
}  // namespace functional

}  // namespace torch::nn
