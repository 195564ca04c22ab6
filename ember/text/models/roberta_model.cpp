#include "ember/text/models/roberta_model.h"

#include <cmath>

#include "ember/core/error.h"
#include "ember/nn/modules/activation.h"
#include "ember/ops/elementwise/operators.h"

namespace torch::text::models {

RobertaEncoderImpl::RobertaEncoderImpl(const RobertaEncoderConf& conf, bool freeze) : conf(conf), freeze(freeze) {
  reset();
}

void RobertaEncoderImpl::reset() {
  transformer =
      register_module("transformer", roberta::modules::TransformerEncoder(
                                         roberta::modules::TransformerEncoderOptions(
                                             conf.vocab_size(), conf.embedding_dim(), conf.padding_idx(),
                                             conf.max_seq_len(), conf.num_encoder_layers(), conf.num_attention_heads())
                                             .ffn_dimension(conf.ffn_dimension())
                                             .dropout(conf.dropout())
                                             .normalize_before(conf.normalize_before())
                                             .scaling(conf.scaling())));
  if (freeze) {
    for (Tensor& p : parameters()) p.set_requires_grad(false);
  }
}

Tensor RobertaEncoderImpl::forward(const Tensor& tokens, const std::optional<Tensor>& masked_tokens) {
  // [T, B, C] from the stack, back to batch-first.
  Tensor output = transformer->forward(tokens).transpose(1, 0);
  if (masked_tokens.has_value() && masked_tokens->defined()) {
    const Tensor& m = *masked_tokens;
    EMBER_CHECK(m.dim() == 2 && m.size(0) == output.size(0) && m.size(1) == output.size(1),
                "RobertaEncoder: masked_tokens of shape ", m.sizes(), " does not match the output's [batch, seq_len] ",
                output.sizes().slice(0, 2));
    const Tensor rows = m.to(kBool).reshape({-1}).nonzero().squeeze(1);
    output = output.reshape({-1, output.size(2)}).index_select(0, rows);
  }
  return output;
}

RobertaClassificationHeadImpl::RobertaClassificationHeadImpl(int64_t num_classes, int64_t input_dim,
                                                             std::optional<int64_t> inner_dim, double dropout,
                                                             nn::AnyModule activation)
    : RobertaClassificationHeadImpl(RobertaClassificationHeadOptions(num_classes, input_dim)
                                        .inner_dim(inner_dim)
                                        .dropout(dropout)
                                        .activation(std::move(activation))) {}

RobertaClassificationHeadImpl::RobertaClassificationHeadImpl(RobertaClassificationHeadOptions options_)
    : options(std::move(options_)) {
  reset();
}

void RobertaClassificationHeadImpl::reset() {
  EMBER_CHECK(options.num_classes() > 0 && options.input_dim() > 0, "RobertaClassificationHead: num_classes ",
              options.num_classes(), " and input_dim ", options.input_dim(), " must be positive");
  const int64_t inner =
      options.inner_dim().has_value() && *options.inner_dim() != 0 ? *options.inner_dim() : options.input_dim();
  EMBER_CHECK(inner > 0, "RobertaClassificationHead: inner_dim ", inner, " must be positive");
  dense = register_module("dense", nn::Linear(options.input_dim(), inner));
  dropout = register_module("dropout", nn::Dropout(options.dropout()));
  out_proj = register_module("out_proj", nn::Linear(inner, options.num_classes()));
  // A re-reset (clone() resets the copy) gets its own activation module, not the original's.
  activation_fn = options.activation().is_empty() ? nn::AnyModule(nn::ReLU())
                  : built_                        ? options.activation().clone()
                                                  : options.activation();
  register_module("activation_fn", activation_fn.ptr());
  built_ = true;
}

Tensor RobertaClassificationHeadImpl::forward(const Tensor& features) {
  EMBER_CHECK(features.dim() == 3 && features.size(1) > 0, "RobertaClassificationHead: expected features of shape ",
              "[batch, seq_len >= 1, input_dim], got ", features.sizes());
  Tensor x = features.select(1, 0);
  x = dropout->forward(x);
  x = dense->forward(x);
  x = activation_fn.forward(x);
  x = dropout->forward(x);
  return out_proj->forward(x);
}

RobertaModelImpl::RobertaModelImpl(const RobertaEncoderConf& encoder_conf, nn::AnyModule head, bool freeze_encoder)
    : encoder_conf(encoder_conf), freeze_encoder(freeze_encoder), head(std::move(head)) {
  reset();
}

void RobertaModelImpl::reset() {
  encoder = register_module("encoder", RobertaEncoder(encoder_conf, freeze_encoder));
  // The first reset registers the caller's head (as Python keeps the module it
  // is given); a re-reset (clone() resets the copy) registers a copy of it.
  if (!head.is_empty()) {
    if (built_) head = head.clone();
    register_module("head", head.ptr());
  }
  built_ = true;
}

Tensor RobertaModelImpl::forward(const Tensor& tokens, const std::optional<Tensor>& masked_tokens) {
  Tensor features = encoder->forward(tokens, masked_tokens);
  if (head.is_empty()) return features;
  return head.forward(features);
}

}  // namespace torch::text::models
