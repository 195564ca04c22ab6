#pragma once
// torchaudio.models.RNNT with the Emformer transcriber (emformer_rnnt_model,
// emformer_rnnt_base): transcriber (input_linear, time_reduction, Emformer,
// output_linear, layer_norm), predictor (embedding, layer-normed LSTMs) and
// joiner, under torchaudio's state_dict names.
#include <cstdint>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "ember/audio/models/emformer.h"
#include "ember/core/tensor.h"
#include "ember/nn/module.h"
#include "ember/nn/modules/container/modulelist.h"
#include "ember/nn/modules/dropout.h"
#include "ember/nn/modules/embedding.h"
#include "ember/nn/modules/linear.h"
#include "ember/nn/modules/normalization.h"
#include "ember/nn/pimpl.h"

namespace torch::audio::models {

// Per-layer lists of state tensors, as torchaudio's List[List[Tensor]].
using RNNTState = std::vector<std::vector<Tensor>>;

namespace rnnt {

// Stacks `stride` consecutive frames: [B, T, D] -> [B, T / stride, D * stride].
class TimeReductionImpl : public nn::Module {
 public:
  explicit TimeReductionImpl(int64_t stride);
  std::tuple<Tensor, Tensor> forward(const Tensor& input, const Tensor& lengths);
  int64_t stride;
};
TORCH_MODULE(TimeReduction);

// torchaudio's _CustomLSTM: an LSTM with optional layer norm on the gates and the cell.
class CustomLSTMImpl : public nn::Module {
 public:
  CustomLSTMImpl(int64_t input_dim, int64_t hidden_dim, bool layer_norm = false, double layer_norm_epsilon = 1e-5);
  // input [T, B, input_dim], state {h, c} -> (output [T, B, hidden_dim], {h, c})
  std::tuple<Tensor, std::vector<Tensor>> forward(const Tensor& input, const std::optional<std::vector<Tensor>>& state);
  int64_t hidden_dim;
  nn::Linear x2g{nullptr}, p2g{nullptr};
  nn::LayerNorm c_norm{nullptr}, g_norm{nullptr};  // empty without layer norm (nn.Identity)
};
TORCH_MODULE(CustomLSTM);

class EmformerEncoderImpl : public nn::Module {
 public:
  EmformerEncoderImpl(int64_t input_dim, int64_t output_dim, int64_t segment_length, int64_t right_context_length,
                      int64_t time_reduction_input_dim, int64_t time_reduction_stride, int64_t transformer_num_heads,
                      int64_t transformer_ffn_dim, int64_t transformer_num_layers,
                      int64_t transformer_left_context_length, double transformer_dropout = 0.0,
                      const std::string& transformer_activation = "relu", int64_t transformer_max_memory_size = 0,
                      const std::optional<std::string>& transformer_weight_init_scale_strategy = "depthwise",
                      bool transformer_tanh_on_mem = false);
  std::tuple<Tensor, Tensor> forward(const Tensor& input, const Tensor& lengths);
  std::tuple<Tensor, Tensor, RNNTState> infer(const Tensor& input, const Tensor& lengths,
                                              const std::optional<RNNTState>& states);
  int64_t input_dim;
  nn::Linear input_linear{nullptr};
  TimeReduction time_reduction{nullptr};
  Emformer transformer{nullptr};
  nn::Linear output_linear{nullptr};
  nn::LayerNorm layer_norm{nullptr};
};
TORCH_MODULE(EmformerEncoder);

class PredictorImpl : public nn::Module {
 public:
  PredictorImpl(int64_t num_symbols, int64_t output_dim, int64_t symbol_embedding_dim, int64_t num_lstm_layers,
                int64_t lstm_hidden_dim, bool lstm_layer_norm = false, double lstm_layer_norm_epsilon = 1e-5,
                double lstm_dropout = 0.0);
  // input [B, U] token ids -> ([B, U, output_dim], lengths, state)
  std::tuple<Tensor, Tensor, RNNTState> forward(const Tensor& input, const Tensor& lengths,
                                                const std::optional<RNNTState>& state = std::nullopt);
  int64_t num_symbols;
  nn::Embedding embedding{nullptr};
  nn::LayerNorm input_layer_norm{nullptr};
  nn::ModuleList lstm_layers{nullptr};
  nn::Dropout dropout{nullptr};
  nn::Linear linear{nullptr};
  nn::LayerNorm output_layer_norm{nullptr};
};
TORCH_MODULE(Predictor);

class JoinerImpl : public nn::Module {
 public:
  JoinerImpl(int64_t input_dim, int64_t output_dim, const std::string& activation = "relu");
  // [B, T, D] and [B, U, D] -> ([B, T, U, output_dim], source_lengths, target_lengths)
  std::tuple<Tensor, Tensor, Tensor> forward(const Tensor& source_encodings, const Tensor& source_lengths,
                                             const Tensor& target_encodings, const Tensor& target_lengths);
  bool tanh_activation;
  nn::Linear linear{nullptr};
};
TORCH_MODULE(Joiner);

}  // namespace rnnt

class RNNTImpl : public nn::Module {
 public:
  RNNTImpl(rnnt::EmformerEncoder transcriber, rnnt::Predictor predictor, rnnt::Joiner joiner);
  // sources [B, T, input_dim], targets [B, U] -> (joint [B, T', U, num_symbols],
  // source lengths, target lengths, predictor state)
  std::tuple<Tensor, Tensor, Tensor, RNNTState> forward(const Tensor& sources, const Tensor& source_lengths,
                                                        const Tensor& targets, const Tensor& target_lengths,
                                                        const std::optional<RNNTState>& predictor_state = std::nullopt);
  std::tuple<Tensor, Tensor, RNNTState> transcribe_streaming(const Tensor& sources, const Tensor& source_lengths,
                                                             const std::optional<RNNTState>& state);
  std::tuple<Tensor, Tensor> transcribe(const Tensor& sources, const Tensor& source_lengths);
  std::tuple<Tensor, Tensor, RNNTState> predict(const Tensor& targets, const Tensor& target_lengths,
                                                const std::optional<RNNTState>& state);
  std::tuple<Tensor, Tensor, Tensor> join(const Tensor& source_encodings, const Tensor& source_lengths,
                                          const Tensor& target_encodings, const Tensor& target_lengths);

  rnnt::EmformerEncoder transcriber{nullptr};
  rnnt::Predictor predictor{nullptr};
  rnnt::Joiner joiner{nullptr};
};
TORCH_MODULE(RNNT);

// torchaudio's keyword-only parameters, in its order.
RNNT emformer_rnnt_model(int64_t input_dim, int64_t encoding_dim, int64_t num_symbols, int64_t segment_length,
                         int64_t right_context_length, int64_t time_reduction_input_dim, int64_t time_reduction_stride,
                         int64_t transformer_num_heads, int64_t transformer_ffn_dim, int64_t transformer_num_layers,
                         double transformer_dropout, const std::string& transformer_activation,
                         int64_t transformer_left_context_length, int64_t transformer_max_memory_size,
                         const std::optional<std::string>& transformer_weight_init_scale_strategy,
                         bool transformer_tanh_on_mem, int64_t symbol_embedding_dim, int64_t num_lstm_layers,
                         bool lstm_layer_norm, double lstm_layer_norm_epsilon, double lstm_dropout);

// The configuration of torchaudio's EMFORMER_RNNT_BASE_LIBRISPEECH bundle.
RNNT emformer_rnnt_base(int64_t num_symbols);

}  // namespace torch::audio::models
