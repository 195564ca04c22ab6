#include "ember/audio/models/conformer.h"

#include "ember/core/error.h"
#include "ember/nn/modules/activation.h"
#include "ember/nn/modules/activation_extra.h"
#include "ember/nn/modules/batchnorm.h"
#include "ember/nn/modules/conv.h"
#include "ember/nn/modules/linear.h"
#include "ember/ops/all_ops.h"

namespace torch::audio::models {
namespace conformer {

ConvolutionModuleImpl::ConvolutionModuleImpl(int64_t input_dim, int64_t num_channels, int64_t kernel, double p,
                                             bool bias, bool use_group_norm) {
  EMBER_CHECK(kernel > 0 && (kernel - 1) % 2 == 0,
              "Conformer: depthwise_kernel_size must be odd to achieve 'SAME' padding, got ", kernel);
  layer_norm = register_module("layer_norm", nn::LayerNorm(nn::LayerNormOptions({input_dim})));
  nn::Sequential seq;
  seq->push_back(nn::Conv1d(nn::Conv1dOptions(input_dim, 2 * num_channels, 1).bias(bias)));
  seq->push_back(nn::GLU(nn::GLUOptions(1)));
  seq->push_back(nn::Conv1d(
      nn::Conv1dOptions(num_channels, num_channels, kernel).padding((kernel - 1) / 2).groups(num_channels).bias(bias)));
  if (use_group_norm) {
    seq->push_back(nn::GroupNorm(nn::GroupNormOptions(1, num_channels)));
  } else {
    seq->push_back(nn::BatchNorm1d(num_channels));
  }
  seq->push_back(nn::SiLU());
  seq->push_back(nn::Conv1d(nn::Conv1dOptions(num_channels, input_dim, 1).bias(bias)));
  seq->push_back(nn::Dropout(p));
  sequential = register_module("sequential", seq);
}

Tensor ConvolutionModuleImpl::forward(const Tensor& input) {
  return sequential->forward(layer_norm->forward(input).transpose(1, 2)).transpose(1, 2);
}

FeedForwardModuleImpl::FeedForwardModuleImpl(int64_t input_dim, int64_t hidden_dim, double p) {
  sequential = register_module(
      "sequential", nn::Sequential(nn::LayerNorm(nn::LayerNormOptions({input_dim})), nn::Linear(input_dim, hidden_dim),
                                   nn::SiLU(), nn::Dropout(p), nn::Linear(hidden_dim, input_dim), nn::Dropout(p)));
}

Tensor FeedForwardModuleImpl::forward(const Tensor& input) { return sequential->forward(input); }

}  // namespace conformer

ConformerLayerImpl::ConformerLayerImpl(int64_t input_dim, int64_t ffn_dim, int64_t num_attention_heads,
                                       int64_t depthwise_conv_kernel_size, double p, bool use_group_norm,
                                       bool convolution_first_)
    : convolution_first(convolution_first_) {
  EMBER_CHECK(num_attention_heads > 0 && input_dim % num_attention_heads == 0, "Conformer: input_dim ", input_dim,
              " is not divisible by num_heads ", num_attention_heads);
  ffn1 = register_module("ffn1", conformer::FeedForwardModule(input_dim, ffn_dim, p));
  self_attn_layer_norm = register_module("self_attn_layer_norm", nn::LayerNorm(nn::LayerNormOptions({input_dim})));
  self_attn = register_module(
      "self_attn", nn::MultiheadAttention(nn::MultiheadAttentionOptions(input_dim, num_attention_heads).dropout(p)));
  self_attn_dropout = register_module("self_attn_dropout", nn::Dropout(p));
  conv_module = register_module(
      "conv_module",
      conformer::ConvolutionModule(input_dim, input_dim, depthwise_conv_kernel_size, p, true, use_group_norm));
  ffn2 = register_module("ffn2", conformer::FeedForwardModule(input_dim, ffn_dim, p));
  final_layer_norm = register_module("final_layer_norm", nn::LayerNorm(nn::LayerNormOptions({input_dim})));
}

Tensor ConformerLayerImpl::apply_convolution(const Tensor& input) {
  return input + conv_module->forward(input.transpose(0, 1)).transpose(0, 1);
}

Tensor ConformerLayerImpl::forward(const Tensor& input, const std::optional<Tensor>& key_padding_mask) {
  Tensor x = ffn1->forward(input) * 0.5 + input;
  if (convolution_first) x = apply_convolution(x);
  Tensor residual = x;
  x = self_attn_layer_norm->forward(x);
  x = std::get<0>(self_attn->forward(x, x, x, key_padding_mask.value_or(Tensor()), false));
  x = self_attn_dropout->forward(x) + residual;
  if (!convolution_first) x = apply_convolution(x);
  x = ffn2->forward(x) * 0.5 + x;
  return final_layer_norm->forward(x);
}

ConformerImpl::ConformerImpl(const ConformerOptions& options_) : options(options_) {
  EMBER_CHECK(options.num_layers() > 0, "Conformer: num_layers must be positive, got ", options.num_layers());
  conformer_layers = register_module("conformer_layers", nn::ModuleList());
  for (int64_t i = 0; i < options.num_layers(); ++i) {
    conformer_layers->push_back(ConformerLayer(options.input_dim(), options.ffn_dim(), options.num_heads(),
                                               options.depthwise_conv_kernel_size(), options.dropout(),
                                               options.use_group_norm(), options.convolution_first()));
  }
}

std::tuple<Tensor, Tensor> ConformerImpl::forward(const Tensor& input, const Tensor& lengths) {
  EMBER_CHECK(input.dim() == 3 && input.size(2) == options.input_dim(),
              "Conformer: expected an input of shape [batch, frames, input_dim=", options.input_dim(), "], got ",
              input.sizes());
  EMBER_CHECK(input.is_floating_point(), "Conformer: expected a floating-point input, got ", input.scalar_type());
  EMBER_CHECK(lengths.dim() == 1 && lengths.size(0) == input.size(0) && !lengths.is_floating_point(),
              "Conformer: expected integer lengths of shape [", input.size(0), "], got ", lengths.sizes());
  EMBER_CHECK(lengths.max().item<int64_t>() == input.size(1) && lengths.min().item<int64_t>() >= 0,
              "Conformer: the longest length must equal the input's ", input.size(1), " frames, got ",
              lengths.max().item<int64_t>());
  const int64_t B = input.size(0), T = input.size(1);
  Tensor padding_mask = arange(T, TensorOptions(kInt64)).expand({B, T}) >= lengths.to(kInt64).unsqueeze(1);
  Tensor x = input.transpose(0, 1);
  for (const auto& layer : *conformer_layers) x = layer->as<ConformerLayerImpl>()->forward(x, padding_mask);
  return {x.transpose(0, 1), lengths};
}

}  // namespace torch::audio::models
