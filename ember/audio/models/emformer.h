#pragma once
// torchaudio.models.Emformer (Shi et al., "Emformer: Efficient Memory
// Transformer Based Acoustic Model for Low Latency Streaming Speech
// Recognition"): segment-wise self-attention with left context, right context
// (look-ahead) and an augmented memory bank, run over a whole utterance
// (forward) or one segment at a time with carried states (infer).
// state_dict names are torchaudio's: emformer_layers.<i>.{attention.{emb_to_key_value,
// emb_to_query,out_proj},pos_ff.{0,1,4},layer_norm_input,layer_norm_output}.
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
#include "ember/nn/modules/dropout.h"
#include "ember/nn/modules/linear.h"
#include "ember/nn/modules/normalization.h"
#include "ember/nn/pimpl.h"

namespace torch::audio::models {
namespace emformer {

// One layer's streaming state: {memory [max_memory_size, B, D], left-context
// keys and values [left_context_length, B, D], past length [1, B] int32}.
using LayerState = std::vector<Tensor>;

class EmformerAttentionImpl : public nn::Module {
 public:
  EmformerAttentionImpl(int64_t input_dim, int64_t num_heads, double dropout = 0.0,
                        std::optional<double> weight_init_gain = std::nullopt, bool tanh_on_mem = false,
                        double negative_inf = -1e8);
  // -> (output for right context and utterance, next memory)
  std::tuple<Tensor, Tensor> forward(const Tensor& utterance, const Tensor& lengths, const Tensor& right_context,
                                     const Tensor& summary, const Tensor& mems, const Tensor& attention_mask);
  // -> (output, next memory, keys and values of this step's utterance for the next left context)
  std::tuple<Tensor, Tensor, Tensor, Tensor> infer(const Tensor& utterance, const Tensor& lengths,
                                                   const Tensor& right_context, const Tensor& summary,
                                                   const Tensor& mems, const Tensor& left_context_key,
                                                   const Tensor& left_context_val);

  int64_t input_dim, num_heads;
  double dropout, scaling, negative_inf;
  bool tanh_on_mem;
  nn::Linear emb_to_key_value{nullptr}, emb_to_query{nullptr}, out_proj{nullptr};

 private:
  std::tuple<Tensor, Tensor, Tensor, Tensor> forward_impl(const Tensor& utterance, const Tensor& lengths,
                                                          const Tensor& right_context, const Tensor& summary,
                                                          const Tensor& mems, const Tensor& attention_mask,
                                                          const std::optional<Tensor>& left_context_key,
                                                          const std::optional<Tensor>& left_context_val);
};
TORCH_MODULE(EmformerAttention);

class EmformerLayerImpl : public nn::Module {
 public:
  EmformerLayerImpl(int64_t input_dim, int64_t num_heads, int64_t ffn_dim, int64_t segment_length, double dropout = 0.0,
                    const std::string& activation = "relu", int64_t left_context_length = 0,
                    int64_t max_memory_size = 0, std::optional<double> weight_init_gain = std::nullopt,
                    bool tanh_on_mem = false, double negative_inf = -1e8);
  // Time-major tensors: utterance [U, B, D], right_context [R, B, D], mems [M, B, D].
  // -> (utterance out, right context out, next mems)
  std::tuple<Tensor, Tensor, Tensor> forward(const Tensor& utterance, const Tensor& lengths,
                                             const Tensor& right_context, const Tensor& mems,
                                             const Tensor& attention_mask);
  // -> (utterance out, right context out, next state, next mems)
  std::tuple<Tensor, Tensor, LayerState, Tensor> infer(const Tensor& utterance, const Tensor& lengths,
                                                       const Tensor& right_context,
                                                       const std::optional<LayerState>& state, const Tensor& mems);

  int64_t left_context_length, segment_length, max_memory_size, input_dim;
  bool use_mem;
  EmformerAttention attention{nullptr};
  nn::Dropout dropout{nullptr};
  nn::Sequential pos_ff{nullptr};
  nn::LayerNorm layer_norm_input{nullptr}, layer_norm_output{nullptr};

 private:
  Tensor process_attention_output(const Tensor& rc_output, const Tensor& utterance, const Tensor& right_context);
};
TORCH_MODULE(EmformerLayer);

}  // namespace emformer

struct EmformerOptions {
  EmformerOptions(int64_t input_dim, int64_t num_heads, int64_t ffn_dim, int64_t num_layers, int64_t segment_length)
      : input_dim_(input_dim),
        num_heads_(num_heads),
        ffn_dim_(ffn_dim),
        num_layers_(num_layers),
        segment_length_(segment_length) {}
  TORCH_ARG(int64_t, input_dim);
  TORCH_ARG(int64_t, num_heads);
  TORCH_ARG(int64_t, ffn_dim);
  TORCH_ARG(int64_t, num_layers);
  TORCH_ARG(int64_t, segment_length);
  TORCH_ARG(double, dropout) = 0.0;
  // "relu", "gelu" or "silu".
  TORCH_ARG(std::string, activation) = "relu";
  TORCH_ARG(int64_t, left_context_length) = 0;
  TORCH_ARG(int64_t, right_context_length) = 0;
  TORCH_ARG(int64_t, max_memory_size) = 0;
  // "depthwise", "constant" or nullopt.
  TORCH_ARG(std::optional<std::string>, weight_init_scale_strategy) = "depthwise";
  TORCH_ARG(bool, tanh_on_mem) = false;
  TORCH_ARG(double, negative_inf) = -1e8;
};

class EmformerImpl : public nn::Module {
 public:
  explicit EmformerImpl(const EmformerOptions& options_);
  EmformerImpl(int64_t input_dim, int64_t num_heads, int64_t ffn_dim, int64_t num_layers, int64_t segment_length)
      : EmformerImpl(EmformerOptions(input_dim, num_heads, ffn_dim, num_layers, segment_length)) {}
  // input [B, T + right_context_length, D] (right-padded with the look-ahead),
  // lengths [B] (valid frames, without the look-ahead) -> ([B, T, D], lengths).
  std::tuple<Tensor, Tensor> forward(const Tensor& input, const Tensor& lengths);
  // One segment: input [B, segment_length + right_context_length, D] ->
  // (output [B, segment_length, D], output lengths, states for the next call).
  std::tuple<Tensor, Tensor, std::vector<emformer::LayerState>> infer(
      const Tensor& input, const Tensor& lengths,
      const std::optional<std::vector<emformer::LayerState>>& states = std::nullopt);

  EmformerOptions options;
  bool use_mem;
  nn::ModuleList emformer_layers{nullptr};

 private:
  Tensor gen_right_context(const Tensor& input) const;
  Tensor gen_attention_mask(const Tensor& utterance) const;
  std::vector<int64_t> attention_mask_col_widths(int64_t seg_idx, int64_t utterance_length) const;
};
TORCH_MODULE(Emformer);

}  // namespace torch::audio::models
