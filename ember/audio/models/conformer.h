#pragma once
// torchaudio.models.Conformer (Gulati et al.): per layer a half-step
// feed-forward, multi-head self-attention, a depthwise convolution module and
// a second half-step feed-forward. state_dict names are torchaudio's:
// conformer_layers.<i>.{ffn1,self_attn_layer_norm,self_attn,conv_module,ffn2,final_layer_norm}.
#include <cstdint>
#include <optional>
#include <tuple>

#include "ember/core/arg.h"
#include "ember/core/tensor.h"
#include "ember/nn/module.h"
#include "ember/nn/modules/container/modulelist.h"
#include "ember/nn/modules/container/sequential.h"
#include "ember/nn/modules/dropout.h"
#include "ember/nn/modules/multihead_attention.h"
#include "ember/nn/modules/normalization.h"
#include "ember/nn/pimpl.h"

namespace torch::audio::models {
namespace conformer {

// LayerNorm, pointwise conv + GLU, depthwise conv, BatchNorm (or GroupNorm), SiLU, pointwise conv.
class ConvolutionModuleImpl : public nn::Module {
 public:
  ConvolutionModuleImpl(int64_t input_dim, int64_t num_channels, int64_t depthwise_kernel_size, double dropout = 0.0,
                        bool bias = false, bool use_group_norm = false);
  Tensor forward(const Tensor& input);  // [B, T, D] -> [B, T, D]
  nn::LayerNorm layer_norm{nullptr};
  nn::Sequential sequential{nullptr};
};
TORCH_MODULE(ConvolutionModule);

class FeedForwardModuleImpl : public nn::Module {
 public:
  FeedForwardModuleImpl(int64_t input_dim, int64_t hidden_dim, double dropout = 0.0);
  Tensor forward(const Tensor& input);
  nn::Sequential sequential{nullptr};
};
TORCH_MODULE(FeedForwardModule);

}  // namespace conformer

class ConformerLayerImpl : public nn::Module {
 public:
  ConformerLayerImpl(int64_t input_dim, int64_t ffn_dim, int64_t num_attention_heads,
                     int64_t depthwise_conv_kernel_size, double dropout = 0.0, bool use_group_norm = false,
                     bool convolution_first = false);
  // input [T, B, D] (time-major), key_padding_mask [B, T] (true = padding).
  Tensor forward(const Tensor& input, const std::optional<Tensor>& key_padding_mask);

  conformer::FeedForwardModule ffn1{nullptr};
  nn::LayerNorm self_attn_layer_norm{nullptr};
  nn::MultiheadAttention self_attn{nullptr};
  nn::Dropout self_attn_dropout{nullptr};
  conformer::ConvolutionModule conv_module{nullptr};
  conformer::FeedForwardModule ffn2{nullptr};
  nn::LayerNorm final_layer_norm{nullptr};
  bool convolution_first;

 private:
  Tensor apply_convolution(const Tensor& input);
};
TORCH_MODULE(ConformerLayer);

struct ConformerOptions {
  ConformerOptions(int64_t input_dim, int64_t num_heads, int64_t ffn_dim, int64_t num_layers,
                   int64_t depthwise_conv_kernel_size)
      : input_dim_(input_dim),
        num_heads_(num_heads),
        ffn_dim_(ffn_dim),
        num_layers_(num_layers),
        depthwise_conv_kernel_size_(depthwise_conv_kernel_size) {}
  TORCH_ARG(int64_t, input_dim);
  TORCH_ARG(int64_t, num_heads);
  TORCH_ARG(int64_t, ffn_dim);
  TORCH_ARG(int64_t, num_layers);
  TORCH_ARG(int64_t, depthwise_conv_kernel_size);
  TORCH_ARG(double, dropout) = 0.0;
  TORCH_ARG(bool, use_group_norm) = false;
  TORCH_ARG(bool, convolution_first) = false;
};

class ConformerImpl : public nn::Module {
 public:
  explicit ConformerImpl(const ConformerOptions& options_);
  ConformerImpl(int64_t input_dim, int64_t num_heads, int64_t ffn_dim, int64_t num_layers,
                int64_t depthwise_conv_kernel_size)
      : ConformerImpl(ConformerOptions(input_dim, num_heads, ffn_dim, num_layers, depthwise_conv_kernel_size)) {}
  // input [B, T, input_dim], lengths [B] valid frames -> ([B, T, input_dim], lengths)
  std::tuple<Tensor, Tensor> forward(const Tensor& input, const Tensor& lengths);
  ConformerOptions options;
  nn::ModuleList conformer_layers{nullptr};
};
TORCH_MODULE(Conformer);

}  // namespace torch::audio::models
