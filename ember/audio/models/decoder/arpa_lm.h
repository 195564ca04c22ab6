#pragma once
// An n-gram language model read from an ARPA file, scored with back-off as
// KenLM scores it (log10 probabilities, which flashlight's decoder uses as
// they are). It stands in for torchaudio's KenLM wrapper: KenLM is not in
// Debian, so its binary format is not read.
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "ember/audio/models/decoder/lm.h"

namespace torch::audio::models::decoder::detail {

struct NgramHash {
  size_t operator()(const std::vector<int32_t>& v) const noexcept;
};

// The n-grams of an ARPA file: words are interned to ids; each n-gram maps to
// its log10 probability and back-off weight.
class ArpaModel {
 public:
  // Parses ARPA text; raises ember::Error naming `source` and the line on any
  // malformed or inconsistent input (counts that disagree with the entries,
  // missing sections, bad numbers, n-grams of the wrong order).
  static ArpaModel parse(std::string_view text, const std::string& source = "<arpa>");
  static ArpaModel from_file(const std::string& path);

  int64_t order() const { return order_; }
  // The id of `word`, or the id of <unk> when the model does not know it.
  int32_t index(const std::string& word) const;
  int32_t begin_sentence() const { return bos_; }
  int32_t end_sentence() const { return eos_; }
  int64_t vocab_size() const { return static_cast<int64_t>(words_.size()); }
  // log10 P(word | context) with back-off; context holds the most recent word last.
  double score(const std::vector<int32_t>& context, int32_t word) const;

 private:
  struct Entry {
    float prob = 0, backoff = 0;
  };
  int32_t intern(std::string_view word);
  int64_t order_ = 0;
  int32_t bos_ = -1, eos_ = -1, unk_ = -1;
  std::unordered_map<std::string, int32_t> ids_;
  std::vector<std::string> words_;
  std::unordered_map<std::vector<int32_t>, Entry, NgramHash> ngrams_;
};

// The CTCDecoderLM over an ArpaModel; usr indices are the decoder's word
// dictionary indices (tokens in lexicon-free decoding).
class ArpaLM : public CTCDecoderLM {
 public:
  ArpaLM(ArpaModel model, const std::vector<std::string>& usr_words);
  CTCDecoderLMStatePtr start(bool start_with_nothing) override;
  std::tuple<CTCDecoderLMStatePtr, double> score(const CTCDecoderLMStatePtr& state, int64_t usr_token_idx) override;
  std::tuple<CTCDecoderLMStatePtr, double> finish(const CTCDecoderLMStatePtr& state) override;
  const ArpaModel& model() const { return model_; }

 private:
  ArpaModel model_;
  std::vector<int32_t> usr_to_lm_;
};

}  // namespace torch::audio::models::decoder::detail
