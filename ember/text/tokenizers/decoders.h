#pragma once
// tokenizers.decoders: ByteLevel, WordPiece, BPEDecoder, Strip, Fuse,
// Replace (plain string) and Sequence, read from a tokenizer.json "decoder".
#include <memory>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

#include "ember/core/namespace.h"

namespace torch::text::tokenizers::detail {

class Decoder {
 public:
  virtual ~Decoder() = default;
  // decode_chain: rewrites the tokens; the decoded text is their concatenation.
  virtual void decode_chain(std::vector<std::string>& tokens) const = 0;
};

std::unique_ptr<Decoder> decoder_from_json(const nlohmann::json& j, const std::string& source);
std::unique_ptr<Decoder> make_byte_level_decoder();
std::unique_ptr<Decoder> make_wordpiece_decoder(std::string prefix, bool cleanup);

}  // namespace torch::text::tokenizers::detail
