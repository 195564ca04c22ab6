#pragma once
// torchaudio.models.WaveRNN (Kalchbrenner et al., fatchord's variant) with its
// upsampling network (MelResNet + Stretch2d + Conv2d) and its sampling loop
// `infer`. Module tree and state_dict names are torchaudio's.
#include <cstdint>
#include <optional>
#include <tuple>
#include <vector>

#include "ember/core/arg.h"
#include "ember/core/tensor.h"
#include "ember/nn/module.h"
#include "ember/nn/modules/container/sequential.h"
#include "ember/nn/modules/linear.h"
#include "ember/nn/modules/rnn.h"
#include "ember/nn/pimpl.h"

namespace torch::audio::models {

// Conv1d-BatchNorm-ReLU-Conv1d-BatchNorm with a residual connection.
class ResBlockImpl : public nn::Module {
 public:
  explicit ResBlockImpl(int64_t n_freq = 128);
  Tensor forward(const Tensor& specgram);  // [batch, n_freq, time]
  nn::Sequential resblock_model{nullptr};
};
TORCH_MODULE(ResBlock);

class MelResNetImpl : public nn::Module {
 public:
  explicit MelResNetImpl(int64_t n_res_block = 10, int64_t n_freq = 128, int64_t n_hidden = 128, int64_t n_output = 128,
                         int64_t kernel_size = 5);
  // [batch, n_freq, time] -> [batch, n_output, time - kernel_size + 1]
  Tensor forward(const Tensor& specgram);
  nn::Sequential melresnet_model{nullptr};
};
TORCH_MODULE(MelResNet);

// Repeats every element time_scale times along the last dim and freq_scale
// times along the second to last.
class Stretch2dImpl : public nn::Module {
 public:
  Stretch2dImpl(int64_t time_scale, int64_t freq_scale);
  Tensor forward(const Tensor& specgram);
  int64_t time_scale, freq_scale;
};
TORCH_MODULE(Stretch2d);

class UpsampleNetworkImpl : public nn::Module {
 public:
  explicit UpsampleNetworkImpl(std::vector<int64_t> upsample_scales, int64_t n_res_block = 10, int64_t n_freq = 128,
                               int64_t n_hidden = 128, int64_t n_output = 128, int64_t kernel_size = 5);
  // [batch, n_freq, time] -> (upsampled [batch, n_freq, (time - kernel_size + 1) * total_scale],
  //                           resnet output [batch, n_output, (time - kernel_size + 1) * total_scale])
  std::tuple<Tensor, Tensor> forward(const Tensor& specgram);

  int64_t total_scale = 1, indent;
  MelResNet resnet{nullptr};
  Stretch2d resnet_stretch{nullptr};
  nn::Sequential upsample_layers{nullptr};
};
TORCH_MODULE(UpsampleNetwork);

struct WaveRNNOptions {
  WaveRNNOptions(std::vector<int64_t> upsample_scales, int64_t n_classes, int64_t hop_length)
      : upsample_scales_(std::move(upsample_scales)), n_classes_(n_classes), hop_length_(hop_length) {}
  TORCH_ARG(std::vector<int64_t>, upsample_scales);
  TORCH_ARG(int64_t, n_classes);
  TORCH_ARG(int64_t, hop_length);
  TORCH_ARG(int64_t, n_res_block) = 10;
  TORCH_ARG(int64_t, n_rnn) = 512;
  TORCH_ARG(int64_t, n_fc) = 512;
  TORCH_ARG(int64_t, kernel_size) = 5;
  TORCH_ARG(int64_t, n_freq) = 128;
  TORCH_ARG(int64_t, n_hidden) = 128;
  TORCH_ARG(int64_t, n_output) = 128;
};

class WaveRNNImpl : public nn::Module {
 public:
  explicit WaveRNNImpl(const WaveRNNOptions& options_);
  // waveform [batch, 1, (time - kernel_size + 1) * hop_length], specgram [batch, 1, n_freq, time]
  // -> logits [batch, 1, (time - kernel_size + 1) * hop_length, n_classes]
  Tensor forward(const Tensor& waveform, const Tensor& specgram);
  // Autoregressive generation: specgram [batch, n_freq, time] (and valid lengths
  // [batch]) -> (waveform [batch, 1, time * hop_length] in [-1, 1], lengths * hop_length).
  // Each step draws its class from Ember's default generator exactly as torchaudio's
  // torch.multinomial does, so a seed gives torchaudio's waveform (Note [WaveRNN sampling]).
  std::tuple<Tensor, std::optional<Tensor>> infer(const Tensor& specgram,
                                                  const std::optional<Tensor>& lengths = std::nullopt);

  WaveRNNOptions options;
  int64_t pad, n_aux, n_bits;
  UpsampleNetwork upsample{nullptr};
  nn::Linear fc{nullptr};
  nn::GRU rnn1{nullptr}, rnn2{nullptr};
  nn::Linear fc1{nullptr}, fc2{nullptr}, fc3{nullptr};
};
TORCH_MODULE(WaveRNN);

}  // namespace torch::audio::models
