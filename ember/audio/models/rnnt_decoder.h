#pragma once
// torchaudio.models.RNNTBeamSearch: the RNN-T beam search of Graves (2012)
// with torchaudio's bookkeeping (a "b" set of hypotheses ending in blank per
// frame, at most step_max_tokens symbols per frame, ranking by
// hypo_sort_key), over a whole utterance (forward) or streamed segments
// (infer, carrying the transcriber state and the best hypothesis).
#include <cstdint>
#include <functional>
#include <optional>
#include <tuple>
#include <vector>

#include "ember/audio/models/rnnt.h"
#include "ember/core/tensor.h"
#include "ember/nn/module.h"
#include "ember/nn/pimpl.h"

namespace torch::audio::models {

// (tokens, predictor output [1, D], predictor state, score), as torchaudio's Hypothesis.
using Hypothesis = std::tuple<std::vector<int64_t>, Tensor, RNNTState, double>;

class RNNTBeamSearchImpl : public nn::Module {
 public:
  // hypo_sort_key: nullopt ranks by score / (number of tokens + 1).
  RNNTBeamSearchImpl(RNNT model, int64_t blank, double temperature = 1.0,
                     std::optional<std::function<double(const Hypothesis&)>> hypo_sort_key = std::nullopt,
                     int64_t step_max_tokens = 100);
  // input [T, D] or [1, T, D], length [] or [1] -> the beam_width best hypotheses, best first.
  std::vector<Hypothesis> forward(const Tensor& input, const Tensor& length, int64_t beam_width);
  // One streamed segment: continues from `state` (the transcriber's) and `hypothesis`.
  std::tuple<std::vector<Hypothesis>, RNNTState> infer(const Tensor& input, const Tensor& length, int64_t beam_width,
                                                       const std::optional<RNNTState>& state = std::nullopt,
                                                       const std::optional<Hypothesis>& hypothesis = std::nullopt);

  RNNT model{nullptr};
  int64_t blank;
  double temperature;
  std::function<double(const Hypothesis&)> hypo_sort_key;
  int64_t step_max_tokens;

 private:
  std::vector<Hypothesis> search(const Tensor& enc_out, const std::optional<Hypothesis>& hypo, int64_t beam_width);
  std::vector<Hypothesis> init_b_hypos(const std::optional<Hypothesis>& hypo);
  Tensor next_token_probs(const Tensor& enc_out, const std::vector<Hypothesis>& hypos);
  std::vector<Hypothesis> gen_new_hypos(const std::vector<const Hypothesis*>& base, const std::vector<int64_t>& tokens,
                                        const std::vector<float>& scores);
};
TORCH_MODULE(RNNTBeamSearch);

}  // namespace torch::audio::models
