#include "ember/audio/models/tacotron2.h"

#include <cmath>

#include "ember/autograd/grad_mode.h"
#include "ember/core/error.h"
#include "ember/nn/init.h"
#include "ember/nn/modules/batchnorm.h"
#include "ember/nn/modules/container/sequential.h"
#include "ember/nn/utils/rnn.h"
#include "ember/ops/all_ops.h"

namespace torch::audio::models {
namespace tacotron2 {
namespace {

// torchaudio's gains: calculate_gain("linear"/"sigmoid") = 1, "tanh" = 5/3, "relu" = sqrt(2).
constexpr double kLinear = 1.0, kTanh = 5.0 / 3.0;
const double kReLU = std::sqrt(2.0);

nn::Linear linear_layer(int64_t in, int64_t out, bool bias = true, double gain = kLinear) {
  nn::Linear linear(nn::LinearOptions(in, out).bias(bias));
  NoGradGuard no_grad;
  nn::init::xavier_uniform_(linear->weight, gain);
  return linear;
}

nn::Conv1d conv1d_layer(int64_t in, int64_t out, int64_t kernel, int64_t padding, bool bias = true,
                        double gain = kLinear) {
  nn::Conv1d conv(nn::Conv1dOptions(in, out, kernel).padding(padding).bias(bias));
  NoGradGuard no_grad;
  nn::init::xavier_uniform_(conv->weight, gain);
  return conv;
}

// true where a position is past its sequence's length: [B, max(lengths)].
Tensor mask_from_lengths(const Tensor& lengths) {
  const int64_t max_len = lengths.max().item<int64_t>();
  return arange(max_len, TensorOptions(kInt64)).unsqueeze(0) >= lengths.to(kInt64).unsqueeze(1);
}

}  // namespace

LocationLayerImpl::LocationLayerImpl(int64_t n_filter, int64_t kernel_size, int64_t hidden_dim) {
  location_conv =
      register_module("location_conv", conv1d_layer(2, n_filter, kernel_size, (kernel_size - 1) / 2, false));
  location_dense = register_module("location_dense", linear_layer(n_filter, hidden_dim, false, kTanh));
}

Tensor LocationLayerImpl::forward(const Tensor& attention_weights_cat) {
  return location_dense->forward(location_conv->forward(attention_weights_cat).transpose(1, 2));
}

AttentionImpl::AttentionImpl(int64_t attention_rnn_dim, int64_t encoder_embedding_dim, int64_t attention_hidden_dim,
                             int64_t n_filter, int64_t kernel_size) {
  query_layer = register_module("query_layer", linear_layer(attention_rnn_dim, attention_hidden_dim, false, kTanh));
  memory_layer =
      register_module("memory_layer", linear_layer(encoder_embedding_dim, attention_hidden_dim, false, kTanh));
  v = register_module("v", linear_layer(attention_hidden_dim, 1, false));
  location_layer = register_module("location_layer", LocationLayer(n_filter, kernel_size, attention_hidden_dim));
}

std::tuple<Tensor, Tensor> AttentionImpl::forward(const Tensor& query, const Tensor& memory,
                                                  const Tensor& processed_memory, const Tensor& weights_cat,
                                                  const Tensor& mask) {
  Tensor energies = v->forward(
      tanh(query_layer->forward(query.unsqueeze(1)) + location_layer->forward(weights_cat) + processed_memory));
  Tensor alignment = energies.squeeze(2).masked_fill(mask, -std::numeric_limits<double>::infinity());
  Tensor weights = softmax(alignment, 1);
  return {bmm(weights.unsqueeze(1), memory).squeeze(1), weights};
}

PrenetImpl::PrenetImpl(int64_t in_dim, const std::vector<int64_t>& out_sizes) {
  layers = register_module("layers", nn::ModuleList());
  int64_t in = in_dim;
  for (int64_t out : out_sizes) {
    layers->push_back(linear_layer(in, out, false));
    in = out;
  }
}

Tensor PrenetImpl::forward(const Tensor& input) {
  Tensor x = input;
  for (const auto& layer : *layers) x = ::torch::dropout(relu(layer->as<nn::LinearImpl>()->forward(x)), 0.5, true);
  return x;
}

PostnetImpl::PostnetImpl(int64_t n_mels, int64_t embedding_dim, int64_t kernel_size, int64_t n_convolution) {
  EMBER_CHECK(kernel_size > 0 && kernel_size % 2 == 1, "Tacotron2: postnet_kernel_size must be odd, got ", kernel_size);
  convolutions = register_module("convolutions", nn::ModuleList());
  for (int64_t i = 0; i < n_convolution; ++i) {
    const bool last = i == n_convolution - 1;
    const int64_t in = i == 0 ? n_mels : embedding_dim, out = last ? n_mels : embedding_dim;
    convolutions->push_back(nn::Sequential(
        conv1d_layer(in, out, kernel_size, (kernel_size - 1) / 2, true, last ? kLinear : kTanh), nn::BatchNorm1d(out)));
  }
}

Tensor PostnetImpl::forward(const Tensor& input) {
  Tensor x = input;
  const size_t n = convolutions->size();
  for (size_t i = 0; i < n; ++i) {
    Tensor y = convolutions->ptr(i)->as<nn::SequentialImpl>()->forward(x);
    x = ::torch::dropout(i + 1 < n ? tanh(y) : y, 0.5, is_training());
  }
  return x;
}

EncoderImpl::EncoderImpl(int64_t dim, int64_t n_convolution, int64_t kernel_size) {
  EMBER_CHECK(kernel_size > 0 && kernel_size % 2 == 1, "Tacotron2: encoder_kernel_size must be odd, got ", kernel_size);
  EMBER_CHECK(dim % 2 == 0, "Tacotron2: encoder_embedding_dim must be even, got ", dim);
  convolutions = register_module("convolutions", nn::ModuleList());
  for (int64_t i = 0; i < n_convolution; ++i) {
    convolutions->push_back(
        nn::Sequential(conv1d_layer(dim, dim, kernel_size, (kernel_size - 1) / 2, true, kReLU), nn::BatchNorm1d(dim)));
  }
  lstm = register_module("lstm", nn::LSTM(nn::LSTMOptions(dim, dim / 2).batch_first(true).bidirectional(true)));
}

Tensor EncoderImpl::forward(const Tensor& input, const Tensor& input_lengths) {
  Tensor x = input;
  for (const auto& conv : *convolutions)
    x = ::torch::dropout(relu(conv->as<nn::SequentialImpl>()->forward(x)), 0.5, is_training());
  auto packed = nn::utils::rnn::pack_padded_sequence(x.transpose(1, 2), input_lengths.to(kInt64), true);
  auto [outputs, state] = lstm->forward_with_packed_input(packed);
  return std::get<0>(nn::utils::rnn::pad_packed_sequence(outputs, true));
}

DecoderImpl::DecoderImpl(int64_t n_mels_, int64_t n_frames_per_step_, int64_t encoder_embedding_dim_,
                         int64_t decoder_rnn_dim_, int64_t decoder_max_step_, double decoder_dropout_,
                         bool decoder_early_stopping_, int64_t attention_rnn_dim_, int64_t attention_hidden_dim,
                         int64_t attention_location_n_filter, int64_t attention_location_kernel_size,
                         double attention_dropout_, int64_t prenet_dim_, double gate_threshold_)
    : n_mels(n_mels_),
      n_frames_per_step(n_frames_per_step_),
      encoder_embedding_dim(encoder_embedding_dim_),
      attention_rnn_dim(attention_rnn_dim_),
      decoder_rnn_dim(decoder_rnn_dim_),
      prenet_dim(prenet_dim_),
      decoder_max_step(decoder_max_step_),
      gate_threshold(gate_threshold_),
      attention_dropout(attention_dropout_),
      decoder_dropout(decoder_dropout_),
      decoder_early_stopping(decoder_early_stopping_) {
  EMBER_CHECK(n_mels > 0 && n_frames_per_step > 0, "Tacotron2: n_mels and n_frames_per_step must be positive");
  EMBER_CHECK(decoder_max_step > 0, "Tacotron2: decoder_max_step must be positive, got ", decoder_max_step);
  prenet = register_module("prenet", Prenet(n_mels * n_frames_per_step, std::vector<int64_t>{prenet_dim, prenet_dim}));
  attention_rnn = register_module("attention_rnn", nn::LSTMCell(prenet_dim + encoder_embedding_dim, attention_rnn_dim));
  attention_layer =
      register_module("attention_layer", Attention(attention_rnn_dim, encoder_embedding_dim, attention_hidden_dim,
                                                   attention_location_n_filter, attention_location_kernel_size));
  decoder_rnn =
      register_module("decoder_rnn", nn::LSTMCell(attention_rnn_dim + encoder_embedding_dim, decoder_rnn_dim));
  linear_projection = register_module(
      "linear_projection", linear_layer(decoder_rnn_dim + encoder_embedding_dim, n_mels * n_frames_per_step));
  gate_layer = register_module("gate_layer", linear_layer(decoder_rnn_dim + encoder_embedding_dim, 1, true, kLinear));
}

DecoderState DecoderImpl::initial_state(const Tensor& memory) const {
  const int64_t B = memory.size(0), T = memory.size(1);
  const auto o = memory.options();
  return {zeros({B, attention_rnn_dim}, o),
          zeros({B, attention_rnn_dim}, o),
          zeros({B, decoder_rnn_dim}, o),
          zeros({B, decoder_rnn_dim}, o),
          zeros({B, T}, o),
          zeros({B, T}, o),
          zeros({B, encoder_embedding_dim}, o)};
}

std::tuple<Tensor, Tensor> DecoderImpl::decode(const Tensor& decoder_input, DecoderState& s, const Tensor& memory,
                                               const Tensor& processed_memory, const Tensor& mask) {
  std::tie(s.attention_hidden, s.attention_cell) = attention_rnn->forward(
      cat({decoder_input, s.attention_context}, -1), std::make_tuple(s.attention_hidden, s.attention_cell));
  s.attention_hidden = ::torch::dropout(s.attention_hidden, attention_dropout, is_training());
  Tensor weights_cat = cat({s.attention_weights.unsqueeze(1), s.attention_weights_cum.unsqueeze(1)}, 1);
  std::tie(s.attention_context, s.attention_weights) =
      attention_layer->forward(s.attention_hidden, memory, processed_memory, weights_cat, mask);
  s.attention_weights_cum = s.attention_weights_cum + s.attention_weights;
  std::tie(s.decoder_hidden, s.decoder_cell) = decoder_rnn->forward(cat({s.attention_hidden, s.attention_context}, -1),
                                                                    std::make_tuple(s.decoder_hidden, s.decoder_cell));
  s.decoder_hidden = ::torch::dropout(s.decoder_hidden, decoder_dropout, is_training());
  Tensor hidden_context = cat({s.decoder_hidden, s.attention_context}, 1);
  return {linear_projection->forward(hidden_context), gate_layer->forward(hidden_context)};
}

std::tuple<Tensor, Tensor, Tensor> DecoderImpl::forward(const Tensor& memory, const Tensor& mel_truth,
                                                        const Tensor& memory_lengths) {
  const int64_t B = memory.size(0);
  EMBER_CHECK(mel_truth.dim() == 3 && mel_truth.size(0) == B && mel_truth.size(1) == n_mels &&
                  mel_truth.size(2) % n_frames_per_step == 0,
              "Tacotron2: expected mel_specgram of shape [", B, ", n_mels=", n_mels,
              ", frames (a multiple of n_frames_per_step=", n_frames_per_step, ")], got ", mel_truth.sizes());
  Tensor inputs = mel_truth.transpose(1, 2);
  inputs = inputs.reshape({B, inputs.size(1) / n_frames_per_step, -1}).transpose(0, 1);
  inputs = prenet->forward(cat({zeros({1, B, n_mels * n_frames_per_step}, memory.options()), inputs}, 0));
  Tensor mask = mask_from_lengths(memory_lengths);
  DecoderState state = initial_state(memory);
  Tensor processed_memory = attention_layer->memory_layer->forward(memory);
  std::vector<Tensor> mels, gates, alignments;
  for (int64_t i = 0; i + 1 < inputs.size(0); ++i) {
    auto [mel, gate] = decode(inputs[i], state, memory, processed_memory, mask);
    mels.push_back(mel.squeeze(1));
    gates.push_back(gate.squeeze(1));
    alignments.push_back(state.attention_weights);
  }
  Tensor mel = stack(mels).transpose(0, 1).contiguous();
  mel = mel.view({mel.size(0), -1, n_mels}).transpose(1, 2);
  return {mel, stack(gates).transpose(0, 1).contiguous(), stack(alignments).transpose(0, 1).contiguous()};
}

std::tuple<Tensor, Tensor, Tensor, Tensor> DecoderImpl::infer(const Tensor& memory, const Tensor& memory_lengths) {
  const int64_t B = memory.size(0);
  Tensor decoder_input = zeros({B, n_mels * n_frames_per_step}, memory.options());
  Tensor mask = mask_from_lengths(memory_lengths);
  DecoderState state = initial_state(memory);
  Tensor processed_memory = attention_layer->memory_layer->forward(memory);
  Tensor lengths = zeros({B}, TensorOptions(kInt32));
  Tensor finished = zeros({B}, TensorOptions(kBool));
  std::vector<Tensor> mels, gates, alignments;
  for (int64_t step = 0; step < decoder_max_step; ++step) {
    auto [mel, gate] = decode(prenet->forward(decoder_input), state, memory, processed_memory, mask);
    mels.push_back(mel.unsqueeze(0));
    gates.push_back(gate.transpose(0, 1));
    alignments.push_back(state.attention_weights);
    lengths = lengths + logical_not(finished).to(kInt32);
    finished = logical_or(finished, sigmoid(gate.squeeze(1)) > gate_threshold);
    if (decoder_early_stopping && finished.all().item<bool>()) break;
    decoder_input = mel;
  }
  Tensor mel = cat(mels, 0).transpose(0, 1).contiguous();
  mel = mel.view({mel.size(0), -1, n_mels}).transpose(1, 2);
  // torchaudio's layout: [max_time, steps * B] (Tacotron2.infer unfolds it).
  Tensor align = cat(alignments, 0).transpose(0, 1).contiguous();
  return {mel, lengths, cat(gates, 0).transpose(0, 1).contiguous(), align};
}

}  // namespace tacotron2

Tacotron2Impl::Tacotron2Impl(const Tacotron2Options& options_) : options(options_) {
  const auto& o = options;
  EMBER_CHECK(o.n_symbol() > 0 && o.symbol_embedding_dim() > 0,
              "Tacotron2: n_symbol and symbol_embedding_dim must be positive");
  EMBER_CHECK(o.symbol_embedding_dim() == o.encoder_embedding_dim(), "Tacotron2: symbol_embedding_dim (",
              o.symbol_embedding_dim(), ") must equal encoder_embedding_dim (", o.encoder_embedding_dim(), ")");
  embedding = register_module("embedding", nn::Embedding(o.n_symbol(), o.symbol_embedding_dim()));
  {
    NoGradGuard no_grad;
    nn::init::xavier_uniform_(embedding->weight);
  }
  encoder = register_module(
      "encoder", tacotron2::Encoder(o.encoder_embedding_dim(), o.encoder_n_convolution(), o.encoder_kernel_size()));
  decoder = register_module(
      "decoder",
      tacotron2::Decoder(o.n_mels(), o.n_frames_per_step(), o.encoder_embedding_dim(), o.decoder_rnn_dim(),
                         o.decoder_max_step(), o.decoder_dropout(), o.decoder_early_stopping(), o.attention_rnn_dim(),
                         o.attention_hidden_dim(), o.attention_location_n_filter(), o.attention_location_kernel_size(),
                         o.attention_dropout(), o.prenet_dim(), o.gate_threshold()));
  postnet = register_module("postnet", tacotron2::Postnet(o.n_mels(), o.postnet_embedding_dim(),
                                                          o.postnet_kernel_size(), o.postnet_n_convolution()));
}

void Tacotron2Impl::check_tokens(const char* fn, const Tensor& tokens, const Tensor& lengths) const {
  EMBER_CHECK(tokens.dim() == 2 && tokens.size(1) > 0 && !tokens.is_floating_point(), fn,
              ": expected integer tokens of shape [batch, n_tokens], got ", tokens.sizes(), " ", tokens.scalar_type());
  EMBER_CHECK(tokens.min().item<int64_t>() >= 0 && tokens.max().item<int64_t>() < options.n_symbol(), fn,
              ": token ids must be in [0, ", options.n_symbol(), ")");
  EMBER_CHECK(lengths.dim() == 1 && lengths.size(0) == tokens.size(0) && !lengths.is_floating_point(), fn,
              ": expected integer lengths of shape [", tokens.size(0), "], got ", lengths.sizes());
  EMBER_CHECK(lengths.min().item<int64_t>() > 0 && lengths.max().item<int64_t>() == tokens.size(1), fn,
              ": lengths must be in [1, ", tokens.size(1), "] with the longest equal to n_tokens");
  if (lengths.size(0) > 1) {
    EMBER_CHECK(
        (lengths.narrow(0, 0, lengths.size(0) - 1) >= lengths.narrow(0, 1, lengths.size(0) - 1)).all().item<bool>(), fn,
        ": lengths must be sorted in decreasing order");
  }
}

std::tuple<Tensor, Tensor, Tensor, Tensor> Tacotron2Impl::forward(const Tensor& tokens, const Tensor& token_lengths,
                                                                  const Tensor& mel_specgram,
                                                                  const Tensor& mel_specgram_lengths) {
  check_tokens("Tacotron2", tokens, token_lengths);
  EMBER_CHECK(mel_specgram.is_floating_point(), "Tacotron2: expected a floating-point mel_specgram, got ",
              mel_specgram.scalar_type());
  Tensor encoded = encoder->forward(embedding->forward(tokens).transpose(1, 2), token_lengths);
  auto [mel, gates, alignments] = decoder->forward(encoded, mel_specgram, token_lengths);
  Tensor mel_postnet = mel + postnet->forward(mel);
  if (options.mask_padding()) {
    EMBER_CHECK(mel_specgram_lengths.dim() == 1 && mel_specgram_lengths.size(0) == mel.size(0) &&
                    mel_specgram_lengths.max().item<int64_t>() == mel.size(2),
                "Tacotron2: mel_specgram_lengths must be [batch] with the longest equal to ", mel.size(2), " frames");
    Tensor mask = tacotron2::mask_from_lengths(mel_specgram_lengths);  // [B, T]
    Tensor mel_mask = mask.unsqueeze(1).expand({mask.size(0), options.n_mels(), mask.size(1)});
    mel = mel.masked_fill(mel_mask, 0.0);
    mel_postnet = mel_postnet.masked_fill(mel_mask, 0.0);
    gates = gates.masked_fill(mask, 1e3);
  }
  return {mel, mel_postnet, gates, alignments};
}

std::tuple<Tensor, Tensor, Tensor> Tacotron2Impl::infer(const Tensor& tokens, const std::optional<Tensor>& lengths_in) {
  EMBER_CHECK(tokens.dim() == 2, "Tacotron2.infer: expected tokens of shape [batch, n_tokens], got ", tokens.sizes());
  const int64_t B = tokens.size(0), max_length = tokens.size(1);
  Tensor lengths = lengths_in ? *lengths_in : full({B}, max_length, TensorOptions(kInt64));
  check_tokens("Tacotron2.infer", tokens, lengths);
  Tensor encoded = encoder->forward(embedding->forward(tokens).transpose(1, 2), lengths);
  auto [mel, mel_lengths, gates, alignments] = decoder->infer(encoded, lengths);
  Tensor mel_postnet = mel + postnet->forward(mel);
  const int64_t T = alignments.size(0), steps = alignments.size(1) / B;
  return {mel_postnet, mel_lengths, alignments.view({T, steps, B}).permute({2, 1, 0})};
}

}  // namespace torch::audio::models
