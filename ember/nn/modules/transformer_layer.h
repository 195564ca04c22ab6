#pragma once
// TransformerEncoderLayer and TransformerDecoderLayer, as torch::nn (LibTorch 1.13) with
// PyTorch 1.13's norm_first / layer_norm_eps / batch_first. Submodule names follow
// torch.nn, so state_dict keys match PyTorch's (self_attn.in_proj_weight, linear1.weight,
// norm1.weight, ...).
#include <ostream>

#include "ember/core/tensor.h"
#include "ember/nn/cloneable.h"
#include "ember/nn/modules/container/any.h"
#include "ember/nn/modules/dropout.h"
#include "ember/nn/modules/linear.h"
#include "ember/nn/modules/multihead_attention.h"
#include "ember/nn/modules/normalization.h"
#include "ember/nn/options/transformer.h"
#include "ember/nn/pimpl.h"

namespace torch::nn {

namespace detail {
// relu, gelu or the user's callable.
Tensor apply_transformer_activation(const TransformerActivation& activation, const Tensor& x);
}  // namespace detail

// Self-attention and a feed-forward block, each with a residual connection and LayerNorm
// (after the residual by default, before the block with norm_first).
class TransformerEncoderLayerImpl : public Cloneable<TransformerEncoderLayerImpl> {
 public:
  TransformerEncoderLayerImpl(int64_t d_model, int64_t nhead)
      : TransformerEncoderLayerImpl(TransformerEncoderLayerOptions(d_model, nhead)) {}
  explicit TransformerEncoderLayerImpl(TransformerEncoderLayerOptions options_);

  // src (S, N, E) or (N, S, E) with batch_first; src_mask (S, S) or (N*nhead, S, S);
  // src_key_padding_mask (N, S). Masks are bool (true = masked) or additive float.
  Tensor forward(const Tensor& src, const Tensor& src_mask = {}, const Tensor& src_key_padding_mask = {});

 protected:
  FORWARD_HAS_DEFAULT_ARGS({1, AnyValue(Tensor())}, {2, AnyValue(Tensor())})

 public:
  void reset() override;
  void reset_parameters();

  TransformerEncoderLayerOptions options;
  MultiheadAttention self_attn = nullptr;
  Linear linear1 = nullptr;
  Dropout dropout = nullptr;
  Linear linear2 = nullptr;
  LayerNorm norm1 = nullptr;
  LayerNorm norm2 = nullptr;
  Dropout dropout1 = nullptr;
  Dropout dropout2 = nullptr;

 private:
  Tensor sa_block(const Tensor& x, const Tensor& mask, const Tensor& key_padding_mask);
  Tensor ff_block(const Tensor& x);
};
EMBER_NN_MODULE(TransformerEncoderLayer);

// Self-attention, attention over the encoder output (memory) and a feed-forward block.
class TransformerDecoderLayerImpl : public Cloneable<TransformerDecoderLayerImpl> {
 public:
  TransformerDecoderLayerImpl(int64_t d_model, int64_t nhead)
      : TransformerDecoderLayerImpl(TransformerDecoderLayerOptions(d_model, nhead)) {}
  explicit TransformerDecoderLayerImpl(TransformerDecoderLayerOptions options_);

  Tensor forward(const Tensor& tgt, const Tensor& memory, const Tensor& tgt_mask = {}, const Tensor& memory_mask = {},
                 const Tensor& tgt_key_padding_mask = {}, const Tensor& memory_key_padding_mask = {});

 protected:
  FORWARD_HAS_DEFAULT_ARGS({2, AnyValue(Tensor())}, {3, AnyValue(Tensor())}, {4, AnyValue(Tensor())},
                           {5, AnyValue(Tensor())})

 public:
  void reset() override;
  void reset_parameters();

  TransformerDecoderLayerOptions options;
  MultiheadAttention self_attn = nullptr;
  MultiheadAttention multihead_attn = nullptr;
  Linear linear1 = nullptr;
  Dropout dropout = nullptr;
  Linear linear2 = nullptr;
  LayerNorm norm1 = nullptr;
  LayerNorm norm2 = nullptr;
  LayerNorm norm3 = nullptr;
  Dropout dropout1 = nullptr;
  Dropout dropout2 = nullptr;
  Dropout dropout3 = nullptr;

 private:
  Tensor sa_block(const Tensor& x, const Tensor& mask, const Tensor& key_padding_mask);
  Tensor mha_block(const Tensor& x, const Tensor& memory, const Tensor& mask, const Tensor& key_padding_mask);
  Tensor ff_block(const Tensor& x);
};
EMBER_NN_MODULE(TransformerDecoderLayer);

}  // namespace torch::nn
