#include "ember/text/models/roberta_modules.h"

#include <string>

#include "ember/autograd/grad_mode.h"
#include "ember/core/error.h"
#include "ember/nn/modules/transformer_layer.h"
#include "ember/ops/elementwise/operators.h"
#include "ember/ops/factory/factory.h"

namespace torch::text::models::roberta::modules {

PositionalEmbeddingImpl::PositionalEmbeddingImpl(int64_t num_embeddings, int64_t embedding_dim, int64_t pad_index)
    : num_embeddings(num_embeddings), embedding_dim(embedding_dim), pad_index(pad_index) {
  reset();
}

void PositionalEmbeddingImpl::reset() {
  EMBER_CHECK(pad_index >= 0 && pad_index < num_embeddings, "PositionalEmbedding: pad_index ", pad_index,
              " is not in [0, num_embeddings = ", num_embeddings, ")");
  embedding = register_module(
      "embedding", nn::Embedding(nn::EmbeddingOptions(num_embeddings, embedding_dim).padding_idx(pad_index)));
}

int64_t PositionalEmbeddingImpl::max_positions() const { return num_embeddings - pad_index - 1; }

Tensor PositionalEmbeddingImpl::forward(const Tensor& input) {
  EMBER_CHECK(input.dim() == 2, "PositionalEmbedding: expected tokens of shape [batch, seq_len], got ", input.sizes());
  EMBER_CHECK(input.size(1) <= max_positions(), "PositionalEmbedding: a sequence of ", input.size(1),
              " tokens is longer than the ", max_positions(), " positions of the table (max_seq_len ", num_embeddings,
              " - padding_idx - 1)");
  const Tensor masked = input.ne(pad_index).to(kLong);
  return embedding->forward(masked.cumsum(1) * masked + pad_index);
}

TransformerEncoderLayerImpl::TransformerEncoderLayerImpl(TransformerEncoderLayerOptions options_)
    : options(std::move(options_)) {
  reset();
}

void TransformerEncoderLayerImpl::reset() {
  const auto& o = options;
  EMBER_CHECK(o.embedding_dim() > 0 && o.num_attention_heads() > 0 && o.embedding_dim() % o.num_attention_heads() == 0,
              "TransformerEncoderLayer: embedding_dim ", o.embedding_dim(), " must be a positive multiple of ",
              "num_attention_heads ", o.num_attention_heads());
  const int64_t ffn = o.ffn_dimension().value_or(0) != 0 ? *o.ffn_dimension() : 4 * o.embedding_dim();
  better_transformer = register_module(
      "better_transformer",
      nn::TransformerEncoderLayer(nn::TransformerEncoderLayerOptions(o.embedding_dim(), o.num_attention_heads())
                                      .dim_feedforward(ffn)
                                      .dropout(o.dropout())
                                      .activation(torch::kGELU)
                                      .batch_first(true)
                                      .norm_first(o.normalize_before())));
}

Tensor TransformerEncoderLayerImpl::forward(const Tensor& input, const Tensor& key_padding_mask,
                                            const Tensor& attn_mask) {
  EMBER_CHECK(input.dim() == 3,
              "TransformerEncoderLayer: expected input of shape [seq_len, batch, embedding_dim], got ", input.sizes());
  return better_transformer->forward(input.transpose(0, 1), attn_mask, key_padding_mask).transpose(0, 1);
}

TransformerEncoderImpl::TransformerEncoderImpl(TransformerEncoderOptions options_) : options(std::move(options_)) {
  reset();
}

void TransformerEncoderImpl::reset() {
  const auto& o = options;
  EMBER_CHECK(o.vocab_size() > 0 && o.embedding_dim() > 0 && o.num_encoder_layers() >= 0 && o.num_attention_heads() > 0,
              "TransformerEncoder: vocab_size ", o.vocab_size(), ", embedding_dim ", o.embedding_dim(),
              ", num_encoder_layers ", o.num_encoder_layers(), " and num_attention_heads ", o.num_attention_heads(),
              " must be positive");
  EMBER_CHECK(o.embedding_dim() % o.num_attention_heads() == 0, "TransformerEncoder: embedding_dim ", o.embedding_dim(),
              " is not divisible by num_attention_heads ", o.num_attention_heads());
  EMBER_CHECK(o.padding_idx() >= 0 && o.padding_idx() < o.vocab_size(), "TransformerEncoder: padding_idx ",
              o.padding_idx(), " is not in [0, vocab_size = ", o.vocab_size(), ")");
  const int64_t ffn = o.ffn_dimension().value_or(4 * o.embedding_dim());
  token_embedding = register_module(
      "token_embedding",
      nn::Embedding(nn::EmbeddingOptions(o.vocab_size(), o.embedding_dim()).padding_idx(o.padding_idx())));
  layers = register_module("layers", nn::TransformerEncoder(nn::TransformerEncoderOptions(
                                         nn::TransformerEncoderLayerOptions(o.embedding_dim(), o.num_attention_heads())
                                             .dim_feedforward(ffn)
                                             .dropout(o.dropout())
                                             .activation(torch::kGELU)
                                             .batch_first(true)
                                             .norm_first(o.normalize_before()),
                                         o.num_encoder_layers())));
  positional_embedding =
      register_module("positional_embedding", PositionalEmbedding(o.max_seq_len(), o.embedding_dim(), o.padding_idx()));
  embedding_layer_norm =
      register_module("embedding_layer_norm", nn::LayerNorm(nn::LayerNormOptions({o.embedding_dim()})));
  dropout = register_module("dropout", nn::Dropout(o.dropout()));
}

Tensor TransformerEncoderImpl::embed(const Tensor& tokens, const Tensor& attn_mask, const char* fn) {
  if (attn_mask.defined()) {
    EMBER_CHECK(attn_mask.is_floating_point() || attn_mask.scalar_type() == kBool, fn,
                ": Only float or bool types are supported for attn_mask not ", attn_mask.scalar_type());
  }
  EMBER_CHECK(tokens.dim() == 2, fn, ": expected tokens of shape [batch, seq_len], got ", tokens.sizes());
  EMBER_CHECK(tokens.scalar_type() == kLong || tokens.scalar_type() == kInt, fn, ": expected int64 token ids, got ",
              tokens.scalar_type());
  Tensor embedded = token_embedding->forward(tokens) + positional_embedding->forward(tokens);
  if (!options.normalize_before()) embedded = embedding_layer_norm->forward(embedded);
  return dropout->forward(embedded);
}

namespace {

// Whether torch.nn.TransformerEncoder (1.13) takes its nested-tensor path for
// this call; see Note [Nested-tensor fast path].
bool takes_nested_path(nn::TransformerEncoderImpl& layers, const Tensor& src) {
  if (layers.layers->size() == 0) return false;
  const auto* first = layers.layers[0]->as<nn::TransformerEncoderLayerImpl>();
  if (first == nullptr || first->is_training() || first->options.norm_first() || first->options.nhead() % 2 != 0) {
    return false;
  }
  if (!GradMode::is_enabled()) return true;
  if (src.requires_grad()) return false;
  for (const Tensor& p : first->parameters()) {
    if (p.requires_grad()) return false;
  }
  return true;
}

}  // namespace

// Note [Nested-tensor fast path]
// torchtext builds torch.nn.TransformerEncoder with enable_nested_tensor=True and
// mask_check=False and always passes the padding mask. In PyTorch 1.13, in eval
// mode with no gradient to record (and an even head count, post-norm), that
// module packs row b into a nested tensor of its first n_b tokens, n_b being the
// row's count of non-pad tokens (wherever the pads are), runs the layers on those
// without a mask, and unpacks with zeros: positions >= n_b come back as 0 and the
// output has max_b n_b positions, not T. Training, or any gradient to record,
// takes the ordinary masked path, whose padded positions hold values. We give
// the same results: on that path the layers run under the key padding mask
// "position >= n_b", then those positions are zeroed and the rows cut to max n_b.
Tensor TransformerEncoderImpl::forward(const Tensor& tokens, const Tensor& attn_mask) {
  EMBER_CHECK(!options.return_all_layers(),
              "TransformerEncoder: return_all_layers is set, so the layers' outputs come from forward_all_layers");
  const Tensor embedded = embed(tokens, attn_mask, "TransformerEncoder");
  const Tensor padding_mask = tokens.eq(options.padding_idx());
  Tensor encoded;
  if (takes_nested_path(*layers, embedded)) {
    const Tensor lengths = padding_mask.logical_not().sum({1});
    const Tensor beyond = arange(tokens.size(1), TensorOptions().dtype(kLong)).unsqueeze(0) >= lengths.unsqueeze(1);
    encoded = layers->forward(embedded, Tensor(), beyond).masked_fill(beyond.unsqueeze(-1), 0.0);
    const int64_t longest = tokens.size(0) == 0 ? tokens.size(1) : lengths.max().item<int64_t>();
    encoded = encoded.narrow(1, 0, longest);
  } else {
    encoded = layers->forward(embedded, Tensor(), padding_mask);
  }
  encoded = encoded.transpose(1, 0);
  if (options.normalize_before()) encoded = embedding_layer_norm->forward(encoded);
  return encoded;
}

std::vector<Tensor> TransformerEncoderImpl::forward_all_layers(const Tensor& tokens, const Tensor& attn_mask) {
  Tensor encoded = embed(tokens, attn_mask, "TransformerEncoder.forward_all_layers");
  const Tensor padding_mask = tokens.eq(options.padding_idx());
  std::vector<Tensor> states{encoded.transpose(1, 0)};
  for (size_t i = 0; i < layers->layers->size(); ++i) {
    auto* layer = layers->layers[i]->as<nn::TransformerEncoderLayerImpl>();
    encoded = layer->forward(encoded, attn_mask, padding_mask);
    states.push_back(encoded.transpose(1, 0));
  }
  if (options.normalize_before()) {
    for (Tensor& state : states) state = embedding_layer_norm->forward(state);
  }
  return states;
}

}  // namespace torch::text::models::roberta::modules
