#pragma once
// The BPE of torchtext's CLIPTokenizer (its C++ CLIPEncoder): Python's
// str.lower().strip(), CLIP's pre-tokenizer pattern as RE2 reads it, GPT-2's
// byte alphabet, '</w>' on each word's last symbol and GPT-2's merge loop.
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "ember/core/namespace.h"

namespace torch::text::detail {

class CLIPEncoder {
 public:
  // merges: the merges file's lines after the first; encoder: token -> id.
  CLIPEncoder(std::unordered_map<std::string, int64_t> encoder, const std::vector<std::string>& merges);
  CLIPEncoder(const CLIPEncoder&) = delete;
  CLIPEncoder& operator=(const CLIPEncoder&) = delete;

  // The BPE tokens of text (lowercased and stripped first).
  std::vector<std::string> tokenize(std::string_view text) const;
  std::vector<int64_t> encode(std::string_view text) const;

 private:
  std::vector<std::string> bpe(const std::string& word) const;

  std::unordered_map<std::string, int64_t> encoder_;
  std::unordered_map<std::string, int64_t> ranks_;  // "first\x01second" -> rank
  // Words already merged (torchtext caches them too); bounded.
  mutable std::mutex cache_mutex_;
  mutable std::unordered_map<std::string, std::vector<std::string>> cache_;
};

// Python's str.lower() then str.strip() (full case mapping with final sigma;
// strip removes what str.isspace() calls whitespace).
std::string python_lower_strip(std::string_view text);
// CLIP's pre-tokenizer: the matches of
// (?i)(<\|startoftext\|>|<\|endoftext\|>|'s|'t|'re|'ve|'m|'ll|'d|[\pL]+|[\pN]|[^\s\pL\pN]+)
// with RE2's \s = [\t\n\f\r ], leftmost-first.
std::vector<std::string_view> clip_pre_tokenize(std::string_view text);

}  // namespace torch::text::detail
