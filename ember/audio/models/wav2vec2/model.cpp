#include "ember/audio/models/wav2vec2/model.h"

#include "ember/core/error.h"
#include "ember/ops/all_ops.h"

namespace torch::audio::models {

namespace C = wav2vec2::components;

Wav2Vec2ModelImpl::Wav2Vec2ModelImpl(C::FeatureExtractor feature_extractor_, C::Encoder encoder_, nn::Linear aux_) {
  feature_extractor = register_module("feature_extractor", std::move(feature_extractor_));
  encoder = register_module("encoder", std::move(encoder_));
  if (!aux_.is_empty()) aux = register_module("aux", std::move(aux_));
}

std::tuple<Tensor, std::optional<Tensor>> Wav2Vec2ModelImpl::forward(const Tensor& waveforms,
                                                                     const std::optional<Tensor>& lengths) {
  auto [x, out_lengths] = feature_extractor->forward(waveforms, lengths);
  x = encoder->forward(x, out_lengths);
  if (!aux.is_empty()) x = aux->forward(x);
  return {x, out_lengths};
}

std::tuple<std::vector<Tensor>, std::optional<Tensor>> Wav2Vec2ModelImpl::extract_features(
    const Tensor& waveforms, const std::optional<Tensor>& lengths, std::optional<int64_t> num_layers) {
  auto [x, out_lengths] = feature_extractor->forward(waveforms, lengths);
  return {encoder->extract_features(x, out_lengths, num_layers), out_lengths};
}

Wav2Vec2Model wav2vec2_model(const std::string& extractor_mode,
                             const std::optional<C::ConvLayerConfig>& extractor_conv_layer_config,
                             bool extractor_conv_bias, int64_t encoder_embed_dim, double encoder_projection_dropout,
                             int64_t encoder_pos_conv_kernel, int64_t encoder_pos_conv_groups,
                             int64_t encoder_num_layers, int64_t encoder_num_heads, double encoder_attention_dropout,
                             int64_t encoder_ff_interm_features, double encoder_ff_interm_dropout,
                             double encoder_dropout, bool encoder_layer_norm_first, double encoder_layer_drop,
                             std::optional<int64_t> aux_num_out) {
  C::ConvLayerConfig config;
  if (extractor_conv_layer_config) {
    config = *extractor_conv_layer_config;
  } else {
    config.emplace_back(512, 10, 5);
    for (int i = 0; i < 4; ++i) config.emplace_back(512, 3, 2);
    for (int i = 0; i < 2; ++i) config.emplace_back(512, 2, 2);
  }
  EMBER_CHECK(encoder_embed_dim > 0 && encoder_num_layers >= 0 && encoder_ff_interm_features > 0,
              "wav2vec2_model: encoder sizes must be positive, got embed_dim ", encoder_embed_dim, ", num_layers ",
              encoder_num_layers, ", ff_interm_features ", encoder_ff_interm_features);
  auto feature_extractor = C::get_feature_extractor(extractor_mode, config, extractor_conv_bias);
  auto encoder = C::get_encoder(std::get<0>(config.back()), encoder_embed_dim, encoder_projection_dropout,
                                encoder_pos_conv_kernel, encoder_pos_conv_groups, encoder_num_layers, encoder_num_heads,
                                encoder_attention_dropout, encoder_ff_interm_features, encoder_ff_interm_dropout,
                                encoder_dropout, encoder_layer_norm_first, encoder_layer_drop);
  nn::Linear aux{nullptr};
  if (aux_num_out) {
    EMBER_CHECK(*aux_num_out > 0, "wav2vec2_model: aux_num_out must be positive, got ", *aux_num_out);
    aux = nn::Linear(encoder_embed_dim, *aux_num_out);
  }
  return Wav2Vec2Model(feature_extractor, encoder, aux);
}

namespace {

// The architectures of the published models; only the dropouts and aux vary per call.
struct Arch {
  const char* mode;
  bool conv_bias;
  int64_t embed_dim, num_layers, num_heads, ff_interm;
  bool layer_norm_first;
};

Wav2Vec2Model build(const Arch& a, double proj_dropout, double attn_dropout, double ff_dropout, double dropout,
                    double layer_drop, std::optional<int64_t> aux_num_out) {
  return wav2vec2_model(a.mode, std::nullopt, a.conv_bias, a.embed_dim, proj_dropout, 128, 16, a.num_layers,
                        a.num_heads, attn_dropout, a.ff_interm, ff_dropout, dropout, a.layer_norm_first, layer_drop,
                        aux_num_out);
}

constexpr Arch kBase{"group_norm", false, 768, 12, 12, 3072, false};
constexpr Arch kLarge{"group_norm", false, 1024, 24, 16, 4096, false};
constexpr Arch kLargeLv60k{"layer_norm", true, 1024, 24, 16, 4096, true};
constexpr Arch kHubertLarge{"layer_norm", false, 1024, 24, 16, 4096, true};
constexpr Arch kHubertXLarge{"layer_norm", false, 1280, 48, 16, 5120, true};

}  // namespace

Wav2Vec2Model wav2vec2_base(double p, double a, double f, double d, double l, std::optional<int64_t> aux) {
  return build(kBase, p, a, f, d, l, aux);
}
Wav2Vec2Model wav2vec2_large(double p, double a, double f, double d, double l, std::optional<int64_t> aux) {
  return build(kLarge, p, a, f, d, l, aux);
}
Wav2Vec2Model wav2vec2_large_lv60k(double p, double a, double f, double d, double l, std::optional<int64_t> aux) {
  return build(kLargeLv60k, p, a, f, d, l, aux);
}
Wav2Vec2Model hubert_base(double p, double a, double f, double d, double l, std::optional<int64_t> aux) {
  return build(kBase, p, a, f, d, l, aux);
}
Wav2Vec2Model hubert_large(double p, double a, double f, double d, double l, std::optional<int64_t> aux) {
  return build(kHubertLarge, p, a, f, d, l, aux);
}
Wav2Vec2Model hubert_xlarge(double p, double a, double f, double d, double l, std::optional<int64_t> aux) {
  return build(kHubertXLarge, p, a, f, d, l, aux);
}

}  // namespace torch::audio::models
