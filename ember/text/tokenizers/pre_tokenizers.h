#pragma once
// tokenizers.pre_tokenizers: ByteLevel (GPT-2's regex, hand-compiled),
// BertPreTokenizer, WhitespaceSplit, Punctuation, Digits and Sequence, read
// from a tokenizer.json "pre_tokenizer" object. A pre-tokenizer refines a list
// of byte spans of the normalized text into the words the model sees.
#include <memory>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

#include "ember/text/tokenizers/normalized_text.h"

namespace torch::text::tokenizers::detail {

class PreTokenizer {
 public:
  virtual ~PreTokenizer() = default;
  // Replaces `spans` (ranges of `text`) by their pieces, in order; drops empty ones.
  virtual void split(std::string_view text, std::vector<Span>& spans) const = 0;
  // ByteLevel(add_prefix_space=True) puts a space before each text segment.
  virtual bool adds_prefix_space() const { return false; }
  // The model then works on bytes, and its vocabulary is in GPT-2's byte alphabet.
  virtual bool is_byte_level() const { return false; }
  // Metaspace rewrites the text before splitting it: spaces become its
  // replacement and a prefix may be added (alignments kept). first_segment:
  // the text starts the input (not after an added token).
  virtual bool rewrites_text() const { return false; }
  virtual void rewrite(NormalizedText& text, bool first_segment) const {}
};

std::unique_ptr<PreTokenizer> pre_tokenizer_from_json(const nlohmann::json& j, const std::string& source);
std::unique_ptr<PreTokenizer> make_byte_level_pre_tokenizer(bool add_prefix_space, bool use_regex);
std::unique_ptr<PreTokenizer> make_bert_pre_tokenizer();
// Whitespace, Punctuation and Digits (split_pre_tokenizers.cpp); null for other types.
std::unique_ptr<PreTokenizer> split_pre_tokenizer_from_json(const nlohmann::json& j, const std::string& type,
                                                            const std::string& source);

// GPT-2's pattern 's|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+
// as a state machine: appends the matches inside text[b, e) to out.
void gpt2_split(std::string_view text, uint32_t b, uint32_t e, std::vector<Span>& out);

}  // namespace torch::text::tokenizers::detail
