#pragma once
// The tokenizer's added tokens (tokenizer.json "added_tokens"): matched in the
// input before normalization, leftmost-longest, with the single_word / lstrip
// / rstrip rules of the tokenizers package's AddedToken.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "ember/text/tokenizers/hash_tables.h"

namespace torch::text::tokenizers {

struct AddedToken {
  std::string content;
  bool single_word = false;
  bool lstrip = false;
  bool rstrip = false;
  bool normalized = true;
  bool special = false;
};

namespace detail {

class AddedVocabulary {
 public:
  void add(const AddedToken& t, int64_t id);
  bool empty() const { return tokens_.empty(); }
  // Splits valid UTF-8 into plain and added-token segments (plain ones may be empty).
  void split(std::string_view text, std::vector<Segment>& out) const;
  int32_t find(std::string_view content) const { return by_content_.find(content); }
  std::optional<int64_t> id_of(std::string_view content) const {
    int32_t k = by_content_.find(content);
    if (k < 0) return std::nullopt;
    return tokens_[static_cast<size_t>(k)].id;
  }
  std::vector<std::string> contents() const {
    std::vector<std::string> out;
    for (const auto& e : tokens_) out.push_back(e.token.content);
    return out;
  }
  const AddedToken* token(int64_t id) const;
  bool is_special(int64_t id) const {
    const AddedToken* t = token(id);
    return t && t->special;
  }
  size_t size() const { return tokens_.size(); }

 private:
  struct Entry {
    AddedToken token;
    int64_t id;
  };
  std::vector<Entry> tokens_;
  StringIdMap by_content_;                     // content -> index into tokens_
  std::unordered_map<int64_t, size_t> by_id_;  // id -> index into tokens_
  std::vector<std::vector<uint32_t>> by_first_byte_ = std::vector<std::vector<uint32_t>>(256);  // longest first
};

}  // namespace detail
}  // namespace torch::text::tokenizers
