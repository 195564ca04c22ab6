#pragma once
// sentencepiece_model.proto's ModelProto: the fields a SentencePiece .model
// file holds that encoding and decoding use, read by a bounds-checked protobuf
// wire-format reader of our own (see Note [Own protobuf reader] in the .cpp).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ember/core/namespace.h"

namespace torch::text::sentencepiece::detail {

// ModelProto.SentencePiece.Type, with the proto's numbers.
enum class PieceType : int32_t { NORMAL = 1, UNKNOWN = 2, CONTROL = 3, USER_DEFINED = 4, UNUSED = 5, BYTE = 6 };
// TrainerSpec.ModelType.
enum class ModelType : int32_t { UNIGRAM = 1, BPE = 2, WORD = 3, CHAR = 4 };

struct PieceProto {
  std::string piece;
  float score = 0.0f;
  PieceType type = PieceType::NORMAL;
};

// Proto2 defaults of sentencepiece_model.proto.
struct TrainerSpecProto {
  ModelType model_type = ModelType::UNIGRAM;
  bool treat_whitespace_as_suffix = false;
  bool byte_fallback = false;
  std::string unk_piece = "<unk>";
  std::string bos_piece = "<s>";
  std::string eos_piece = "</s>";
  std::string pad_piece = "<pad>";
  std::string unk_surface = " \xE2\x81\x87 ";
};

struct NormalizerSpecProto {
  std::string name;
  std::string precompiled_charsmap;
  bool add_dummy_prefix = true;
  bool remove_extra_whitespaces = true;
  bool escape_whitespaces = true;
};

struct ModelProto {
  std::vector<PieceProto> pieces;
  TrainerSpecProto trainer_spec;
  NormalizerSpecProto normalizer_spec;
  std::optional<NormalizerSpecProto> denormalizer_spec;
};

// Parses serialized ModelProto bytes; malformed input raises ember::Error
// naming `what` (the file) and the problem.
ModelProto parse_model_proto(std::string_view bytes, const std::string& what);

}  // namespace torch::text::sentencepiece::detail
