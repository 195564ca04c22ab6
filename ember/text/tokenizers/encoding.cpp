#include "ember/text/tokenizers/encoding.h"

#include <algorithm>
#include <set>
#include <utility>

#include "ember/core/error.h"

namespace torch::text::tokenizers {

int64_t Encoding::n_sequences() const {
  std::set<int64_t> seen;
  for (const auto& s : sequence_ids_)
    if (s) seen.insert(*s);
  return seen.empty() ? 1 : static_cast<int64_t>(seen.size());
}

// Note [Compact encoding]
// The tokens of an encoding are mostly vocabulary entries: they are kept as a
// reference to the model's shared id -> token table and turned into strings
// only when tokens() is asked for, so encode makes no string per token. The
// few others (added tokens, special tokens, padding, Unigram's unknowns read
// as text) are held as strings, in token order.
const std::vector<std::string>& Encoding::tokens() const {
  if (n_from_vocab_ == 0) return strings_;
  if (cache_.ready.load(std::memory_order_acquire)) return cache_.tokens;
  std::lock_guard<std::mutex> lock(cache_.mutex);
  if (!cache_.ready.load(std::memory_order_relaxed)) {
    std::vector<std::string> out;
    out.reserve(ids_.size());
    for (size_t i = 0; i < ids_.size(); ++i) out.emplace_back(token(i));
    cache_.tokens = std::move(out);
    cache_.ready.store(true, std::memory_order_release);
  }
  return cache_.tokens;
}

std::string_view Encoding::token(size_t i) const {
  EMBER_CHECK(i < token_src_.size(), "Encoding.token: index ", i, " is out of range for ", token_src_.size(),
              " tokens");
  const uint32_t src = token_src_[i];
  if (src != kFromVocab) return strings_[src];
  const int64_t id = ids_[i];
  if (!vocab_ || id < 0 || id >= static_cast<int64_t>(vocab_->size())) return {};
  return (*vocab_)[static_cast<size_t>(id)];
}

std::vector<std::string>& Encoding::mutable_tokens() {
  if (n_from_vocab_ != 0) {
    std::vector<std::string> all;
    all.reserve(ids_.size());
    for (size_t i = 0; i < ids_.size(); ++i) all.emplace_back(token(i));
    strings_ = std::move(all);
    for (size_t i = 0; i < token_src_.size(); ++i) token_src_[i] = static_cast<uint32_t>(i);
    n_from_vocab_ = 0;
  }
  tokens_changed();
  return strings_;
}

void Encoding::copy_token(const Encoding& from, size_t i) {
  const uint32_t src = from.token_src_[i];
  if (src == kFromVocab) {
    if (!vocab_ && n_from_vocab_ == 0) vocab_ = from.vocab_;
    if (vocab_ == from.vocab_) {
      token_src_.push_back(kFromVocab);
      ++n_from_vocab_;
      return;
    }
    strings_.emplace_back(from.token(i));
  } else {
    strings_.push_back(from.strings_[src]);
  }
  token_src_.push_back(static_cast<uint32_t>(strings_.size() - 1));
}

void Encoding::reserve(size_t n) {
  ids_.reserve(n);
  type_ids_.reserve(n);
  token_src_.reserve(n);
  offsets_.reserve(n);
  word_ids_.reserve(n);
  sequence_ids_.reserve(n);
  special_tokens_mask_.reserve(n);
  attention_mask_.reserve(n);
}

void Encoding::push_back(int64_t id, std::string token, Offsets offsets, std::optional<int64_t> word, int64_t type_id,
                         bool special) {
  ids_.push_back(id);
  type_ids_.push_back(type_id);
  strings_.push_back(std::move(token));
  token_src_.push_back(static_cast<uint32_t>(strings_.size() - 1));
  tokens_changed();
  offsets_.push_back(offsets);
  word_ids_.push_back(word);
  sequence_ids_.push_back(special ? std::nullopt : std::optional<int64_t>(0));
  special_tokens_mask_.push_back(special ? 1 : 0);
  attention_mask_.push_back(1);
}

void Encoding::push_back_text(int64_t id, std::string token, Offsets offsets, int64_t word) {
  ids_.push_back(id);
  strings_.push_back(std::move(token));
  token_src_.push_back(static_cast<uint32_t>(strings_.size() - 1));
  tokens_changed();
  offsets_.push_back(offsets);
  word_ids_.push_back(word);
}

void Encoding::fill_sequence(int64_t type_id) {
  const size_t n = ids_.size();
  type_ids_.resize(n, type_id);
  sequence_ids_.resize(n, std::optional<int64_t>(0));
  special_tokens_mask_.resize(n, 0);
  attention_mask_.resize(n, 1);
  tokens_changed();
}

void Encoding::set_type_ids(int64_t type_id) { std::fill(type_ids_.begin(), type_ids_.end(), type_id); }

void Encoding::set_sequence_id(int64_t sequence_id) {
  for (auto& s : sequence_ids_) s = sequence_id;
  for (auto& o : overflowing_) o.set_sequence_id(sequence_id);
}

void Encoding::shift_word_ids(int64_t delta) {
  for (auto& w : word_ids_)
    if (w) *w += delta;
}

Encoding Encoding::slice(size_t begin, size_t end) const {
  Encoding e;
  auto cut = [&](const auto& v, auto& out) { out.assign(v.begin() + begin, v.begin() + end); };
  cut(ids_, e.ids_);
  cut(type_ids_, e.type_ids_);
  e.vocab_ = vocab_;
  e.token_src_.reserve(end - begin);
  for (size_t i = begin; i < end; ++i) e.copy_token(*this, i);
  cut(offsets_, e.offsets_);
  cut(word_ids_, e.word_ids_);
  cut(sequence_ids_, e.sequence_ids_);
  cut(special_tokens_mask_, e.special_tokens_mask_);
  cut(attention_mask_, e.attention_mask_);
  return e;
}

void Encoding::append(const Encoding& other, bool growing_offsets) {
  int64_t shift = 0;
  if (growing_offsets && !offsets_.empty()) shift = std::get<1>(offsets_.back());
  auto cat = [](auto& a, const auto& b) { a.insert(a.end(), b.begin(), b.end()); };
  cat(ids_, other.ids_);
  cat(type_ids_, other.type_ids_);
  token_src_.reserve(token_src_.size() + other.token_src_.size());
  for (size_t i = 0; i < other.token_src_.size(); ++i) copy_token(other, i);
  tokens_changed();
  if (shift == 0)
    cat(offsets_, other.offsets_);
  else
    for (const auto& [s, e] : other.offsets_) offsets_.emplace_back(s + shift, e + shift);
  cat(word_ids_, other.word_ids_);
  cat(sequence_ids_, other.sequence_ids_);
  cat(special_tokens_mask_, other.special_tokens_mask_);
  cat(attention_mask_, other.attention_mask_);
}

void Encoding::merge_with(const Encoding& pair, bool growing_offsets) {
  std::vector<Encoding> over;
  auto combine = [&](const Encoding& a, const Encoding& b) {
    Encoding n = a.slice(0, a.size());
    n.append(b, growing_offsets);
    over.push_back(std::move(n));
  };
  for (const Encoding& mine : overflowing_) {
    combine(mine, pair);
    for (const Encoding& theirs : pair.overflowing_) combine(mine, theirs);
  }
  if (!pair.overflowing_.empty()) {
    Encoding self = slice(0, size());
    for (const Encoding& theirs : pair.overflowing_) combine(self, theirs);
  }
  append(pair, growing_offsets);
  overflowing_ = std::move(over);
}

Encoding Encoding::merge(const std::vector<Encoding>& encodings, bool growing_offsets) {
  Encoding out;
  for (const auto& e : encodings) out.merge_with(e, growing_offsets);
  return out;
}

void Encoding::truncate(int64_t max_length, int64_t stride, const std::string& direction) {
  EMBER_CHECK(max_length >= 0, "Encoding.truncate: max_length must be >= 0, got ", max_length);
  EMBER_CHECK(direction == "right" || direction == "left",
              "Encoding.truncate: direction must be 'right' or 'left', got '", direction, "'");
  const int64_t n = static_cast<int64_t>(ids_.size());
  if (max_length >= n) return;
  if (max_length == 0) {
    Encoding all = std::move(*this);
    *this = Encoding();
    overflowing_.push_back(std::move(all));
    return;
  }
  EMBER_CHECK(stride >= 0 && stride < max_length, "Encoding.truncate: stride (", stride,
              ") must be smaller than max_length (", max_length, ")");
  const int64_t step = max_length - stride;
  std::vector<std::pair<int64_t, int64_t>> parts;
  if (direction == "right") {
    for (int64_t start = 0; start < n; start += step) {
      int64_t stop = std::min(start + max_length, n);
      parts.emplace_back(start, stop);
      if (stop == n) break;
    }
  } else {
    for (int64_t last = n - 1; last >= 0; last -= step) {
      int64_t stop = last + 1;
      int64_t start = stop < max_length ? 0 : stop - max_length;
      parts.emplace_back(start, stop);
      if (start == 0) break;
    }
  }
  Encoding head = slice(static_cast<size_t>(parts[0].first), static_cast<size_t>(parts[0].second));
  for (size_t i = 1; i < parts.size(); ++i)
    head.overflowing_.push_back(slice(static_cast<size_t>(parts[i].first), static_cast<size_t>(parts[i].second)));
  *this = std::move(head);
}

void Encoding::pad(int64_t length, int64_t pad_id, int64_t pad_type_id, const std::string& pad_token,
                   const std::string& direction) {
  EMBER_CHECK(direction == "right" || direction == "left", "Encoding.pad: direction must be 'right' or 'left', got '",
              direction, "'");
  for (auto& o : overflowing_) o.pad(length, pad_id, pad_type_id, pad_token, direction);
  const int64_t n = static_cast<int64_t>(ids_.size());
  if (length <= n) return;
  const size_t k = static_cast<size_t>(length - n);
  auto grow = [&](auto& v, const auto& value) {
    using V = std::decay_t<decltype(v)>;
    V fill(k, value);
    if (direction == "right")
      v.insert(v.end(), fill.begin(), fill.end());
    else
      v.insert(v.begin(), fill.begin(), fill.end());
  };
  grow(ids_, pad_id);
  grow(type_ids_, pad_type_id);
  // The token sources are rebuilt in their new order.
  std::vector<uint32_t> src = std::move(token_src_);
  std::vector<std::string> strings = std::move(strings_);
  token_src_.clear();
  strings_.clear();
  n_from_vocab_ = 0;
  auto push_pads = [&] {
    for (size_t i = 0; i < k; ++i) {
      strings_.push_back(pad_token);
      token_src_.push_back(static_cast<uint32_t>(strings_.size() - 1));
    }
  };
  if (direction == "left") push_pads();
  for (uint32_t s : src) {
    if (s == kFromVocab) {
      token_src_.push_back(kFromVocab);
      ++n_from_vocab_;
    } else {
      strings_.push_back(std::move(strings[s]));
      token_src_.push_back(static_cast<uint32_t>(strings_.size() - 1));
    }
  }
  if (direction == "right") push_pads();
  tokens_changed();
  grow(offsets_, Offsets{0, 0});
  grow(word_ids_, std::optional<int64_t>());
  grow(sequence_ids_, std::optional<int64_t>());
  grow(special_tokens_mask_, int64_t{1});
  grow(attention_mask_, int64_t{0});
}

}  // namespace torch::text::tokenizers
