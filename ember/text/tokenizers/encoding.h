#pragma once
// tokenizers.Encoding: the output of Tokenizer::encode, field for field.
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "ember/core/namespace.h"

namespace torch::text::tokenizers {

using Offsets = std::tuple<int64_t, int64_t>;  // [start, end) in code points of the input

enum class TruncationDirection { Left, Right };
enum class PaddingDirection { Left, Right };

class Encoding {
 public:
  Encoding() = default;

  const std::vector<int64_t>& ids() const { return ids_; }
  const std::vector<int64_t>& type_ids() const { return type_ids_; }
  // Materialised on first use (Note [Compact encoding]); safe to call from
  // several threads at once.
  const std::vector<std::string>& tokens() const;
  // Token i without materialising tokens().
  std::string_view token(size_t i) const;
  const std::vector<Offsets>& offsets() const { return offsets_; }
  const std::vector<std::optional<int64_t>>& word_ids() const { return word_ids_; }
  const std::vector<std::optional<int64_t>>& words() const { return word_ids_; }
  const std::vector<std::optional<int64_t>>& sequence_ids() const { return sequence_ids_; }
  const std::vector<int64_t>& special_tokens_mask() const { return special_tokens_mask_; }
  const std::vector<int64_t>& attention_mask() const { return attention_mask_; }
  const std::vector<Encoding>& overflowing() const { return overflowing_; }
  int64_t n_sequences() const;
  size_t size() const { return ids_.size(); }
  size_t len() const { return ids_.size(); }

  // Encoding.truncate / Encoding.pad, as the tokenizers package defines them.
  void truncate(int64_t max_length, int64_t stride = 0, const std::string& direction = "right");
  void pad(int64_t length, int64_t pad_id = 0, int64_t pad_type_id = 0, const std::string& pad_token = "[PAD]",
           const std::string& direction = "right");
  // Encoding.merge(encodings, growing_offsets = true).
  static Encoding merge(const std::vector<Encoding>& encodings, bool growing_offsets = true);

  // Building blocks for the tokenizer pipeline.
  void push_back(int64_t id, std::string token, Offsets offsets, std::optional<int64_t> word, int64_t type_id,
                 bool special);
  // The encoder's own path: push_back_vocab / push_back_text fill only ids,
  // tokens, offsets and words; fill_sequence then gives every token pushed
  // since the last push_back or fill_sequence its type id, sequence 0, no
  // special mask and attention 1, in bulk. A push_back_vocab token's string
  // is the vocabulary's entry for `id` (see set_vocabulary).
  void push_back_vocab(int64_t id, Offsets offsets, int64_t word) {
    ids_.push_back(id);
    token_src_.push_back(kFromVocab);
    ++n_from_vocab_;
    offsets_.push_back(offsets);
    word_ids_.push_back(word);
  }
  void push_back_text(int64_t id, std::string token, Offsets offsets, int64_t word);
  void fill_sequence(int64_t type_id);
  // The id -> token table push_back_vocab's tokens read (shared, immutable).
  void set_vocabulary(std::shared_ptr<const std::vector<std::string>> vocab) { vocab_ = std::move(vocab); }
  void reserve(size_t n);
  void set_type_ids(int64_t type_id);
  void set_sequence_id(int64_t sequence_id);
  void shift_word_ids(int64_t delta);
  void append(const Encoding& other, bool growing_offsets);
  // Encoding.merge_with: appends `pair`; the overflowing parts become every
  // combination of one side's part with the other's (the reference's order).
  void merge_with(const Encoding& pair, bool growing_offsets);
  std::vector<Encoding>& mutable_overflowing() { return overflowing_; }
  std::vector<Offsets>& mutable_offsets() { return offsets_; }
  std::vector<std::string>& mutable_tokens();
  Encoding slice(size_t begin, size_t end) const;

 private:
  // A tokens() materialised on demand. Copies start empty (they rebuild it);
  // every change to the tokens clears it.
  struct TokenCache {
    TokenCache() = default;
    TokenCache(const TokenCache&) {}
    TokenCache(TokenCache&& o) noexcept : ready(o.ready.load()), tokens(std::move(o.tokens)) { o.reset(); }
    TokenCache& operator=(const TokenCache&) {
      reset();
      return *this;
    }
    TokenCache& operator=(TokenCache&& o) noexcept {
      ready.store(o.ready.load());
      tokens = std::move(o.tokens);
      o.reset();
      return *this;
    }
    void reset() {
      ready.store(false);
      tokens.clear();
    }
    std::mutex mutex;
    std::atomic<bool> ready{false};
    std::vector<std::string> tokens;
  };
  static constexpr uint32_t kFromVocab = UINT32_MAX;
  // Appends token i of `from` (its vocabulary reference or its string).
  void copy_token(const Encoding& from, size_t i);
  void tokens_changed() { cache_.reset(); }

  std::vector<int64_t> ids_, type_ids_;
  // Per token: kFromVocab (the string is (*vocab_)[id]) or its index in
  // strings_, which holds the other tokens' strings in token order.
  std::vector<uint32_t> token_src_;
  std::vector<std::string> strings_;
  size_t n_from_vocab_ = 0;
  std::shared_ptr<const std::vector<std::string>> vocab_;
  mutable TokenCache cache_;
  std::vector<Offsets> offsets_;
  std::vector<std::optional<int64_t>> word_ids_, sequence_ids_;
  std::vector<int64_t> special_tokens_mask_, attention_mask_;
  std::vector<Encoding> overflowing_;
};

}  // namespace torch::text::tokenizers
