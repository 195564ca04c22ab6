#pragma once
// sentencepiece.SentencePieceProcessor: loads a SentencePiece .model file
// (unigram, BPE, word or char) and encodes and decodes exactly as the
// sentencepiece library 0.1.97 does, normalizer included (the model's own
// precompiled charsmap). Ids are int64 like every ember::text tokenizer's.
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "ember/core/namespace.h"

namespace torch::text::sentencepiece {

namespace detail {
struct ProcessorState;
}

class SentencePieceProcessor {
 public:
  // An empty processor; load() a model before use.
  SentencePieceProcessor();
  // SentencePieceProcessor(model_file=...).
  explicit SentencePieceProcessor(const std::string& model_file);
  ~SentencePieceProcessor();
  SentencePieceProcessor(const SentencePieceProcessor&);
  SentencePieceProcessor& operator=(const SentencePieceProcessor&);
  SentencePieceProcessor(SentencePieceProcessor&&) noexcept;
  SentencePieceProcessor& operator=(SentencePieceProcessor&&) noexcept;

  // Load(model_file) / LoadFromSerializedProto(bytes); raise ember::Error on a
  // missing or malformed model.
  void load(const std::string& model_file);
  void load_from_serialized_proto(std::string_view serialized);

  // encode(input, out_type=int, add_bos, add_eos, reverse): ids. Input is
  // bytes; malformed UTF-8 reads as U+FFFD one byte at a time, as the library does.
  std::vector<int64_t> encode(std::string_view input, bool add_bos = false, bool add_eos = false,
                              bool reverse = false) const;
  std::vector<int64_t> encode_as_ids(std::string_view input, bool add_bos = false, bool add_eos = false,
                                     bool reverse = false) const;
  // encode(input, out_type=str, ...): pieces. emit_unk_piece writes unknowns as the unk piece.
  std::vector<std::string> encode_as_pieces(std::string_view input, bool add_bos = false, bool add_eos = false,
                                            bool reverse = false, bool emit_unk_piece = false) const;
  // The list forms of encode (run on the intra-op threads).
  std::vector<std::vector<int64_t>> encode(const std::vector<std::string>& inputs) const;
  std::vector<std::vector<int64_t>> encode_as_ids(const std::vector<std::string>& inputs) const;
  std::vector<std::vector<std::string>> encode_as_pieces(const std::vector<std::string>& inputs) const;

  // decode / decode_ids / decode_pieces; an id outside [0, get_piece_size())
  // raises ember::Error.
  std::string decode(const std::vector<int64_t>& ids) const;
  std::string decode(const std::vector<std::string>& pieces) const;
  std::string decode_ids(const std::vector<int64_t>& ids) const;
  std::string decode_pieces(const std::vector<std::string>& pieces) const;

  int64_t get_piece_size() const;
  int64_t vocab_size() const { return get_piece_size(); }
  // piece_to_id answers unk_id() for a piece not in the model.
  int64_t piece_to_id(std::string_view piece) const;
  std::string id_to_piece(int64_t id) const;
  std::vector<int64_t> piece_to_id(const std::vector<std::string>& pieces) const;
  std::vector<std::string> id_to_piece(const std::vector<int64_t>& ids) const;
  float get_score(int64_t id) const;

  // -1 when the model has no such piece (bos/eos/pad must be control pieces).
  int64_t unk_id() const;
  int64_t bos_id() const;
  int64_t eos_id() const;
  int64_t pad_id() const;

  bool is_unknown(int64_t id) const;
  bool is_control(int64_t id) const;
  bool is_unused(int64_t id) const;
  bool is_byte(int64_t id) const;

 private:
  const detail::ProcessorState& state(const char* fn) const;
  std::shared_ptr<const detail::ProcessorState> state_;
};

}  // namespace torch::text::sentencepiece
