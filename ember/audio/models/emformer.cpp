#include "ember/audio/models/emformer.h"

#include <algorithm>
#include <cmath>

#include "ember/autograd/grad_mode.h"
#include "ember/core/error.h"
#include "ember/nn/init.h"
#include "ember/nn/modules/activation.h"
#include "ember/ops/all_ops.h"

namespace torch::audio::models {
namespace emformer {
namespace {

int64_t ceil_div(int64_t a, int64_t b) { return a <= 0 ? 0 : (a + b - 1) / b; }

// An empty time-major block [0, B, D], what torchaudio's torch.empty(0) stands for.
Tensor empty_block(const Tensor& like) { return zeros({0, like.size(1), like.size(2)}, like.options()); }

// Rows [start, start + len) of a time-major tensor, clipped like Python slicing.
Tensor rows(const Tensor& t, int64_t start, int64_t end) {
  const int64_t n = t.size(0);
  start = std::clamp<int64_t>(start, 0, n);
  end = std::clamp<int64_t>(end, start, n);
  return t.narrow(0, start, end - start);
}

// Segment averages over time: [T, B, D] -> [ceil(T / segment_length), B, D].
Tensor memory_op(const Tensor& utterance, int64_t segment_length) {
  if (utterance.size(0) == 0) return empty_block(utterance);
  return avg_pool1d(utterance.permute({1, 2, 0}), {segment_length}, {segment_length}, 0, true).permute({2, 0, 1});
}

// Key padding mask for batches of more than one utterance (true = padded key).
std::optional<Tensor> gen_padding_mask(const Tensor& utterance, const Tensor& right_context, const Tensor& summary,
                                       const Tensor& lengths, const Tensor& mems,
                                       const std::optional<Tensor>& left_context_key) {
  const int64_t T = right_context.size(0) + utterance.size(0) + summary.size(0);
  const int64_t B = right_context.size(1);
  if (B == 1) return std::nullopt;
  const int64_t rc_blocks = T - lengths.max().item<int64_t>() - summary.size(0);
  const int64_t lc_blocks = left_context_key ? left_context_key->size(0) : 0;
  Tensor klengths = lengths.to(kInt64) + (mems.size(0) + rc_blocks + lc_blocks);
  const int64_t max_len = klengths.max().item<int64_t>();
  return arange(max_len, TensorOptions(kInt64)).expand({B, max_len}) >= klengths.unsqueeze(1);
}

Tensor mask_block(const std::vector<int64_t>& widths, const std::vector<bool>& ones_cols, int64_t num_rows) {
  std::vector<Tensor> blocks;
  for (size_t i = 0; i < widths.size(); ++i)
    blocks.push_back(ones_cols[i] ? ones({num_rows, widths[i]}) : zeros({num_rows, widths[i]}));
  return cat(blocks, 1);
}

nn::AnyModule activation_module(const std::string& activation) {
  if (activation == "relu") return nn::AnyModule(nn::ReLU());
  if (activation == "gelu") return nn::AnyModule(nn::GELU());
  if (activation == "silu") return nn::AnyModule(nn::SiLU());
  EMBER_ERROR("Emformer: Unsupported activation \"", activation, "\" (expected \"relu\", \"gelu\" or \"silu\")");
}

}  // namespace

EmformerAttentionImpl::EmformerAttentionImpl(int64_t input_dim_, int64_t num_heads_, double dropout_,
                                             std::optional<double> weight_init_gain, bool tanh_on_mem_,
                                             double negative_inf_)
    : input_dim(input_dim_),
      num_heads(num_heads_),
      dropout(dropout_),
      negative_inf(negative_inf_),
      tanh_on_mem(tanh_on_mem_) {
  EMBER_CHECK(num_heads > 0 && input_dim % num_heads == 0, "Emformer: input_dim (", input_dim,
              ") is not a multiple of num_heads (", num_heads, ")");
  scaling = std::pow(static_cast<double>(input_dim / num_heads), -0.5);
  emb_to_key_value = register_module("emb_to_key_value", nn::Linear(input_dim, 2 * input_dim));
  emb_to_query = register_module("emb_to_query", nn::Linear(input_dim, input_dim));
  out_proj = register_module("out_proj", nn::Linear(input_dim, input_dim));
  if (weight_init_gain && *weight_init_gain != 0.0) {
    NoGradGuard no_grad;
    nn::init::xavier_uniform_(emb_to_key_value->weight, *weight_init_gain);
    nn::init::xavier_uniform_(emb_to_query->weight, *weight_init_gain);
  }
}

std::tuple<Tensor, Tensor, Tensor, Tensor> EmformerAttentionImpl::forward_impl(
    const Tensor& utterance, const Tensor& lengths, const Tensor& right_context, const Tensor& summary,
    const Tensor& mems, const Tensor& attention_mask, const std::optional<Tensor>& left_context_key,
    const std::optional<Tensor>& left_context_val) {
  const int64_t B = utterance.size(1);
  const int64_t T = right_context.size(0) + utterance.size(0) + summary.size(0);
  const int64_t head_dim = input_dim / num_heads;
  Tensor query = emb_to_query->forward(cat({right_context, utterance, summary}));
  auto kv = emb_to_key_value->forward(cat({mems, right_context, utterance})).chunk(2, 2);
  Tensor key = kv[0], value = kv[1];
  if (left_context_key && left_context_val) {
    const int64_t split = mems.size(0) + T - lengths.max().item<int64_t>() - summary.size(0);
    key = cat({rows(key, 0, split), *left_context_key, rows(key, split, key.size(0))});
    value = cat({rows(value, 0, split), *left_context_val, rows(value, split, value.size(0))});
  }
  auto heads = [&](const Tensor& t) { return t.contiguous().view({-1, B * num_heads, head_dim}).transpose(0, 1); };
  Tensor q = heads(query), k = heads(key), v = heads(value);
  EMBER_CHECK(attention_mask.dim() == 2 && attention_mask.size(0) == T && attention_mask.size(1) == k.size(1),
              "Emformer: attention mask of shape ", attention_mask.sizes(), " does not match [", T, ", ", k.size(1),
              "]");
  Tensor weights = bmm(q * scaling, k.transpose(1, 2));
  // torchaudio computes the masked softmax in float32 whatever the input dtype.
  Tensor w = weights.to(kFloat).masked_fill(attention_mask.unsqueeze(0), negative_inf);
  auto padding_mask = gen_padding_mask(utterance, right_context, summary, lengths, mems, left_context_key);
  if (padding_mask) {
    EMBER_CHECK(padding_mask->size(1) == w.size(2), "Emformer: lengths ", lengths.sizes(),
                " are inconsistent with the input's ", utterance.size(0), " frames");
    w = w.view({B, num_heads, T, -1}).masked_fill(padding_mask->unsqueeze(1).unsqueeze(2), negative_inf);
    w = w.view({B * num_heads, T, -1});
  }
  Tensor probs = ::torch::dropout(softmax(w, -1).to(weights.scalar_type()), dropout, is_training());
  Tensor attention = bmm(probs, v).transpose(0, 1).contiguous().view({T, B, input_dim});
  Tensor out = out_proj->forward(attention);
  const int64_t S = summary.size(0);
  Tensor output_rc = out.narrow(0, 0, T - S);
  Tensor output_mems = out.narrow(0, T - S, S);
  output_mems = tanh_on_mem ? tanh(output_mems) : clamp(output_mems, -10, 10);
  return {output_rc, output_mems, key, value};
}

std::tuple<Tensor, Tensor> EmformerAttentionImpl::forward(const Tensor& utterance, const Tensor& lengths,
                                                          const Tensor& right_context, const Tensor& summary,
                                                          const Tensor& mems, const Tensor& attention_mask) {
  auto [output, output_mems, key, value] =
      forward_impl(utterance, lengths, right_context, summary, mems, attention_mask, std::nullopt, std::nullopt);
  return {output, rows(output_mems, 0, output_mems.size(0) - 1)};
}

std::tuple<Tensor, Tensor, Tensor, Tensor> EmformerAttentionImpl::infer(const Tensor& utterance, const Tensor& lengths,
                                                                        const Tensor& right_context,
                                                                        const Tensor& summary, const Tensor& mems,
                                                                        const Tensor& left_context_key,
                                                                        const Tensor& left_context_val) {
  const int64_t query_dim = right_context.size(0) + utterance.size(0) + summary.size(0);
  const int64_t key_dim = right_context.size(0) + utterance.size(0) + mems.size(0) + left_context_key.size(0);
  Tensor mask = zeros({query_dim, key_dim}, TensorOptions(kBool));
  // The summary query does not attend to the memory.
  if (query_dim > 0 && mems.size(0) > 0) mask[query_dim - 1].narrow(0, 0, mems.size(0)).fill_(true);
  auto [output, output_mems, key, value] =
      forward_impl(utterance, lengths, right_context, summary, mems, mask, left_context_key, left_context_val);
  const int64_t skip = mems.size(0) + right_context.size(0);
  return {output, output_mems, rows(key, skip, key.size(0)), rows(value, skip, value.size(0))};
}

EmformerLayerImpl::EmformerLayerImpl(int64_t input_dim_, int64_t num_heads, int64_t ffn_dim, int64_t segment_length_,
                                     double p, const std::string& activation, int64_t left_context_length_,
                                     int64_t max_memory_size_, std::optional<double> weight_init_gain, bool tanh_on_mem,
                                     double negative_inf)
    : left_context_length(left_context_length_),
      segment_length(segment_length_),
      max_memory_size(max_memory_size_),
      input_dim(input_dim_),
      use_mem(max_memory_size_ > 0) {
  attention = register_module("attention",
                              EmformerAttention(input_dim, num_heads, p, weight_init_gain, tanh_on_mem, negative_inf));
  dropout = register_module("dropout", nn::Dropout(p));
  nn::Sequential ff;
  ff->push_back(nn::LayerNorm(nn::LayerNormOptions({input_dim})));
  ff->push_back(nn::Linear(input_dim, ffn_dim));
  ff->push_back(activation_module(activation));
  ff->push_back(nn::Dropout(p));
  ff->push_back(nn::Linear(ffn_dim, input_dim));
  ff->push_back(nn::Dropout(p));
  pos_ff = register_module("pos_ff", ff);
  layer_norm_input = register_module("layer_norm_input", nn::LayerNorm(nn::LayerNormOptions({input_dim})));
  layer_norm_output = register_module("layer_norm_output", nn::LayerNorm(nn::LayerNormOptions({input_dim})));
}

Tensor EmformerLayerImpl::process_attention_output(const Tensor& rc_output, const Tensor& utterance,
                                                   const Tensor& right_context) {
  Tensor result = dropout->forward(rc_output) + cat({right_context, utterance});
  result = pos_ff->forward(result) + result;
  return layer_norm_output->forward(result);
}

std::tuple<Tensor, Tensor, Tensor> EmformerLayerImpl::forward(const Tensor& utterance, const Tensor& lengths,
                                                              const Tensor& right_context, const Tensor& mems,
                                                              const Tensor& attention_mask) {
  const int64_t R = right_context.size(0);
  Tensor ln = layer_norm_input->forward(cat({right_context, utterance}));
  Tensor ln_utt = rows(ln, R, ln.size(0)), ln_rc = rows(ln, 0, R);
  Tensor summary = use_mem ? memory_op(ln_utt, segment_length) : empty_block(ln_utt);
  auto [rc_output, output_mems] = attention->forward(ln_utt, lengths, ln_rc, summary, mems, attention_mask);
  Tensor out = process_attention_output(rc_output, utterance, right_context);
  return {rows(out, R, out.size(0)), rows(out, 0, R), output_mems};
}

std::tuple<Tensor, Tensor, LayerState, Tensor> EmformerLayerImpl::infer(const Tensor& utterance, const Tensor& lengths,
                                                                        const Tensor& right_context,
                                                                        const std::optional<LayerState>& state_in,
                                                                        const Tensor& mems) {
  const int64_t R = right_context.size(0), B = utterance.size(1);
  LayerState state;
  if (state_in) {
    state = *state_in;
    EMBER_CHECK(state.size() == 4 && state[0].dim() == 3 && state[0].size(0) == max_memory_size &&
                    state[1].dim() == 3 && state[1].size(0) == left_context_length &&
                    state[2].sizes() == state[1].sizes() && state[3].dim() == 2 && state[3].numel() >= 1 &&
                    state[0].size(1) == B && state[1].size(1) == B,
                "Emformer.infer: a layer state must be {memory [", max_memory_size, ", ", B, ", ", input_dim,
                "], left-context key and value [", left_context_length, ", ", B, ", ", input_dim, "], past length [1, ",
                B, "]}");
  } else {
    const auto opts = utterance.options();
    state = {zeros({max_memory_size, B, input_dim}, opts), zeros({left_context_length, B, input_dim}, opts),
             zeros({left_context_length, B, input_dim}, opts), zeros({1, B}, TensorOptions(kInt32))};
  }
  Tensor ln = layer_norm_input->forward(cat({right_context, utterance}));
  Tensor ln_utt = rows(ln, R, ln.size(0)), ln_rc = rows(ln, 0, R);
  // Unpack: the part of the carried memory and left context that past segments filled.
  const int64_t past_length = state[3][0][0].item<int64_t>();
  const int64_t past_lc = std::min(left_context_length, past_length);
  const int64_t past_mem = std::min(max_memory_size, ceil_div(past_length, segment_length));
  Tensor pre_mems = rows(state[0], max_memory_size - past_mem, max_memory_size);
  Tensor lc_key = rows(state[1], left_context_length - past_lc, left_context_length);
  Tensor lc_val = rows(state[2], left_context_length - past_lc, left_context_length);
  Tensor summary = use_mem ? rows(memory_op(ln_utt, segment_length), 0, 1) : empty_block(ln_utt);
  auto [rc_output, next_m, next_k, next_v] =
      attention->infer(ln_utt, lengths, ln_rc, summary, pre_mems, lc_key, lc_val);
  // Pack: keep the newest max_memory_size memories and left_context_length keys/values.
  Tensor all_mems = cat({state[0], mems});
  if (max_memory_size > 0) state[0] = rows(all_mems, all_mems.size(0) - max_memory_size, all_mems.size(0));
  Tensor new_k = cat({state[1], next_k}), new_v = cat({state[2], next_v});
  state[1] = rows(new_k, new_k.size(0) - left_context_length, new_k.size(0));
  state[2] = rows(new_v, new_v.size(0) - left_context_length, new_v.size(0));
  state[3] = state[3] + utterance.size(0);
  Tensor out = process_attention_output(rc_output, utterance, right_context);
  return {rows(out, R, out.size(0)), rows(out, 0, R), state, next_m};
}

}  // namespace emformer

EmformerImpl::EmformerImpl(const EmformerOptions& options_)
    : options(options_), use_mem(options_.max_memory_size() > 0) {
  const auto& o = options;
  EMBER_CHECK(o.segment_length() > 0, "Emformer: segment_length must be positive, got ", o.segment_length());
  EMBER_CHECK(o.num_layers() > 0, "Emformer: num_layers must be positive, got ", o.num_layers());
  EMBER_CHECK(o.left_context_length() >= 0 && o.right_context_length() >= 0 && o.max_memory_size() >= 0,
              "Emformer: left_context_length, right_context_length and max_memory_size must be non-negative");
  std::vector<std::optional<double>> gains(static_cast<size_t>(o.num_layers()));
  if (o.weight_init_scale_strategy()) {
    const std::string& s = *o.weight_init_scale_strategy();
    EMBER_CHECK(s == "depthwise" || s == "constant", "Emformer: Unsupported weight_init_scale_strategy value \"", s,
                "\"");
    for (size_t i = 0; i < gains.size(); ++i)
      gains[i] = s == "depthwise" ? 1.0 / std::sqrt(static_cast<double>(i + 1)) : 1.0 / std::sqrt(2.0);
  }
  emformer_layers = register_module("emformer_layers", nn::ModuleList());
  for (int64_t i = 0; i < o.num_layers(); ++i) {
    emformer_layers->push_back(emformer::EmformerLayer(o.input_dim(), o.num_heads(), o.ffn_dim(), o.segment_length(),
                                                       o.dropout(), o.activation(), o.left_context_length(),
                                                       o.max_memory_size(), gains[static_cast<size_t>(i)],
                                                       o.tanh_on_mem(), o.negative_inf()));
  }
}

Tensor EmformerImpl::gen_right_context(const Tensor& input) const {
  const int64_t T = input.size(0), R = options.right_context_length(), seg = options.segment_length();
  const int64_t num_segs = emformer::ceil_div(T - R, seg);
  std::vector<Tensor> blocks;
  for (int64_t s = 0; s + 1 < num_segs; ++s) blocks.push_back(emformer::rows(input, (s + 1) * seg, (s + 1) * seg + R));
  blocks.push_back(emformer::rows(input, T - R, T));
  return cat(blocks);
}

std::vector<int64_t> EmformerImpl::attention_mask_col_widths(int64_t seg_idx, int64_t utterance_length) const {
  const int64_t seg = options.segment_length(), rc = options.right_context_length(), lc = options.left_context_length();
  const int64_t num_segs = emformer::ceil_div(utterance_length, seg);
  const int64_t rc_start = seg_idx * rc, rc_end = rc_start + rc;
  const int64_t seg_start = std::max<int64_t>(seg_idx * seg - lc, 0);
  const int64_t seg_end = std::min((seg_idx + 1) * seg, utterance_length);
  const int64_t rc_length = rc * num_segs;
  std::vector<int64_t> widths;
  if (use_mem) {
    const int64_t m_start = std::max<int64_t>(seg_idx - options.max_memory_size(), 0);
    widths = {m_start, seg_idx - m_start, num_segs - 1 - seg_idx};
  }
  for (int64_t w : {rc_start, rc, rc_length - rc_end, seg_start, seg_end - seg_start, utterance_length - seg_end})
    widths.push_back(w);
  return widths;
}

Tensor EmformerImpl::gen_attention_mask(const Tensor& utterance) const {
  const int64_t U = utterance.size(0), seg = options.segment_length(), R = options.right_context_length();
  const int64_t num_segs = emformer::ceil_div(U, seg);
  const size_t cols = use_mem ? 9 : 6;
  std::vector<bool> rc_q(cols), s(cols);
  for (size_t i = 0; i < cols; ++i) {
    rc_q[i] = use_mem ? (i == 1 || i == 4 || i == 7) : (i == 1 || i == 4);
    s[i] = i == 4 || i == 7;
  }
  std::vector<Tensor> rc_mask, query_mask, summary_mask;
  for (int64_t i = 0; i < num_segs; ++i) {
    auto widths = attention_mask_col_widths(i, U);
    rc_mask.push_back(emformer::mask_block(widths, rc_q, R));
    query_mask.push_back(emformer::mask_block(widths, rc_q, std::min(seg, U - i * seg)));
    if (use_mem) summary_mask.push_back(emformer::mask_block(widths, s, 1));
  }
  std::vector<Tensor> parts{cat(rc_mask), cat(query_mask)};
  if (use_mem) parts.push_back(cat(summary_mask));
  return (1 - cat(parts)).to(kBool);
}

std::tuple<Tensor, Tensor> EmformerImpl::forward(const Tensor& input_bt, const Tensor& lengths) {
  const int64_t R = options.right_context_length();
  EMBER_CHECK(input_bt.dim() == 3 && input_bt.size(2) == options.input_dim(),
              "Emformer: expected an input of shape [batch, frames, input_dim=", options.input_dim(), "], got ",
              input_bt.sizes());
  EMBER_CHECK(input_bt.is_floating_point(), "Emformer: expected a floating-point input, got ", input_bt.scalar_type());
  EMBER_CHECK(input_bt.size(1) > R, "Emformer: the input has ", input_bt.size(1),
              " frames, not more than right_context_length ", R);
  EMBER_CHECK(lengths.dim() == 1 && lengths.size(0) == input_bt.size(0), "Emformer: expected lengths of shape [",
              input_bt.size(0), "], got ", lengths.sizes());
  EMBER_CHECK(!lengths.is_floating_point() && lengths.min().item<int64_t>() >= 0 &&
                  lengths.max().item<int64_t>() <= input_bt.size(1),
              "Emformer: lengths must be integers in [0, ", input_bt.size(1), "]");
  Tensor input = input_bt.permute({1, 0, 2});
  Tensor right_context = gen_right_context(input);
  Tensor utterance = input.narrow(0, 0, input.size(0) - R);
  Tensor attention_mask = gen_attention_mask(utterance);
  Tensor mems = emformer::empty_block(utterance);
  if (use_mem) {
    Tensor all = emformer::memory_op(utterance, options.segment_length());
    mems = emformer::rows(all, 0, all.size(0) - 1);
  }
  Tensor output = utterance;
  for (const auto& layer : *emformer_layers) {
    std::tie(output, right_context, mems) =
        layer->as<emformer::EmformerLayerImpl>()->forward(output, lengths, right_context, mems, attention_mask);
  }
  return {output.permute({1, 0, 2}), lengths};
}

std::tuple<Tensor, Tensor, std::vector<emformer::LayerState>> EmformerImpl::infer(
    const Tensor& input_bt, const Tensor& lengths, const std::optional<std::vector<emformer::LayerState>>& states) {
  const int64_t R = options.right_context_length(), seg = options.segment_length();
  EMBER_CHECK(input_bt.dim() == 3 && input_bt.size(2) == options.input_dim(),
              "Emformer.infer: expected an input of shape [batch, frames, input_dim=", options.input_dim(), "], got ",
              input_bt.sizes());
  EMBER_CHECK(input_bt.size(1) == seg + R,
              "Emformer.infer: Per configured segment_length and right_context_length, expected size of ", seg + R,
              " for dimension 1 of input, but got ", input_bt.size(1));
  EMBER_CHECK(input_bt.is_floating_point(), "Emformer.infer: expected a floating-point input, got ",
              input_bt.scalar_type());
  EMBER_CHECK(lengths.dim() == 1 && lengths.size(0) == input_bt.size(0) && !lengths.is_floating_point(),
              "Emformer.infer: expected integer lengths of shape [", input_bt.size(0), "], got ", lengths.sizes());
  if (states) {
    EMBER_CHECK(static_cast<int64_t>(states->size()) == options.num_layers(), "Emformer.infer: expected ",
                options.num_layers(), " layer states, got ", states->size());
  }
  Tensor input = input_bt.permute({1, 0, 2});
  Tensor right_context = input.narrow(0, seg, R);
  Tensor utterance = input.narrow(0, 0, seg);
  Tensor output_lengths = clamp_min(lengths - R, 0);
  Tensor mems = use_mem ? emformer::memory_op(utterance, seg) : emformer::empty_block(utterance);
  Tensor output = utterance;
  std::vector<emformer::LayerState> output_states;
  for (size_t i = 0; i < emformer_layers->size(); ++i) {
    auto* layer = emformer_layers->ptr(i)->as<emformer::EmformerLayerImpl>();
    std::optional<emformer::LayerState> state;
    if (states) state = (*states)[i];
    emformer::LayerState out_state;
    std::tie(output, right_context, out_state, mems) = layer->infer(output, output_lengths, right_context, state, mems);
    output_states.push_back(std::move(out_state));
  }
  return {output.permute({1, 0, 2}), output_lengths, output_states};
}

}  // namespace torch::audio::models
