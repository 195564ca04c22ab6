#pragma once
// The building blocks of torchaudio.models.wav2vec2 (components.py), with
// torchaudio's attribute names so Wav2Vec2Model's state_dict keys match:
// feature_extractor.conv_layers.<i>.{conv,layer_norm}, encoder.feature_projection,
// encoder.transformer.{pos_conv_embed.conv.{bias,weight_g,weight_v},layer_norm,layers.<i>}.
#include <cstdint>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "ember/core/tensor.h"
#include "ember/nn/module.h"
#include "ember/nn/modules/container/modulelist.h"
#include "ember/nn/modules/conv.h"
#include "ember/nn/modules/dropout.h"
#include "ember/nn/modules/linear.h"
#include "ember/nn/modules/normalization.h"
#include "ember/nn/pimpl.h"

namespace torch::audio::models::wav2vec2::components {

// nn.LayerNorm over the channel dim of a [batch, channel, frame] tensor.
class LayerNormImpl : public nn::Module {
 public:
  explicit LayerNormImpl(int64_t normalized_shape, double eps = 1e-5);
  Tensor forward(const Tensor& input);
  int64_t normalized_shape;
  double eps;
  Tensor weight, bias;
};
TORCH_MODULE(LayerNorm);

// Conv1d, optional normalization (GroupNorm or the channel LayerNorm), GELU.
class ConvLayerBlockImpl : public nn::Module {
 public:
  ConvLayerBlockImpl(int64_t in_channels, int64_t out_channels, int64_t kernel_size, int64_t stride, bool bias,
                     const std::string& norm);  // norm: "group_norm", "layer_norm" or "" (none)
  // x [batch, in_channels, frame], length [batch] -> output and its valid lengths.
  std::tuple<Tensor, std::optional<Tensor>> forward(const Tensor& x, const std::optional<Tensor>& length);

  int64_t kernel_size, stride;
  nn::Conv1d conv{nullptr};
  nn::GroupNorm group_norm{nullptr};  // registered as "layer_norm", as in torchaudio
  LayerNorm layer_norm{nullptr};
};
TORCH_MODULE(ConvLayerBlock);

class FeatureExtractorImpl : public nn::Module {
 public:
  explicit FeatureExtractorImpl(nn::ModuleList conv_layers);
  // waveforms [batch, time] -> features [batch, frame, feature] and valid lengths.
  std::tuple<Tensor, std::optional<Tensor>> forward(const Tensor& x, const std::optional<Tensor>& length);
  nn::ModuleList conv_layers{nullptr};
};
TORCH_MODULE(FeatureExtractor);

class FeatureProjectionImpl : public nn::Module {
 public:
  FeatureProjectionImpl(int64_t in_features, int64_t out_features, double dropout);
  Tensor forward(const Tensor& x);
  nn::LayerNorm layer_norm{nullptr};
  nn::Linear projection{nullptr};
  nn::Dropout dropout{nullptr};
};
TORCH_MODULE(FeatureProjection);

// A weight-normalized grouped Conv1d over time (torch.nn.utils.weight_norm
// with dim=2: weight = weight_v * weight_g / ||weight_v|| over dims 0 and 1).
class WeightNormConv1dImpl : public nn::Module {
 public:
  WeightNormConv1dImpl(int64_t channels, int64_t kernel_size, int64_t padding, int64_t groups);
  Tensor forward(const Tensor& x);
  Tensor weight() const;  // the effective weight
  int64_t padding, groups;
  Tensor bias, weight_g, weight_v;
};
TORCH_MODULE(WeightNormConv1d);

class ConvolutionalPositionalEmbeddingImpl : public nn::Module {
 public:
  ConvolutionalPositionalEmbeddingImpl(int64_t embed_dim, int64_t kernel_size, int64_t groups);
  // [batch, frame, embed_dim] -> same shape
  Tensor forward(const Tensor& x);
  int64_t embed_dim, kernel_size, num_remove;
  WeightNormConv1d conv{nullptr};
};
TORCH_MODULE(ConvolutionalPositionalEmbedding);

class SelfAttentionImpl : public nn::Module {
 public:
  SelfAttentionImpl(int64_t embed_dim, int64_t num_heads, double dropout = 0.0);
  // x [batch, seq, embed_dim], attention_mask [batch, 1, seq, seq] (added to the scores).
  Tensor forward(const Tensor& x, const std::optional<Tensor>& attention_mask = std::nullopt);
  int64_t embed_dim, num_heads, head_dim;
  double scaling;
  nn::Dropout dropout{nullptr};
  nn::Linear k_proj{nullptr}, v_proj{nullptr}, q_proj{nullptr}, out_proj{nullptr};
};
TORCH_MODULE(SelfAttention);

class FeedForwardImpl : public nn::Module {
 public:
  FeedForwardImpl(int64_t io_features, int64_t intermediate_features, double intermediate_dropout,
                  double output_dropout);
  Tensor forward(const Tensor& x);
  nn::Linear intermediate_dense{nullptr};
  nn::Dropout intermediate_dropout{nullptr};
  nn::Linear output_dense{nullptr};
  nn::Dropout output_dropout{nullptr};
};
TORCH_MODULE(FeedForward);

class EncoderLayerImpl : public nn::Module {
 public:
  EncoderLayerImpl(SelfAttention attention, double dropout, bool layer_norm_first, FeedForward feed_forward);
  Tensor forward(const Tensor& x, const std::optional<Tensor>& attention_mask = std::nullopt);
  SelfAttention attention{nullptr};
  nn::Dropout dropout{nullptr};
  nn::LayerNorm layer_norm{nullptr};
  bool layer_norm_first;
  FeedForward feed_forward{nullptr};
  nn::LayerNorm final_layer_norm{nullptr};
};
TORCH_MODULE(EncoderLayer);

class TransformerImpl : public nn::Module {
 public:
  TransformerImpl(ConvolutionalPositionalEmbedding pos_conv_embed, double dropout, nn::ModuleList layers,
                  bool layer_norm_first, double layer_drop);
  // In training, each layer is skipped with probability layer_drop (Ember's default generator).
  Tensor forward(const Tensor& x, const std::optional<Tensor>& attention_mask = std::nullopt);
  // The outputs of the first num_layers layers (all by default), no layer drop.
  std::vector<Tensor> get_intermediate_outputs(const Tensor& x,
                                               const std::optional<Tensor>& attention_mask = std::nullopt,
                                               std::optional<int64_t> num_layers = std::nullopt);
  ConvolutionalPositionalEmbedding pos_conv_embed{nullptr};
  nn::LayerNorm layer_norm{nullptr};
  bool layer_norm_first;
  double layer_drop;
  nn::Dropout dropout{nullptr};
  nn::ModuleList layers{nullptr};

 private:
  Tensor preprocess(const Tensor& x);
};
TORCH_MODULE(Transformer);

class EncoderImpl : public nn::Module {
 public:
  EncoderImpl(FeatureProjection feature_projection, Transformer transformer);
  // features [batch, frame, in_features], lengths [batch] -> [batch, frame, embed_dim]
  Tensor forward(const Tensor& features, const std::optional<Tensor>& lengths = std::nullopt);
  std::vector<Tensor> extract_features(const Tensor& features, const std::optional<Tensor>& lengths = std::nullopt,
                                       std::optional<int64_t> num_layers = std::nullopt);
  // Projects the features, zeroes padded frames and builds the additive attention mask.
  std::tuple<Tensor, std::optional<Tensor>> preprocess(const Tensor& features, const std::optional<Tensor>& lengths);
  FeatureProjection feature_projection{nullptr};
  Transformer transformer{nullptr};
};
TORCH_MODULE(Encoder);

// (out_channels, kernel_size, stride) of each feature extractor conv layer.
using ConvLayerConfig = std::vector<std::tuple<int64_t, int64_t, int64_t>>;

FeatureExtractor get_feature_extractor(const std::string& norm_mode, const ConvLayerConfig& shapes, bool bias);
Encoder get_encoder(int64_t in_features, int64_t embed_dim, double dropout_input, int64_t pos_conv_kernel,
                    int64_t pos_conv_groups, int64_t num_layers, int64_t num_heads, double attention_dropout,
                    int64_t ff_interm_features, double ff_interm_dropout, double dropout, bool layer_norm_first,
                    double layer_drop);

}  // namespace torch::audio::models::wav2vec2::components
