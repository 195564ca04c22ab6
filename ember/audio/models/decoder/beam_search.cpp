// Note [Lexicon beam search]: flashlight's LexiconDecoder for a CTC criterion.
// A hypothesis is (LM state, trie node, last token, whether that was blank).
// Each frame, every hypothesis may
//   (1) move to a child of its trie node along one of the beam_size_token best
//       tokens (a repeat of its last token only after a blank), adding the
//       smeared LM look-ahead; where the child ends words, also complete each
//       word (LM score minus the look-ahead already added, plus word_score) and
//       return to the root; where it ends none, complete <unk> if unk_score > -inf;
//   (2) stay on its node repeating its token (the silence token at the root),
//       unless its last token was blank away from the root;
//   (3) emit blank.
// Silence emissions add sil_score. Candidates worse than the best by more than
// beam_threshold are dropped, equal states merge (max, or log-add), and the
// beam_size best survive. At the end every hypothesis adds the LM's
// sentence-end score; those at the root are preferred when any exists.
// The lexicon-free search is the same without the trie: each new non-blank
// token is an LM "word".
#include "ember/audio/models/decoder/beam_search.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>

namespace torch::audio::models::decoder::detail {
namespace {

constexpr double kNegInf = -std::numeric_limits<double>::infinity();

struct Hyp {
  double score;
  CTCDecoderLMStatePtr lm_state;
  int32_t lex;  // trie node (lexicon search only)
  const Hyp* parent;
  int64_t token;
  int64_t word;
  bool prev_blank;
};

bool same_state(const Hyp& a, const Hyp& b) {
  return a.lm_state == b.lm_state && a.lex == b.lex && a.token == b.token && a.prev_blank == b.prev_blank;
}
size_t state_hash(const Hyp& h) {
  uint64_t x = reinterpret_cast<uintptr_t>(h.lm_state.get());
  x ^= (static_cast<uint64_t>(static_cast<uint32_t>(h.lex)) << 32) ^ (static_cast<uint64_t>(h.token) << 1) ^
       static_cast<uint64_t>(h.prev_blank);
  x *= 0x9E3779B97F4A7C15ull;
  return static_cast<size_t>(x ^ (x >> 31));
}

// The candidates of one step and the beam they are pruned into.
class Candidates {
 public:
  explicit Candidates(double threshold) : threshold_(threshold) {}
  void reset() {
    best_ = kNegInf;
    list_.clear();
  }
  void add(double score, CTCDecoderLMStatePtr lm_state, int32_t lex, const Hyp* parent, int64_t token, int64_t word,
           bool prev_blank) {
    if (score > best_) best_ = score;
    if (score >= best_ - threshold_)
      list_.push_back({score, std::move(lm_state), lex, parent, token, word, prev_blank});
  }
  // Keeps the beam_size best distinct states into `out` (sorted if asked).
  void store(std::vector<Hyp>& out, int64_t beam_size, bool log_add, bool sorted) {
    out.clear();
    const double cut = best_ - threshold_;
    ptrs_.clear();
    for (Hyp& h : list_)
      if (h.score > cut) ptrs_.push_back(&h);
    // Equal states merge through an open-addressing table (linear in the
    // candidates, where flashlight sorts them).
    size_t cap = 16;
    while (cap < 2 * ptrs_.size()) cap *= 2;
    slots_.assign(cap, -1);
    size_t n = 0;
    for (size_t i = 0; i < ptrs_.size(); ++i) {
      Hyp& other = *ptrs_[i];
      size_t slot = state_hash(other) & (cap - 1);
      while (slots_[slot] >= 0 && !same_state(*ptrs_[slots_[slot]], other)) slot = (slot + 1) & (cap - 1);
      if (slots_[slot] < 0) {
        slots_[slot] = static_cast<int32_t>(n);
        ptrs_[n++] = &other;
        continue;
      }
      Hyp& kept = *ptrs_[slots_[slot]];
      const double hi = std::max(kept.score, other.score), lo = std::min(kept.score, other.score);
      const double merged = log_add ? hi + std::log1p(std::exp(lo - hi)) : hi;
      // The better history survives the merge.
      if (other.score > kept.score) kept = other;
      kept.score = merged;
    }
    ptrs_.resize(n);
    const size_t keep = std::min<size_t>(n, static_cast<size_t>(beam_size));
    auto by_score = [](const Hyp* a, const Hyp* b) { return a->score > b->score; };
    if (sorted)
      std::partial_sort(ptrs_.begin(), ptrs_.begin() + keep, ptrs_.end(), by_score);
    else if (n > keep)
      std::nth_element(ptrs_.begin(), ptrs_.begin() + keep, ptrs_.end(), by_score);
    out.reserve(keep);
    for (size_t i = 0; i < keep; ++i) out.push_back(std::move(*ptrs_[i]));
  }

 private:
  double threshold_;
  double best_ = kNegInf;
  std::vector<Hyp> list_;
  std::vector<Hyp*> ptrs_;
  std::vector<int32_t> slots_;
};

// The beam_size_token best tokens of one frame.
void best_tokens(const float* frame, int64_t n, int64_t k, std::vector<int64_t>& idx) {
  idx.resize(n);
  std::iota(idx.begin(), idx.end(), 0);
  if (n > k) {
    std::partial_sort(idx.begin(), idx.begin() + k, idx.end(),
                      [frame](int64_t l, int64_t r) { return frame[l] > frame[r]; });
    idx.resize(k);
  }
}

std::vector<SearchResult> results_of(const std::vector<Hyp>& final_hyps, int64_t steps) {
  std::vector<SearchResult> out;
  for (const Hyp& h : final_hyps) {
    SearchResult r;
    r.score = h.score;
    r.tokens.assign(steps, -1);
    r.words.assign(steps, -1);
    int64_t i = steps - 1;
    for (const Hyp* p = &h; p != nullptr && i >= 0; p = p->parent, --i) {
      r.tokens[i] = p->token;
      r.words[i] = p->word;
    }
    out.push_back(std::move(r));
  }
  return out;
}

}  // namespace

std::vector<SearchResult> lexicon_search(const float* emissions, int64_t frames, int64_t num_tokens,
                                         const SearchOptions& opt, const LexiconTrie& lexicon, CTCDecoderLM& lm,
                                         int64_t sil, int64_t blank, int64_t unk) {
  const int32_t root = LexiconTrie::root();
  // hyps[t] holds the beam after t frames; parents point into hyps[t - 1],
  // whose storage never moves once filled.
  std::vector<std::vector<Hyp>> hyps(frames + 2);
  hyps[0].push_back({0.0, lm.start(false), root, nullptr, sil, -1, false});
  Candidates cand(opt.beam_threshold);
  std::vector<int64_t> idx;
  const int64_t k = std::min(opt.beam_size_token, num_tokens);
  std::vector<char> in_top(num_tokens);
  for (int64_t t = 0; t < frames; ++t) {
    const float* frame = emissions + t * num_tokens;
    best_tokens(frame, num_tokens, k, idx);
    std::fill(in_top.begin(), in_top.end(), 0);
    for (int64_t n : idx) in_top[n] = 1;
    cand.reset();
    for (const Hyp& prev : hyps[t]) {
      const LexiconTrie::Node& prev_node = lexicon.node(prev.lex);
      const double lex_max = prev.lex == root ? 0.0 : prev_node.max_score;
      // (1) children of the trie node along the frame's best tokens (the
      // children are walked, which gives the same candidates as flashlight's
      // walk over the tokens: the order of adding them does not matter).
      for (const auto& [token, child] : prev_node.children) {
        if (!in_top[token]) continue;
        const int64_t n = token;
        const LexiconTrie::Node& node = lexicon.node(child);
        double score = prev.score + frame[n];
        if (n == sil) score += opt.sil_score;
        if ((prev.prev_blank || n != prev.token) && !node.children.empty())
          cand.add(score + opt.lm_weight * (node.max_score - lex_max), prev.lm_state, child, &prev, n, -1, false);
        for (int64_t label : node.labels) {
          // A one-token word repeated on consecutive frames is one emission.
          if (prev.lex == root && prev.token == n) continue;
          auto [state, lm_score] = lm.score(prev.lm_state, label);
          cand.add(score + opt.lm_weight * (lm_score - lex_max) + opt.word_score, std::move(state), root, &prev, n,
                   label, false);
        }
        if (node.labels.empty() && opt.unk_score > kNegInf) {
          auto [state, lm_score] = lm.score(prev.lm_state, unk);
          cand.add(score + opt.lm_weight * (lm_score - lex_max) + opt.unk_score, std::move(state), root, &prev, n, unk,
                   false);
        }
      }
      // (2) the same node again.
      if (!prev.prev_blank || prev.lex == root) {
        const int64_t n = prev.lex == root ? sil : prev.token;
        double score = prev.score + frame[n];
        if (n == sil) score += opt.sil_score;
        cand.add(score, prev.lm_state, prev.lex, &prev, n, -1, false);
      }
      // (3) blank.
      cand.add(prev.score + frame[blank], prev.lm_state, prev.lex, &prev, blank, -1, true);
    }
    cand.store(hyps[t + 1], opt.beam_size, opt.log_add, false);
  }
  cand.reset();
  const std::vector<Hyp>& last = hyps[frames];
  const bool nice_ending = std::any_of(last.begin(), last.end(), [&](const Hyp& h) { return h.lex == root; });
  for (const Hyp& prev : last) {
    if (nice_ending && prev.lex != root) continue;
    auto [state, lm_score] = lm.finish(prev.lm_state);
    cand.add(prev.score + opt.lm_weight * lm_score, std::move(state), prev.lex, &prev, sil, -1, false);
  }
  cand.store(hyps[frames + 1], opt.beam_size, opt.log_add, true);
  return results_of(hyps[frames + 1], frames + 2);
}

std::vector<SearchResult> lexicon_free_search(const float* emissions, int64_t frames, int64_t num_tokens,
                                              const SearchOptions& opt, CTCDecoderLM& lm, int64_t sil, int64_t blank) {
  std::vector<std::vector<Hyp>> hyps(frames + 2);
  hyps[0].push_back({0.0, lm.start(false), -1, nullptr, sil, -1, false});
  Candidates cand(opt.beam_threshold);
  std::vector<int64_t> idx;
  const int64_t k = std::min(opt.beam_size_token, num_tokens);
  for (int64_t t = 0; t < frames; ++t) {
    const float* frame = emissions + t * num_tokens;
    best_tokens(frame, num_tokens, k, idx);
    cand.reset();
    for (const Hyp& prev : hyps[t]) {
      for (int64_t n : idx) {
        double score = prev.score + frame[n];
        if (n == sil) score += opt.sil_score;
        if (n != blank && (n != prev.token || prev.prev_blank)) {
          auto [state, lm_score] = lm.score(prev.lm_state, n);
          cand.add(score + opt.lm_weight * lm_score, std::move(state), -1, &prev, n, -1, false);
        } else {
          cand.add(score, prev.lm_state, -1, &prev, n, -1, n == blank);
        }
      }
    }
    cand.store(hyps[t + 1], opt.beam_size, opt.log_add, false);
  }
  cand.reset();
  for (const Hyp& prev : hyps[frames]) {
    auto [state, lm_score] = lm.finish(prev.lm_state);
    cand.add(prev.score + opt.lm_weight * lm_score, std::move(state), -1, &prev, sil, -1, false);
  }
  cand.store(hyps[frames + 1], opt.beam_size, opt.log_add, true);
  return results_of(hyps[frames + 1], frames + 2);
}

}  // namespace torch::audio::models::decoder::detail
