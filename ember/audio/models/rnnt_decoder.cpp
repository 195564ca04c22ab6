#include "ember/audio/models/rnnt_decoder.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>

#include "ember/autograd/grad_mode.h"
#include "ember/core/error.h"
#include "ember/ops/all_ops.h"

namespace torch::audio::models {
namespace {

const std::vector<int64_t>& tokens_of(const Hypothesis& h) { return std::get<0>(h); }
const Tensor& pred_out_of(const Hypothesis& h) { return std::get<1>(h); }
const RNNTState& state_of(const Hypothesis& h) { return std::get<2>(h); }
double score_of(const Hypothesis& h) { return std::get<3>(h); }

double default_hypo_sort_key(const Hypothesis& h) { return score_of(h) / static_cast<double>(tokens_of(h).size() + 1); }

// torchaudio keeps scores in float32 tensors between steps; rounding the same
// way keeps the ranking (and so the hypotheses) identical.
float f32(double v) { return static_cast<float>(v); }

float logaddexp(float a, float b) {
  if (std::isinf(a) && a == b) return a;
  const float m = std::max(a, b);
  return m + std::log1p(std::exp(-std::fabs(a - b)));
}

RNNTState batch_state(const std::vector<const Hypothesis*>& hypos) {
  RNNTState states;
  const RNNTState& first = state_of(*hypos[0]);
  for (size_t i = 0; i < first.size(); ++i) {
    std::vector<Tensor> components;
    for (size_t j = 0; j < first[i].size(); ++j) {
      std::vector<Tensor> parts;
      parts.reserve(hypos.size());
      for (const Hypothesis* h : hypos) parts.push_back(state_of(*h)[i][j]);
      components.push_back(cat(parts));
    }
    states.push_back(std::move(components));
  }
  return states;
}

RNNTState slice_state(const RNNTState& states, int64_t idx) {
  RNNTState out;
  for (const auto& layer : states) {
    std::vector<Tensor> parts;
    for (const Tensor& t : layer) parts.push_back(t.narrow(0, idx, 1));
    out.push_back(std::move(parts));
  }
  return out;
}

// Indices of `values` sorted ascending (stable).
std::vector<size_t> argsort(const std::vector<float>& values) {
  std::vector<size_t> idx(values.size());
  std::iota(idx.begin(), idx.end(), 0);
  std::stable_sort(idx.begin(), idx.end(), [&](size_t a, size_t b) { return values[a] < values[b]; });
  return idx;
}

void check_input(const char* fn, const Tensor& input, const Tensor& length) {
  EMBER_CHECK(input.dim() == 2 || (input.dim() == 3 && input.size(0) == 1), fn,
              ": input must be of shape (T, D) or (1, T, D), got ", input.sizes());
  EMBER_CHECK(length.dim() == 0 || (length.dim() == 1 && length.size(0) == 1), fn,
              ": length must be of shape () or (1,), got ", length.sizes());
}

}  // namespace

RNNTBeamSearchImpl::RNNTBeamSearchImpl(RNNT model_, int64_t blank_, double temperature_,
                                       std::optional<std::function<double(const Hypothesis&)>> hypo_sort_key_,
                                       int64_t step_max_tokens_)
    : blank(blank_),
      temperature(temperature_),
      hypo_sort_key(hypo_sort_key_ ? *hypo_sort_key_ : default_hypo_sort_key),
      step_max_tokens(step_max_tokens_) {
  EMBER_CHECK(!model_.is_empty(), "RNNTBeamSearch: model is null");
  const int64_t num_symbols = model_->predictor->num_symbols;
  EMBER_CHECK(blank >= 0 && blank < num_symbols, "RNNTBeamSearch: blank ", blank, " is not a symbol of the model (",
              num_symbols, " symbols)");
  EMBER_CHECK(temperature > 0, "RNNTBeamSearch: temperature must be positive, got ", temperature);
  EMBER_CHECK(step_max_tokens >= 0, "RNNTBeamSearch: step_max_tokens must be non-negative, got ", step_max_tokens);
  model = register_module("model", std::move(model_));
}

std::vector<Hypothesis> RNNTBeamSearchImpl::init_b_hypos(const std::optional<Hypothesis>& hypo) {
  int64_t token = blank;
  std::optional<RNNTState> state;
  if (hypo) {
    EMBER_CHECK(!tokens_of(*hypo).empty(), "RNNTBeamSearch.infer: the hypothesis has no tokens");
    token = tokens_of(*hypo).back();
    state = state_of(*hypo);
  }
  auto [pred_out, lengths, pred_state] =
      model->predict(full({1, 1}, token, TensorOptions(kInt64)), ones({1}, TensorOptions(kInt64)), state);
  return {Hypothesis{{token}, pred_out[0].detach(), pred_state, 0.0}};
}

Tensor RNNTBeamSearchImpl::next_token_probs(const Tensor& enc_out, const std::vector<Hypothesis>& hypos) {
  std::vector<Tensor> preds;
  preds.reserve(hypos.size());
  for (const auto& h : hypos) preds.push_back(pred_out_of(h));
  const auto n = static_cast<int64_t>(hypos.size());
  auto [joined, sl, tl] =
      model->join(enc_out, ones({1}, TensorOptions(kInt64)), stack(preds, 0), ones({n}, TensorOptions(kInt64)));
  return log_softmax(joined / temperature, 3).select(2, 0).select(1, 0).to(kFloat).contiguous();
}

std::vector<Hypothesis> RNNTBeamSearchImpl::gen_new_hypos(const std::vector<const Hypothesis*>& base,
                                                          const std::vector<int64_t>& tokens,
                                                          const std::vector<float>& scores) {
  const auto n = static_cast<int64_t>(base.size());
  auto [pred_out, lengths, pred_states] =
      model->predict(tensor(tokens).unsqueeze(1), ones({n}, TensorOptions(kInt64)), batch_state(base));
  std::vector<Hypothesis> out;
  for (int64_t i = 0; i < n; ++i) {
    std::vector<int64_t> new_tokens = tokens_of(*base[i]);
    new_tokens.push_back(tokens[i]);
    out.emplace_back(std::move(new_tokens), pred_out[i].detach(), slice_state(pred_states, i), scores[i]);
  }
  return out;
}

std::vector<Hypothesis> RNNTBeamSearchImpl::search(const Tensor& enc_out, const std::optional<Hypothesis>& hypo,
                                                   int64_t beam_width) {
  EMBER_CHECK(beam_width > 0, "RNNTBeamSearch: beam_width must be positive, got ", beam_width);
  const int64_t n_steps = enc_out.size(1);
  std::vector<Hypothesis> b_hypos = init_b_hypos(hypo);
  for (int64_t t = 0; t < n_steps; ++t) {
    std::vector<Hypothesis> a_hypos = std::move(b_hypos);
    b_hypos.clear();
    std::map<std::vector<int64_t>, double> key_to_b_score;
    int64_t symbols_current_t = 0;
    Tensor enc_t = enc_out.narrow(1, t, 1);
    while (!a_hypos.empty()) {
      Tensor probs = next_token_probs(enc_t, a_hypos);
      const int64_t num_tokens = probs.size(1);
      const float* p = probs.data_ptr<float>();
      // Every hypothesis extended by blank joins (or merges into) the b set.
      for (size_t i = 0; i < a_hypos.size(); ++i) {
        const Hypothesis& h_a = a_hypos[i];
        const float append_blank = f32(score_of(h_a)) + p[i * num_tokens + num_tokens - 1];
        float score = append_blank;
        auto found = key_to_b_score.find(tokens_of(h_a));
        if (found != key_to_b_score.end()) {
          auto it = std::find_if(b_hypos.begin(), b_hypos.end(),
                                 [&](const Hypothesis& h) { return tokens_of(h) == tokens_of(h_a); });
          if (it != b_hypos.end()) b_hypos.erase(it);
          score = logaddexp(f32(found->second), append_blank);
        }
        b_hypos.emplace_back(tokens_of(h_a), pred_out_of(h_a), state_of(h_a), static_cast<double>(score));
        key_to_b_score[tokens_of(h_a)] = static_cast<double>(score);
      }
      {
        std::vector<float> s;
        for (const auto& h : b_hypos) s.push_back(f32(score_of(h)));
        std::vector<Hypothesis> sorted;
        for (size_t idx : argsort(s)) sorted.push_back(b_hypos[idx]);
        b_hypos = std::move(sorted);
      }
      if (symbols_current_t == step_max_tokens) break;
      // The best non-blank extensions that beat the beam_width-th b hypothesis.
      std::vector<float> hypo_scores;
      for (const auto& h : a_hypos) hypo_scores.push_back(f32(score_of(h)));
      Tensor nonblank = (tensor(hypo_scores).unsqueeze(1) + probs.narrow(1, 0, num_tokens - 1)).reshape({-1});
      const int64_t k = std::min<int64_t>(beam_width, nonblank.numel());
      auto [best_scores, best_idx] = nonblank.topk(k);
      const float b_nbest = static_cast<int64_t>(b_hypos.size()) < beam_width
                                ? -std::numeric_limits<float>::infinity()
                                : f32(score_of(b_hypos[b_hypos.size() - static_cast<size_t>(beam_width)]));
      std::vector<const Hypothesis*> base;
      std::vector<int64_t> new_tokens;
      std::vector<float> new_scores;
      for (int64_t i = 0; i < k; ++i) {
        const float score = best_scores[i].item<float>();
        if (score > b_nbest) {
          const int64_t idx = best_idx[i].item<int64_t>();
          base.push_back(&a_hypos[static_cast<size_t>(idx / (num_tokens - 1))]);
          new_tokens.push_back(idx % (num_tokens - 1));
          new_scores.push_back(score);
        }
      }
      std::vector<Hypothesis> next =
          base.empty() ? std::vector<Hypothesis>{} : gen_new_hypos(base, new_tokens, new_scores);
      a_hypos = std::move(next);
      if (!a_hypos.empty()) ++symbols_current_t;
    }
    std::vector<float> keys;
    for (const auto& h : b_hypos) keys.push_back(f32(hypo_sort_key(h)));
    std::vector<size_t> order = argsort(keys);
    std::reverse(order.begin(), order.end());
    std::vector<Hypothesis> top;
    for (size_t i = 0; i < order.size() && static_cast<int64_t>(i) < beam_width; ++i) top.push_back(b_hypos[order[i]]);
    b_hypos = std::move(top);
  }
  return b_hypos;
}

std::vector<Hypothesis> RNNTBeamSearchImpl::forward(const Tensor& input_in, const Tensor& length_in,
                                                    int64_t beam_width) {
  check_input("RNNTBeamSearch", input_in, length_in);
  NoGradGuard no_grad;
  Tensor input = input_in.dim() == 2 ? input_in.unsqueeze(0) : input_in;
  Tensor length = length_in.dim() == 0 ? length_in.unsqueeze(0) : length_in;
  auto [enc_out, enc_len] = model->transcribe(input, length);
  return search(enc_out, std::nullopt, beam_width);
}

std::tuple<std::vector<Hypothesis>, RNNTState> RNNTBeamSearchImpl::infer(const Tensor& input_in,
                                                                         const Tensor& length_in, int64_t beam_width,
                                                                         const std::optional<RNNTState>& state,
                                                                         const std::optional<Hypothesis>& hypothesis) {
  check_input("RNNTBeamSearch.infer", input_in, length_in);
  NoGradGuard no_grad;
  Tensor input = input_in.dim() == 2 ? input_in.unsqueeze(0) : input_in;
  Tensor length = length_in.dim() == 0 ? length_in.unsqueeze(0) : length_in;
  auto [enc_out, enc_len, next_state] = model->transcribe_streaming(input, length, state);
  return {search(enc_out, hypothesis, beam_width), next_state};
}

}  // namespace torch::audio::models
