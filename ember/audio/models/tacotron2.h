#pragma once
// torchaudio.models.Tacotron2 (Shen et al.): a character encoder (conv stack +
// bidirectional LSTM), an autoregressive decoder with location-sensitive
// attention (teacher-forced in forward, free-running with a stop gate in
// infer) and a convolutional postnet. state_dict names are torchaudio's.
// As in torchaudio, the prenet's dropout is always on (also in eval), so
// outputs are random; it draws from Ember's default generator.
#include <cstdint>
#include <optional>
#include <tuple>
#include <vector>

#include "ember/core/arg.h"
#include "ember/core/tensor.h"
#include "ember/nn/module.h"
#include "ember/nn/modules/container/modulelist.h"
#include "ember/nn/modules/conv.h"
#include "ember/nn/modules/embedding.h"
#include "ember/nn/modules/linear.h"
#include "ember/nn/modules/rnn.h"
#include "ember/nn/pimpl.h"

namespace torch::audio::models {
namespace tacotron2 {

class LocationLayerImpl : public nn::Module {
 public:
  LocationLayerImpl(int64_t attention_n_filter, int64_t attention_kernel_size, int64_t attention_hidden_dim);
  // [B, 2, max_time] -> [B, max_time, attention_hidden_dim]
  Tensor forward(const Tensor& attention_weights_cat);
  nn::Conv1d location_conv{nullptr};
  nn::Linear location_dense{nullptr};
};
TORCH_MODULE(LocationLayer);

class AttentionImpl : public nn::Module {
 public:
  AttentionImpl(int64_t attention_rnn_dim, int64_t encoder_embedding_dim, int64_t attention_hidden_dim,
                int64_t attention_location_n_filter, int64_t attention_location_kernel_size);
  // -> (attention context [B, encoder_embedding_dim], attention weights [B, max_time])
  std::tuple<Tensor, Tensor> forward(const Tensor& attention_hidden_state, const Tensor& memory,
                                     const Tensor& processed_memory, const Tensor& attention_weights_cat,
                                     const Tensor& mask);
  nn::Linear query_layer{nullptr}, memory_layer{nullptr}, v{nullptr};
  LocationLayer location_layer{nullptr};
};
TORCH_MODULE(Attention);

// Linear + ReLU + dropout(p = 0.5, always on) layers.
class PrenetImpl : public nn::Module {
 public:
  PrenetImpl(int64_t in_dim, const std::vector<int64_t>& out_sizes);
  Tensor forward(const Tensor& x);
  nn::ModuleList layers{nullptr};
};
TORCH_MODULE(Prenet);

class PostnetImpl : public nn::Module {
 public:
  PostnetImpl(int64_t n_mels, int64_t postnet_embedding_dim, int64_t postnet_kernel_size,
              int64_t postnet_n_convolution);
  Tensor forward(const Tensor& x);  // [B, n_mels, T] -> [B, n_mels, T]
  nn::ModuleList convolutions{nullptr};
};
TORCH_MODULE(Postnet);

class EncoderImpl : public nn::Module {
 public:
  EncoderImpl(int64_t encoder_embedding_dim, int64_t encoder_n_convolution, int64_t encoder_kernel_size);
  // x [B, encoder_embedding_dim, n_tokens], input_lengths [B] (sorted descending) -> [B, n_tokens, dim]
  Tensor forward(const Tensor& x, const Tensor& input_lengths);
  nn::ModuleList convolutions{nullptr};
  nn::LSTM lstm{nullptr};
};
TORCH_MODULE(Encoder);

// The recurrent state threaded through Decoder::decode.
struct DecoderState {
  Tensor attention_hidden, attention_cell, decoder_hidden, decoder_cell;
  Tensor attention_weights, attention_weights_cum, attention_context;
};

class DecoderImpl : public nn::Module {
 public:
  DecoderImpl(int64_t n_mels, int64_t n_frames_per_step, int64_t encoder_embedding_dim, int64_t decoder_rnn_dim,
              int64_t decoder_max_step, double decoder_dropout, bool decoder_early_stopping, int64_t attention_rnn_dim,
              int64_t attention_hidden_dim, int64_t attention_location_n_filter, int64_t attention_location_kernel_size,
              double attention_dropout, int64_t prenet_dim, double gate_threshold);
  // Teacher forcing: memory [B, max_time, dim], mel_specgram_truth [B, n_mels, T]
  // -> (mel [B, n_mels, T], gate outputs [B, T / n_frames_per_step], alignments [B, steps, max_time])
  std::tuple<Tensor, Tensor, Tensor> forward(const Tensor& memory, const Tensor& mel_specgram_truth,
                                             const Tensor& memory_lengths);
  // Free running until every stop gate fires (or decoder_max_step):
  // -> (mel [B, n_mels, steps], lengths int32 [B], gate outputs, alignments)
  std::tuple<Tensor, Tensor, Tensor, Tensor> infer(const Tensor& memory, const Tensor& memory_lengths);
  // One step: -> (mel frame(s) [B, n_mels * n_frames_per_step], gate [B, 1]); updates state.
  std::tuple<Tensor, Tensor> decode(const Tensor& decoder_input, DecoderState& state, const Tensor& memory,
                                    const Tensor& processed_memory, const Tensor& mask);
  DecoderState initial_state(const Tensor& memory) const;

  int64_t n_mels, n_frames_per_step, encoder_embedding_dim, attention_rnn_dim, decoder_rnn_dim, prenet_dim,
      decoder_max_step;
  double gate_threshold, attention_dropout, decoder_dropout;
  bool decoder_early_stopping;
  Prenet prenet{nullptr};
  nn::LSTMCell attention_rnn{nullptr};
  Attention attention_layer{nullptr};
  nn::LSTMCell decoder_rnn{nullptr};
  nn::Linear linear_projection{nullptr}, gate_layer{nullptr};
};
TORCH_MODULE(Decoder);

}  // namespace tacotron2

struct Tacotron2Options {
  TORCH_ARG(bool, mask_padding) = false;
  TORCH_ARG(int64_t, n_mels) = 80;
  TORCH_ARG(int64_t, n_symbol) = 148;
  TORCH_ARG(int64_t, n_frames_per_step) = 1;
  TORCH_ARG(int64_t, symbol_embedding_dim) = 512;
  TORCH_ARG(int64_t, encoder_embedding_dim) = 512;
  TORCH_ARG(int64_t, encoder_n_convolution) = 3;
  TORCH_ARG(int64_t, encoder_kernel_size) = 5;
  TORCH_ARG(int64_t, decoder_rnn_dim) = 1024;
  TORCH_ARG(int64_t, decoder_max_step) = 2000;
  TORCH_ARG(double, decoder_dropout) = 0.1;
  TORCH_ARG(bool, decoder_early_stopping) = true;
  TORCH_ARG(int64_t, attention_rnn_dim) = 1024;
  TORCH_ARG(int64_t, attention_hidden_dim) = 128;
  TORCH_ARG(int64_t, attention_location_n_filter) = 32;
  TORCH_ARG(int64_t, attention_location_kernel_size) = 31;
  TORCH_ARG(double, attention_dropout) = 0.1;
  TORCH_ARG(int64_t, prenet_dim) = 256;
  TORCH_ARG(int64_t, postnet_n_convolution) = 5;
  TORCH_ARG(int64_t, postnet_kernel_size) = 5;
  TORCH_ARG(int64_t, postnet_embedding_dim) = 512;
  TORCH_ARG(double, gate_threshold) = 0.5;
};

class Tacotron2Impl : public nn::Module {
 public:
  explicit Tacotron2Impl(const Tacotron2Options& options_ = {});
  // tokens [B, n_tokens] (lengths sorted descending), mel_specgram [B, n_mels, T]
  // -> (mel, mel after postnet, gate outputs, alignments)
  std::tuple<Tensor, Tensor, Tensor, Tensor> forward(const Tensor& tokens, const Tensor& token_lengths,
                                                     const Tensor& mel_specgram, const Tensor& mel_specgram_lengths);
  // -> (mel after postnet [B, n_mels, steps], lengths [B], alignments [B, steps, n_tokens])
  std::tuple<Tensor, Tensor, Tensor> infer(const Tensor& tokens, const std::optional<Tensor>& lengths = std::nullopt);

  Tacotron2Options options;
  nn::Embedding embedding{nullptr};
  tacotron2::Encoder encoder{nullptr};
  tacotron2::Decoder decoder{nullptr};
  tacotron2::Postnet postnet{nullptr};

 private:
  void check_tokens(const char* fn, const Tensor& tokens, const Tensor& lengths) const;
};
TORCH_MODULE(Tacotron2);

}  // namespace torch::audio::models
