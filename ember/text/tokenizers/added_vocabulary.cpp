#include "ember/text/tokenizers/added_vocabulary.h"

#include <algorithm>

#include "ember/core/error.h"
#include "ember/text/unicode.h"

namespace torch::text::tokenizers::detail {
namespace {

// The code point ending just before byte i / starting at byte i.
char32_t cp_before(std::string_view s, uint32_t i) {
  uint32_t k = i;
  do --k;
  while (k > 0 && text::detail::is_continuation_byte(static_cast<unsigned char>(s[k])));
  const char* p = s.data() + k;
  return text::detail::next_code_point(p);
}

char32_t cp_at(std::string_view s, uint32_t i, uint32_t* next) {
  const char* p = s.data() + i;
  char32_t c = text::detail::next_code_point(p);
  *next = static_cast<uint32_t>(p - s.data());
  return c;
}

bool is_word_char(char32_t c) { return c == '_' || text::detail::is_alphanumeric(c); }

}  // namespace

void AddedVocabulary::add(const AddedToken& t, int64_t id) {
  EMBER_CHECK(!t.content.empty(), "Tokenizer: an added token cannot be empty");
  int32_t existing = by_content_.find(t.content);
  if (existing >= 0) {
    by_id_.erase(tokens_[static_cast<size_t>(existing)].id);
    tokens_[static_cast<size_t>(existing)] = {t, id};
    by_id_[id] = static_cast<size_t>(existing);
    return;
  }
  by_content_.insert(t.content, static_cast<int32_t>(tokens_.size()));
  by_id_[id] = tokens_.size();
  tokens_.push_back({t, id});
  auto& bucket = by_first_byte_[static_cast<unsigned char>(t.content[0])];
  bucket.push_back(static_cast<uint32_t>(tokens_.size() - 1));
  std::stable_sort(bucket.begin(), bucket.end(), [&](uint32_t a, uint32_t b) {
    return tokens_[a].token.content.size() > tokens_[b].token.content.size();
  });
}

const AddedToken* AddedVocabulary::token(int64_t id) const {
  auto it = by_id_.find(id);
  return it == by_id_.end() ? nullptr : &tokens_[it->second].token;
}

void AddedVocabulary::split(std::string_view text, std::vector<Segment>& out) const {
  const uint32_t n = static_cast<uint32_t>(text.size());
  uint32_t plain = 0;
  uint32_t i = 0;
  while (i < n) {
    const auto& bucket = by_first_byte_[static_cast<unsigned char>(text[i])];
    const Entry* hit = nullptr;
    for (uint32_t k : bucket) {
      const std::string& c = tokens_[k].token.content;
      if (c.size() > n - i || text.compare(i, c.size(), c) != 0) continue;
      const AddedToken& t = tokens_[k].token;
      if (t.single_word) {
        uint32_t nx;
        bool left_ok = i == 0 || !is_word_char(cp_before(text, i));
        bool right_ok = i + c.size() >= n || !is_word_char(cp_at(text, i + static_cast<uint32_t>(c.size()), &nx));
        if (!left_ok || !right_ok) continue;
      }
      hit = &tokens_[k];
      break;
    }
    if (!hit) {
      i += static_cast<uint32_t>(text::detail::utf8_length(static_cast<unsigned char>(text[i])));
      continue;
    }
    uint32_t b = i, e = i + static_cast<uint32_t>(hit->token.content.size());
    if (hit->token.lstrip)
      while (b > plain && text::detail::is_whitespace(cp_before(text, b))) {
        uint32_t k = b;
        do --k;
        while (k > 0 && text::detail::is_continuation_byte(static_cast<unsigned char>(text[k])));
        b = k;
      }
    if (hit->token.rstrip) {
      uint32_t nx;
      while (e < n && text::detail::is_whitespace(cp_at(text, e, &nx))) e = nx;
    }
    out.push_back({plain, b, -1});
    out.push_back({b, e, hit->id});
    plain = i = e;
  }
  out.push_back({plain, n, -1});
}

}  // namespace torch::text::tokenizers::detail
