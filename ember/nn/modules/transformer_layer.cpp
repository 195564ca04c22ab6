#include "ember/nn/modules/transformer_layer.h"

#include <variant>

#include "ember/ops/elementwise/operators.h"
#include "ember/ops/elementwise/unary.h"
#include "ember/ops/nn/relu_dropout.h"

namespace torch::nn {

namespace detail {
Tensor apply_transformer_activation(const TransformerActivation& activation, const Tensor& x) {
  if (std::holds_alternative<enumtype::kReLU>(activation)) return relu(x);
  if (std::holds_alternative<enumtype::kGELU>(activation)) return gelu(x);
  const auto& fn = std::get<std::function<Tensor(const Tensor&)>>(activation);
  EMBER_CHECK(static_cast<bool>(fn), "Transformer layer: the activation callable is empty");
  return fn(x);
}

namespace {
// The feed-forward block's activation and dropout. relu then dropout while training is
// one pass (Note [Relu then dropout], same values and gradients); otherwise the two ops.
Tensor activation_then_dropout(const TransformerActivation& activation, Dropout& drop, const Tensor& h) {
  if (std::holds_alternative<enumtype::kReLU>(activation) && drop->is_training() && !drop->options.inplace())
    return relu_dropout(h, drop->options.p(), true);
  return drop(apply_transformer_activation(activation, h));
}

template <typename Options>
MultiheadAttentionOptions attention_options(const Options& o) {
  return MultiheadAttentionOptions(o.d_model(), o.nhead()).dropout(o.dropout()).batch_first(o.batch_first());
}
template <typename Options>
LayerNorm layer_norm_for(const Options& o) {
  return LayerNorm(LayerNormOptions({o.d_model()}).eps(o.layer_norm_eps()));
}
template <typename Options>
void check_layer_options(const char* name, const Options& o) {
  EMBER_CHECK(o.d_model() > 0 && o.nhead() > 0 && o.dim_feedforward() > 0, name,
              ": d_model, nhead and dim_feedforward must be positive, got d_model=", o.d_model(), ", nhead=", o.nhead(),
              ", dim_feedforward=", o.dim_feedforward());
  EMBER_CHECK(o.d_model() % o.nhead() == 0, name, ": d_model (embed_dim) must be divisible by nhead (num_heads), got ",
              "d_model=", o.d_model(), ", nhead=", o.nhead());
}
}  // namespace
}  // namespace detail

// ---- encoder layer ----

TransformerEncoderLayerImpl::TransformerEncoderLayerImpl(TransformerEncoderLayerOptions options_)
    : options(std::move(options_)) {
  reset();
}

void TransformerEncoderLayerImpl::reset() {
  detail::check_layer_options("TransformerEncoderLayer", options);
  self_attn = register_module("self_attn", MultiheadAttention(detail::attention_options(options)));
  linear1 = register_module("linear1", Linear(options.d_model(), options.dim_feedforward()));
  dropout = register_module("dropout", Dropout(options.dropout()));
  linear2 = register_module("linear2", Linear(options.dim_feedforward(), options.d_model()));
  norm1 = register_module("norm1", detail::layer_norm_for(options));
  norm2 = register_module("norm2", detail::layer_norm_for(options));
  dropout1 = register_module("dropout1", Dropout(options.dropout()));
  dropout2 = register_module("dropout2", Dropout(options.dropout()));
}

void TransformerEncoderLayerImpl::reset_parameters() {
  self_attn->_reset_parameters();
  linear1->reset_parameters();
  linear2->reset_parameters();
  norm1->reset_parameters();
  norm2->reset_parameters();
}

Tensor TransformerEncoderLayerImpl::sa_block(const Tensor& x, const Tensor& mask, const Tensor& key_padding_mask) {
  return dropout1(std::get<0>(self_attn(x, x, x, key_padding_mask, /*need_weights=*/false, mask)));
}

Tensor TransformerEncoderLayerImpl::ff_block(const Tensor& x) {
  return dropout2(linear2(detail::activation_then_dropout(options.activation(), dropout, linear1(x))));
}

Tensor TransformerEncoderLayerImpl::forward(const Tensor& src, const Tensor& src_mask,
                                            const Tensor& src_key_padding_mask) {
  Tensor x = src;
  if (options.norm_first()) {
    x = x + sa_block(norm1(x), src_mask, src_key_padding_mask);
    x = x + ff_block(norm2(x));
  } else {
    x = norm1(x + sa_block(x, src_mask, src_key_padding_mask));
    x = norm2(x + ff_block(x));
  }
  return x;
}

// ---- decoder layer ----

TransformerDecoderLayerImpl::TransformerDecoderLayerImpl(TransformerDecoderLayerOptions options_)
    : options(std::move(options_)) {
  reset();
}

void TransformerDecoderLayerImpl::reset() {
  detail::check_layer_options("TransformerDecoderLayer", options);
  self_attn = register_module("self_attn", MultiheadAttention(detail::attention_options(options)));
  multihead_attn = register_module("multihead_attn", MultiheadAttention(detail::attention_options(options)));
  linear1 = register_module("linear1", Linear(options.d_model(), options.dim_feedforward()));
  dropout = register_module("dropout", Dropout(options.dropout()));
  linear2 = register_module("linear2", Linear(options.dim_feedforward(), options.d_model()));
  norm1 = register_module("norm1", detail::layer_norm_for(options));
  norm2 = register_module("norm2", detail::layer_norm_for(options));
  norm3 = register_module("norm3", detail::layer_norm_for(options));
  dropout1 = register_module("dropout1", Dropout(options.dropout()));
  dropout2 = register_module("dropout2", Dropout(options.dropout()));
  dropout3 = register_module("dropout3", Dropout(options.dropout()));
}

void TransformerDecoderLayerImpl::reset_parameters() {
  self_attn->_reset_parameters();
  multihead_attn->_reset_parameters();
  linear1->reset_parameters();
  linear2->reset_parameters();
  norm1->reset_parameters();
  norm2->reset_parameters();
  norm3->reset_parameters();
}

Tensor TransformerDecoderLayerImpl::sa_block(const Tensor& x, const Tensor& mask, const Tensor& key_padding_mask) {
  return dropout1(std::get<0>(self_attn(x, x, x, key_padding_mask, /*need_weights=*/false, mask)));
}

Tensor TransformerDecoderLayerImpl::mha_block(const Tensor& x, const Tensor& memory, const Tensor& mask,
                                              const Tensor& key_padding_mask) {
  return dropout2(std::get<0>(multihead_attn(x, memory, memory, key_padding_mask, /*need_weights=*/false, mask)));
}

Tensor TransformerDecoderLayerImpl::ff_block(const Tensor& x) {
  return dropout3(linear2(detail::activation_then_dropout(options.activation(), dropout, linear1(x))));
}

Tensor TransformerDecoderLayerImpl::forward(const Tensor& tgt, const Tensor& memory, const Tensor& tgt_mask,
                                            const Tensor& memory_mask, const Tensor& tgt_key_padding_mask,
                                            const Tensor& memory_key_padding_mask) {
  Tensor x = tgt;
  if (options.norm_first()) {
    x = x + sa_block(norm1(x), tgt_mask, tgt_key_padding_mask);
    x = x + mha_block(norm2(x), memory, memory_mask, memory_key_padding_mask);
    x = x + ff_block(norm3(x));
  } else {
    x = norm1(x + sa_block(x, tgt_mask, tgt_key_padding_mask));
    x = norm2(x + mha_block(x, memory, memory_mask, memory_key_padding_mask));
    x = norm3(x + ff_block(x));
  }
  return x;
}

}  // namespace torch::nn
