#include "ember/audio/models/rnnt.h"

#include "ember/core/error.h"
#include "ember/ops/all_ops.h"

namespace torch::audio::models {
namespace rnnt {

TimeReductionImpl::TimeReductionImpl(int64_t stride_) : stride(stride_) {
  EMBER_CHECK(stride > 0, "RNNT: time_reduction_stride must be positive, got ", stride);
}

std::tuple<Tensor, Tensor> TimeReductionImpl::forward(const Tensor& input, const Tensor& lengths) {
  const int64_t B = input.size(0), T = input.size(1), D = input.size(2);
  const int64_t num_frames = T - T % stride;
  Tensor output = input.narrow(1, 0, num_frames).reshape({B, num_frames / stride, D * stride}).contiguous();
  return {output, div(lengths, stride, "trunc")};
}

CustomLSTMImpl::CustomLSTMImpl(int64_t input_dim, int64_t hidden_dim_, bool layer_norm, double eps)
    : hidden_dim(hidden_dim_) {
  x2g = register_module("x2g", nn::Linear(nn::LinearOptions(input_dim, 4 * hidden_dim).bias(!layer_norm)));
  p2g = register_module("p2g", nn::Linear(nn::LinearOptions(hidden_dim, 4 * hidden_dim).bias(false)));
  if (layer_norm) {
    c_norm = register_module("c_norm", nn::LayerNorm(nn::LayerNormOptions({hidden_dim}).eps(eps)));
    g_norm = register_module("g_norm", nn::LayerNorm(nn::LayerNormOptions({4 * hidden_dim}).eps(eps)));
  }
}

std::tuple<Tensor, std::vector<Tensor>> CustomLSTMImpl::forward(const Tensor& input,
                                                                const std::optional<std::vector<Tensor>>& state) {
  Tensor h, c;
  const int64_t B = input.size(1);
  if (state) {
    EMBER_CHECK(state->size() == 2 && (*state)[0].sizes().vec() == std::vector<int64_t>({B, hidden_dim}) &&
                    (*state)[1].sizes() == (*state)[0].sizes(),
                "RNNT predictor: an LSTM state must be {h, c} of shape [", B, ", ", hidden_dim, "]");
    h = (*state)[0];
    c = (*state)[1];
  } else {
    h = zeros({B, hidden_dim}, input.options());
    c = zeros({B, hidden_dim}, input.options());
  }
  Tensor gated_input = x2g->forward(input);
  std::vector<Tensor> outputs;
  for (const Tensor& g : gated_input.unbind(0)) {
    Tensor gates = g + p2g->forward(h);
    if (!g_norm.is_empty()) gates = g_norm->forward(gates);
    auto chunks = gates.chunk(4, 1);
    c = chunks[1].sigmoid() * c + chunks[0].sigmoid() * chunks[2].tanh();
    if (!c_norm.is_empty()) c = c_norm->forward(c);
    h = chunks[3].sigmoid() * c.tanh();
    outputs.push_back(h);
  }
  Tensor output = outputs.empty() ? zeros({0, B, hidden_dim}, input.options()) : stack(outputs, 0);
  return {output, std::vector<Tensor>{h, c}};
}

EmformerEncoderImpl::EmformerEncoderImpl(int64_t input_dim_, int64_t output_dim, int64_t segment_length,
                                         int64_t right_context_length, int64_t time_reduction_input_dim,
                                         int64_t time_reduction_stride, int64_t num_heads, int64_t ffn_dim,
                                         int64_t num_layers, int64_t left_context_length, double dropout,
                                         const std::string& activation, int64_t max_memory_size,
                                         const std::optional<std::string>& weight_init_scale_strategy, bool tanh_on_mem)
    : input_dim(input_dim_) {
  EMBER_CHECK(time_reduction_stride > 0, "RNNT: time_reduction_stride must be positive, got ", time_reduction_stride);
  input_linear =
      register_module("input_linear", nn::Linear(nn::LinearOptions(input_dim, time_reduction_input_dim).bias(false)));
  time_reduction = register_module("time_reduction", TimeReduction(time_reduction_stride));
  const int64_t transformer_dim = time_reduction_input_dim * time_reduction_stride;
  transformer = register_module(
      "transformer",
      Emformer(EmformerOptions(transformer_dim, num_heads, ffn_dim, num_layers, segment_length / time_reduction_stride)
                   .dropout(dropout)
                   .activation(activation)
                   .left_context_length(left_context_length)
                   .right_context_length(right_context_length / time_reduction_stride)
                   .max_memory_size(max_memory_size)
                   .weight_init_scale_strategy(weight_init_scale_strategy)
                   .tanh_on_mem(tanh_on_mem)));
  output_linear = register_module("output_linear", nn::Linear(transformer_dim, output_dim));
  layer_norm = register_module("layer_norm", nn::LayerNorm(nn::LayerNormOptions({output_dim})));
}

namespace {
void check_sources(const char* fn, const Tensor& input, const Tensor& lengths, int64_t input_dim) {
  EMBER_CHECK(input.dim() == 3 && input.size(2) == input_dim, fn, ": expected sources of shape [batch, frames, ",
              input_dim, "], got ", input.sizes());
  EMBER_CHECK(input.is_floating_point(), fn, ": expected floating-point sources, got ", input.scalar_type());
  EMBER_CHECK(lengths.dim() == 1 && lengths.size(0) == input.size(0) && !lengths.is_floating_point(), fn,
              ": expected integer source lengths of shape [", input.size(0), "], got ", lengths.sizes());
}
}  // namespace

std::tuple<Tensor, Tensor> EmformerEncoderImpl::forward(const Tensor& input, const Tensor& lengths) {
  check_sources("RNNT.transcribe", input, lengths, input_dim);
  auto [reduced, reduced_lengths] = time_reduction->forward(input_linear->forward(input), lengths);
  auto [out, out_lengths] = transformer->forward(reduced, reduced_lengths);
  return {layer_norm->forward(output_linear->forward(out)), out_lengths};
}

std::tuple<Tensor, Tensor, RNNTState> EmformerEncoderImpl::infer(const Tensor& input, const Tensor& lengths,
                                                                 const std::optional<RNNTState>& states) {
  check_sources("RNNT.transcribe_streaming", input, lengths, input_dim);
  auto [reduced, reduced_lengths] = time_reduction->forward(input_linear->forward(input), lengths);
  auto [out, out_lengths, out_states] = transformer->infer(reduced, reduced_lengths, states);
  return {layer_norm->forward(output_linear->forward(out)), out_lengths, out_states};
}

PredictorImpl::PredictorImpl(int64_t num_symbols_, int64_t output_dim, int64_t symbol_embedding_dim,
                             int64_t num_lstm_layers, int64_t lstm_hidden_dim, bool lstm_layer_norm,
                             double lstm_layer_norm_epsilon, double lstm_dropout)
    : num_symbols(num_symbols_) {
  EMBER_CHECK(num_symbols > 0, "RNNT: num_symbols must be positive, got ", num_symbols);
  embedding = register_module("embedding", nn::Embedding(num_symbols, symbol_embedding_dim));
  input_layer_norm = register_module("input_layer_norm", nn::LayerNorm(nn::LayerNormOptions({symbol_embedding_dim})));
  lstm_layers = register_module("lstm_layers", nn::ModuleList());
  for (int64_t i = 0; i < num_lstm_layers; ++i) {
    lstm_layers->push_back(CustomLSTM(i == 0 ? symbol_embedding_dim : lstm_hidden_dim, lstm_hidden_dim, lstm_layer_norm,
                                      lstm_layer_norm_epsilon));
  }
  dropout = register_module("dropout", nn::Dropout(lstm_dropout));
  linear = register_module("linear", nn::Linear(lstm_hidden_dim, output_dim));
  output_layer_norm = register_module("output_layer_norm", nn::LayerNorm(nn::LayerNormOptions({output_dim})));
}

std::tuple<Tensor, Tensor, RNNTState> PredictorImpl::forward(const Tensor& input, const Tensor& lengths,
                                                             const std::optional<RNNTState>& state) {
  EMBER_CHECK(input.dim() == 2 && !input.is_floating_point(),
              "RNNT.predict: expected integer targets of shape [batch, length], got ", input.sizes(), " ",
              input.scalar_type());
  if (input.numel() > 0) {
    EMBER_CHECK(input.min().item<int64_t>() >= 0 && input.max().item<int64_t>() < num_symbols,
                "RNNT.predict: target ids must be in [0, ", num_symbols, ")");
  }
  if (state) {
    EMBER_CHECK(state->size() == lstm_layers->size(), "RNNT.predict: expected ", lstm_layers->size(),
                " LSTM layer states, got ", state->size());
  }
  Tensor x = input_layer_norm->forward(embedding->forward(input.permute({1, 0})));
  RNNTState state_out;
  for (size_t i = 0; i < lstm_layers->size(); ++i) {
    std::optional<std::vector<Tensor>> s;
    if (state) s = (*state)[i];
    auto [out, st] = lstm_layers->ptr(i)->as<CustomLSTMImpl>()->forward(x, s);
    x = dropout->forward(out);
    state_out.push_back(std::move(st));
  }
  return {output_layer_norm->forward(linear->forward(x)).permute({1, 0, 2}), lengths, state_out};
}

JoinerImpl::JoinerImpl(int64_t input_dim, int64_t output_dim, const std::string& activation)
    : tanh_activation(activation == "tanh") {
  EMBER_CHECK(activation == "relu" || activation == "tanh", "RNNT joiner: Unsupported activation \"", activation, "\"");
  linear = register_module("linear", nn::Linear(input_dim, output_dim));
}

std::tuple<Tensor, Tensor, Tensor> JoinerImpl::forward(const Tensor& source_encodings, const Tensor& source_lengths,
                                                       const Tensor& target_encodings, const Tensor& target_lengths) {
  EMBER_CHECK(source_encodings.dim() == 3 && target_encodings.dim() == 3 &&
                  (source_encodings.size(0) == target_encodings.size(0) || source_encodings.size(0) == 1 ||
                   target_encodings.size(0) == 1) &&
                  source_encodings.size(2) == target_encodings.size(2),
              "RNNT.join: expected source [B, T, D] and target [B, U, D] encodings, got ", source_encodings.sizes(),
              " and ", target_encodings.sizes());
  Tensor joint = source_encodings.unsqueeze(2) + target_encodings.unsqueeze(1);
  joint = tanh_activation ? tanh(joint) : relu(joint);
  return {linear->forward(joint), source_lengths, target_lengths};
}

}  // namespace rnnt

RNNTImpl::RNNTImpl(rnnt::EmformerEncoder transcriber_, rnnt::Predictor predictor_, rnnt::Joiner joiner_) {
  transcriber = register_module("transcriber", std::move(transcriber_));
  predictor = register_module("predictor", std::move(predictor_));
  joiner = register_module("joiner", std::move(joiner_));
}

std::tuple<Tensor, Tensor, Tensor, RNNTState> RNNTImpl::forward(const Tensor& sources, const Tensor& source_lengths,
                                                                const Tensor& targets, const Tensor& target_lengths,
                                                                const std::optional<RNNTState>& predictor_state) {
  auto [src, src_len] = transcriber->forward(sources, source_lengths);
  auto [tgt, tgt_len, state] = predictor->forward(targets, target_lengths, predictor_state);
  auto [out, s_len, t_len] = joiner->forward(src, src_len, tgt, tgt_len);
  return {out, s_len, t_len, state};
}

std::tuple<Tensor, Tensor, RNNTState> RNNTImpl::transcribe_streaming(const Tensor& sources,
                                                                     const Tensor& source_lengths,
                                                                     const std::optional<RNNTState>& state) {
  return transcriber->infer(sources, source_lengths, state);
}

std::tuple<Tensor, Tensor> RNNTImpl::transcribe(const Tensor& sources, const Tensor& source_lengths) {
  return transcriber->forward(sources, source_lengths);
}

std::tuple<Tensor, Tensor, RNNTState> RNNTImpl::predict(const Tensor& targets, const Tensor& target_lengths,
                                                        const std::optional<RNNTState>& state) {
  return predictor->forward(targets, target_lengths, state);
}

std::tuple<Tensor, Tensor, Tensor> RNNTImpl::join(const Tensor& source_encodings, const Tensor& source_lengths,
                                                  const Tensor& target_encodings, const Tensor& target_lengths) {
  return joiner->forward(source_encodings, source_lengths, target_encodings, target_lengths);
}

RNNT emformer_rnnt_model(int64_t input_dim, int64_t encoding_dim, int64_t num_symbols, int64_t segment_length,
                         int64_t right_context_length, int64_t time_reduction_input_dim, int64_t time_reduction_stride,
                         int64_t transformer_num_heads, int64_t transformer_ffn_dim, int64_t transformer_num_layers,
                         double transformer_dropout, const std::string& transformer_activation,
                         int64_t transformer_left_context_length, int64_t transformer_max_memory_size,
                         const std::optional<std::string>& transformer_weight_init_scale_strategy,
                         bool transformer_tanh_on_mem, int64_t symbol_embedding_dim, int64_t num_lstm_layers,
                         bool lstm_layer_norm, double lstm_layer_norm_epsilon, double lstm_dropout) {
  rnnt::EmformerEncoder encoder(input_dim, encoding_dim, segment_length, right_context_length, time_reduction_input_dim,
                                time_reduction_stride, transformer_num_heads, transformer_ffn_dim,
                                transformer_num_layers, transformer_left_context_length, transformer_dropout,
                                transformer_activation, transformer_max_memory_size,
                                transformer_weight_init_scale_strategy, transformer_tanh_on_mem);
  rnnt::Predictor predictor(num_symbols, encoding_dim, symbol_embedding_dim, num_lstm_layers, symbol_embedding_dim,
                            lstm_layer_norm, lstm_layer_norm_epsilon, lstm_dropout);
  return RNNT(encoder, predictor, rnnt::Joiner(encoding_dim, num_symbols));
}

RNNT emformer_rnnt_base(int64_t num_symbols) {
  return emformer_rnnt_model(80, 1024, num_symbols, 16, 4, 128, 4, 8, 2048, 20, 0.1, "gelu", 30, 0, "depthwise", true,
                             512, 3, true, 1e-3, 0.3);
}

}  // namespace torch::audio::models
