#include "ember/text/sentencepiece/segmenters.h"

#include <algorithm>
#include <cfloat>
#include <queue>
#include <unordered_map>

#include "ember/text/sentencepiece/normalizer.h"

namespace torch::text::sentencepiece::detail {

namespace {
constexpr std::string_view kSpaceSymbol = "\xe2\x96\x81";
// sentencepiece's unigram penalty for an unknown character, below the worst piece.
constexpr float kUnkPenalty = 10.0f;
}  // namespace

Segmenter::Segmenter(const Vocabulary& vocab, ModelType type, bool treat_whitespace_as_suffix)
    : vocab_(vocab), type_(type), treat_whitespace_as_suffix_(treat_whitespace_as_suffix) {
  if (type_ == ModelType::BPE && !treat_whitespace_as_suffix_) {
    bpe_by_words_ = true;
    for (const auto& [piece, id] : vocab.piece_entries())
      if (piece.find(kSpaceSymbol, 1) != std::string_view::npos) bpe_by_words_ = false;
  }
  if (type_ != ModelType::UNIGRAM) return;
  min_score_ = FLT_MAX;
  max_score_ = FLT_MIN;
  for (int32_t i = 0; i < vocab.size(); ++i)
    if (vocab.type(i) == PieceType::NORMAL) {
      min_score_ = std::min(min_score_, vocab.score(i));
      max_score_ = std::max(max_score_, vocab.score(i));
    }
  if (min_score_ == FLT_MAX) min_score_ = 0.0f;
  if (max_score_ == FLT_MIN) max_score_ = 0.0f;
  trie_ = PieceTrie(vocab.piece_entries());
}

void Segmenter::encode(std::string_view normalized, std::vector<Segment>& out, Workspace& ws) const {
  if (normalized.empty()) return;
  switch (type_) {
    case ModelType::UNIGRAM:
      encode_unigram(normalized, out, ws);
      return;
    case ModelType::BPE:
      if (bpe_by_words_)
        encode_bpe_words(normalized, out, ws);
      else
        encode_bpe(normalized, out);
      return;
    case ModelType::WORD:
      encode_word(normalized, out);
      return;
    case ModelType::CHAR:
      encode_char(normalized, out);
      return;
  }
}

size_t Segmenter::next_symbol(std::string_view text, bool* is_user_defined) const {
  const size_t user = vocab_.user_defined().longest_prefix(text);
  if (is_user_defined != nullptr) *is_user_defined = user > 0;
  if (user > 0) return user;
  return std::min(text.size(), one_char_len(static_cast<unsigned char>(text[0])));
}

// Note [Unigram Viterbi]
// sentencepiece 0.1.97's EncodeOptimized: the best path ending at every byte
// position, candidates visited by start position, then by length; a candidate
// replaces the current best only when strictly better (so the earliest start,
// then the shortest piece, wins ties). Scores accumulate in float, compared
// after promotion to double exactly as the reference's expression types do;
// user-defined pieces score length * max_score - 0.1, and a character no piece
// covers is an unknown scoring min_score - 10.
void Segmenter::encode_unigram(std::string_view normalized, std::vector<Segment>& out, Workspace& ws) const {
  using BestPath = Workspace::BestPath;
  const size_t size = normalized.size();
  const float unk_score = min_score_ - kUnkPenalty;
  std::vector<BestPath>& best = ws.best;
  best.assign(size + 1, BestPath{});
  size_t starts_at = 0;
  while (starts_at < size) {
    const float score_here = best[starts_at].score;
    bool has_single_node = false;
    const size_t mblen = std::min(size - starts_at, one_char_len(static_cast<unsigned char>(normalized[starts_at])));
    trie_.for_each_prefix(normalized.substr(starts_at), [&](size_t length, int32_t id) {
      const PieceType t = vocab_.type(id);
      if (t == PieceType::UNUSED) return;
      BestPath& target = best[starts_at + length];
      const double score = t == PieceType::USER_DEFINED
                               ? static_cast<double>(static_cast<float>(length) * max_score_) - 0.1
                               : static_cast<double>(vocab_.score(id));
      const double candidate = score + score_here;
      if (target.starts_at == -1 || candidate > target.score) {
        target.score = static_cast<float>(candidate);
        target.starts_at = static_cast<int64_t>(starts_at);
        target.id = id;
      }
      if (!has_single_node && length == mblen) has_single_node = true;
    });
    if (!has_single_node) {
      BestPath& target = best[starts_at + mblen];
      const float candidate = unk_score + score_here;
      if (target.starts_at == -1 || candidate > target.score) {
        target.score = candidate;
        target.starts_at = static_cast<int64_t>(starts_at);
        target.id = vocab_.unk_id();
      }
    }
    starts_at += mblen;
  }
  const size_t first = out.size();
  for (size_t end = size; end > 0;) {
    const BestPath& node = best[end];
    const auto begin = static_cast<size_t>(node.starts_at);
    out.emplace_back(normalized.substr(begin, end - begin), node.id);
    end = begin;
  }
  std::reverse(out.begin() + static_cast<std::ptrdiff_t>(first), out.end());
}

// Splits before every U+2581 but the first byte's (bpe_by_words_), and
// segments each word through the cache.
void Segmenter::encode_bpe_words(std::string_view normalized, std::vector<Segment>& out, Workspace& ws) const {
  using tokenizers::detail::WordCache;
  using tokenizers::detail::WordToken;
  auto encode_word = [&](std::string_view w) {
    ws.tokens.clear();
    if (ws.cache.get(w, ws.tokens)) {
      size_t pos = 0;
      for (const WordToken& t : ws.tokens) {
        out.emplace_back(w.substr(pos, t.len), t.id);
        pos += t.len;
      }
      return;
    }
    const size_t first = out.size();
    encode_bpe(w, out);
    if (w.size() > WordCache::kMaxWordBytes) return;
    ws.tokens.clear();
    for (size_t i = first; i < out.size(); ++i)
      ws.tokens.push_back(WordToken{out[i].second, static_cast<uint32_t>(out[i].first.size())});
    ws.cache.put(w, ws.tokens.data(), ws.tokens.size());
  };
  size_t begin = 0;
  for (size_t pos = normalized.find(kSpaceSymbol, 1); pos != std::string_view::npos;
       pos = normalized.find(kSpaceSymbol, pos + 1)) {
    encode_word(normalized.substr(begin, pos - begin));
    begin = pos;
  }
  encode_word(normalized.substr(begin));
}

// Note [SentencePiece BPE]
// bpe_model.cc: characters (user-defined symbols frozen whole) are merged
// greedily, the pair whose merged piece scores highest first, ties to the
// leftmost; a heap holds candidate pairs and stale ones are recognised by
// their length. A merged UNUSED piece is split back into what formed it.
void Segmenter::encode_bpe(std::string_view normalized, std::vector<Segment>& out) const {
  struct Symbol {
    int32_t prev, next;
    bool freeze;
    std::string_view piece;
  };
  struct Pair {
    int32_t left, right;
    float score;
    size_t size;
  };
  auto worse = [](const Pair& a, const Pair& b) {
    return a.score < b.score || (a.score == b.score && a.left > b.left);
  };
  std::priority_queue<Pair, std::vector<Pair>, decltype(worse)> agenda(worse);
  std::vector<Symbol> symbols;
  symbols.reserve(normalized.size());
  std::unordered_map<std::string_view, std::pair<std::string_view, std::string_view>> rev_merge;

  auto maybe_add_pair = [&](int32_t left, int32_t right) {
    if (left == -1 || right == -1 || symbols[left].freeze || symbols[right].freeze) return;
    const std::string_view piece(symbols[left].piece.data(), symbols[left].piece.size() + symbols[right].piece.size());
    const int32_t id = vocab_.find_piece(piece);
    if (id < 0) return;
    agenda.push(Pair{left, right, vocab_.score(id), piece.size()});
    if (vocab_.type(id) == PieceType::UNUSED) rev_merge[piece] = {symbols[left].piece, symbols[right].piece};
  };

  for (std::string_view rest = normalized; !rest.empty();) {
    bool freeze = false;
    const size_t n = next_symbol(rest, &freeze);
    const auto index = static_cast<int32_t>(symbols.size());
    symbols.push_back(Symbol{index - 1, rest.size() == n ? -1 : index + 1, freeze, rest.substr(0, n)});
    rest.remove_prefix(n);
  }
  for (size_t i = 1; i < symbols.size(); ++i) maybe_add_pair(static_cast<int32_t>(i - 1), static_cast<int32_t>(i));

  while (!agenda.empty()) {
    const Pair top = agenda.top();
    agenda.pop();
    Symbol& left = symbols[top.left];
    Symbol& right = symbols[top.right];
    if (left.piece.empty() || right.piece.empty() || left.piece.size() + right.piece.size() != top.size) continue;
    left.piece = std::string_view(left.piece.data(), left.piece.size() + right.piece.size());
    left.next = right.next;
    if (right.next >= 0) symbols[right.next].prev = top.left;
    right.piece = {};
    maybe_add_pair(left.prev, top.left);
    maybe_add_pair(top.left, left.next);
  }

  // Iterative form of the reference's recursive resegmentation.
  std::vector<std::string_view> stack;
  for (int32_t index = 0; index != -1; index = symbols[index].next) {
    stack.push_back(symbols[index].piece);
    while (!stack.empty()) {
      const std::string_view w = stack.back();
      stack.pop_back();
      const int32_t id = vocab_.piece_to_id(w);
      auto it = id >= 0 && vocab_.type(id) == PieceType::UNUSED ? rev_merge.find(w) : rev_merge.end();
      if (it == rev_merge.end()) {
        out.emplace_back(w, id);
      } else {
        stack.push_back(it->second.second);
        stack.push_back(it->second.first);
      }
    }
  }
}

// word_model.cc with SplitIntoWords: a word starts at the text's start and at
// every U+2581.
void Segmenter::encode_word(std::string_view normalized, std::vector<Segment>& out) const {
  size_t word_begin = 0;
  for (size_t i = 0; i < normalized.size();) {
    const size_t n = std::min(normalized.size() - i, one_char_len(static_cast<unsigned char>(normalized[i])));
    if (i > 0 && normalized.substr(i, n) == kSpaceSymbol) {
      const std::string_view w = normalized.substr(word_begin, i - word_begin);
      out.emplace_back(w, vocab_.piece_to_id(w));
      word_begin = i;
    }
    i += n;
  }
  const std::string_view w = normalized.substr(word_begin);
  out.emplace_back(w, vocab_.piece_to_id(w));
  (void)treat_whitespace_as_suffix_;
}

void Segmenter::encode_char(std::string_view normalized, std::vector<Segment>& out) const {
  while (!normalized.empty()) {
    const size_t n = next_symbol(normalized, nullptr);
    const std::string_view w = normalized.substr(0, n);
    out.emplace_back(w, vocab_.piece_to_id(w));
    normalized.remove_prefix(n);
  }
}

}  // namespace torch::text::sentencepiece::detail
