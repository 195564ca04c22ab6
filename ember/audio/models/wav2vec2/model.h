#pragma once
// torchaudio.models.Wav2Vec2Model and its builders (wav2vec2_model,
// wav2vec2_base/large/large_lv60k, hubert_base/large/xlarge). The module tree
// is torchaudio's: feature_extractor, encoder, aux (a Linear, when aux_num_out is set).
#include <cstdint>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "ember/audio/models/wav2vec2/components.h"
#include "ember/core/tensor.h"
#include "ember/nn/module.h"
#include "ember/nn/modules/linear.h"
#include "ember/nn/pimpl.h"

namespace torch::audio::models {

class Wav2Vec2ModelImpl : public nn::Module {
 public:
  Wav2Vec2ModelImpl(wav2vec2::components::FeatureExtractor feature_extractor, wav2vec2::components::Encoder encoder,
                    nn::Linear aux = nullptr);
  // waveforms [batch, time] (lengths [batch]: valid samples) -> (emissions
  // [batch, frame, aux_num_out or embed_dim], valid frames [batch] when lengths is given).
  std::tuple<Tensor, std::optional<Tensor>> forward(const Tensor& waveforms,
                                                    const std::optional<Tensor>& lengths = std::nullopt);
  // The outputs of the first num_layers transformer layers (every layer by default).
  std::tuple<std::vector<Tensor>, std::optional<Tensor>> extract_features(
      const Tensor& waveforms, const std::optional<Tensor>& lengths = std::nullopt,
      std::optional<int64_t> num_layers = std::nullopt);

  wav2vec2::components::FeatureExtractor feature_extractor{nullptr};
  wav2vec2::components::Encoder encoder{nullptr};
  nn::Linear aux{nullptr};
};
TORCH_MODULE(Wav2Vec2Model);

// extractor_conv_layer_config: (out_channels, kernel_size, stride) per layer;
// nullopt is wav2vec 2.0's [(512, 10, 5)] + [(512, 3, 2)] * 4 + [(512, 2, 2)] * 2.
Wav2Vec2Model wav2vec2_model(const std::string& extractor_mode,
                             const std::optional<wav2vec2::components::ConvLayerConfig>& extractor_conv_layer_config,
                             bool extractor_conv_bias, int64_t encoder_embed_dim, double encoder_projection_dropout,
                             int64_t encoder_pos_conv_kernel, int64_t encoder_pos_conv_groups,
                             int64_t encoder_num_layers, int64_t encoder_num_heads, double encoder_attention_dropout,
                             int64_t encoder_ff_interm_features, double encoder_ff_interm_dropout,
                             double encoder_dropout, bool encoder_layer_norm_first, double encoder_layer_drop,
                             std::optional<int64_t> aux_num_out);

Wav2Vec2Model wav2vec2_base(double encoder_projection_dropout = 0.1, double encoder_attention_dropout = 0.1,
                            double encoder_ff_interm_dropout = 0.1, double encoder_dropout = 0.1,
                            double encoder_layer_drop = 0.1, std::optional<int64_t> aux_num_out = std::nullopt);
Wav2Vec2Model wav2vec2_large(double encoder_projection_dropout = 0.1, double encoder_attention_dropout = 0.1,
                             double encoder_ff_interm_dropout = 0.1, double encoder_dropout = 0.1,
                             double encoder_layer_drop = 0.1, std::optional<int64_t> aux_num_out = std::nullopt);
Wav2Vec2Model wav2vec2_large_lv60k(double encoder_projection_dropout = 0.1, double encoder_attention_dropout = 0.0,
                                   double encoder_ff_interm_dropout = 0.1, double encoder_dropout = 0.0,
                                   double encoder_layer_drop = 0.1, std::optional<int64_t> aux_num_out = std::nullopt);
Wav2Vec2Model hubert_base(double encoder_projection_dropout = 0.1, double encoder_attention_dropout = 0.1,
                          double encoder_ff_interm_dropout = 0.0, double encoder_dropout = 0.1,
                          double encoder_layer_drop = 0.05, std::optional<int64_t> aux_num_out = std::nullopt);
Wav2Vec2Model hubert_large(double encoder_projection_dropout = 0.0, double encoder_attention_dropout = 0.0,
                           double encoder_ff_interm_dropout = 0.0, double encoder_dropout = 0.0,
                           double encoder_layer_drop = 0.0, std::optional<int64_t> aux_num_out = std::nullopt);
Wav2Vec2Model hubert_xlarge(double encoder_projection_dropout = 0.0, double encoder_attention_dropout = 0.0,
                            double encoder_ff_interm_dropout = 0.0, double encoder_dropout = 0.0,
                            double encoder_layer_drop = 0.0, std::optional<int64_t> aux_num_out = std::nullopt);

}  // namespace torch::audio::models
