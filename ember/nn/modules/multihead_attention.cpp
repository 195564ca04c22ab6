#include "ember/nn/modules/multihead_attention.h"

#include "ember/nn/functional/multihead_attention.h"
#include "ember/nn/init.h"
#include "ember/ops/factory/factory.h"

namespace torch::nn {

MultiheadAttentionImpl::MultiheadAttentionImpl(const MultiheadAttentionOptions& options_) : options(options_) {
  reset();
}

void MultiheadAttentionImpl::reset() {
  const int64_t E = options.embed_dim(), H = options.num_heads();
  EMBER_CHECK(E > 0 && H > 0, "MultiheadAttention: embed_dim and num_heads must be positive, got embed_dim=", E,
              ", num_heads=", H);
  EMBER_CHECK(E % H == 0, "MultiheadAttention: embed_dim must be divisible by num_heads, got embed_dim=", E,
              ", num_heads=", H);
  EMBER_CHECK(options.kdim() > 0 && options.vdim() > 0, "MultiheadAttention: kdim and vdim must be positive, got ",
              options.kdim(), " and ", options.vdim());
  head_dim = E / H;
  _qkv_same_embed_dim = options.kdim() == E && options.vdim() == E;
  // Registration order follows torch.nn.MultiheadAttention, so named_parameters() lists
  // the same names in the same order as PyTorch's state_dict.
  if (_qkv_same_embed_dim) {
    in_proj_weight = register_parameter("in_proj_weight", empty({3 * E, E}));
  } else {
    q_proj_weight = register_parameter("q_proj_weight", empty({E, E}));
    k_proj_weight = register_parameter("k_proj_weight", empty({E, options.kdim()}));
    v_proj_weight = register_parameter("v_proj_weight", empty({E, options.vdim()}));
  }
  if (options.bias())
    in_proj_bias = register_parameter("in_proj_bias", empty(3 * E));
  else
    in_proj_bias = register_parameter("in_proj_bias", {}, /*requires_grad=*/false);
  if (options.add_bias_kv()) {
    bias_k = register_parameter("bias_k", empty({1, 1, E}));
    bias_v = register_parameter("bias_v", empty({1, 1, E}));
  } else {
    bias_k = register_parameter("bias_k", {}, /*requires_grad=*/false);
    bias_v = register_parameter("bias_v", {}, /*requires_grad=*/false);
  }
  out_proj = register_module("out_proj", Linear(LinearOptions(E, E).bias(options.bias())));
  _reset_parameters();
}

void MultiheadAttentionImpl::_reset_parameters() {
  if (_qkv_same_embed_dim) {
    init::xavier_uniform_(in_proj_weight);
  } else {
    init::xavier_uniform_(q_proj_weight);
    init::xavier_uniform_(k_proj_weight);
    init::xavier_uniform_(v_proj_weight);
  }
  if (in_proj_bias.defined()) {
    init::zeros_(in_proj_bias);
    init::zeros_(out_proj->bias);
  }
  if (bias_k.defined()) init::xavier_normal_(bias_k);
  if (bias_v.defined()) init::xavier_normal_(bias_v);
}

void MultiheadAttentionImpl::pretty_print(std::ostream& stream) const { stream << "torch::nn::MultiheadAttention"; }

std::tuple<Tensor, Tensor> MultiheadAttentionImpl::forward(const Tensor& query, const Tensor& key, const Tensor& value,
                                                           const Tensor& key_padding_mask, bool need_weights,
                                                           const Tensor& attn_mask, bool average_attn_weights) {
  auto opts = functional::MultiheadAttentionForwardFuncOptions(options.embed_dim(), options.num_heads(), in_proj_weight,
                                                               in_proj_bias, bias_k, bias_v, options.add_zero_attn(),
                                                               options.dropout(), out_proj->weight, out_proj->bias)
                  .training(is_training())
                  .key_padding_mask(key_padding_mask)
                  .need_weights(need_weights)
                  .attn_mask(attn_mask)
                  .average_attn_weights(average_attn_weights)
                  .batch_first(options.batch_first());
  if (!_qkv_same_embed_dim)
    opts.use_separate_proj_weight(true)
        .q_proj_weight(q_proj_weight)
        .k_proj_weight(k_proj_weight)
        .v_proj_weight(v_proj_weight);
  return functional::multi_head_attention_forward(query, key, value, opts);
}

}  // namespace torch::nn
