#pragma once
// torchaudio's CTCDecoderLM / CTCDecoderLMState: the language-model interface
// the beam search calls (start / score / finish), so users can plug in their
// own model by deriving from CTCDecoderLM.
#include <cstdint>
#include <map>
#include <memory>
#include <tuple>

#include "ember/core/error.h"

namespace torch::audio::models::decoder {

// A node of the tree of word histories. The search merges hypotheses whose
// states are the same object, so a state stands for the exact history that
// led to it: child(i) returns the one state for "this history, then word i".
class CTCDecoderLMState {
 public:
  virtual ~CTCDecoderLMState() = default;

  // Map of indices to LM states.
  const std::map<int64_t, std::shared_ptr<CTCDecoderLMState>>& children() const { return children_; }

  // The child for usr_index, created (as a T) when absent.
  template <class T = CTCDecoderLMState>
  std::shared_ptr<T> child(int64_t usr_index) {
    auto it = children_.find(usr_index);
    if (it == children_.end()) it = children_.emplace(usr_index, std::make_shared<T>()).first;
    auto typed = std::dynamic_pointer_cast<T>(it->second);
    EMBER_CHECK(typed != nullptr, "CTCDecoderLMState::child: the child for index ", usr_index,
                " exists with another state type");
    return typed;
  }

  // 0 if the states are the same, -1 if this one orders first, +1 otherwise.
  int compare(const std::shared_ptr<CTCDecoderLMState>& state) const {
    const CTCDecoderLMState* other = state.get();
    if (this == other) return 0;
    return std::less<const CTCDecoderLMState*>()(this, other) ? -1 : 1;
  }

 private:
  std::map<int64_t, std::shared_ptr<CTCDecoderLMState>> children_;
};

using CTCDecoderLMStatePtr = std::shared_ptr<CTCDecoderLMState>;

// Scores are log-probabilities in the LM's own base (the n-gram LM returns
// log10, as KenLM does for flashlight); the search multiplies them by lm_weight.
class CTCDecoderLM {
 public:
  virtual ~CTCDecoderLM() = default;
  // Initial state; start_with_nothing = false begins a sentence (<s>).
  virtual CTCDecoderLMStatePtr start(bool start_with_nothing) = 0;
  // Next state and score for word (or, lexicon-free, token) index usr_token_idx.
  virtual std::tuple<CTCDecoderLMStatePtr, double> score(const CTCDecoderLMStatePtr& state, int64_t usr_token_idx) = 0;
  // State and score for ending the sentence.
  virtual std::tuple<CTCDecoderLMStatePtr, double> finish(const CTCDecoderLMStatePtr& state) = 0;
};

namespace detail {
// The LM of a decoder built with lm = nullopt: every score is 0.
class ZeroLM : public CTCDecoderLM {
 public:
  CTCDecoderLMStatePtr start(bool) override { return std::make_shared<CTCDecoderLMState>(); }
  std::tuple<CTCDecoderLMStatePtr, double> score(const CTCDecoderLMStatePtr& state, int64_t idx) override {
    return {state->child(idx), 0.0};
  }
  std::tuple<CTCDecoderLMStatePtr, double> finish(const CTCDecoderLMStatePtr& state) override { return {state, 0.0}; }
};
}  // namespace detail

}  // namespace torch::audio::models::decoder
