#pragma once
// tokenizers.normalizers: BertNormalizer, Lowercase, StripAccents, NFC/NFD/
// NFKC/NFKD, Strip, Prepend, Replace (plain string) and Sequence, read from a
// tokenizer.json "normalizer" object.
#include <memory>
#include <nlohmann/json_fwd.hpp>

#include "ember/text/tokenizers/normalized_text.h"

namespace torch::text::tokenizers::detail {

class Normalizer {
 public:
  virtual ~Normalizer() = default;
  virtual void normalize(NormalizedText& t) const = 0;
};

// Null json -> nullptr; unknown types raise ember::Error naming `source`.
// Replace with a String or Regex pattern (replace_normalizer.cpp).
std::unique_ptr<Normalizer> make_replace_normalizer(const nlohmann::json& j, const std::string& source);
// Precompiled (precompiled_normalizer.cpp).
std::unique_ptr<Normalizer> make_precompiled_normalizer(const nlohmann::json& j, const std::string& source);
std::unique_ptr<Normalizer> normalizer_from_json(const nlohmann::json& j, const std::string& source);

// BERT's normalizer (also used by BERTTokenizer and the WordPiece vocab.txt path).
std::unique_ptr<Normalizer> make_bert_normalizer(bool clean_text, bool handle_chinese_chars, bool strip_accents,
                                                 bool lowercase);

}  // namespace torch::text::tokenizers::detail
