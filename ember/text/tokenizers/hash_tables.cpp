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

bool WordCache::get(std::string_view word, const WordToken** tokens, size_t* n) const {
  int32_t e = index_.find(word);
  if (e < 0) return false;
  *tokens = tokens_.data() + entries_[static_cast<size_t>(e)].first;
  *n = entries_[static_cast<size_t>(e)].second;
  return true;
}

void WordCache::put(std::string_view word, const WordToken* tokens, size_t n) {
  if (word.size() > kMaxWordBytes) return;
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
