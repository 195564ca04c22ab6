#pragma once
// torchtext.models.roberta.modules: PositionalEmbedding and the encoder stack
// RoBERTa and XLM-R share (token and learned positional embeddings, a
// torch.nn.TransformerEncoder of GELU layers, batch-first). Submodule names are
// torchtext's, so state_dict keys read "token_embedding.weight",
// "layers.layers.0.self_attn.in_proj_weight", "positional_embedding.embedding.weight",
// "embedding_layer_norm.weight".
#include <cstdint>
#include <optional>
#include <vector>

#include "ember/core/arg.h"
#include "ember/core/tensor.h"
#include "ember/nn/cloneable.h"
#include "ember/nn/modules/dropout.h"
#include "ember/nn/modules/embedding.h"
#include "ember/nn/modules/normalization.h"
#include "ember/nn/modules/transformer.h"
#include "ember/nn/pimpl.h"

namespace torch::text::models::roberta::modules {

// Learned positions: token t of a row gets position pad_index + (number of
// non-pad tokens up to and including t); pad tokens get pad_index itself, whose
// row of the table is the (zero) padding row.
class PositionalEmbeddingImpl : public nn::Cloneable<PositionalEmbeddingImpl> {
 public:
  PositionalEmbeddingImpl(int64_t num_embeddings, int64_t embedding_dim, int64_t pad_index);
  void reset() override;
  Tensor forward(const Tensor& input);
  // The longest row this table can place: num_embeddings - pad_index - 1.
  int64_t max_positions() const;

  int64_t num_embeddings, embedding_dim, pad_index;
  nn::Embedding embedding{nullptr};
};
TORCH_MODULE(PositionalEmbedding);

struct TransformerEncoderOptions {
  TransformerEncoderOptions(int64_t vocab_size, int64_t embedding_dim, int64_t padding_idx, int64_t max_seq_len,
                            int64_t num_encoder_layers, int64_t num_attention_heads)
      : vocab_size_(vocab_size),
        embedding_dim_(embedding_dim),
        padding_idx_(padding_idx),
        max_seq_len_(max_seq_len),
        num_encoder_layers_(num_encoder_layers),
        num_attention_heads_(num_attention_heads) {}
  TORCH_ARG(int64_t, vocab_size);
  TORCH_ARG(int64_t, embedding_dim);
  TORCH_ARG(int64_t, padding_idx);
  TORCH_ARG(int64_t, max_seq_len);
  TORCH_ARG(int64_t, num_encoder_layers);
  TORCH_ARG(int64_t, num_attention_heads);
  // nullopt: 4 * embedding_dim.
  TORCH_ARG(std::optional<int64_t>, ffn_dimension) = std::nullopt;
  TORCH_ARG(double, dropout) = 0.1;
  TORCH_ARG(bool, normalize_before) = false;
  // Accepted and unused, as in torchtext 0.14 (torch.nn's attention scales by 1/sqrt(head_dim)).
  TORCH_ARG(std::optional<double>, scaling) = std::nullopt;
  TORCH_ARG(bool, return_all_layers) = false;
};

// torchtext's TransformerEncoderLayer: one torch.nn.TransformerEncoderLayer
// ("better_transformer", GELU, batch-first) on [T, B, C] input.
struct TransformerEncoderLayerOptions {
  TransformerEncoderLayerOptions(int64_t embedding_dim, int64_t num_attention_heads)
      : embedding_dim_(embedding_dim), num_attention_heads_(num_attention_heads) {}
  TORCH_ARG(int64_t, embedding_dim);
  TORCH_ARG(int64_t, num_attention_heads);
  // nullopt (or 0): 4 * embedding_dim.
  TORCH_ARG(std::optional<int64_t>, ffn_dimension) = std::nullopt;
  TORCH_ARG(double, dropout) = 0.1;
  TORCH_ARG(bool, normalize_before) = false;
  // Accepted and unused, as in torchtext 0.14.
  TORCH_ARG(std::optional<double>, scaling) = std::nullopt;
};

class TransformerEncoderLayerImpl : public nn::Cloneable<TransformerEncoderLayerImpl> {
 public:
  explicit TransformerEncoderLayerImpl(TransformerEncoderLayerOptions options_);
  void reset() override;
  // input [T, B, C], key_padding_mask [B, T] (true = pad), attn_mask [T, T] or
  // [B * heads, T, T]; returns [T, B, C].
  Tensor forward(const Tensor& input, const Tensor& key_padding_mask, const Tensor& attn_mask = {});

 protected:
  FORWARD_HAS_DEFAULT_ARGS({2, nn::AnyValue(Tensor())})

 public:
  TransformerEncoderLayerOptions options;
  nn::TransformerEncoderLayer better_transformer{nullptr};
};
TORCH_MODULE(TransformerEncoderLayer);

// tokens [B, T] int64 -> [T, B, C] (torchtext's layout). See Note [Nested-tensor
// fast path] for what padded positions hold in inference.
class TransformerEncoderImpl : public nn::Cloneable<TransformerEncoderImpl> {
 public:
  explicit TransformerEncoderImpl(TransformerEncoderOptions options_);
  void reset() override;
  // The last layer's output, [T', B, C]. attn_mask is checked (float or bool) and,
  // as in torchtext, not applied. With return_all_layers, use forward_all_layers.
  Tensor forward(const Tensor& tokens, const Tensor& attn_mask = {});
  // return_all_layers: the embedding output and each layer's, each [T, B, C]
  // (attn_mask applied to every layer here, as torchtext does).
  std::vector<Tensor> forward_all_layers(const Tensor& tokens, const Tensor& attn_mask = {});

 protected:
  FORWARD_HAS_DEFAULT_ARGS({1, nn::AnyValue(Tensor())})

 public:
  TransformerEncoderOptions options;
  nn::Embedding token_embedding{nullptr};
  nn::TransformerEncoder layers{nullptr};
  PositionalEmbedding positional_embedding{nullptr};
  nn::LayerNorm embedding_layer_norm{nullptr};
  nn::Dropout dropout{nullptr};

 private:
  Tensor embed(const Tensor& tokens, const Tensor& attn_mask, const char* fn);
};
TORCH_MODULE(TransformerEncoder);

}  // namespace torch::text::models::roberta::modules
