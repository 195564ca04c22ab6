#pragma once
// torchaudio.models.HuBERTPretrainModel and hubert_pretrain_model / _base /
// _large / _xlarge: Wav2Vec2Model plus span masking and label logits, with
// torchaudio's state_dict names (wav2vec2.*, mask_generator.mask_embedding,
// logit_generator.{label_embeddings,final_proj}).
#include <cstdint>
#include <optional>
#include <string>
#include <tuple>

#include "ember/audio/models/wav2vec2/hubert_pretrain_components.h"
#include "ember/audio/models/wav2vec2/model.h"
#include "ember/core/tensor.h"
#include "ember/nn/module.h"
#include "ember/nn/pimpl.h"

namespace torch::audio::models {

class HuBERTPretrainModelImpl : public nn::Module {
 public:
  HuBERTPretrainModelImpl(Wav2Vec2Model wav2vec2, wav2vec2::components::MaskGenerator mask_generator,
                          wav2vec2::components::LogitGenerator logit_generator,
                          std::optional<double> feature_grad_mult);
  // waveforms [B, time], labels [B, frame] -> (logits of masked frames, of unmasked
  // frames, feature penalty: the mean square of the extracted features)
  std::tuple<std::optional<Tensor>, std::optional<Tensor>, Tensor> forward(
      const Tensor& waveforms, const Tensor& labels, const std::optional<Tensor>& audio_lengths = std::nullopt);

  Wav2Vec2Model wav2vec2{nullptr};
  wav2vec2::components::MaskGenerator mask_generator{nullptr};
  wav2vec2::components::LogitGenerator logit_generator{nullptr};
  std::optional<double> feature_grad_mult;
};
TORCH_MODULE(HuBERTPretrainModel);

HuBERTPretrainModel hubert_pretrain_model(
    const std::string& extractor_mode,
    const std::optional<wav2vec2::components::ConvLayerConfig>& extractor_conv_layer_config, bool extractor_conv_bias,
    int64_t encoder_embed_dim, double encoder_projection_dropout, int64_t encoder_pos_conv_kernel,
    int64_t encoder_pos_conv_groups, int64_t encoder_num_layers, int64_t encoder_num_heads,
    double encoder_attention_dropout, int64_t encoder_ff_interm_features, double encoder_ff_interm_dropout,
    double encoder_dropout, bool encoder_layer_norm_first, double encoder_layer_drop, double mask_prob,
    const std::string& mask_selection, double mask_other, int64_t mask_length, bool no_mask_overlap,
    int64_t mask_min_space, double mask_channel_prob, const std::string& mask_channel_selection,
    double mask_channel_other, int64_t mask_channel_length, bool no_mask_channel_overlap,
    int64_t mask_channel_min_space, bool skip_masked, bool skip_nomask, int64_t num_classes, int64_t final_dim,
    std::optional<double> feature_grad_mult);

HuBERTPretrainModel hubert_pretrain_base(double encoder_projection_dropout = 0.1,
                                         double encoder_attention_dropout = 0.1, double encoder_ff_interm_dropout = 0.0,
                                         double encoder_dropout = 0.1, double encoder_layer_drop = 0.05,
                                         double mask_prob = 0.8, double mask_channel_prob = 0.0,
                                         int64_t mask_channel_length = 10,
                                         std::optional<double> feature_grad_mult = 0.1, int64_t num_classes = 100);
HuBERTPretrainModel hubert_pretrain_large(double encoder_projection_dropout = 0.0,
                                          double encoder_attention_dropout = 0.0,
                                          double encoder_ff_interm_dropout = 0.0, double encoder_dropout = 0.0,
                                          double encoder_layer_drop = 0.0, double mask_prob = 0.8,
                                          double mask_channel_prob = 0.0, int64_t mask_channel_length = 10,
                                          std::optional<double> feature_grad_mult = std::nullopt);
HuBERTPretrainModel hubert_pretrain_xlarge(double encoder_projection_dropout = 0.0,
                                           double encoder_attention_dropout = 0.0,
                                           double encoder_ff_interm_dropout = 0.0, double encoder_dropout = 0.0,
                                           double encoder_layer_drop = 0.0, double mask_prob = 0.8,
                                           double mask_channel_prob = 0.0, int64_t mask_channel_length = 10,
                                           std::optional<double> feature_grad_mult = std::nullopt);

}  // namespace torch::audio::models
