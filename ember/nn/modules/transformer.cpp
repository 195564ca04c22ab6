#include "ember/nn/modules/transformer.h"

#include <limits>

#include "ember/nn/init.h"
#include "ember/ops/factory/factory.h"
#include "ember/ops/shape/shape_ops.h"

namespace torch::nn {

// Out of line so that including the options does not instantiate the
// layers' construction.
TransformerEncoderOptions::TransformerEncoderOptions(const TransformerEncoderLayerOptions& encoder_layer_options,
                                                     int64_t num_layers)
    : encoder_layer_(std::make_shared<TransformerEncoderLayerImpl>(encoder_layer_options)), num_layers_(num_layers) {}
TransformerDecoderOptions::TransformerDecoderOptions(const TransformerDecoderLayerOptions& decoder_layer_options,
                                                     int64_t num_layers)
    : decoder_layer_(std::make_shared<TransformerDecoderLayerImpl>(decoder_layer_options)), num_layers_(num_layers) {}

namespace {
// The final norm is cloned, so the caller's module is not shared with this stack.
void register_norm(Module& self, AnyModule& norm, const AnyModule& given) {
  if (given.is_empty()) return;
  norm = given.clone();
  self.register_module("norm", norm.ptr());
}
}  // namespace

// ---- encoder ----

TransformerEncoderImpl::TransformerEncoderImpl(TransformerEncoderOptions options_) : options(std::move(options_)) {
  reset();
}

void TransformerEncoderImpl::reset() {
  EMBER_CHECK(!options.encoder_layer().is_empty(), "TransformerEncoder: encoder_layer is null");
  EMBER_CHECK(options.num_layers() >= 0, "TransformerEncoder: num_layers must be non-negative, got ",
              options.num_layers());
  layers = register_module("layers", ModuleList());
  for (int64_t i = 0; i < options.num_layers(); ++i) layers->push_back(options.encoder_layer()->clone());
  register_norm(*this, norm, options.norm());
}

void TransformerEncoderImpl::reset_parameters() {
  for (size_t i = 0; i < layers->size(); ++i) layers->at<TransformerEncoderLayerImpl>(i).reset_parameters();
}

Tensor TransformerEncoderImpl::forward(const Tensor& src, const Tensor& src_mask, const Tensor& src_key_padding_mask) {
  Tensor x = src;
  for (size_t i = 0; i < layers->size(); ++i)
    x = layers->at<TransformerEncoderLayerImpl>(i).forward(x, src_mask, src_key_padding_mask);
  if (!norm.is_empty()) x = norm.forward<Tensor>(x);
  return x;
}

// ---- decoder ----

TransformerDecoderImpl::TransformerDecoderImpl(TransformerDecoderOptions options_) : options(std::move(options_)) {
  reset();
}

void TransformerDecoderImpl::reset() {
  EMBER_CHECK(!options.decoder_layer().is_empty(), "TransformerDecoder: decoder_layer is null");
  EMBER_CHECK(options.num_layers() >= 0, "TransformerDecoder: num_layers must be non-negative, got ",
              options.num_layers());
  layers = register_module("layers", ModuleList());
  for (int64_t i = 0; i < options.num_layers(); ++i) layers->push_back(options.decoder_layer()->clone());
  register_norm(*this, norm, options.norm());
}

void TransformerDecoderImpl::reset_parameters() {
  for (size_t i = 0; i < layers->size(); ++i) layers->at<TransformerDecoderLayerImpl>(i).reset_parameters();
}

Tensor TransformerDecoderImpl::forward(const Tensor& tgt, const Tensor& memory, const Tensor& tgt_mask,
                                       const Tensor& memory_mask, const Tensor& tgt_key_padding_mask,
                                       const Tensor& memory_key_padding_mask) {
  Tensor x = tgt;
  for (size_t i = 0; i < layers->size(); ++i)
    x = layers->at<TransformerDecoderLayerImpl>(i).forward(x, memory, tgt_mask, memory_mask, tgt_key_padding_mask,
                                                           memory_key_padding_mask);
  if (!norm.is_empty()) x = norm.forward<Tensor>(x);
  return x;
}

// ---- transformer ----

TransformerImpl::TransformerImpl(TransformerOptions options_) : options(std::move(options_)) { reset(); }

void TransformerImpl::reset() {
  const auto& o = options;
  auto final_norm = [&] { return AnyModule(LayerNorm(LayerNormOptions({o.d_model()}).eps(o.layer_norm_eps()))); };
  if (o.custom_encoder().is_empty()) {
    auto layer = TransformerEncoderLayerOptions(o.d_model(), o.nhead())
                     .dim_feedforward(o.dim_feedforward())
                     .dropout(o.dropout())
                     .activation(o.activation())
                     .layer_norm_eps(o.layer_norm_eps())
                     .batch_first(o.batch_first())
                     .norm_first(o.norm_first());
    encoder =
        AnyModule(TransformerEncoder(TransformerEncoderOptions(layer, o.num_encoder_layers()).norm(final_norm())));
  } else {
    encoder = o.custom_encoder().clone();
  }
  if (o.custom_decoder().is_empty()) {
    auto layer = TransformerDecoderLayerOptions(o.d_model(), o.nhead())
                     .dim_feedforward(o.dim_feedforward())
                     .dropout(o.dropout())
                     .activation(o.activation())
                     .layer_norm_eps(o.layer_norm_eps())
                     .batch_first(o.batch_first())
                     .norm_first(o.norm_first());
    decoder =
        AnyModule(TransformerDecoder(TransformerDecoderOptions(layer, o.num_decoder_layers()).norm(final_norm())));
  } else {
    decoder = o.custom_decoder().clone();
  }
  register_module("encoder", encoder.ptr());
  register_module("decoder", decoder.ptr());
  reset_parameters();
}

void TransformerImpl::reset_parameters() {
  for (auto& p : parameters())
    if (p.dim() > 1) init::xavier_uniform_(p);
}

Tensor TransformerImpl::forward(const Tensor& src, const Tensor& tgt, const Tensor& src_mask, const Tensor& tgt_mask,
                                const Tensor& memory_mask, const Tensor& src_key_padding_mask,
                                const Tensor& tgt_key_padding_mask, const Tensor& memory_key_padding_mask) {
  const int64_t batch_dim = options.batch_first() ? 0 : 1;
  // Python's unbatched 2-D form is accepted too; a mix of ranks is LibTorch's "3 dimensions" error.
  EMBER_CHECK(src.dim() == tgt.dim() && (src.dim() == 2 || src.dim() == 3), "Transformer: src and tgt should have 3 ",
              "dimensions (or both 2, unbatched), got ", shape_str(src.sizes()), " and ", shape_str(tgt.sizes()));
  EMBER_CHECK(src.dim() == 2 || src.size(batch_dim) == tgt.size(batch_dim),
              "Transformer: src and tgt should have equal batch size (at dim ", batch_dim, "), got src ",
              shape_str(src.sizes()), " and tgt ", shape_str(tgt.sizes()));
  EMBER_CHECK(src.size(-1) == options.d_model() && tgt.size(-1) == options.d_model(),
              "Transformer: src and tgt should have same feature size as d_model (", options.d_model(), "), got src ",
              shape_str(src.sizes()), " and tgt ", shape_str(tgt.sizes()));
  Tensor memory = encoder.forward<Tensor>(src, src_mask, src_key_padding_mask);
  return decoder.forward<Tensor>(tgt, memory, tgt_mask, memory_mask, tgt_key_padding_mask, memory_key_padding_mask);
}

Tensor TransformerImpl::generate_square_subsequent_mask(int64_t sz) {
  EMBER_CHECK(sz >= 0, "Transformer::generate_square_subsequent_mask: size must be non-negative, got ", sz);
  return triu(full({sz, sz}, -std::numeric_limits<float>::infinity()), 1);
}

}  // namespace torch::nn
