#pragma once
// UTF-8 and Unicode-property helpers shared by ember::text's tokenizers. The
// properties come from ICU (Debian's libicu-dev), never from hand-made tables.
#include <cstdint>
#include <string>
#include <string_view>

#include "ember/core/namespace.h"

namespace torch::text::detail {

// Note [Invalid UTF-8]
// Python and JavaScript strings cannot hold invalid UTF-8, so the references
// never see it; Rust's tokenizers take &str. ember::text replaces every
// maximal invalid subsequence by U+FFFD (Rust's String::from_utf8_lossy and
// Python's bytes.decode("utf-8", "replace")), so encode(bytes) equals the
// reference's encode(bytes.decode("utf-8", "replace")), offsets included.
std::string to_valid_utf8(std::string_view bytes);
bool is_valid_utf8(std::string_view bytes);

// Decodes one code point of *valid* UTF-8 at p (advancing p).
inline char32_t next_code_point(const char*& p) {
  const auto* u = reinterpret_cast<const unsigned char*>(p);
  unsigned c = u[0];
  if (c < 0x80) {
    p += 1;
    return c;
  }
  if (c < 0xE0) {
    p += 2;
    return ((c & 0x1F) << 6) | (u[1] & 0x3F);
  }
  if (c < 0xF0) {
    p += 3;
    return ((c & 0x0F) << 12) | ((u[1] & 0x3F) << 6) | (u[2] & 0x3F);
  }
  p += 4;
  return ((c & 0x07) << 18) | ((u[1] & 0x3F) << 12) | ((u[2] & 0x3F) << 6) | (u[3] & 0x3F);
}

inline int utf8_length(unsigned char lead) { return lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4; }
inline bool is_continuation_byte(unsigned char b) { return (b & 0xC0) == 0x80; }
void append_utf8(std::string& out, char32_t cp);
// Number of code points in valid UTF-8.
size_t count_code_points(std::string_view s);

// The classes GPT-2's pre-tokenizer regex distinguishes: \p{L}, \p{N}, \s, rest.
enum CharClass : uint8_t { kOther = 0, kLetter = 1, kNumber = 2, kSpace = 3 };
CharClass char_class(char32_t cp);

bool is_whitespace(char32_t cp);       // Unicode White_Space (Rust's char::is_whitespace, \s)
bool is_alphanumeric(char32_t cp);     // Rust's char::is_alphanumeric: L* or N*
bool is_punctuation(char32_t cp);      // P* categories
bool is_other(char32_t cp);            // C* categories (Cc Cf Cs Co Cn)
bool is_nonspacing_mark(char32_t cp);  // Mn
int combining_class(char32_t cp);      // canonical combining class (ccc)

// Appends cp's full lowercase mapping (one code point may become several).
void append_lowercase(std::string& out, char32_t cp);

// Unicode normalization forms, as the `tokenizers` normalizers name them.
enum class NormalizationForm { NFC, NFD, NFKC, NFKD };
// Normalizes a string of valid UTF-8 (throws ember::Error on ICU failure).
std::string normalize(std::string_view s, NormalizationForm form);
// True when a normalization of `form` may change text starting at cp
// (i.e. cp does not begin a segment that normalizes to itself).
bool has_boundary_before(char32_t cp, NormalizationForm form);

}  // namespace torch::text::detail
