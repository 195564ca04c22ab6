#pragma once
// Greedy (best-path) CTC decoding: the arg-max token per frame, repeats
// collapsed and blanks removed. torchaudio 0.13 has it only in its tutorials;
// this is Ember's spelling, returning the beam search's CTCHypothesis.
#include <cstdint>
#include <optional>
#include <vector>

#include "ember/audio/models/decoder/ctc_decoder.h"
#include "ember/core/tensor.h"

namespace torch::audio::models::decoder {

// emissions: [batch, frame, num_tokens] float; lengths: [batch] valid frames.
// One hypothesis per utterance: its tokens, their frames (timesteps) and the
// summed emission of the best path (score); words stay empty.
std::vector<CTCHypothesis> ctc_greedy_decode(const Tensor& emissions,
                                             const std::optional<Tensor>& lengths = std::nullopt, int64_t blank = 0);

}  // namespace torch::audio::models::decoder
