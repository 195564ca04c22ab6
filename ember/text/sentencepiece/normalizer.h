#pragma once
// sentencepiece's normalizer: the model's precompiled charsmap (a Darts
// double-array trie of source strings whose values point into a blob of
// NUL-terminated replacements), then whitespace handling (dummy prefix,
// extra-whitespace removal, U+2581 escaping), with the normalized-to-input
// byte alignment the encoder uses.
#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ember/text/sentencepiece/model_proto.h"
#include "ember/text/sentencepiece/piece_trie.h"

namespace torch::text::sentencepiece::detail {

// The precompiled_charsmap blob: uint32 little-endian trie size, the trie's
// uint32 units, then the replacement strings.
class CharsMap {
 public:
  CharsMap() = default;
  CharsMap(std::string_view blob, const std::string& what);
  bool empty() const { return units_.empty(); }
  // Longest source string that is a prefix of text: its length (0: none) and
  // its replacement.
  std::pair<size_t, std::string_view> longest_match(std::string_view text) const;
  // The shortest one instead (the tokenizers package's Precompiled reads the first result).
  std::pair<size_t, std::string_view> shortest_match(std::string_view text) const;
  // True when no rule starts with byte b.
  bool no_rule_starts_with(unsigned char b) const { return units_.empty() || !starts_rule_[b]; }

 private:
  std::array<bool, 256> starts_rule_{};
  std::pair<size_t, std::string_view> match(std::string_view text, bool longest) const;
  std::vector<uint32_t> units_;
  std::string replacements_;  // ends in a NUL we add, so every string ends in the blob
};

class Normalizer {
 public:
  Normalizer() = default;
  // user_defined: symbols copied through unnormalized (may be empty).
  Normalizer(const NormalizerSpecProto& spec, bool treat_whitespace_as_suffix, const PieceTrie* user_defined,
             const std::string& what);
  // normalized: the text the model segments; (*norm_to_orig)[i]: the input
  // byte that normalized byte i came from (one extra entry for the end), kept
  // only when norm_to_orig is given.
  void normalize(std::string_view input, std::string& normalized, std::vector<size_t>* norm_to_orig) const;

 private:
  // The normalized form of the longest rule at the head of input, and how many
  // input bytes it consumes.
  std::pair<std::string_view, size_t> normalize_prefix(std::string_view input) const;

  CharsMap charsmap_;
  // ASCII bytes that no user-defined symbol or charsmap rule starts with:
  // they normalize to themselves.
  std::array<bool, 128> plain_ascii_{};
  const PieceTrie* user_defined_ = nullptr;
  bool add_dummy_prefix_ = true, remove_extra_whitespaces_ = true, escape_whitespaces_ = true;
  bool treat_whitespace_as_suffix_ = false;
};

// sentencepiece's UTF-8 decoder (string_util::DecodeUTF8): the length of the
// valid character at the head of s, or 0 when it is malformed.
size_t valid_utf8_prefix(std::string_view s);
// sentencepiece's OneCharLen: a character's length judged by its lead byte.
inline size_t one_char_len(unsigned char lead) { return "\1\1\1\1\1\1\1\1\1\1\1\1\2\2\3\4"[lead >> 4]; }

}  // namespace torch::text::sentencepiece::detail
