// tokenizers.models.Unigram: a SentencePiece-style unigram language model read
// from tokenizer.json ("vocab": [[piece, score], ...], "unk_id", "byte_fallback").
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <limits>

#include "ember/core/error.h"
#include "ember/text/sentencepiece/normalizer.h"
#include "ember/text/sentencepiece/piece_trie.h"
#include "ember/text/tokenizers/models.h"
#include "ember/text/unicode.h"

namespace torch::text::tokenizers::detail {

namespace {

// The tokenizers package's penalty for a character no piece covers.
constexpr double kUnkPenalty = 10.0;

class Unigram final : public Model {
 public:
  Unigram(std::vector<std::pair<std::string, double>> pieces, std::optional<int64_t> unk_id, bool byte_fallback,
          const std::string& source)
      : byte_fallback_(byte_fallback) {
    std::vector<std::pair<std::string, int64_t>> vocab;
    vocab.reserve(pieces.size());
    scores_.reserve(pieces.size());
    for (size_t i = 0; i < pieces.size(); ++i) {
      vocab.emplace_back(pieces[i].first, static_cast<int64_t>(i));
      scores_.push_back(pieces[i].second);
      min_score_ = std::min(min_score_, pieces[i].second);
    }
    set_vocab(std::move(vocab), source);
    EMBER_CHECK(vocab_.size() == pieces.size(), "Tokenizer.from_file: ", source,
                ": Unigram vocabulary has a piece twice");
    if (unk_id) {
      EMBER_CHECK(*unk_id >= 0 && *unk_id < static_cast<int64_t>(pieces.size()), "Tokenizer.from_file: ", source,
                  ": Unigram unk_id ", *unk_id, " is outside the vocabulary of ", pieces.size());
      unk_id_ = static_cast<int32_t>(*unk_id);
    }
    std::vector<std::pair<std::string_view, int32_t>> entries;
    for (size_t i = 0; i < id_to_token_->size(); ++i) entries.emplace_back((*id_to_token_)[i], static_cast<int32_t>(i));
    trie_ = sentencepiece::detail::PieceTrie(entries);
    for (int b = 0; b < 256; ++b) {
      char name[8];
      std::snprintf(name, sizeof name, "<0x%02X>", b);
      byte_ids_[static_cast<size_t>(b)] = vocab_.find(name);
    }
  }

  // Note [Unigram in tokenizers]
  // The tokenizers package's encode_optimized: the sentencepiece Viterbi in
  // f64 over every vocabulary entry (specials included), ties to the earliest
  // start and shortest piece, an uncovered character an unknown of score
  // min_score - 10; runs of unknowns fuse into one token; with byte_fallback
  // a piece outside the vocabulary becomes its <0xXX> bytes when all exist.
  bool token_is_text(int32_t id) const override { return id == unk_id_; }

  void tokenize(std::string_view word, std::vector<WordToken>& out, WordCache*) const override {
    if (word.empty()) return;
    struct Best {
      int32_t id = -1;
      double score = 0.0;
      int64_t starts_at = -1;
    };
    const size_t size = word.size();
    std::vector<Best> best(size + 1);
    const double unk_score = min_score_ - kUnkPenalty;
    for (size_t start = 0; start < size;) {
      const double here = best[start].score;
      bool has_single = false;
      const size_t mblen = std::min(
          size - start, static_cast<size_t>(text::detail::utf8_length(static_cast<unsigned char>(word[start]))));
      trie_.for_each_prefix(word.substr(start), [&](size_t len, int32_t id) {
        Best& t = best[start + len];
        const double cand = scores_[static_cast<size_t>(id)] + here;
        if (t.starts_at == -1 || cand > t.score) t = Best{id, cand, static_cast<int64_t>(start)};
        if (len == mblen) has_single = true;
      });
      if (!has_single) {
        EMBER_CHECK(unk_id_ >= 0, "Tokenizer.encode: Unigram met an unknown character but the model has no unk_id");
        Best& t = best[start + mblen];
        const double cand = unk_score + here;
        if (t.starts_at == -1 || cand > t.score) t = Best{unk_id_, cand, static_cast<int64_t>(start)};
      }
      start += mblen;
    }
    // Back to front: pieces, fusing adjacent unknowns.
    const size_t first = out.size();
    for (size_t end = size; end > 0;) {
      const Best& node = best[end];
      const auto begin = static_cast<size_t>(node.starts_at);
      const bool unk = node.id == unk_id_;
      if (unk && out.size() > first && out.back().id == -2) {
        out.back().len += static_cast<uint32_t>(end - begin);
      } else {
        out.push_back({unk ? -2 : node.id, static_cast<uint32_t>(end - begin)});
      }
      end = begin;
    }
    std::reverse(out.begin() + static_cast<std::ptrdiff_t>(first), out.end());
    // Fused unknowns (-2): their text may still be a vocabulary entry, or bytes.
    size_t pos = 0;
    std::vector<WordToken> fixed;
    for (size_t i = first; i < out.size(); ++i) {
      WordToken t = out[i];
      if (t.id == -2) {
        const std::string_view piece = word.substr(pos, t.len);
        const int32_t id = vocab_.find(piece);
        if (id >= 0) {
          fixed.push_back({id, t.len});
        } else if (byte_fallback_ && all_bytes_known(piece)) {
          // One byte each (the reference gives every byte token the whole text's offsets).
          for (size_t k = 0; k < piece.size(); ++k)
            fixed.push_back({byte_ids_[static_cast<unsigned char>(piece[k])], 1u});
        } else {
          fixed.push_back({unk_id_, t.len});
        }
      } else {
        fixed.push_back(t);
      }
      pos += t.len;
    }
    out.resize(first);
    out.insert(out.end(), fixed.begin(), fixed.end());
  }

 private:
  bool all_bytes_known(std::string_view piece) const {
    for (const char c : piece)
      if (byte_ids_[static_cast<unsigned char>(c)] < 0) return false;
    return true;
  }

  std::vector<double> scores_;
  double min_score_ = std::numeric_limits<double>::infinity();
  int32_t unk_id_ = -1;
  bool byte_fallback_;
  sentencepiece::detail::PieceTrie trie_;
  std::array<int32_t, 256> byte_ids_{};
};

}  // namespace

std::unique_ptr<Model> make_unigram(const nlohmann::json& j, const std::string& source) {
  const auto& v = j["vocab"];
  EMBER_CHECK(v.is_array(), "Tokenizer.from_file: ", source, ": Unigram vocab must be an array of [piece, score]");
  std::vector<std::pair<std::string, double>> pieces;
  pieces.reserve(v.size());
  for (const auto& e : v) {
    EMBER_CHECK(e.is_array() && e.size() == 2 && e[0].is_string() && e[1].is_number(), "Tokenizer.from_file: ", source,
                ": a Unigram vocab entry must be [piece, score]");
    pieces.emplace_back(e[0].get<std::string>(), e[1].get<double>());
  }
  std::optional<int64_t> unk;
  if (j.contains("unk_id") && !j["unk_id"].is_null()) {
    EMBER_CHECK(j["unk_id"].is_number_integer(), "Tokenizer.from_file: ", source, ": unk_id must be an integer");
    unk = j["unk_id"].get<int64_t>();
  }
  const bool byte_fallback =
      j.contains("byte_fallback") && j["byte_fallback"].is_boolean() && j["byte_fallback"].get<bool>();
  return std::make_unique<Unigram>(std::move(pieces), unk, byte_fallback, source);
}

}  // namespace torch::text::tokenizers::detail
