#include "ember/audio/models/wav2vec2/components.h"

#include <cmath>

#include "ember/core/error.h"
#include "ember/nn/init.h"
#include "ember/ops/all_ops.h"

namespace torch::audio::models::wav2vec2::components {

LayerNormImpl::LayerNormImpl(int64_t normalized_shape_, double eps_) : normalized_shape(normalized_shape_), eps(eps_) {
  weight = register_parameter("weight", ones({normalized_shape}));
  bias = register_parameter("bias", zeros({normalized_shape}));
}

Tensor LayerNormImpl::forward(const Tensor& input) {
  return layer_norm(input.transpose(-2, -1), {normalized_shape}, weight, bias, eps).transpose(-2, -1);
}

ConvLayerBlockImpl::ConvLayerBlockImpl(int64_t in_channels, int64_t out_channels, int64_t kernel_size_, int64_t stride_,
                                       bool bias, const std::string& norm)
    : kernel_size(kernel_size_), stride(stride_) {
  // torchaudio assigns layer_norm before conv, which fixes the state_dict order.
  if (norm == "group_norm") {
    group_norm = register_module("layer_norm", nn::GroupNorm(nn::GroupNormOptions(out_channels, out_channels)));
  } else if (norm == "layer_norm") {
    layer_norm = register_module("layer_norm", LayerNorm(out_channels));
  }
  conv = register_module(
      "conv", nn::Conv1d(nn::Conv1dOptions(in_channels, out_channels, kernel_size).stride(stride).bias(bias)));
}

std::tuple<Tensor, std::optional<Tensor>> ConvLayerBlockImpl::forward(const Tensor& input,
                                                                      const std::optional<Tensor>& length) {
  Tensor x = conv->forward(input);
  if (!group_norm.is_empty()) x = group_norm->forward(x);
  if (!layer_norm.is_empty()) x = layer_norm->forward(x);
  x = gelu(x);
  std::optional<Tensor> out_length;
  if (length) out_length = clamp_min(div(*length - kernel_size, stride, "floor") + 1, 0);
  return {x, out_length};
}

FeatureExtractorImpl::FeatureExtractorImpl(nn::ModuleList conv_layers_) {
  conv_layers = register_module("conv_layers", std::move(conv_layers_));
}

std::tuple<Tensor, std::optional<Tensor>> FeatureExtractorImpl::forward(const Tensor& waveforms,
                                                                        const std::optional<Tensor>& length) {
  EMBER_CHECK(waveforms.dim() == 2, "Wav2Vec2Model: expected the waveforms to be 2D (batch, time), got ",
              waveforms.sizes());
  EMBER_CHECK(waveforms.is_floating_point(), "Wav2Vec2Model: expected floating-point waveforms, got ",
              waveforms.scalar_type());
  if (length) {
    EMBER_CHECK(length->dim() == 1 && length->size(0) == waveforms.size(0),
                "Wav2Vec2Model: expected lengths of shape [", waveforms.size(0), "], got ", length->sizes());
  }
  Tensor x = waveforms.unsqueeze(1);
  std::optional<Tensor> len = length;
  for (const auto& layer : *conv_layers) {
    auto* block = layer->as<ConvLayerBlockImpl>();
    EMBER_CHECK(x.size(2) >= block->kernel_size, "Wav2Vec2Model: the waveform is too short: ", waveforms.size(1),
                " samples do not cover the feature extractor's receptive field");
    std::tie(x, len) = block->forward(x, len);
  }
  return {x.transpose(1, 2), len};
}

FeatureProjectionImpl::FeatureProjectionImpl(int64_t in_features, int64_t out_features, double p) {
  layer_norm = register_module("layer_norm", nn::LayerNorm(nn::LayerNormOptions({in_features})));
  projection = register_module("projection", nn::Linear(in_features, out_features));
  dropout = register_module("dropout", nn::Dropout(p));
}

Tensor FeatureProjectionImpl::forward(const Tensor& x) {
  return dropout->forward(projection->forward(layer_norm->forward(x)));
}

WeightNormConv1dImpl::WeightNormConv1dImpl(int64_t channels, int64_t kernel_size, int64_t padding_, int64_t groups_)
    : padding(padding_), groups(groups_) {
  EMBER_CHECK(groups > 0 && channels % groups == 0, "ConvolutionalPositionalEmbedding: embed_dim ", channels,
              " is not divisible by groups ", groups);
  // Initialised as torch's Conv1d followed by weight_norm (g = ||v||, so weight = v at first).
  const int64_t fan_in = channels / groups * kernel_size;
  const double bound = 1.0 / std::sqrt(static_cast<double>(fan_in));
  Tensor v = empty({channels, channels / groups, kernel_size});
  nn::init::kaiming_uniform_(v, std::sqrt(5.0));
  bias = register_parameter("bias", empty({channels}).uniform_(-bound, bound));
  weight_g = register_parameter("weight_g", v.pow(2).sum({0, 1}, true).sqrt());
  weight_v = register_parameter("weight_v", v);
}

Tensor WeightNormConv1dImpl::weight() const { return weight_v * (weight_g / weight_v.pow(2).sum({0, 1}, true).sqrt()); }

Tensor WeightNormConv1dImpl::forward(const Tensor& x) { return conv1d(x, weight(), bias, 1, padding, 1, groups); }

ConvolutionalPositionalEmbeddingImpl::ConvolutionalPositionalEmbeddingImpl(int64_t embed_dim_, int64_t kernel_size_,
                                                                           int64_t groups)
    : embed_dim(embed_dim_), kernel_size(kernel_size_), num_remove(kernel_size_ % 2 == 0 ? 1 : 0) {
  EMBER_CHECK(kernel_size > 0, "ConvolutionalPositionalEmbedding: kernel_size must be positive, got ", kernel_size);
  conv = register_module("conv", WeightNormConv1d(embed_dim, kernel_size, kernel_size / 2, groups));
}

Tensor ConvolutionalPositionalEmbeddingImpl::forward(const Tensor& input) {
  Tensor x = conv->forward(input.transpose(-2, -1));
  if (num_remove > 0) x = x.narrow(-1, 0, x.size(-1) - num_remove);
  return gelu(x).transpose(-2, -1);
}

SelfAttentionImpl::SelfAttentionImpl(int64_t embed_dim_, int64_t num_heads_, double p)
    : embed_dim(embed_dim_), num_heads(num_heads_) {
  EMBER_CHECK(num_heads > 0 && embed_dim % num_heads == 0, "SelfAttention: `embed_dim (", embed_dim,
              ")` is not divisible by `num_heads (", num_heads, ")`");
  head_dim = embed_dim / num_heads;
  scaling = std::pow(static_cast<double>(head_dim), -0.5);
  dropout = register_module("dropout", nn::Dropout(p));
  k_proj = register_module("k_proj", nn::Linear(embed_dim, embed_dim));
  v_proj = register_module("v_proj", nn::Linear(embed_dim, embed_dim));
  q_proj = register_module("q_proj", nn::Linear(embed_dim, embed_dim));
  out_proj = register_module("out_proj", nn::Linear(embed_dim, embed_dim));
}

Tensor SelfAttentionImpl::forward(const Tensor& x, const std::optional<Tensor>& attention_mask) {
  EMBER_CHECK(x.dim() == 3 && x.size(2) == embed_dim,
              "SelfAttention: The expected input shape is (batch, sequence, embed_dim==", embed_dim, "). Found ",
              x.sizes());
  const int64_t batch = x.size(0), length = x.size(1);
  if (attention_mask) {
    EMBER_CHECK(attention_mask->sizes().vec() == std::vector<int64_t>({batch, 1, length, length}),
                "SelfAttention: The expected attention mask shape is [", batch, ", 1, ", length, ", ", length,
                "]. Found ", attention_mask->sizes());
  }
  const std::vector<int64_t> shape{batch, length, num_heads, head_dim};
  Tensor q = q_proj->forward(x).view(shape).transpose(2, 1);
  Tensor k = k_proj->forward(x).view(shape).permute({0, 2, 3, 1});
  Tensor v = v_proj->forward(x).view(shape).transpose(2, 1);
  Tensor weights = matmul(q * scaling, k);
  if (attention_mask) weights = weights + *attention_mask;
  // Subtracting the (constant) row max keeps softmax's result; torchaudio does it, so do we.
  weights = weights - std::get<0>(weights.max(-1, true));
  weights = dropout->forward(softmax(weights, -1));
  Tensor output = matmul(weights, v).transpose(2, 1).reshape({batch, length, embed_dim});
  return out_proj->forward(output);
}

FeedForwardImpl::FeedForwardImpl(int64_t io_features, int64_t intermediate_features, double intermediate_p,
                                 double output_p) {
  intermediate_dense = register_module("intermediate_dense", nn::Linear(io_features, intermediate_features));
  intermediate_dropout = register_module("intermediate_dropout", nn::Dropout(intermediate_p));
  output_dense = register_module("output_dense", nn::Linear(intermediate_features, io_features));
  output_dropout = register_module("output_dropout", nn::Dropout(output_p));
}

Tensor FeedForwardImpl::forward(const Tensor& x) {
  Tensor h = intermediate_dropout->forward(gelu(intermediate_dense->forward(x)));
  return output_dropout->forward(output_dense->forward(h));
}

EncoderLayerImpl::EncoderLayerImpl(SelfAttention attention_, double p, bool layer_norm_first_,
                                   FeedForward feed_forward_)
    : layer_norm_first(layer_norm_first_) {
  const int64_t dim = attention_->embed_dim;
  attention = register_module("attention", std::move(attention_));
  dropout = register_module("dropout", nn::Dropout(p));
  layer_norm = register_module("layer_norm", nn::LayerNorm(nn::LayerNormOptions({dim})));
  feed_forward = register_module("feed_forward", std::move(feed_forward_));
  final_layer_norm = register_module("final_layer_norm", nn::LayerNorm(nn::LayerNormOptions({dim})));
}

Tensor EncoderLayerImpl::forward(const Tensor& input, const std::optional<Tensor>& attention_mask) {
  Tensor x = layer_norm_first ? layer_norm->forward(input) : input;
  x = input + dropout->forward(attention->forward(x, attention_mask));
  if (layer_norm_first) return x + feed_forward->forward(final_layer_norm->forward(x));
  x = layer_norm->forward(x);
  return final_layer_norm->forward(x + feed_forward->forward(x));
}

TransformerImpl::TransformerImpl(ConvolutionalPositionalEmbedding pos_conv_embed_, double p, nn::ModuleList layers_,
                                 bool layer_norm_first_, double layer_drop_)
    : layer_norm_first(layer_norm_first_), layer_drop(layer_drop_) {
  const int64_t dim = pos_conv_embed_->embed_dim;
  pos_conv_embed = register_module("pos_conv_embed", std::move(pos_conv_embed_));
  layer_norm = register_module("layer_norm", nn::LayerNorm(nn::LayerNormOptions({dim})));
  dropout = register_module("dropout", nn::Dropout(p));
  layers = register_module("layers", std::move(layers_));
}

Tensor TransformerImpl::preprocess(const Tensor& input) {
  Tensor x = input + pos_conv_embed->forward(input);
  if (layer_norm_first) x = layer_norm->forward(x);
  return dropout->forward(x);
}

Tensor TransformerImpl::forward(const Tensor& input, const std::optional<Tensor>& attention_mask) {
  Tensor x = preprocess(input);
  for (const auto& layer : *layers) {
    if (is_training() && layer_drop > 0 && rand({1}).item<double>() <= layer_drop) continue;
    x = layer->as<EncoderLayerImpl>()->forward(x, attention_mask);
  }
  if (!layer_norm_first) x = layer_norm->forward(x);
  return x;
}

std::vector<Tensor> TransformerImpl::get_intermediate_outputs(const Tensor& input,
                                                              const std::optional<Tensor>& attention_mask,
                                                              std::optional<int64_t> num_layers) {
  const auto total = static_cast<int64_t>(layers->size());
  if (num_layers) {
    EMBER_CHECK(*num_layers > 0 && *num_layers <= total,
                "Wav2Vec2Model.extract_features: `num_layers` must be between [1, ", total, "], got ", *num_layers);
  }
  std::vector<Tensor> ret;
  Tensor x = preprocess(input);
  for (const auto& layer : *layers) {
    x = layer->as<EncoderLayerImpl>()->forward(x, attention_mask);
    ret.push_back(x);
    if (num_layers && static_cast<int64_t>(ret.size()) >= *num_layers) break;
  }
  return ret;
}

EncoderImpl::EncoderImpl(FeatureProjection feature_projection_, Transformer transformer_) {
  feature_projection = register_module("feature_projection", std::move(feature_projection_));
  transformer = register_module("transformer", std::move(transformer_));
}

std::tuple<Tensor, std::optional<Tensor>> EncoderImpl::preprocess(const Tensor& features,
                                                                  const std::optional<Tensor>& lengths) {
  Tensor x = feature_projection->forward(features);
  if (!lengths) return {x, std::nullopt};
  const int64_t batch = x.size(0), max_len = x.size(1);
  EMBER_CHECK(lengths->dim() == 1 && lengths->size(0) == batch, "Wav2Vec2Model: expected lengths of shape [", batch,
              "], got ", lengths->sizes());
  Tensor pad = arange(max_len, TensorOptions(kInt64)).expand({batch, max_len}) >= lengths->unsqueeze(1);
  x = x.masked_fill(pad.unsqueeze(-1), 0.0);
  Tensor mask = pad.unsqueeze(1).unsqueeze(1).to(features.scalar_type()) * -10000.0;
  return {x, mask.expand({batch, 1, max_len, max_len})};
}

Tensor EncoderImpl::forward(const Tensor& features, const std::optional<Tensor>& lengths) {
  auto [x, mask] = preprocess(features, lengths);
  return transformer->forward(x, mask);
}

std::vector<Tensor> EncoderImpl::extract_features(const Tensor& features, const std::optional<Tensor>& lengths,
                                                  std::optional<int64_t> num_layers) {
  auto [x, mask] = preprocess(features, lengths);
  return transformer->get_intermediate_outputs(x, mask, num_layers);
}

FeatureExtractor get_feature_extractor(const std::string& norm_mode, const ConvLayerConfig& shapes, bool bias) {
  EMBER_CHECK(norm_mode == "group_norm" || norm_mode == "layer_norm", "wav2vec2_model: Invalid norm mode \"", norm_mode,
              "\" (expected \"group_norm\" or \"layer_norm\")");
  EMBER_CHECK(!shapes.empty(), "wav2vec2_model: extractor_conv_layer_config is empty");
  nn::ModuleList blocks;
  int64_t in_channels = 1;
  for (size_t i = 0; i < shapes.size(); ++i) {
    auto [out_channels, kernel_size, stride] = shapes[i];
    EMBER_CHECK(out_channels > 0 && kernel_size > 0 && stride > 0,
                "wav2vec2_model: extractor_conv_layer_config entries must be positive, got (", out_channels, ", ",
                kernel_size, ", ", stride, ")");
    const std::string norm = norm_mode == "layer_norm" ? "layer_norm" : (i == 0 ? "group_norm" : "");
    blocks->push_back(ConvLayerBlock(in_channels, out_channels, kernel_size, stride, bias, norm));
    in_channels = out_channels;
  }
  return FeatureExtractor(blocks);
}

Encoder get_encoder(int64_t in_features, int64_t embed_dim, double dropout_input, int64_t pos_conv_kernel,
                    int64_t pos_conv_groups, int64_t num_layers, int64_t num_heads, double attention_dropout,
                    int64_t ff_interm_features, double ff_interm_dropout, double dropout, bool layer_norm_first,
                    double layer_drop) {
  FeatureProjection feature_projection(in_features, embed_dim, dropout_input);
  ConvolutionalPositionalEmbedding pos_conv(embed_dim, pos_conv_kernel, pos_conv_groups);
  nn::ModuleList layers;
  for (int64_t i = 0; i < num_layers; ++i) {
    layers->push_back(EncoderLayer(SelfAttention(embed_dim, num_heads, attention_dropout), dropout, layer_norm_first,
                                   FeedForward(embed_dim, ff_interm_features, ff_interm_dropout, dropout)));
  }
  return Encoder(feature_projection, Transformer(pos_conv, dropout, layers, !layer_norm_first, layer_drop));
}

}  // namespace torch::audio::models::wav2vec2::components
