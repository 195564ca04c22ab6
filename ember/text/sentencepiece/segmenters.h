#pragma once
// The four SentencePiece model types (unigram, BPE, word, char) segmenting
// normalized text into (piece, id) pairs, as sentencepiece 0.1.97's
// Model::Encode does; the processor then merges unknowns or falls back to bytes.
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "ember/text/sentencepiece/model_proto.h"
#include "ember/text/sentencepiece/piece_trie.h"

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
  int32_t find_piece(std::string_view piece) const {
    auto it = pieces_.find(piece);
    return it == pieces_.end() ? -1 : it->second;
  }
  int32_t size() const { return static_cast<int32_t>(protos_.size()); }
  const PieceProto& proto(int32_t id) const { return protos_[static_cast<size_t>(id)]; }
  PieceType type(int32_t id) const { return protos_[static_cast<size_t>(id)].type; }
  float score(int32_t id) const { return protos_[static_cast<size_t>(id)].score; }
  int32_t unk_id() const { return unk_id_; }
  const PieceTrie& user_defined() const { return user_defined_; }
  // Every NORMAL/USER_DEFINED/UNUSED piece with its id.
  std::vector<std::pair<std::string_view, int32_t>> piece_entries() const;

 private:
  std::vector<PieceProto> protos_;
  std::unordered_map<std::string_view, int32_t> pieces_, reserved_;
  int32_t unk_id_ = -1;
  PieceTrie user_defined_;
};

class Segmenter {
 public:
  Segmenter(const Vocabulary& vocab, ModelType type, bool treat_whitespace_as_suffix);
  // Appends the segmentation of `normalized` to out.
  void encode(std::string_view normalized, std::vector<Segment>& out) const;

 private:
  void encode_unigram(std::string_view normalized, std::vector<Segment>& out) const;
  void encode_bpe(std::string_view normalized, std::vector<Segment>& out) const;
  void encode_word(std::string_view normalized, std::vector<Segment>& out) const;
  void encode_char(std::string_view normalized, std::vector<Segment>& out) const;
  // The user-defined symbol or the single character at the head of text.
  size_t next_symbol(std::string_view text, bool* is_user_defined) const;

  const Vocabulary& vocab_;
  ModelType type_;
  bool treat_whitespace_as_suffix_;
  PieceTrie trie_;  // unigram: every piece
  float min_score_ = 0.0f, max_score_ = 0.0f;
};

}  // namespace torch::text::sentencepiece::detail
