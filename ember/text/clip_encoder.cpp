#include "ember/text/clip_encoder.h"

#include <unicode/uchar.h>
#include <unicode/ustring.h>

#include <limits>

#include "ember/core/error.h"
#include "ember/text/tokenizers/models.h"
#include "ember/text/unicode.h"

namespace torch::text::detail {

namespace {

constexpr char kSeparator = '\x01';
constexpr std::string_view kEndOfWord = "</w>";
constexpr size_t kMaxCachedWords = 1 << 16;

bool is_re2_space(char32_t c) { return c == '\t' || c == '\n' || c == '\f' || c == '\r' || c == ' '; }
bool is_letter(char32_t c) { return (U_GET_GC_MASK(static_cast<UChar32>(c)) & U_GC_L_MASK) != 0; }
bool is_number(char32_t c) { return (U_GET_GC_MASK(static_cast<UChar32>(c)) & U_GC_N_MASK) != 0; }

// Python's str.isspace(): bidirectional class WS, B or S, or category Zs.
bool is_python_space(char32_t c) {
  const auto u = static_cast<UChar32>(c);
  const UCharDirection d = u_charDirection(u);
  return u_charType(u) == U_SPACE_SEPARATOR || d == U_WHITE_SPACE_NEUTRAL || d == U_BLOCK_SEPARATOR ||
         d == U_SEGMENT_SEPARATOR;
}

// Code point at text[i] (valid UTF-8) and its length.
char32_t code_point_at(std::string_view text, size_t i, size_t* len) {
  const char* p = text.data() + i;
  const char* start = p;
  const char32_t c = next_code_point(p);
  *len = static_cast<size_t>(p - start);
  return c;
}

// RE2's (?i) folds these to ASCII s and k.
bool folds_to(char32_t c, char ascii) {
  if (c < 0x80) return static_cast<char>(c | 0x20) == ascii;
  return (ascii == 's' && c == 0x017F) || (ascii == 'k' && c == 0x212A);
}

// Length of the case-insensitive match of `lit` (ASCII) at text[i], or 0.
size_t match_literal(std::string_view text, size_t i, std::string_view lit) {
  size_t j = i;
  for (const char want : lit) {
    if (j >= text.size()) return 0;
    size_t len = 0;
    const char32_t c = code_point_at(text, j, &len);
    const bool letter = want >= 'a' && want <= 'z';
    if (letter ? !folds_to(c, want) : c != static_cast<unsigned char>(want)) return 0;
    j += len;
  }
  return j - i;
}

}  // namespace

std::string python_lower_strip(std::string_view text) {
  const std::string valid = is_valid_utf8(text) ? std::string(text) : to_valid_utf8(text);
  EMBER_CHECK(valid.size() < (size_t{1} << 29), "CLIPTokenizer: input of ", valid.size(), " bytes is too long");
  UErrorCode status = U_ZERO_ERROR;
  int32_t n16 = 0;
  u_strFromUTF8(nullptr, 0, &n16, valid.data(), static_cast<int32_t>(valid.size()), &status);
  status = U_ZERO_ERROR;
  std::u16string src(static_cast<size_t>(n16), u'\0');
  u_strFromUTF8(src.data(), n16, nullptr, valid.data(), static_cast<int32_t>(valid.size()), &status);
  EMBER_CHECK(U_SUCCESS(status), "CLIPTokenizer: ICU cannot read the input (", u_errorName(status), ")");
  // Full lowercase mapping grows a string by at most a factor of 3.
  std::u16string low(src.size() * 3 + 1, u'\0');
  const int32_t nl = u_strToLower(low.data(), static_cast<int32_t>(low.size()), src.data(),
                                  static_cast<int32_t>(src.size()), "", &status);
  EMBER_CHECK(U_SUCCESS(status), "CLIPTokenizer: ICU lowercasing failed (", u_errorName(status), ")");
  low.resize(static_cast<size_t>(nl));
  std::string out;
  int32_t n8 = 0;
  status = U_ZERO_ERROR;
  u_strToUTF8(nullptr, 0, &n8, low.data(), nl, &status);
  status = U_ZERO_ERROR;
  out.resize(static_cast<size_t>(n8));
  u_strToUTF8(out.data(), n8, nullptr, low.data(), nl, &status);
  EMBER_CHECK(U_SUCCESS(status), "CLIPTokenizer: ICU cannot write UTF-8 (", u_errorName(status), ")");
  // strip()
  size_t begin = 0, end = out.size();
  while (begin < end) {
    size_t len = 0;
    if (!is_python_space(code_point_at(out, begin, &len))) break;
    begin += len;
  }
  while (end > begin) {
    size_t k = end - 1;
    while (k > begin && is_continuation_byte(static_cast<unsigned char>(out[k]))) --k;
    size_t len = 0;
    if (!is_python_space(code_point_at(out, k, &len))) break;
    end = k;
  }
  return out.substr(begin, end - begin);
}

std::vector<std::string_view> clip_pre_tokenize(std::string_view text) {
  static constexpr std::string_view kSpecials[] = {"<|startoftext|>", "<|endoftext|>"};
  static constexpr std::string_view kContractions[] = {"'s", "'t", "'re", "'ve", "'m", "'ll", "'d"};
  std::vector<std::string_view> out;
  size_t i = 0;
  while (i < text.size()) {
    size_t len = 0;
    const char32_t c = code_point_at(text, i, &len);
    if (is_re2_space(c)) {
      i += len;
      continue;
    }
    size_t match = 0;
    for (std::string_view s : kSpecials)
      if (!match) match = match_literal(text, i, s);
    if (!match && c == '\'')
      for (std::string_view s : kContractions)
        if (!match) match = match_literal(text, i, s);
    if (!match) {
      if (is_letter(c)) {
        size_t j = i + len;
        while (j < text.size()) {
          size_t l = 0;
          if (!is_letter(code_point_at(text, j, &l))) break;
          j += l;
        }
        match = j - i;
      } else if (is_number(c)) {
        match = len;
      } else {
        size_t j = i + len;
        while (j < text.size()) {
          size_t l = 0;
          const char32_t d = code_point_at(text, j, &l);
          if (is_re2_space(d) || is_letter(d) || is_number(d)) break;
          j += l;
        }
        match = j - i;
      }
    }
    out.push_back(text.substr(i, match));
    i += match;
  }
  return out;
}

CLIPEncoder::CLIPEncoder(std::unordered_map<std::string, int64_t> encoder, const std::vector<std::string>& merges)
    : encoder_(std::move(encoder)) {
  // {"\x01".join(pair.split()): i}: a later duplicate takes the later rank.
  for (size_t i = 0; i < merges.size(); ++i) {
    std::string key;
    size_t p = 0;
    const std::string& m = merges[i];
    bool first = true;
    while (p < m.size()) {
      while (p < m.size() && (m[p] == ' ' || (m[p] >= '\t' && m[p] <= '\r'))) ++p;
      size_t q = p;
      while (q < m.size() && !(m[q] == ' ' || (m[q] >= '\t' && m[q] <= '\r'))) ++q;
      if (q > p) {
        if (!first) key.push_back(kSeparator);
        key.append(m, p, q - p);
        first = false;
      }
      p = q;
    }
    ranks_.insert_or_assign(std::move(key), static_cast<int64_t>(i));
  }
}

// Note [CLIP merge loop]
// torchtext's CLIPEncoder::BPE_: the special tokens stay whole; otherwise the
// last symbol gets '</w>', then repeatedly the adjacent pair of lowest rank is
// merged at every occurrence, left to right, until one symbol is left or no
// pair has a rank.
std::vector<std::string> CLIPEncoder::bpe(const std::string& word) const {
  if (word == "<|startoftext|>" || word == "<|endoftext|>") return {word};
  {
    std::lock_guard<std::mutex> g(cache_mutex_);
    if (auto it = cache_.find(word); it != cache_.end()) return it->second;
  }
  // Symbols: one code point of the byte alphabet each.
  std::vector<std::string> syms;
  for (size_t i = 0; i < word.size();) {
    const size_t n =
        std::min<size_t>(static_cast<size_t>(utf8_length(static_cast<unsigned char>(word[i]))), word.size() - i);
    syms.emplace_back(word, i, n);
    i += n;
  }
  if (syms.empty()) return {};
  syms.back().append(kEndOfWord);
  if (syms.size() > 1) {
    auto rank_of = [&](const std::string& a, const std::string& b) {
      std::string key = a;
      key.push_back(kSeparator);
      key.append(b);
      auto it = ranks_.find(key);
      return it == ranks_.end() ? std::numeric_limits<int64_t>::max() : it->second;
    };
    while (syms.size() > 1) {
      int64_t best = std::numeric_limits<int64_t>::max();
      size_t at = 0;
      for (size_t i = 0; i + 1 < syms.size(); ++i) {
        const int64_t r = rank_of(syms[i], syms[i + 1]);
        if (r < best) {
          best = r;
          at = i;
        }
      }
      if (best == std::numeric_limits<int64_t>::max()) break;
      const std::string first = syms[at], second = syms[at + 1];
      std::vector<std::string> merged;
      merged.reserve(syms.size());
      for (size_t i = 0; i < syms.size();) {
        if (syms[i] == first && i + 1 < syms.size() && syms[i + 1] == second) {
          merged.push_back(first + second);
          i += 2;
        } else {
          merged.push_back(std::move(syms[i]));
          i += 1;
        }
      }
      syms = std::move(merged);
    }
  }
  std::lock_guard<std::mutex> g(cache_mutex_);
  if (cache_.size() >= kMaxCachedWords) cache_.clear();
  cache_.emplace(word, syms);
  return syms;
}

std::vector<std::string> CLIPEncoder::tokenize(std::string_view text) const {
  const std::string clean = python_lower_strip(text);
  const auto& alphabet = tokenizers::detail::byte_to_unicode();
  std::vector<std::string> out;
  std::string word;
  for (std::string_view tok : clip_pre_tokenize(clean)) {
    word.clear();
    for (const char c : tok) append_utf8(word, alphabet[static_cast<unsigned char>(c)]);
    for (auto& t : bpe(word)) out.push_back(std::move(t));
  }
  return out;
}

std::vector<int64_t> CLIPEncoder::encode(std::string_view text) const {
  std::vector<int64_t> ids;
  for (const std::string& t : tokenize(text)) {
    auto it = encoder_.find(t);
    EMBER_CHECK(it != encoder_.end(), "CLIPTokenizer: token '", t, "' is not in the encoder");
    ids.push_back(it->second);
  }
  return ids;
}

}  // namespace torch::text::detail
