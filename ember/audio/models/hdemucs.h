#pragma once
// torchaudio.models.HDemucs (Défossez, "Hybrid Spectrogram and Waveform Source
// Separation"): parallel spectrogram (Conv2d over frequency) and waveform
// (Conv1d) U-Nets that meet in their innermost layers, with residual dilated
// convolution branches (DConv: optional bidirectional LSTM and local
// attention). Builders hdemucs_low/medium/high. state_dict names are torchaudio's.
#include <cstdint>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "ember/core/arg.h"
#include "ember/core/tensor.h"
#include "ember/nn/module.h"
#include "ember/nn/modules/container/modulelist.h"
#include "ember/nn/modules/container/sequential.h"
#include "ember/nn/modules/conv.h"
#include "ember/nn/modules/embedding.h"
#include "ember/nn/modules/linear.h"
#include "ember/nn/modules/normalization.h"
#include "ember/nn/modules/rnn.h"
#include "ember/nn/pimpl.h"

namespace torch::audio::models {
namespace hdemucs {

class ScaledEmbeddingImpl : public nn::Module {
 public:
  ScaledEmbeddingImpl(int64_t num_embeddings, int64_t embedding_dim, double scale = 10.0, bool smooth = false);
  Tensor forward(const Tensor& x);
  Tensor weight() const;  // embedding.weight * scale
  double scale;
  nn::Embedding embedding{nullptr};
};
TORCH_MODULE(ScaledEmbedding);

class LayerScaleImpl : public nn::Module {
 public:
  LayerScaleImpl(int64_t channels, double init = 0.0);
  Tensor forward(const Tensor& x);  // [B, C, T] scaled per channel
  Tensor scale;
};
TORCH_MODULE(LayerScale);

// Bidirectional LSTM over time with a linear merge (and a skip connection);
// sequences longer than 200 steps run in half-overlapping frames.
class BLSTMImpl : public nn::Module {
 public:
  BLSTMImpl(int64_t dim, int64_t layers = 1, bool skip = false);
  Tensor forward(const Tensor& x);  // [B, C, T]
  int64_t max_steps = 200;
  bool skip;
  nn::LSTM lstm{nullptr};
  nn::Linear linear{nullptr};
};
TORCH_MODULE(BLSTM);

// Local self-attention over time with learned per-head distance decays.
class LocalStateImpl : public nn::Module {
 public:
  LocalStateImpl(int64_t channels, int64_t heads = 4, int64_t ndecay = 4);
  Tensor forward(const Tensor& x);  // [B, C, T]
  int64_t heads, ndecay;
  nn::Conv1d content{nullptr}, query{nullptr}, key{nullptr}, query_decay{nullptr}, proj{nullptr};
};
TORCH_MODULE(LocalState);

class DConvImpl : public nn::Module {
 public:
  DConvImpl(int64_t channels, double compress = 4, int64_t depth = 2, double init = 1e-4,
            const std::string& norm_type = "group_norm", bool attn = false, int64_t heads = 4, int64_t ndecay = 4,
            bool lstm = false, int64_t kernel_size = 3);
  Tensor forward(const Tensor& x);  // [B, C, T]
  nn::ModuleList layers{nullptr};
};
TORCH_MODULE(DConv);

// What torchaudio's dconv_kw dict carries.
struct DConvKw {
  bool lstm = false, attn = false;
  int64_t depth = 2;
  double compress = 4, init = 1e-4;
};

class HEncLayerImpl : public nn::Module {
 public:
  HEncLayerImpl(int64_t chin, int64_t chout, int64_t kernel_size = 8, int64_t stride = 4, int64_t norm_groups = 4,
                bool empty = false, bool freq = true, const std::string& norm_type = "group_norm", int64_t context = 0,
                const DConvKw& dconv_kw = {}, bool pad = true);
  Tensor forward(const Tensor& x, const std::optional<Tensor>& inject = std::nullopt);
  bool freq, empty;
  int64_t kernel_size, stride, pad;
  std::shared_ptr<nn::Module> conv, norm1, rewrite, norm2;  // Conv1d/Conv2d, GroupNorm (or null)
  DConv dconv{nullptr};
};
TORCH_MODULE(HEncLayer);

class HDecLayerImpl : public nn::Module {
 public:
  HDecLayerImpl(int64_t chin, int64_t chout, bool last = false, int64_t kernel_size = 8, int64_t stride = 4,
                int64_t norm_groups = 1, bool empty = false, bool freq = true,
                const std::string& norm_type = "group_norm", int64_t context = 1, const DConvKw& dconv_kw = {},
                bool pad = true);
  // -> (output, the input of conv_tr)
  std::tuple<Tensor, Tensor> forward(const Tensor& x, const std::optional<Tensor>& skip, int64_t length);
  int64_t pad, chin, stride, kernel_size;
  bool last, freq, empty;
  std::shared_ptr<nn::Module> conv_tr, norm2, rewrite, norm1;
};
TORCH_MODULE(HDecLayer);

}  // namespace hdemucs

struct HDemucsOptions {
  HDemucsOptions(std::vector<std::string> sources) : sources_(std::move(sources)) {}  // NOLINT
  TORCH_ARG(std::vector<std::string>, sources);
  TORCH_ARG(int64_t, audio_channels) = 2;
  TORCH_ARG(int64_t, channels) = 48;
  TORCH_ARG(int64_t, growth) = 2;
  TORCH_ARG(int64_t, nfft) = 4096;
  TORCH_ARG(int64_t, depth) = 6;
  TORCH_ARG(double, freq_emb) = 0.2;
  TORCH_ARG(int64_t, emb_scale) = 10;
  TORCH_ARG(bool, emb_smooth) = true;
  TORCH_ARG(int64_t, kernel_size) = 8;
  TORCH_ARG(int64_t, time_stride) = 2;
  TORCH_ARG(int64_t, stride) = 4;
  TORCH_ARG(int64_t, context) = 1;
  TORCH_ARG(int64_t, context_enc) = 0;
  TORCH_ARG(int64_t, norm_starts) = 4;
  TORCH_ARG(int64_t, norm_groups) = 4;
  TORCH_ARG(int64_t, dconv_depth) = 2;
  TORCH_ARG(int64_t, dconv_comp) = 4;
  TORCH_ARG(int64_t, dconv_attn) = 4;
  TORCH_ARG(int64_t, dconv_lstm) = 4;
  TORCH_ARG(double, dconv_init) = 1e-4;
};

class HDemucsImpl : public nn::Module {
 public:
  explicit HDemucsImpl(const HDemucsOptions& options_);
  // input [batch, audio_channels, frames] -> [batch, sources, audio_channels, frames]
  Tensor forward(const Tensor& input);

  HDemucsOptions options;
  int64_t hop_length;
  nn::ModuleList freq_encoder{nullptr}, freq_decoder{nullptr}, time_encoder{nullptr}, time_decoder{nullptr};
  hdemucs::ScaledEmbedding freq_emb{nullptr};
  double freq_emb_scale = 0.0;

 private:
  Tensor spec(const Tensor& x) const;
  Tensor ispec(const Tensor& z, int64_t length) const;
};
TORCH_MODULE(HDemucs);

HDemucs hdemucs_low(std::vector<std::string> sources);
HDemucs hdemucs_medium(std::vector<std::string> sources);
HDemucs hdemucs_high(std::vector<std::string> sources);

}  // namespace torch::audio::models
