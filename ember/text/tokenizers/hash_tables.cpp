#include "ember/text/tokenizers/hash_tables.h"

#include "ember/core/error.h"

namespace torch::text::tokenizers::detail {

StringIdMap::Slot* StringIdMap::find_slot(std::string_view key, uint64_t h) {
  size_t mask = slots_.size() - 1;
  for (size_t i = h & mask;; i = (i + 1) & mask) {
    Slot& s = slots_[i];
    if (s.value < 0) return &s;
    if (s.hash == h && s.len == key.size() && std::memcmp(arena_.data() + s.offset, key.data(), key.size()) == 0)
      return &s;
  }
}

void StringIdMap::rehash(size_t n) {
  std::vector<Slot> old = std::move(slots_);
  slots_.assign(n, Slot{});
  size_t mask = n - 1;
  for (const Slot& s : old) {
    if (s.value < 0) continue;
    size_t i = s.hash & mask;
    while (slots_[i].value >= 0) i = (i + 1) & mask;
    slots_[i] = s;
  }
}

bool StringIdMap::insert(std::string_view key, int32_t value) {
  EMBER_CHECK(value >= 0, "tokenizers: vocabulary ids must be >= 0, got ", value);
  EMBER_CHECK(arena_.size() + key.size() < (size_t{1} << 32), "tokenizers: vocabulary larger than 4 GiB");
  if ((size_ + 1) * 2 > slots_.size()) rehash(slots_.size() * 2);
  uint64_t h = hash_bytes(key.data(), key.size());
  Slot* s = find_slot(key, h);
  if (s->value >= 0) return false;
  s->hash = h;
  s->offset = static_cast<uint32_t>(arena_.size());
  s->len = static_cast<uint32_t>(key.size());
  s->value = value;
  arena_.append(key);
  ++size_;
  return true;
}

void StringIdMap::insert_or_assign(std::string_view key, int32_t value) {
  if (!insert(key, value)) find_slot(key, hash_bytes(key.data(), key.size()))->value = value;
}

void MergeMap::rehash(size_t n) {
  std::vector<Slot> old = std::move(slots_);
  slots_.assign(n, Slot{});
  size_t mask = n - 1;
  for (const Slot& s : old) {
    if (s.merge.id < 0) continue;
    size_t i = mix64(s.key, 0x9E3779B97F4A7C15ULL) & mask;
    while (slots_[i].merge.id >= 0) i = (i + 1) & mask;
    slots_[i] = s;
  }
}

void MergeMap::insert(int32_t left, int32_t right, Merge m) {
  if ((size_ + 1) * 2 > slots_.size()) rehash(slots_.size() * 2);
  uint64_t key = key_of(left, right);
  size_t mask = slots_.size() - 1;
  for (size_t i = mix64(key, 0x9E3779B97F4A7C15ULL) & mask;; i = (i + 1) & mask) {
    Slot& s = slots_[i];
    if (s.merge.id < 0) {
      s.key = key;
      s.merge = m;
      ++size_;
      return;
    }
    if (s.key == key) return;
  }
}

void TokenTrie::insert(std::string_view token, int32_t id) {
  int32_t node = 0;
  for (unsigned char c : token) {
    int32_t next = child(node, c);
    if (next < 0) {
      next = static_cast<int32_t>(tokens_.size());
      tokens_.push_back(-1);
      edges_.insert(node, c, {0, next});
    }
    node = next;
  }
  if (tokens_[static_cast<size_t>(node)] < 0) tokens_[static_cast<size_t>(node)] = id;
}

size_t WordCache::short_slot(std::string_view word, uint64_t key[3]) const {
  key[0] = key[1] = key[2] = 0;
  std::memcpy(key, word.data(), word.size());
  // Multiply-xorshift of the padded words: the table index only needs spread.
  uint64_t h = (key[0] * 0x9E3779B97F4A7C15ULL) ^ (key[1] * 0xC2B2AE3D27D4EB4FULL) ^ (key[2] * 0x165667B19E3779F9ULL) ^
               word.size();
  h ^= h >> 31;
  h *= 0xD6E8FEB86659FD93ULL;
  return static_cast<size_t>(h >> (64 - short_bits_));
}

void WordCache::prefetch(std::string_view word) const {
  if (short_.empty() || word.empty() || word.size() > kShortWordBytes) return;
  uint64_t key[3];
  __builtin_prefetch(&short_[short_slot(word, key)]);
}

bool WordCache::get(std::string_view word, std::vector<WordToken>& out) const {
  if (word.empty() || word.size() > kMaxWordBytes) return false;
  if (word.size() <= kShortWordBytes) {
    if (short_.empty()) return false;
    uint64_t key[3];
    const ShortEntry* e = &short_[short_slot(word, key)];
    if (e->key_len != word.size() || e->key[0] != key[0] || e->key[1] != key[1] || e->key[2] != key[2]) return false;
    for (uint8_t i = 0; i < e->n; ++i) out.push_back({e->ids[i], e->lens[i]});
    return true;
  }
  int32_t k = index_.find(word);
  if (k < 0) return false;
  const auto [offset, count] = entries_[static_cast<size_t>(k)];
  out.insert(out.end(), tokens_.begin() + offset, tokens_.begin() + offset + count);
  return true;
}

void WordCache::put(std::string_view word, const WordToken* tokens, size_t n) {
  if (word.empty() || word.size() > kMaxWordBytes) return;
  if (word.size() <= kShortWordBytes) {
    if (n > kInlineTokens) return;
    if (short_.empty() || (short_bits_ < kShortBits && ++short_puts_ > 4 * short_.size())) {
      short_bits_ = short_.empty() ? kFirstShortBits : kShortBits;
      short_.assign(size_t{1} << short_bits_, ShortEntry{});
      short_puts_ = 0;
    }
    uint64_t key[3];
    ShortEntry* e = &short_[short_slot(word, key)];
    std::memcpy(e->key, key, sizeof key);
    e->key_len = static_cast<uint8_t>(word.size());
    e->n = static_cast<uint8_t>(n);
    for (size_t i = 0; i < n; ++i) {
      e->ids[i] = tokens[i].id;
      e->lens[i] = static_cast<uint8_t>(tokens[i].len);
    }
    return;
  }
  if (entries_.size() >= kMaxEntries) {
    index_ = StringIdMap();
    entries_.clear();
    tokens_.clear();
  }
  if (!index_.insert(word, static_cast<int32_t>(entries_.size()))) return;
  entries_.emplace_back(static_cast<uint32_t>(tokens_.size()), static_cast<uint32_t>(n));
  tokens_.insert(tokens_.end(), tokens, tokens + n);
}

}  // namespace torch::text::tokenizers::detail
