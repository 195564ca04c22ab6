#include "ember/text/sentencepiece/normalizer.h"

#include <cstring>

#include "ember/core/error.h"

namespace torch::text::sentencepiece::detail {

namespace {

constexpr std::string_view kSpaceSymbol = "\xe2\x96\x81";  // U+2581
constexpr std::string_view kReplacement = "\xef\xbf\xbd";  // U+FFFD

// Darts-clone's unit layout.
inline bool has_leaf(uint32_t u) { return ((u >> 8) & 1) == 1; }
inline uint32_t unit_value(uint32_t u) { return u & ((1u << 31) - 1); }
inline uint32_t unit_label(uint32_t u) { return u & ((1u << 31) | 0xFF); }
inline uint32_t unit_offset(uint32_t u) { return (u >> 10) << ((u & (1u << 9)) >> 6); }

}  // namespace

size_t valid_utf8_prefix(std::string_view s) {
  const auto* u = reinterpret_cast<const unsigned char*>(s.data());
  const size_t n = s.size();
  if (n == 0) return 0;
  auto trail = [&](size_t i) { return (u[i] & 0xC0) == 0x80; };
  auto valid_cp = [](char32_t c) { return c < 0xD800 || (c >= 0xE000 && c <= 0x10FFFF); };
  if (u[0] < 0x80) return 1;
  if (n >= 2 && (u[0] & 0xE0) == 0xC0) {
    const char32_t c = ((u[0] & 0x1F) << 6) | (u[1] & 0x3F);
    return trail(1) && c >= 0x80 && valid_cp(c) ? 2 : 0;
  }
  if (n >= 3 && (u[0] & 0xF0) == 0xE0) {
    const char32_t c = ((u[0] & 0x0F) << 12) | ((u[1] & 0x3F) << 6) | (u[2] & 0x3F);
    return trail(1) && trail(2) && c >= 0x800 && valid_cp(c) ? 3 : 0;
  }
  if (n >= 4 && (u[0] & 0xF8) == 0xF0) {
    const char32_t c = ((u[0] & 0x07) << 18) | ((u[1] & 0x3F) << 12) | ((u[2] & 0x3F) << 6) | (u[3] & 0x3F);
    return trail(1) && trail(2) && trail(3) && c >= 0x10000 && valid_cp(c) ? 4 : 0;
  }
  return 0;
}

CharsMap::CharsMap(std::string_view blob, const std::string& what) {
  if (blob.empty()) return;
  EMBER_CHECK(blob.size() > 4, "SentencePieceProcessor: ", what, ": precompiled_charsmap of ", blob.size(),
              " bytes is too short");
  const auto* u = reinterpret_cast<const unsigned char*>(blob.data());
  const uint32_t trie_size = u[0] | (u[1] << 8) | (u[2] << 16) | (static_cast<uint32_t>(u[3]) << 24);
  EMBER_CHECK(trie_size <= blob.size() - 4 && trie_size % 4 == 0 && trie_size > 0, "SentencePieceProcessor: ", what,
              ": precompiled_charsmap claims a trie of ", trie_size, " bytes in ", blob.size() - 4);
  units_.resize(trie_size / 4);
  for (size_t i = 0; i < units_.size(); ++i) {
    const unsigned char* p = u + 4 + 4 * i;
    units_[i] = p[0] | (p[1] << 8) | (p[2] << 16) | (static_cast<uint32_t>(p[3]) << 24);
  }
  replacements_ = std::string(blob.substr(4 + trie_size));
  replacements_.push_back('\0');
  const uint32_t root = unit_offset(units_[0]);
  for (uint32_t b = 0; b < 256; ++b) {
    const uint32_t id = root ^ b;
    starts_rule_[b] = id < units_.size() && unit_label(units_[id]) == b;
  }
}

std::pair<size_t, std::string_view> CharsMap::longest_match(std::string_view text) const { return match(text, true); }
std::pair<size_t, std::string_view> CharsMap::shortest_match(std::string_view text) const { return match(text, false); }

std::pair<size_t, std::string_view> CharsMap::match(std::string_view text, bool longest) const {
  // Darts' commonPrefixSearch, every index checked against the array.
  size_t best_len = 0;
  uint32_t best_value = 0;
  const size_t n = units_.size();
  if (n == 0) return {0, {}};
  uint32_t id = unit_offset(units_[0]);
  for (size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    id ^= c;
    if (id >= n) break;
    const uint32_t unit = units_[id];
    if (unit_label(unit) != c) break;
    id ^= unit_offset(unit);
    if (id >= n) break;
    if (has_leaf(unit)) {
      best_len = i + 1;
      best_value = unit_value(units_[id]);
      if (!longest) break;
    }
  }
  if (best_len == 0) return {0, {}};
  EMBER_CHECK(best_value < replacements_.size(), "SentencePieceProcessor: precompiled_charsmap points at byte ",
              best_value, " of a ", replacements_.size() - 1, "-byte replacement table");
  return {best_len, std::string_view(replacements_.data() + best_value)};
}

Normalizer::Normalizer(const NormalizerSpecProto& spec, bool treat_whitespace_as_suffix, const PieceTrie* user_defined,
                       const std::string& what)
    : charsmap_(spec.precompiled_charsmap, what),
      user_defined_(user_defined),
      add_dummy_prefix_(spec.add_dummy_prefix),
      remove_extra_whitespaces_(spec.remove_extra_whitespaces),
      escape_whitespaces_(spec.escape_whitespaces),
      treat_whitespace_as_suffix_(treat_whitespace_as_suffix) {
  for (unsigned b = 0; b < 128; ++b) {
    const char c = static_cast<char>(b);
    plain_ascii_[b] =
        charsmap_.no_rule_starts_with(static_cast<unsigned char>(b)) &&
        (user_defined_ == nullptr || (user_defined_->longest_prefix(std::string_view(&c, 1)) == 0 &&
                                      !user_defined_->has_prefix_starting_with(static_cast<unsigned char>(b))));
  }
}

std::pair<std::string_view, size_t> Normalizer::normalize_prefix(std::string_view input) const {
  if (input.empty()) return {{}, 0};
  const auto lead = static_cast<unsigned char>(input[0]);
  if (lead < 0x80 && plain_ascii_[lead]) return {input.substr(0, 1), 1};
  if (user_defined_ != nullptr) {
    const size_t n = user_defined_->longest_prefix(input);
    if (n > 0) return {input.substr(0, n), n};
  }
  if (!charsmap_.empty()) {
    auto [len, replacement] = charsmap_.longest_match(input);
    if (len > 0) return {replacement, len};
  }
  const size_t len = valid_utf8_prefix(input);
  // A malformed byte reads as U+FFFD and consumes one byte (sentencepiece's rule).
  if (len == 0) return {kReplacement, 1};
  return {input.substr(0, len), len};
}

void Normalizer::normalize(std::string_view input, std::string& normalized, std::vector<size_t>* alignment) const {
  // Without an alignment to keep, a local vector stays empty and costs nothing.
  std::vector<size_t> unused;
  std::vector<size_t>& norm_to_orig = alignment != nullptr ? *alignment : unused;
  const bool align = alignment != nullptr;
  normalized.clear();
  norm_to_orig.clear();
  if (input.empty()) return;
  size_t consumed = 0;
  if (remove_extra_whitespaces_) {
    while (!input.empty()) {
      const auto [s, n] = normalize_prefix(input);
      if (s != " ") break;
      input.remove_prefix(n);
      consumed += n;
    }
  }
  if (input.empty()) return;
  normalized.reserve(input.size() * 3);
  if (align) norm_to_orig.reserve(input.size() * 3);
  auto add_space = [&] {
    if (escape_whitespaces_) {
      normalized.append(kSpaceSymbol);
      if (align) norm_to_orig.insert(norm_to_orig.end(), kSpaceSymbol.size(), consumed);
    } else {
      normalized.push_back(' ');
      if (align) norm_to_orig.push_back(consumed);
    }
  };
  if (!treat_whitespace_as_suffix_ && add_dummy_prefix_) add_space();
  bool is_prev_space = remove_extra_whitespaces_;
  while (!input.empty()) {
    auto [s, n] = normalize_prefix(input);
    // Drop the leading spaces of a replacement that follows a space.
    while (is_prev_space && !s.empty() && s.front() == ' ') s.remove_prefix(1);
    if (!s.empty()) {
      for (const char c : s) {
        if (escape_whitespaces_ && c == ' ') {
          normalized.append(kSpaceSymbol);
          if (align) norm_to_orig.insert(norm_to_orig.end(), kSpaceSymbol.size(), consumed);
        } else {
          normalized.push_back(c);
          if (align) norm_to_orig.push_back(consumed);
        }
      }
      is_prev_space = s.back() == ' ';
    }
    consumed += n;
    input.remove_prefix(n);
    if (!remove_extra_whitespaces_) is_prev_space = false;
  }
  if (remove_extra_whitespaces_) {
    const std::string_view space = escape_whitespaces_ ? kSpaceSymbol : std::string_view(" ");
    while (normalized.size() >= space.size() &&
           std::string_view(normalized).substr(normalized.size() - space.size()) == space) {
      const size_t length = normalized.size() - space.size();
      normalized.resize(length);
      if (align) {
        consumed = norm_to_orig[length];
        norm_to_orig.resize(length);
      }
    }
  }
  if (treat_whitespace_as_suffix_ && add_dummy_prefix_) add_space();
  if (align) norm_to_orig.push_back(consumed);
}

}  // namespace torch::text::sentencepiece::detail
