#pragma once
// The BERT encoder (embeddings, a stack of post-norm Transformer layers, the
// pooler) with the module names of Hugging Face's BertModel, the format BERT
// checkpoints are published in: state_dict keys read
// "embeddings.word_embeddings.weight", "encoder.layer.0.attention.self.query.weight",
// "encoder.layer.0.output.LayerNorm.bias", "pooler.dense.weight". torchtext 0.14
// has no BERT model; the computation is Hugging Face's (see Note [BERT attention mask]).
#include <cstdint>
#include <optional>
#include <string>
#include <tuple>

#include "ember/core/arg.h"
#include "ember/core/tensor.h"
#include "ember/nn/cloneable.h"
#include "ember/nn/modules/container/any.h"
#include "ember/nn/modules/container/modulelist.h"
#include "ember/nn/modules/dropout.h"
#include "ember/nn/modules/embedding.h"
#include "ember/nn/modules/linear.h"
#include "ember/nn/modules/normalization.h"
#include "ember/nn/pimpl.h"

namespace torch::text::models {

// Hugging Face's BertConfig fields, with its defaults (bert-base-uncased).
// hidden_act: "gelu" (erf), "gelu_new" / "gelu_pytorch_tanh" (tanh form),
// "relu", "silu" / "swish", "tanh".
struct BertConfig {
  TORCH_ARG(int64_t, vocab_size) = 30522;
  TORCH_ARG(int64_t, hidden_size) = 768;
  TORCH_ARG(int64_t, num_hidden_layers) = 12;
  TORCH_ARG(int64_t, num_attention_heads) = 12;
  TORCH_ARG(int64_t, intermediate_size) = 3072;
  TORCH_ARG(std::string, hidden_act) = "gelu";
  TORCH_ARG(double, hidden_dropout_prob) = 0.1;
  TORCH_ARG(double, attention_probs_dropout_prob) = 0.1;
  TORCH_ARG(int64_t, max_position_embeddings) = 512;
  TORCH_ARG(int64_t, type_vocab_size) = 2;
  // Standard deviation of the normal initialisation of weights (biases zero).
  TORCH_ARG(double, initializer_range) = 0.02;
  TORCH_ARG(double, layer_norm_eps) = 1e-12;
  TORCH_ARG(int64_t, pad_token_id) = 0;
  // Only "absolute" (learned position table); relative_key variants are not built.
  TORCH_ARG(std::string, position_embedding_type) = "absolute";
};

namespace bert {

// Word + absolute position + token type embeddings, then LayerNorm and dropout.
class BertEmbeddingsImpl : public nn::Cloneable<BertEmbeddingsImpl> {
 public:
  explicit BertEmbeddingsImpl(BertConfig config_);
  void reset() override;
  // input_ids [B, T]; token_type_ids and position_ids [B, T] (or broadcastable);
  // undefined: zeros and 0..T-1. Returns [B, T, hidden_size].
  Tensor forward(const Tensor& input_ids, const Tensor& token_type_ids = {}, const Tensor& position_ids = {});

  BertConfig config;
  nn::Embedding word_embeddings{nullptr}, position_embeddings{nullptr}, token_type_embeddings{nullptr};
  nn::LayerNorm LayerNorm{nullptr};
  nn::Dropout dropout{nullptr};
};
TORCH_MODULE(BertEmbeddings);

// Separate query/key/value projections, then the core's scaled dot-product
// attention under an additive mask, dropout (attention_probs_dropout_prob, in
// training) on the weights.
class BertSelfAttentionImpl : public nn::Cloneable<BertSelfAttentionImpl> {
 public:
  explicit BertSelfAttentionImpl(BertConfig config_);
  void reset() override;
  // hidden [B, T, C], additive_mask broadcastable to [B, heads, T, T] or undefined.
  Tensor forward(const Tensor& hidden, const Tensor& additive_mask = {});

  BertConfig config;
  nn::Linear query{nullptr}, key{nullptr}, value{nullptr};
};
TORCH_MODULE(BertSelfAttention);

// dense, dropout, then LayerNorm of the sum with the residual; BertSelfOutput
// and BertOutput differ only in dense's input width.
class BertResidualOutputImpl : public nn::Cloneable<BertResidualOutputImpl> {
 public:
  BertResidualOutputImpl(BertConfig config_, int64_t in_features);
  void reset() override;
  Tensor forward(const Tensor& hidden, const Tensor& residual);

  BertConfig config;
  int64_t in_features;
  nn::Linear dense{nullptr};
  nn::LayerNorm LayerNorm{nullptr};
  nn::Dropout dropout{nullptr};
};
TORCH_MODULE(BertResidualOutput);

class BertAttentionImpl : public nn::Cloneable<BertAttentionImpl> {
 public:
  explicit BertAttentionImpl(BertConfig config_);
  void reset() override;
  Tensor forward(const Tensor& hidden, const Tensor& additive_mask = {});

  BertConfig config;
  BertSelfAttention self{nullptr};
  BertResidualOutput output{nullptr};
};
TORCH_MODULE(BertAttention);

// dense to intermediate_size and the hidden activation.
class BertIntermediateImpl : public nn::Cloneable<BertIntermediateImpl> {
 public:
  explicit BertIntermediateImpl(BertConfig config_);
  void reset() override;
  Tensor forward(const Tensor& hidden);

  BertConfig config;
  nn::Linear dense{nullptr};
};
TORCH_MODULE(BertIntermediate);

class BertLayerImpl : public nn::Cloneable<BertLayerImpl> {
 public:
  explicit BertLayerImpl(BertConfig config_);
  void reset() override;
  Tensor forward(const Tensor& hidden, const Tensor& additive_mask = {});

  BertConfig config;
  BertAttention attention{nullptr};
  BertIntermediate intermediate{nullptr};
  BertResidualOutput output{nullptr};
};
TORCH_MODULE(BertLayer);

class BertEncoderImpl : public nn::Cloneable<BertEncoderImpl> {
 public:
  explicit BertEncoderImpl(BertConfig config_);
  void reset() override;
  Tensor forward(const Tensor& hidden, const Tensor& additive_mask = {});

  BertConfig config;
  nn::ModuleList layer{nullptr};
};
TORCH_MODULE(BertEncoder);

// tanh(dense(hidden[:, 0])).
class BertPoolerImpl : public nn::Cloneable<BertPoolerImpl> {
 public:
  explicit BertPoolerImpl(BertConfig config_);
  void reset() override;
  Tensor forward(const Tensor& hidden);

  BertConfig config;
  nn::Linear dense{nullptr};
};
TORCH_MODULE(BertPooler);

// attention_mask (1 = attend, 0 = masked; [B, T] or [B, T, T]) -> the additive
// mask [B, 1, 1, T] / [B, 1, T, T] of `dtype`. See Note [BERT attention mask].
Tensor extended_attention_mask(const Tensor& attention_mask, int64_t batch, int64_t seq_len, ScalarType dtype);

}  // namespace bert

// BertModel(config, add_pooling_layer=True). forward(input_ids [B, T] int64,
// attention_mask, token_type_ids, position_ids) -> (last_hidden_state [B, T,
// hidden_size], pooler_output [B, hidden_size]; undefined without the pooler).
class BertModelImpl : public nn::Cloneable<BertModelImpl> {
 public:
  explicit BertModelImpl(BertConfig config_ = {}, bool add_pooling_layer = true);
  void reset() override;
  std::tuple<Tensor, Tensor> forward(const Tensor& input_ids,
                                     const std::optional<Tensor>& attention_mask = std::nullopt,
                                     const std::optional<Tensor>& token_type_ids = std::nullopt,
                                     const std::optional<Tensor>& position_ids = std::nullopt);

 protected:
  FORWARD_HAS_DEFAULT_ARGS({1, nn::AnyValue(std::optional<Tensor>())}, {2, nn::AnyValue(std::optional<Tensor>())},
                           {3, nn::AnyValue(std::optional<Tensor>())})

 public:
  BertConfig config;
  bool add_pooling_layer;
  bert::BertEmbeddings embeddings{nullptr};
  bert::BertEncoder encoder{nullptr};
  bert::BertPooler pooler{nullptr};
};
TORCH_MODULE(BertModel);

}  // namespace torch::text::models
