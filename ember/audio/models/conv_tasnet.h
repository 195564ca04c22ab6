#pragma once
// torchaudio.models.ConvTasNet (Luo & Mesgarani's time-domain separation
// network) with torchaudio's module tree: "encoder", "mask_generator.*"
// (input_norm, input_conv, conv_layers.<i>.conv_layers/res_out/skip_out,
// output_prelu, output_conv) and "decoder".
#include <cstdint>
#include <optional>
#include <string>
#include <tuple>

#include "ember/core/arg.h"
#include "ember/core/tensor.h"
#include "ember/nn/module.h"
#include "ember/nn/modules/activation_extra.h"
#include "ember/nn/modules/container/modulelist.h"
#include "ember/nn/modules/container/sequential.h"
#include "ember/nn/modules/conv.h"
#include "ember/nn/modules/normalization.h"
#include "ember/nn/pimpl.h"

namespace torch::audio::models {
namespace conv_tasnet {

// One dilated depthwise-separable block; the last block of the network has
// no residual output (res_out is null then).
class ConvBlockImpl : public nn::Module {
 public:
  ConvBlockImpl(int64_t io_channels, int64_t hidden_channels, int64_t kernel_size, int64_t padding,
                int64_t dilation = 1, bool no_residual = false);
  // -> (residual or an undefined tensor, skip)
  std::tuple<std::optional<Tensor>, Tensor> forward(const Tensor& input);

  nn::Sequential conv_layers{nullptr};
  nn::Conv1d res_out{nullptr};
  nn::Conv1d skip_out{nullptr};
};
TORCH_MODULE(ConvBlock);

class MaskGeneratorImpl : public nn::Module {
 public:
  MaskGeneratorImpl(int64_t input_dim, int64_t num_sources, int64_t kernel_size, int64_t num_feats, int64_t num_hidden,
                    int64_t num_layers, int64_t num_stacks, const std::string& msk_activate);
  // [batch, input_dim, frames] -> masks [batch, num_sources, input_dim, frames].
  Tensor forward(const Tensor& input);

  int64_t input_dim, num_sources, receptive_field = 0;
  bool relu_mask;
  nn::GroupNorm input_norm{nullptr};
  nn::Conv1d input_conv{nullptr};
  nn::ModuleList conv_layers{nullptr};
  nn::PReLU output_prelu{nullptr};
  nn::Conv1d output_conv{nullptr};
};
TORCH_MODULE(MaskGenerator);

}  // namespace conv_tasnet

struct ConvTasNetOptions {
  TORCH_ARG(int64_t, num_sources) = 2;
  TORCH_ARG(int64_t, enc_kernel_size) = 16;
  TORCH_ARG(int64_t, enc_num_feats) = 512;
  TORCH_ARG(int64_t, msk_kernel_size) = 3;
  TORCH_ARG(int64_t, msk_num_feats) = 128;
  TORCH_ARG(int64_t, msk_num_hidden_feats) = 512;
  TORCH_ARG(int64_t, msk_num_layers) = 8;
  TORCH_ARG(int64_t, msk_num_stacks) = 3;
  // "sigmoid" or "relu".
  TORCH_ARG(std::string, msk_activate) = "sigmoid";
};

class ConvTasNetImpl : public nn::Module {
 public:
  explicit ConvTasNetImpl(const ConvTasNetOptions& options_ = {});
  // [batch, 1, frames] -> separated sources [batch, num_sources, frames].
  Tensor forward(const Tensor& input);

  ConvTasNetOptions options;
  int64_t enc_stride;
  nn::Conv1d encoder{nullptr};
  conv_tasnet::MaskGenerator mask_generator{nullptr};
  nn::ConvTranspose1d decoder{nullptr};
};
TORCH_MODULE(ConvTasNet);

// The configuration of Luo & Mesgarani's best model (relu masks).
ConvTasNet conv_tasnet_base(int64_t num_sources = 2);

}  // namespace torch::audio::models
