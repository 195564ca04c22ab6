#include "ember/text/models/bert.h"

#include <cmath>
#include <limits>
#include <utility>

#include "ember/autograd/grad_mode.h"
#include "ember/core/error.h"
#include "ember/nn/init.h"
#include "ember/ops/elementwise/operators.h"
#include "ember/ops/elementwise/unary.h"
#include "ember/ops/factory/factory.h"
#include "ember/ops/nn/attention.h"

namespace torch::text::models {

namespace {

nn::LayerNorm make_layer_norm(const BertConfig& c) {
  return nn::LayerNorm(nn::LayerNormOptions({c.hidden_size()}).eps(c.layer_norm_eps()));
}

bool known_activation(const std::string& act) {
  return act == "gelu" || act == "gelu_new" || act == "gelu_pytorch_tanh" || act == "relu" || act == "silu" ||
         act == "swish" || act == "tanh";
}

Tensor apply_activation(const std::string& act, const Tensor& x) {
  if (act == "gelu") return x.gelu("none");
  if (act == "gelu_new" || act == "gelu_pytorch_tanh") return x.gelu("tanh");
  if (act == "relu") return relu(x);
  if (act == "silu" || act == "swish") return silu(x);
  return tanh(x);
}

void check_config(const BertConfig& c) {
  EMBER_CHECK(c.vocab_size() > 0 && c.hidden_size() > 0 && c.num_hidden_layers() >= 0 && c.num_attention_heads() > 0 &&
                  c.intermediate_size() > 0 && c.max_position_embeddings() > 0 && c.type_vocab_size() > 0,
              "BertModel: vocab_size ", c.vocab_size(), ", hidden_size ", c.hidden_size(), ", num_hidden_layers ",
              c.num_hidden_layers(), ", num_attention_heads ", c.num_attention_heads(), ", intermediate_size ",
              c.intermediate_size(), ", max_position_embeddings ", c.max_position_embeddings(), " and type_vocab_size ",
              c.type_vocab_size(), " must be positive (num_hidden_layers may be 0)");
  EMBER_CHECK(c.hidden_size() % c.num_attention_heads() == 0, "BertModel: hidden_size ", c.hidden_size(),
              " is not a multiple of num_attention_heads ", c.num_attention_heads());
  EMBER_CHECK(known_activation(c.hidden_act()), "BertModel: unsupported hidden_act '", c.hidden_act(),
              "' (expected gelu, gelu_new, gelu_pytorch_tanh, relu, silu, swish or tanh)");
  EMBER_CHECK(c.position_embedding_type() == "absolute", "BertModel: position_embedding_type '",
              c.position_embedding_type(), "' is not supported (only 'absolute')");
  EMBER_CHECK(c.pad_token_id() >= 0 && c.pad_token_id() < c.vocab_size(), "BertModel: pad_token_id ", c.pad_token_id(),
              " is not in [0, vocab_size = ", c.vocab_size(), ")");
  EMBER_CHECK(c.hidden_dropout_prob() >= 0 && c.hidden_dropout_prob() <= 1 && c.attention_probs_dropout_prob() >= 0 &&
                  c.attention_probs_dropout_prob() <= 1,
              "BertModel: dropout probabilities must be in [0, 1], got hidden_dropout_prob ", c.hidden_dropout_prob(),
              " and attention_probs_dropout_prob ", c.attention_probs_dropout_prob());
  EMBER_CHECK(c.layer_norm_eps() > 0 && c.initializer_range() >= 0, "BertModel: layer_norm_eps ", c.layer_norm_eps(),
              " must be positive and initializer_range ", c.initializer_range(), " non-negative");
}

// Ids of an index tensor must be integers in [0, limit).
void check_ids(const Tensor& ids, const char* what, int64_t limit, const Tensor& input_ids) {
  EMBER_CHECK(ids.scalar_type() == kLong || ids.scalar_type() == kInt, "BertModel: expected integer ", what,
              ", got dtype ", ids.scalar_type());
  EMBER_CHECK(ids.dim() <= 2, "BertModel: expected ", what, " of shape [batch, seq_len] (like input_ids ",
              input_ids.sizes(), "), got ", ids.sizes());
  if (ids.numel() == 0) return;
  const int64_t lo = ids.min().item<int64_t>();
  const int64_t hi = ids.max().item<int64_t>();
  EMBER_CHECK(lo >= 0 && hi < limit, "BertModel: ", what, " must be in [0, ", limit, "), got values in [", lo, ", ", hi,
              "]");
}

// Whether `t` broadcasts to [batch, seq_len] without growing it.
bool matches_ids(const Tensor& t, int64_t batch, int64_t seq_len) {
  if (t.dim() == 1) return t.size(0) == seq_len;
  return t.dim() == 2 && (t.size(0) == batch || t.size(0) == 1) && t.size(1) == seq_len;
}

}  // namespace

namespace bert {

BertEmbeddingsImpl::BertEmbeddingsImpl(BertConfig config_) : config(std::move(config_)) { reset(); }

void BertEmbeddingsImpl::reset() {
  const auto& c = config;
  word_embeddings = register_module(
      "word_embeddings",
      nn::Embedding(nn::EmbeddingOptions(c.vocab_size(), c.hidden_size()).padding_idx(c.pad_token_id())));
  position_embeddings =
      register_module("position_embeddings", nn::Embedding(c.max_position_embeddings(), c.hidden_size()));
  token_type_embeddings = register_module("token_type_embeddings", nn::Embedding(c.type_vocab_size(), c.hidden_size()));
  LayerNorm = register_module("LayerNorm", make_layer_norm(c));
  dropout = register_module("dropout", nn::Dropout(c.hidden_dropout_prob()));
}

Tensor BertEmbeddingsImpl::forward(const Tensor& input_ids, const Tensor& token_type_ids, const Tensor& position_ids) {
  const int64_t seq_len = input_ids.size(-1);
  const Tensor positions =
      position_ids.defined() ? position_ids : arange(seq_len, TensorOptions().dtype(kLong)).unsqueeze(0);
  const Tensor types = token_type_ids.defined() ? token_type_ids : zeros_like(input_ids, TensorOptions().dtype(kLong));
  Tensor embedded = word_embeddings->forward(input_ids) + token_type_embeddings->forward(types) +
                    position_embeddings->forward(positions);
  return dropout->forward(LayerNorm->forward(embedded));
}

BertSelfAttentionImpl::BertSelfAttentionImpl(BertConfig config_) : config(std::move(config_)) { reset(); }

void BertSelfAttentionImpl::reset() {
  const int64_t c = config.hidden_size();
  query = register_module("query", nn::Linear(c, c));
  key = register_module("key", nn::Linear(c, c));
  value = register_module("value", nn::Linear(c, c));
}

Tensor BertSelfAttentionImpl::forward(const Tensor& hidden, const Tensor& additive_mask) {
  const int64_t batch = hidden.size(0), seq_len = hidden.size(1);
  const int64_t heads = config.num_attention_heads(), head_dim = config.hidden_size() / heads;
  // [B, T, C] -> [B, heads, T, head_dim]
  auto split = [&](const Tensor& x) { return x.reshape({batch, seq_len, heads, head_dim}).permute({0, 2, 1, 3}); };
  const Tensor q = split(query->forward(hidden));
  const Tensor k = split(key->forward(hidden));
  const Tensor v = split(value->forward(hidden));
  // The core's fused attention: the same values as softmax(q k^T / sqrt(d) + mask) v,
  // and the same dropout draws as dropout() applied to those weights.
  const double p = is_training() ? config.attention_probs_dropout_prob() : 0.0;
  const Tensor context = scaled_dot_product_attention(q, k, v, additive_mask, p);
  return context.permute({0, 2, 1, 3}).reshape({batch, seq_len, config.hidden_size()});
}

BertResidualOutputImpl::BertResidualOutputImpl(BertConfig config_, int64_t in_features)
    : config(std::move(config_)), in_features(in_features) {
  reset();
}

void BertResidualOutputImpl::reset() {
  dense = register_module("dense", nn::Linear(in_features, config.hidden_size()));
  LayerNorm = register_module("LayerNorm", make_layer_norm(config));
  dropout = register_module("dropout", nn::Dropout(config.hidden_dropout_prob()));
}

Tensor BertResidualOutputImpl::forward(const Tensor& hidden, const Tensor& residual) {
  return LayerNorm->forward(dropout->forward(dense->forward(hidden)) + residual);
}

BertAttentionImpl::BertAttentionImpl(BertConfig config_) : config(std::move(config_)) { reset(); }

void BertAttentionImpl::reset() {
  self = register_module("self", BertSelfAttention(config));
  output = register_module("output", BertResidualOutput(config, config.hidden_size()));
}

Tensor BertAttentionImpl::forward(const Tensor& hidden, const Tensor& additive_mask) {
  return output->forward(self->forward(hidden, additive_mask), hidden);
}

BertIntermediateImpl::BertIntermediateImpl(BertConfig config_) : config(std::move(config_)) { reset(); }

void BertIntermediateImpl::reset() {
  dense = register_module("dense", nn::Linear(config.hidden_size(), config.intermediate_size()));
}

Tensor BertIntermediateImpl::forward(const Tensor& hidden) {
  return apply_activation(config.hidden_act(), dense->forward(hidden));
}

BertLayerImpl::BertLayerImpl(BertConfig config_) : config(std::move(config_)) { reset(); }

void BertLayerImpl::reset() {
  attention = register_module("attention", BertAttention(config));
  intermediate = register_module("intermediate", BertIntermediate(config));
  output = register_module("output", BertResidualOutput(config, config.intermediate_size()));
}

Tensor BertLayerImpl::forward(const Tensor& hidden, const Tensor& additive_mask) {
  const Tensor attended = attention->forward(hidden, additive_mask);
  return output->forward(intermediate->forward(attended), attended);
}

BertEncoderImpl::BertEncoderImpl(BertConfig config_) : config(std::move(config_)) { reset(); }

void BertEncoderImpl::reset() {
  layer = register_module("layer", nn::ModuleList());
  for (int64_t i = 0; i < config.num_hidden_layers(); ++i) layer->push_back(BertLayer(config));
}

Tensor BertEncoderImpl::forward(const Tensor& hidden, const Tensor& additive_mask) {
  Tensor x = hidden;
  for (size_t i = 0; i < layer->size(); ++i) x = layer[i]->as<BertLayerImpl>()->forward(x, additive_mask);
  return x;
}

BertPoolerImpl::BertPoolerImpl(BertConfig config_) : config(std::move(config_)) { reset(); }

void BertPoolerImpl::reset() {
  dense = register_module("dense", nn::Linear(config.hidden_size(), config.hidden_size()));
}

Tensor BertPoolerImpl::forward(const Tensor& hidden) { return tanh(dense->forward(hidden.select(1, 0))); }

// Note [BERT attention mask]
// Hugging Face turns the keep-mask m (1 = attend) into the additive mask
// (1 - m) * lowest(dtype), added to the scores before the softmax, instead of
// -inf: a query whose keys are all masked then gets (almost) uniform weights
// over them rather than NaN, and masked positions of the output still hold
// values. A [B, T] mask masks keys; a [B, T, T] mask is per (query, key) pair.
Tensor extended_attention_mask(const Tensor& attention_mask, int64_t batch, int64_t seq_len, ScalarType dtype) {
  const Tensor& m = attention_mask;
  const bool keys_only = m.dim() == 2 && (m.size(0) == batch || m.size(0) == 1) && m.size(1) == seq_len;
  const bool pairs =
      m.dim() == 3 && (m.size(0) == batch || m.size(0) == 1) && m.size(1) == seq_len && m.size(2) == seq_len;
  EMBER_CHECK(keys_only || pairs, "BertModel: attention_mask of shape ", m.sizes(),
              " does not match input_ids [batch = ", batch, ", seq_len = ", seq_len,
              "]; expected [batch, seq_len] or [batch, seq_len, seq_len]");
  EMBER_CHECK(!m.is_complex(), "BertModel: attention_mask must be real or bool, got ", m.scalar_type());
  const Tensor keep = keys_only ? m.unsqueeze(1).unsqueeze(1) : m.unsqueeze(1);
  const double lowest = dtype == kDouble ? std::numeric_limits<double>::lowest()
                                         : static_cast<double>(std::numeric_limits<float>::lowest());
  return (1.0 - keep.to(dtype)) * lowest;
}

}  // namespace bert

BertModelImpl::BertModelImpl(BertConfig config_, bool add_pooling_layer)
    : config(std::move(config_)), add_pooling_layer(add_pooling_layer) {
  reset();
}

void BertModelImpl::reset() {
  check_config(config);
  embeddings = register_module("embeddings", bert::BertEmbeddings(config));
  encoder = register_module("encoder", bert::BertEncoder(config));
  if (add_pooling_layer) pooler = register_module("pooler", bert::BertPooler(config));
  // Hugging Face's initialisation: weights N(0, initializer_range), biases 0,
  // LayerNorm 1 and 0, the padding row of the word embeddings 0.
  NoGradGuard no_grad;
  for (const auto& item : named_parameters()) {
    const std::string& name = item.key();
    Tensor p = item.value();
    const bool norm = name.find("LayerNorm.") != std::string::npos;
    const bool bias = name.size() >= 4 && name.compare(name.size() - 4, 4, "bias") == 0;
    if (norm) {
      bias ? nn::init::zeros_(p) : nn::init::ones_(p);
    } else if (bias) {
      nn::init::zeros_(p);
    } else {
      nn::init::normal_(p, 0.0, config.initializer_range());
    }
  }
  embeddings->word_embeddings->weight.select(0, config.pad_token_id()).zero_();
}

std::tuple<Tensor, Tensor> BertModelImpl::forward(const Tensor& input_ids, const std::optional<Tensor>& attention_mask,
                                                  const std::optional<Tensor>& token_type_ids,
                                                  const std::optional<Tensor>& position_ids) {
  EMBER_CHECK(input_ids.defined() && input_ids.dim() == 2,
              "BertModel: expected input_ids of shape [batch, seq_len], got ",
              input_ids.defined() ? input_ids.sizes() : IntArrayRef{});
  const int64_t batch = input_ids.size(0), seq_len = input_ids.size(1);
  EMBER_CHECK(seq_len > 0, "BertModel: input_ids ", input_ids.sizes(), " holds no tokens (the pooler reads the first)");
  EMBER_CHECK(seq_len <= config.max_position_embeddings(), "BertModel: a sequence of ", seq_len,
              " tokens is longer than max_position_embeddings ", config.max_position_embeddings());
  check_ids(input_ids, "input_ids", config.vocab_size(), input_ids);
  Tensor types, positions, mask;
  if (token_type_ids.has_value() && token_type_ids->defined()) {
    types = *token_type_ids;
    check_ids(types, "token_type_ids", config.type_vocab_size(), input_ids);
    EMBER_CHECK(matches_ids(types, batch, seq_len), "BertModel: token_type_ids of shape ", types.sizes(),
                " does not match input_ids ", input_ids.sizes());
    types = types.expand({batch, seq_len});
  }
  if (position_ids.has_value() && position_ids->defined()) {
    positions = *position_ids;
    check_ids(positions, "position_ids", config.max_position_embeddings(), input_ids);
    EMBER_CHECK(matches_ids(positions, batch, seq_len), "BertModel: position_ids of shape ", positions.sizes(),
                " does not match input_ids ", input_ids.sizes());
  }
  const Tensor hidden = embeddings->forward(input_ids, types, positions);
  if (attention_mask.has_value() && attention_mask->defined()) {
    mask = bert::extended_attention_mask(*attention_mask, batch, seq_len, hidden.scalar_type());
  }
  const Tensor last = encoder->forward(hidden, mask);
  return {last, add_pooling_layer ? pooler->forward(last) : Tensor()};
}

}  // namespace torch::text::models
