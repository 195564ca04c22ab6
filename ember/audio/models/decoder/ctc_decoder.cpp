#include "ember/audio/models/decoder/ctc_decoder.h"

#include <cstring>

#include "ember/audio/models/decoder/arpa_lm.h"
#include "ember/core/error.h"
#include "ember/core/parallel.h"
#include "ember/ops/all_ops.h"

namespace torch::audio::models::decoder {

detail::Dictionary CTCDecoderTokens::dictionary() const {
  return path_ ? detail::Dictionary::from_file(*path_) : detail::Dictionary::from_list(list_);
}

CTCDecoder::CTCDecoder(int64_t nbest, std::optional<detail::Lexicon> lexicon, detail::Dictionary word_dict,
                       detail::Dictionary tokens_dict, std::shared_ptr<CTCDecoderLM> lm, detail::SearchOptions options,
                       const std::string& blank_token, const std::string& sil_token, const std::string& unk_word)
    : nbest_(nbest),
      lexicon_mode_(lexicon.has_value() && !lexicon->empty()),
      word_dict_(std::move(word_dict)),
      tokens_dict_(std::move(tokens_dict)),
      lm_(std::move(lm)),
      options_(options) {
  EMBER_CHECK(lm_ != nullptr, "ctc_decoder: no language model");
  blank_ = tokens_dict_.get_index(blank_token);
  sil_ = tokens_dict_.get_index(sil_token);
  if (!lexicon_mode_) return;
  // The trie's word scores are the LM's unigram scores after <s>.
  detail::LexiconTrie trie(tokens_dict_.index_size());
  CTCDecoderLMStatePtr start = lm_->start(false);
  for (const auto& [word, spellings] : *lexicon) {
    const int64_t word_idx = word_dict_.get_index(word);
    const double score = std::get<1>(lm_->score(start, word_idx));
    for (const auto& spelling : spellings) {
      std::vector<int64_t> ids;
      ids.reserve(spelling.size());
      for (const std::string& tok : spelling) ids.push_back(tokens_dict_.get_index(tok));
      trie.insert(ids, word_idx, static_cast<float>(score));
    }
  }
  trie.smear_max();
  trie_ = std::move(trie);
  unk_ = word_dict_.get_index(unk_word);
}

CTCHypothesis CTCDecoder::hypothesis(const detail::SearchResult& r) const {
  // torchaudio's _get_tokens / _get_timesteps over the whole step sequence
  // (the start and end silence included).
  std::vector<int64_t> tokens;
  std::vector<int32_t> steps;
  for (size_t i = 0; i < r.tokens.size(); ++i) {
    const int64_t t = r.tokens[i];
    if (t == blank_ || (i > 0 && t == r.tokens[i - 1])) continue;
    tokens.push_back(t);
    steps.push_back(static_cast<int32_t>(i));
  }
  CTCHypothesis h;
  h.tokens = tensor(tokens, TensorOptions(kLong));
  h.timesteps = tensor(std::vector<int64_t>(steps.begin(), steps.end()), TensorOptions(kLong)).to(kInt);
  h.score = r.score;
  for (int64_t w : r.words)
    if (w >= 0) h.words.push_back(word_dict_.get_entry(w));
  return h;
}

std::vector<std::vector<CTCHypothesis>> CTCDecoder::operator()(const Tensor& emissions,
                                                               const std::optional<Tensor>& lengths) {
  EMBER_CHECK(emissions.scalar_type() == kFloat, "CTCDecoder: emissions must be float32, got ",
              emissions.scalar_type());
  EMBER_CHECK(emissions.dim() == 3, "CTCDecoder: emissions must be [batch, frame, num_tokens], got shape ",
              emissions.sizes());
  const int64_t batch = emissions.size(0), frames = emissions.size(1), n = emissions.size(2);
  EMBER_CHECK(n == tokens_dict_.index_size(), "CTCDecoder: emissions have ", n,
              " tokens but the tokens dictionary has ", tokens_dict_.index_size());
  std::vector<int64_t> lens(batch, frames);
  if (lengths) {
    EMBER_CHECK(
        lengths->dim() == 1 && lengths->size(0) == batch && !lengths->is_floating_point() && !lengths->is_complex(),
        "CTCDecoder: lengths must be an integer tensor of shape [", batch, "], got ", lengths->scalar_type(),
        " of shape ", lengths->sizes());
    Tensor l = lengths->to(kLong).contiguous();
    for (int64_t b = 0; b < batch; ++b) {
      lens[b] = l.data_ptr<int64_t>()[b];
      EMBER_CHECK(lens[b] >= 0 && lens[b] <= frames, "CTCDecoder: lengths[", b, "] = ", lens[b], " is not in [0, ",
                  frames, "]");
    }
  }
  Tensor em = emissions.contiguous();
  const float* data = em.data_ptr<float>();
  std::vector<std::vector<CTCHypothesis>> out(static_cast<size_t>(batch));
  auto decode = [&](int64_t b) {
    const float* e = data + b * frames * n;
    std::vector<detail::SearchResult> results =
        lexicon_mode_ ? detail::lexicon_search(e, lens[b], n, options_, *trie_, *lm_, sil_, blank_, unk_)
                      : detail::lexicon_free_search(e, lens[b], n, options_, *lm_, sil_, blank_);
    std::vector<CTCHypothesis> hyps;
    for (size_t i = 0; i < results.size() && static_cast<int64_t>(i) < nbest_; ++i)
      hyps.push_back(hypothesis(results[i]));
    out[static_cast<size_t>(b)] = std::move(hyps);
  };
  // Utterances decode in parallel only with Ember's own LMs: each utterance
  // grows its own state tree from its own start() and the n-gram tables are
  // read-only. A user's CTCDecoderLM may not be thread-safe, so it runs serially.
  const bool own_lm =
      dynamic_cast<detail::ArpaLM*>(lm_.get()) != nullptr || dynamic_cast<detail::ZeroLM*>(lm_.get()) != nullptr;
  if (own_lm) {
    parallel_for(0, batch, 1, [&](int64_t begin, int64_t end) {
      for (int64_t b = begin; b < end; ++b) decode(b);
    });
  } else {
    for (int64_t b = 0; b < batch; ++b) decode(b);
  }
  return out;
}

std::vector<std::string> CTCDecoder::idxs_to_tokens(const Tensor& idxs) const {
  EMBER_CHECK(!idxs.is_floating_point() && !idxs.is_complex(), "CTCDecoder::idxs_to_tokens: expected integer ids, got ",
              idxs.scalar_type());
  Tensor l = idxs.to(kLong).contiguous().reshape({-1});
  std::vector<std::string> out;
  for (int64_t i = 0; i < l.numel(); ++i) out.push_back(tokens_dict_.get_entry(l.data_ptr<int64_t>()[i]));
  return out;
}

CTCDecoder ctc_decoder(const std::optional<std::string>& lexicon, const CTCDecoderTokens& tokens,
                       const CTCDecoderLMSource& lm, const std::optional<std::string>& lm_dict, int64_t nbest,
                       int64_t beam_size, std::optional<int64_t> beam_size_token, double beam_threshold,
                       double lm_weight, double word_score, double unk_score, double sil_score, bool log_add,
                       const std::string& blank_token, const std::string& sil_token, const std::string& unk_word) {
  EMBER_CHECK(nbest >= 1, "ctc_decoder: nbest must be positive, got ", nbest);
  EMBER_CHECK(beam_size >= 1, "ctc_decoder: beam_size must be positive, got ", beam_size);
  EMBER_CHECK(!beam_size_token || *beam_size_token >= 1, "ctc_decoder: beam_size_token must be positive, got ",
              beam_size_token.value_or(0));
  detail::Dictionary tokens_dict = tokens.dictionary();
  EMBER_CHECK(tokens_dict.index_size() > 0, "ctc_decoder: the tokens are empty");
  std::optional<detail::Lexicon> words;
  if (lexicon && !lexicon->empty()) words = detail::load_words(*lexicon);
  detail::SearchOptions opt;
  opt.beam_size = beam_size;
  opt.beam_size_token = beam_size_token ? *beam_size_token : tokens_dict.index_size();
  opt.beam_threshold = beam_threshold;
  opt.lm_weight = lm_weight;
  opt.word_score = words ? word_score : 0.0;
  opt.unk_score = unk_score;
  opt.sil_score = sil_score;
  opt.log_add = log_add;
  // The word dictionary: the LM's own list, else the lexicon's words, else
  // (lexicon-free with an n-gram LM) the tokens.
  detail::Dictionary word_dict;
  if (lm_dict) {
    word_dict = detail::Dictionary::from_file(*lm_dict);
  } else if (words) {
    for (const auto& entry : *words) word_dict.add_entry(entry.first);
  } else {
    for (int64_t i = 0; i < tokens_dict.index_size(); ++i) word_dict.add_entry(tokens_dict.get_entry(i));
  }
  if (!word_dict.contains(unk_word)) word_dict.add_entry(unk_word);
  std::shared_ptr<CTCDecoderLM> model = lm.lm();
  if (lm.path()) {
    std::vector<std::string> usr_words;
    for (int64_t i = 0; i < word_dict.index_size(); ++i) usr_words.push_back(word_dict.get_entry(i));
    model = std::make_shared<detail::ArpaLM>(detail::ArpaModel::from_file(*lm.path()), usr_words);
  } else if (!model) {
    model = std::make_shared<detail::ZeroLM>();
  }
  return CTCDecoder(nbest, std::move(words), std::move(word_dict), std::move(tokens_dict), std::move(model), opt,
                    blank_token, sil_token, unk_word);
}

}  // namespace torch::audio::models::decoder
