#pragma once
// The four SentencePiece model types (unigram, BPE, word, char) segmenting
// normalized text into (piece, id) pairs, as sentencepiece 0.1.97's
// Model::Encode does; the processor then merges unknowns or falls back to bytes.
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ember/text/sentencepiece/model_proto.h"
#include "ember/text/sentencepiece/piece_trie.h"
#include "ember/text/tokenizers/hash_tables.h"

namespace torch::text::sentencepiece::detail {

using Segment = std::pair<std::string_view, int32_t>;  // a view into the normalized text, and its id

// ModelInterface's piece tables: NORMAL, USER_DEFINED and UNUSED pieces are
// "pieces", the other kinds "reserved"; lookups try reserved first.
class Vocabulary {
 public:
  Vocabulary() = default;
  Vocabulary(std::vector<PieceProto> pieces, const TrainerSpecProto& trainer, const std::string& what);
  Vocabulary(const Vocabulary&) = delete;
  Vocabulary& operator=(const Vocabulary&) = delete;

  int32_t piece_to_id(std::string_view piece) const;
  // The id of a NORMAL/USER_DEFINED/UNUSED piece, or -1.
  int32_t find_piece(std::string_view piece) const { return pieces_.find(piece); }
  int32_t size() const { return static_cast<int32_t>(protos_.size()); }
  const PieceProto& proto(int32_t id) const { return protos_[static_cast<size_t>(id)]; }
  PieceType type(int32_t id) const { return types_[static_cast<size_t>(id)]; }
  float score(int32_t id) const { return scores_[static_cast<size_t>(id)]; }
  int32_t unk_id() const { return unk_id_; }
  const PieceTrie& user_defined() const { return user_defined_; }
  // Every NORMAL/USER_DEFINED/UNUSED piece with its id.
  std::vector<std::pair<std::string_view, int32_t>> piece_entries() const;

 private:
  std::vector<PieceProto> protos_;
  std::vector<PieceType> types_;  // the hot fields of protos_, packed
  std::vector<float> scores_;
  std::vector<std::pair<std::string_view, int32_t>> entries_;
  tokenizers::detail::StringIdMap pieces_, reserved_;
  int32_t unk_id_ = -1;
  PieceTrie user_defined_;
};

// Reusable buffers and the BPE word cache of one encoding thread.
struct Workspace {
  struct BestPath {
    int32_t id = -1;
    float score = 0.0f;
    int64_t starts_at = -1;
  };
  std::vector<BestPath> best;
  std::vector<Segment> word;
  std::vector<tokenizers::detail::WordToken> tokens;
  tokenizers::detail::WordCache cache;
};

class Segmenter {
 public:
  Segmenter(const Vocabulary& vocab, ModelType type, bool treat_whitespace_as_suffix);
  // Appends the segmentation of `normalized` to out.
  void encode(std::string_view normalized, std::vector<Segment>& out, Workspace& ws) const;

 private:
  void encode_unigram(std::string_view normalized, std::vector<Segment>& out, Workspace& ws) const;
  void encode_bpe_words(std::string_view normalized, std::vector<Segment>& out, Workspace& ws) const;
  void encode_bpe(std::string_view normalized, std::vector<Segment>& out) const;
  void encode_word(std::string_view normalized, std::vector<Segment>& out) const;
  void encode_char(std::string_view normalized, std::vector<Segment>& out) const;
  // The user-defined symbol or the single character at the head of text.
  size_t next_symbol(std::string_view text, bool* is_user_defined) const;

  const Vocabulary& vocab_;
  ModelType type_;
  bool treat_whitespace_as_suffix_;
  PieceTrie trie_;  // unigram: every piece
  // BPE: no piece holds U+2581 past its first byte, so no merge crosses the
  // start of a word and words can be segmented (and cached) one at a time.
  bool bpe_by_words_ = false;
  float min_score_ = 0.0f, max_score_ = 0.0f;
};

}  // namespace torch::text::sentencepiece::detail
