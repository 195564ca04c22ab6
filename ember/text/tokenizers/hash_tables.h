#pragma once
// Flat open-addressing hash tables for the tokenizers' hot loops: a vocabulary
// (bytes -> id), the BPE merge table ((left id, right id) -> rank and result)
// and a per-thread word cache. Keys live in one arena string, so lookups and
// inserts make no per-entry heap allocation (Note [Tokenizer speed]).
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "ember/core/namespace.h"
#include "ember/text/tokenizers/normalized_text.h"

namespace torch::text::tokenizers::detail {

// wyhash-style 64-bit mixing of a byte string (not cryptographic: the keys
// are a tokenizer's own vocabulary and its input's words).
inline uint64_t mix64(uint64_t a, uint64_t b) {
  __uint128_t r = static_cast<__uint128_t>(a) * b;
  return static_cast<uint64_t>(r) ^ static_cast<uint64_t>(r >> 64);
}

inline uint64_t hash_bytes(const char* p, size_t n) {
  constexpr uint64_t k0 = 0xa0761d6478bd642fULL, k1 = 0xe7037ed1a0b428dbULL, k2 = 0x8ebc6af09c88c6e3ULL;
  uint64_t h = k0 ^ (n * k1);
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t w;
    std::memcpy(&w, p + i, 8);
    h = mix64(h ^ w, k1);
  }
  if (i < n) {
    uint64_t w = 0;
    std::memcpy(&w, p + i, n - i);
    h = mix64(h ^ w ^ k2, k1);
  }
  return mix64(h, k2);
}

// bytes -> int32 value; values are >= 0.
class StringIdMap {
 public:
  StringIdMap() { rehash(16); }
  // Returns false (leaving the old value) when key is present.
  bool insert(std::string_view key, int32_t value);
  void insert_or_assign(std::string_view key, int32_t value);
  // -1 when absent.
  int32_t find(std::string_view key) const {
    uint64_t h = hash_bytes(key.data(), key.size());
    size_t mask = slots_.size() - 1;
    for (size_t i = h & mask;; i = (i + 1) & mask) {
      const Slot& s = slots_[i];
      if (s.value < 0) return -1;
      if (s.hash == h && s.len == key.size() && std::memcmp(arena_.data() + s.offset, key.data(), key.size()) == 0)
        return s.value;
    }
  }
  size_t size() const { return size_; }

 private:
  struct Slot {
    uint64_t hash = 0;
    uint32_t offset = 0, len = 0;
    int32_t value = -1;
  };
  void rehash(size_t n);
  Slot* find_slot(std::string_view key, uint64_t h);
  std::vector<Slot> slots_;
  std::string arena_;
  size_t size_ = 0;
};

// (left, right) token ids -> (rank, merged id) of a BPE merge.
class MergeMap {
 public:
  struct Merge {
    int32_t rank;
    int32_t id;
  };
  MergeMap() { rehash(16); }
  // First insertion wins (the tokenizers package keeps the first rank too).
  void insert(int32_t left, int32_t right, Merge m);
  const Merge* find(int32_t left, int32_t right) const {
    uint64_t key = key_of(left, right);
    size_t mask = slots_.size() - 1;
    for (size_t i = mix64(key, 0x9E3779B97F4A7C15ULL) & mask;; i = (i + 1) & mask) {
      const Slot& s = slots_[i];
      if (s.merge.id < 0) return nullptr;
      if (s.key == key) return &s.merge;
    }
  }
  // Starts loading the slot find(left, right) probes first.
  void prefetch(int32_t left, int32_t right) const {
    __builtin_prefetch(&slots_[mix64(key_of(left, right), 0x9E3779B97F4A7C15ULL) & (slots_.size() - 1)]);
  }
  size_t size() const { return size_; }

 private:
  struct Slot {
    uint64_t key = 0;
    Merge merge{0, -1};
  };
  static uint64_t key_of(int32_t l, int32_t r) {
    return (static_cast<uint64_t>(static_cast<uint32_t>(l)) << 32) | static_cast<uint32_t>(r);
  }
  void rehash(size_t n);
  std::vector<Slot> slots_;
  size_t size_ = 0;
};

// A byte trie over token strings, for greedy longest-prefix matching: edges
// (node, byte) -> child in one flat MergeMap, a token id (or -1) per node.
class TokenTrie {
 public:
  // First insertion of a string wins.
  void insert(std::string_view token, int32_t id);
  // The node reached from `node` by `byte`, or -1.
  int32_t child(int32_t node, unsigned char byte) const {
    const MergeMap::Merge* m = edges_.find(node, byte);
    return m ? m->id : -1;
  }
  int32_t token_at(int32_t node) const { return tokens_[static_cast<size_t>(node)]; }

 private:
  MergeMap edges_;
  std::vector<int32_t> tokens_{-1};  // node 0 is the root
};

// A word's tokens: id and byte length within the word.
struct WordToken {
  int32_t id;
  uint32_t len;
};

// Note [Word cache]
// word bytes -> its tokens, per thread (not thread-safe: Tokenizer::encode_batch
// gives every worker one). Short words, nearly all of running text, go to a
// direct-mapped table of one cache line per entry holding the word and up to
// kInlineTokens tokens inline: a lookup is one hash and one line, and a
// collision just overwrites (re-merging a short word is cheap). Longer words
// (up to kMaxWordBytes) go to an arena-backed map, cleared when full.
class WordCache {
 public:
  static constexpr size_t kShortWordBytes = 24;
  static constexpr size_t kInlineTokens = 7;
  // The short table starts small (a cache made for a few texts costs little)
  // and grows, emptied, to its full size once it has taken many words.
  static constexpr int kFirstShortBits = 9;
  static constexpr int kShortBits = 13;
  static constexpr size_t kShortEntries = size_t{1} << kShortBits;
  static constexpr size_t kMaxEntries = 1 << 16;
  static constexpr size_t kMaxWordBytes = 64;
  // Appends the cached tokens of `word` to out, or returns false.
  bool get(std::string_view word, std::vector<WordToken>& out) const;
  void put(std::string_view word, const WordToken* tokens, size_t n);
  // Starts loading the entry `word` maps to, ahead of its get.
  void prefetch(std::string_view word) const;
  std::vector<WordToken> scratch;  // a model's working space for one word
  // The encoder's buffers, reused from one input to the next.
  std::vector<Segment> segments;
  std::vector<Span> spans;
  std::vector<WordToken> tokens;
  // Frees the encoder's buffers when a long input grew them past a small
  // bound, so a tokenizer does not keep the largest input's memory.
  void trim_buffers() {
    constexpr size_t kKeep = size_t{1} << 14;
    if (segments.capacity() > kKeep) std::vector<Segment>().swap(segments);
    if (spans.capacity() > kKeep) std::vector<Span>().swap(spans);
    if (tokens.capacity() > kKeep) std::vector<WordToken>().swap(tokens);
    if (scratch.capacity() > kKeep) std::vector<WordToken>().swap(scratch);
  }

 private:
  struct alignas(64) ShortEntry {
    uint64_t key[3];  // the word, zero-padded
    uint8_t key_len;  // 0: empty
    uint8_t n;
    uint8_t lens[kInlineTokens];
    int32_t ids[kInlineTokens];
  };
  static_assert(sizeof(ShortEntry) == 64);
  // The entry `word` maps to; fills key with the padded word.
  size_t short_slot(std::string_view word, uint64_t key[3]) const;

  std::vector<ShortEntry> short_;  // 2^short_bits_ entries, allocated on first put
  int short_bits_ = 0;
  size_t short_puts_ = 0;
  StringIdMap index_;                                   // long word -> entry number
  std::vector<std::pair<uint32_t, uint32_t>> entries_;  // offset, count into tokens_
  std::vector<WordToken> tokens_;
};

}  // namespace torch::text::tokenizers::detail
