#include "ember/core/error.h"
#include "ember/text/sentencepiece/segmenters.h"

namespace torch::text::sentencepiece::detail {

Vocabulary::Vocabulary(std::vector<PieceProto> pieces, const TrainerSpecProto& trainer, const std::string& what)
    : protos_(std::move(pieces)) {
  EMBER_CHECK(protos_.size() < (1u << 30), "SentencePieceProcessor: ", what, " has ", protos_.size(), " pieces");
  types_.reserve(protos_.size());
  scores_.reserve(protos_.size());
  std::vector<std::pair<std::string_view, int32_t>> user;
  for (size_t i = 0; i < protos_.size(); ++i) {
    const PieceProto& p = protos_[i];
    const auto id = static_cast<int32_t>(i);
    EMBER_CHECK(!p.piece.empty(), "SentencePieceProcessor: ", what, ": piece ", i, " is empty");
    const bool normal = p.type == PieceType::NORMAL || p.type == PieceType::USER_DEFINED || p.type == PieceType::UNUSED;
    EMBER_CHECK((normal ? pieces_ : reserved_).insert(p.piece, id), "SentencePieceProcessor: ", what, ": piece \"",
                p.piece, "\" (id ", i, ") is already defined");
    if (normal) entries_.emplace_back(p.piece, id);
    types_.push_back(p.type);
    scores_.push_back(p.score);
    if (p.type == PieceType::USER_DEFINED) user.emplace_back(p.piece, id);
    if (p.type == PieceType::UNKNOWN) {
      EMBER_CHECK(unk_id_ < 0, "SentencePieceProcessor: ", what, ": a second unknown piece at id ", i);
      unk_id_ = id;
    }
    if (p.type == PieceType::BYTE)
      EMBER_CHECK(trainer.byte_fallback, "SentencePieceProcessor: ", what, ": byte piece \"", p.piece,
                  "\" although byte_fallback is false");
  }
  EMBER_CHECK(unk_id_ >= 0, "SentencePieceProcessor: ", what, " defines no unknown piece");
  user_defined_ = PieceTrie(user);
}

int32_t Vocabulary::piece_to_id(std::string_view piece) const {
  if (const int32_t id = reserved_.find(piece); id >= 0) return id;
  if (const int32_t id = pieces_.find(piece); id >= 0) return id;
  return unk_id_;
}

std::vector<std::pair<std::string_view, int32_t>> Vocabulary::piece_entries() const { return entries_; }

}  // namespace torch::text::sentencepiece::detail
