#pragma once
// MultiheadAttention, as torch::nn::MultiheadAttention (LibTorch 1.13): sequence-first
// (L, N, E) unless options.batch_first(). Parameters and their state_dict names are
// PyTorch's: in_proj_weight [3E, E] (or q/k/v_proj_weight when kdim/vdim differ from E),
// in_proj_bias [3E], bias_k/bias_v [1, 1, E], out_proj.{weight,bias}.
#include <ostream>
#include <tuple>

#include "ember/core/tensor.h"
#include "ember/nn/cloneable.h"
#include "ember/nn/modules/container/any.h"
#include "ember/nn/modules/linear.h"
#include "ember/nn/options/transformer.h"
#include "ember/nn/pimpl.h"

namespace torch::nn {

class MultiheadAttentionImpl : public Cloneable<MultiheadAttentionImpl> {
 public:
  MultiheadAttentionImpl(int64_t embed_dim, int64_t num_heads)
      : MultiheadAttentionImpl(MultiheadAttentionOptions(embed_dim, num_heads)) {}
  explicit MultiheadAttentionImpl(const MultiheadAttentionOptions& options_);

  // Returns (attn_output, attn_weights); see F::multi_head_attention_forward for shapes.
  std::tuple<Tensor, Tensor> forward(const Tensor& query, const Tensor& key, const Tensor& value,
                                     const Tensor& key_padding_mask = {}, bool need_weights = true,
                                     const Tensor& attn_mask = {}, bool average_attn_weights = true);

 protected:
  FORWARD_HAS_DEFAULT_ARGS({3, AnyValue(Tensor())}, {4, AnyValue(true)}, {5, AnyValue(Tensor())}, {6, AnyValue(true)})

 public:
  void reset() override;
  // PyTorch's init: xavier_uniform_ projection weights, zero biases, xavier_normal_ bias_k/v;
  // out_proj.weight keeps Linear's default init.
  void _reset_parameters();
  void pretty_print(std::ostream& stream) const override;

  MultiheadAttentionOptions options;
  bool _qkv_same_embed_dim = true;
  Tensor in_proj_weight;
  Tensor in_proj_bias;
  Tensor bias_k;
  Tensor bias_v;
  Linear out_proj = nullptr;
  Tensor q_proj_weight;
  Tensor k_proj_weight;
  Tensor v_proj_weight;
  int64_t head_dim = 0;
};
EMBER_NN_MODULE(MultiheadAttention);

}  // namespace torch::nn
