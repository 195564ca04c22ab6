#include "ember/text/unicode.h"

#include <unicode/normalizer2.h>
#include <unicode/uchar.h>
#include <unicode/ustring.h>

#include <array>
#include <vector>

#include "ember/core/error.h"

namespace torch::text::detail {
namespace {

// Classes of the Basic Multilingual Plane, computed once from ICU so the
// pre-tokenizer's hot loop is one table load per code point.
struct BmpClassTable {
  std::vector<uint8_t> cls;
  BmpClassTable() : cls(0x10000) {
    for (char32_t c = 0; c < 0x10000; ++c) cls[c] = compute(c);
  }
  static uint8_t compute(char32_t c) {
    if (u_hasBinaryProperty(static_cast<UChar32>(c), UCHAR_WHITE_SPACE)) return kSpace;
    int32_t mask = U_GET_GC_MASK(static_cast<UChar32>(c));
    if (mask & U_GC_L_MASK) return kLetter;
    if (mask & U_GC_N_MASK) return kNumber;
    return kOther;
  }
};

const BmpClassTable& bmp_classes() {
  static const BmpClassTable table;
  return table;
}

const icu::Normalizer2* normalizer_for(NormalizationForm form) {
  UErrorCode status = U_ZERO_ERROR;
  const icu::Normalizer2* n = nullptr;
  switch (form) {
    case NormalizationForm::NFC:
      n = icu::Normalizer2::getNFCInstance(status);
      break;
    case NormalizationForm::NFD:
      n = icu::Normalizer2::getNFDInstance(status);
      break;
    case NormalizationForm::NFKC:
      n = icu::Normalizer2::getNFKCInstance(status);
      break;
    case NormalizationForm::NFKD:
      n = icu::Normalizer2::getNFKDInstance(status);
      break;
  }
  EMBER_CHECK(U_SUCCESS(status) && n, "text::normalize: ICU normalizer unavailable: ", u_errorName(status));
  return n;
}

// Length of the valid UTF-8 sequence at s[i], or 0 when it is not one
// (overlongs, surrogates and code points above U+10FFFF are invalid).
size_t valid_sequence_length(std::string_view s, size_t i, size_t* maximal_subpart) {
  const auto* u = reinterpret_cast<const unsigned char*>(s.data());
  size_t n = s.size();
  unsigned c = u[i];
  *maximal_subpart = 1;
  if (c < 0x80) return 1;
  int len;
  unsigned lo = 0x80, hi = 0xBF;
  if (c >= 0xC2 && c <= 0xDF) {
    len = 2;
  } else if (c >= 0xE0 && c <= 0xEF) {
    len = 3;
    if (c == 0xE0) lo = 0xA0;
    if (c == 0xED) hi = 0x9F;
  } else if (c >= 0xF0 && c <= 0xF4) {
    len = 4;
    if (c == 0xF0) lo = 0x90;
    if (c == 0xF4) hi = 0x8F;
  } else {
    return 0;
  }
  for (int k = 1; k < len; ++k) {
    if (i + k >= n) return 0;
    unsigned b = u[i + k];
    bool ok = k == 1 ? (b >= lo && b <= hi) : (b >= 0x80 && b <= 0xBF);
    if (!ok) return 0;
    *maximal_subpart = k + 1;
  }
  return static_cast<size_t>(len);
}

}  // namespace

bool is_valid_utf8(std::string_view bytes) {
  size_t i = 0, sub = 0;
  while (i < bytes.size()) {
    if (static_cast<unsigned char>(bytes[i]) < 0x80) {
      ++i;
      continue;
    }
    size_t len = valid_sequence_length(bytes, i, &sub);
    if (len == 0) return false;
    i += len;
  }
  return true;
}

std::string to_valid_utf8(std::string_view bytes) {
  if (is_valid_utf8(bytes)) return std::string(bytes);
  std::string out;
  out.reserve(bytes.size() + 8);
  size_t i = 0;
  while (i < bytes.size()) {
    size_t sub = 1;
    size_t len = valid_sequence_length(bytes, i, &sub);
    if (len == 0) {
      out += "\xEF\xBF\xBD";
      // One replacement per maximal subpart of an ill-formed sequence
      // (Unicode's "substitution of maximal subparts", which Rust and Python use).
      i += sub;
    } else {
      out.append(bytes.substr(i, len));
      i += len;
    }
  }
  return out;
}

void append_utf8(std::string& out, char32_t cp) {
  if (cp < 0x80) {
    out.push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

size_t count_code_points(std::string_view s) {
  size_t n = 0;
  for (unsigned char c : s) n += !is_continuation_byte(c);
  return n;
}

CharClass char_class(char32_t cp) {
  if (cp < 0x10000) return static_cast<CharClass>(bmp_classes().cls[cp]);
  return static_cast<CharClass>(BmpClassTable::compute(cp));
}

bool is_whitespace(char32_t cp) { return char_class(cp) == kSpace; }

bool is_alphanumeric(char32_t cp) {
  CharClass c = char_class(cp);
  return c == kLetter || c == kNumber;
}

bool is_punctuation(char32_t cp) { return (U_GET_GC_MASK(static_cast<UChar32>(cp)) & U_GC_P_MASK) != 0; }
bool is_other(char32_t cp) { return (U_GET_GC_MASK(static_cast<UChar32>(cp)) & U_GC_C_MASK) != 0; }
int combining_class(char32_t cp) { return u_getCombiningClass(static_cast<UChar32>(cp)); }

bool is_nonspacing_mark(char32_t cp) { return u_charType(static_cast<UChar32>(cp)) == U_NON_SPACING_MARK; }

void append_lowercase(std::string& out, char32_t cp) {
  if (cp < 0x80) {
    out.push_back(static_cast<char>(cp >= 'A' && cp <= 'Z' ? cp + 32 : cp));
    return;
  }
  // One code point at a time, as Rust's char::to_lowercase: the full
  // (possibly expanding) mapping without the final-sigma context rule.
  UChar src[2];
  int32_t src_len = 0;
  UBool err = false;  // U16_APPEND reports overflow here; two units always suffice
  U16_APPEND(src, src_len, 2, static_cast<UChar32>(cp), err);
  (void)err;
  UChar dst[8];
  UErrorCode status = U_ZERO_ERROR;
  int32_t n = u_strToLower(dst, 8, src, src_len, "", &status);
  if (U_FAILURE(status) || n > 8) {
    append_utf8(out, cp);
    return;
  }
  for (int32_t i = 0; i < n;) {
    UChar32 c;
    U16_NEXT(dst, i, n, c);
    append_utf8(out, static_cast<char32_t>(c));
  }
}

std::string normalize(std::string_view s, NormalizationForm form) {
  const icu::Normalizer2* n = normalizer_for(form);
  icu::UnicodeString src = icu::UnicodeString::fromUTF8(icu::StringPiece(s.data(), static_cast<int32_t>(s.size())));
  UErrorCode status = U_ZERO_ERROR;
  icu::UnicodeString dst = n->normalize(src, status);
  EMBER_CHECK(U_SUCCESS(status), "text::normalize: ICU failed: ", u_errorName(status));
  std::string out;
  dst.toUTF8String(out);
  return out;
}

bool has_boundary_before(char32_t cp, NormalizationForm form) {
  return normalizer_for(form)->hasBoundaryBefore(static_cast<UChar32>(cp));
}

}  // namespace torch::text::detail
