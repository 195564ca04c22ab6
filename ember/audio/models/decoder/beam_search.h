#pragma once
// The CTC beam searches of flashlight's LexiconDecoder and LexiconFreeDecoder
// (Note [Lexicon beam search] in beam_search.cpp), over one utterance's
// [frames, tokens] float32 emissions.
#include <cstdint>
#include <vector>

#include "ember/audio/models/decoder/lm.h"
#include "ember/audio/models/decoder/trie.h"

namespace torch::audio::models::decoder::detail {

struct SearchOptions {
  int64_t beam_size = 50;
  int64_t beam_size_token = 0;
  double beam_threshold = 50;
  double lm_weight = 2;
  double word_score = 0;
  double unk_score = 0;
  double sil_score = 0;
  bool log_add = false;
};

// One final hypothesis: its score and, per step (the start, every frame, the
// end), the token and the word completed there (-1 for none).
struct SearchResult {
  double score = 0;
  std::vector<int64_t> tokens;
  std::vector<int64_t> words;
};

// Best first. `lexicon` holds word LM scores (smeared); sil is its root token.
std::vector<SearchResult> lexicon_search(const float* emissions, int64_t frames, int64_t num_tokens,
                                         const SearchOptions& opt, const LexiconTrie& lexicon, CTCDecoderLM& lm,
                                         int64_t sil, int64_t blank, int64_t unk);
std::vector<SearchResult> lexicon_free_search(const float* emissions, int64_t frames, int64_t num_tokens,
                                              const SearchOptions& opt, CTCDecoderLM& lm, int64_t sil, int64_t blank);

}  // namespace torch::audio::models::decoder::detail
