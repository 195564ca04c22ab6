#pragma once
// torchaudio.models.decoder: ctc_decoder, CTCDecoder and CTCHypothesis —
// flashlight's CTC beam search, lexicon-constrained (a trie over the
// lexicon's spellings, a word-level LM) or lexicon-free (a token-level LM),
// with an n-gram LM from an ARPA file or a user's CTCDecoderLM.
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ember/audio/models/decoder/beam_search.h"
#include "ember/audio/models/decoder/dictionary.h"
#include "ember/audio/models/decoder/lm.h"
#include "ember/audio/models/decoder/trie.h"
#include "ember/core/tensor.h"

namespace torch::audio::models::decoder {

struct CTCHypothesis {
  Tensor tokens;                   // int64 [L]: token ids, repeats collapsed, blanks removed
  std::vector<std::string> words;  // the words (lexicon decoding only)
  double score = 0;
  Tensor timesteps;  // int32 [L]: the step of each token (step 0 is the start)
};

// Python's `tokens: Union[str, List[str]]`: a tokens file, or the tokens.
class CTCDecoderTokens {
 public:
  CTCDecoderTokens(std::string path) : path_(std::move(path)) {}               // NOLINT(google-explicit-constructor)
  CTCDecoderTokens(const char* path) : path_(path) {}                          // NOLINT(google-explicit-constructor)
  CTCDecoderTokens(std::vector<std::string> list) : list_(std::move(list)) {}  // NOLINT
  CTCDecoderTokens(std::initializer_list<std::string> list) : list_(list) {}   // NOLINT
  detail::Dictionary dictionary() const;

 private:
  std::optional<std::string> path_;
  std::vector<std::string> list_;
};

// Python's `lm: Union[str, CTCDecoderLM, None]`: an ARPA file, a custom LM, or none.
class CTCDecoderLMSource {
 public:
  CTCDecoderLMSource(std::nullopt_t = std::nullopt) {}              // NOLINT(google-explicit-constructor)
  CTCDecoderLMSource(std::string path) : path_(std::move(path)) {}  // NOLINT(google-explicit-constructor)
  CTCDecoderLMSource(const char* path) : path_(path) {}             // NOLINT(google-explicit-constructor)
  template <class LM, class = std::enable_if_t<std::is_base_of_v<CTCDecoderLM, LM>>>
  CTCDecoderLMSource(std::shared_ptr<LM> lm) : lm_(std::move(lm)) {}  // NOLINT(google-explicit-constructor)
  const std::optional<std::string>& path() const { return path_; }
  const std::shared_ptr<CTCDecoderLM>& lm() const { return lm_; }

 private:
  std::optional<std::string> path_;
  std::shared_ptr<CTCDecoderLM> lm_;
};

class CTCDecoder {
 public:
  // Built by ctc_decoder().
  CTCDecoder(int64_t nbest, std::optional<detail::Lexicon> lexicon, detail::Dictionary word_dict,
             detail::Dictionary tokens_dict, std::shared_ptr<CTCDecoderLM> lm, detail::SearchOptions options,
             const std::string& blank_token, const std::string& sil_token, const std::string& unk_word);

  // emissions: float32 [batch, frames, tokens] (log-probabilities); lengths:
  // [batch] valid frames. The sorted nbest hypotheses per utterance.
  std::vector<std::vector<CTCHypothesis>> operator()(const Tensor& emissions,
                                                     const std::optional<Tensor>& lengths = std::nullopt);
  // The tokens of ids.
  std::vector<std::string> idxs_to_tokens(const Tensor& idxs) const;

 private:
  CTCHypothesis hypothesis(const detail::SearchResult& r) const;
  int64_t nbest_;
  bool lexicon_mode_;
  detail::Dictionary word_dict_, tokens_dict_;
  std::shared_ptr<CTCDecoderLM> lm_;
  detail::SearchOptions options_;
  std::optional<detail::LexiconTrie> trie_;
  int64_t blank_, sil_, unk_ = -1;
};

// lexicon: lexicon file (nullopt: lexicon-free decoding); tokens: tokens file
// or list; lm: ARPA file, CTCDecoderLM or nullopt; lm_dict: the LM's word list
// file (one per line, by LM index). Other keywords as torchaudio 0.13's.
CTCDecoder ctc_decoder(const std::optional<std::string>& lexicon, const CTCDecoderTokens& tokens,
                       const CTCDecoderLMSource& lm = std::nullopt,
                       const std::optional<std::string>& lm_dict = std::nullopt, int64_t nbest = 1,
                       int64_t beam_size = 50, std::optional<int64_t> beam_size_token = std::nullopt,
                       double beam_threshold = 50, double lm_weight = 2, double word_score = 0,
                       double unk_score = -std::numeric_limits<double>::infinity(), double sil_score = 0,
                       bool log_add = false, const std::string& blank_token = "-", const std::string& sil_token = "|",
                       const std::string& unk_word = "<unk>");

}  // namespace torch::audio::models::decoder
