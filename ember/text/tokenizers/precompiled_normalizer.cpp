// tokenizers.normalizers.Precompiled: a SentencePiece model's charsmap applied
// the way the tokenizers package applies it (Note [Precompiled in tokenizers]).
#include <unicode/ubrk.h>
#include <unicode/utext.h>

#include <nlohmann/json.hpp>

#include <memory>

#include "ember/core/error.h"
#include "ember/text/sentencepiece/normalizer.h"
#include "ember/text/tokenizers/normalizers.h"
#include "ember/text/unicode.h"

namespace torch::text::tokenizers::detail {

namespace {

std::string base64_decode(const std::string& in, const std::string& source) {
  auto value = [](char c) {
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '+') return 62;
    if (c == '/') return 63;
    return -1;
  };
  std::string out;
  out.reserve(in.size() / 4 * 3);
  uint32_t acc = 0;
  int bits = 0;
  for (const char c : in) {
    if (c == '=') break;
    const int v = value(c);
    EMBER_CHECK(v >= 0, "Tokenizer.from_file: ", source, ": precompiled_charsmap is not base64");
    acc = (acc << 6) | static_cast<uint32_t>(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push_back(static_cast<char>((acc >> bits) & 0xFF));
    }
  }
  return out;
}

struct BreakIteratorCloser {
  void operator()(UBreakIterator* b) const { ubrk_close(b); }
};
struct UTextCloser {
  void operator()(UText* t) const { utext_close(t); }
};

// Note [Precompiled in tokenizers]
// The package walks extended grapheme clusters (ICU's character break
// iterator here): a cluster shorter than 6 bytes that starts with a rule is
// replaced whole by that rule's output, the *shortest* matching rule; any
// other cluster is rewritten one code point at a time. (sentencepiece itself
// takes the longest rule at every position, see ember/text/sentencepiece.)
// Each replacement keeps the range of the text it replaced.
class PrecompiledNormalizer final : public Normalizer {
 public:
  PrecompiledNormalizer(const std::string& blob, const std::string& source) : map_(blob, source) {}
  void normalize(NormalizedText& t) const override {
    if (map_.empty() || t.text.empty()) return;
    UErrorCode status = U_ZERO_ERROR;
    std::unique_ptr<UText, UTextCloser> ut(
        utext_openUTF8(nullptr, t.text.data(), static_cast<int64_t>(t.text.size()), &status));
    std::unique_ptr<UBreakIterator, BreakIteratorCloser> it(ubrk_open(UBRK_CHARACTER, "", nullptr, 0, &status));
    EMBER_CHECK(U_SUCCESS(status), "Tokenizer.encode: ICU break iterator failed (", u_errorName(status), ")");
    ubrk_setUText(it.get(), ut.get(), &status);
    EMBER_CHECK(U_SUCCESS(status), "Tokenizer.encode: ICU break iterator failed (", u_errorName(status), ")");
    NormalizedText out;
    const std::string_view text = t.text;
    int32_t b = ubrk_first(it.get());
    for (int32_t e = ubrk_next(it.get()); e != UBRK_DONE; b = e, e = ubrk_next(it.get())) {
      const auto gb = static_cast<size_t>(b), ge = static_cast<size_t>(e);
      const std::string_view grapheme = text.substr(gb, ge - gb);
      if (grapheme.size() < 6) {
        auto [len, norm] = map_.shortest_match(grapheme);
        if (len > 0) {
          out.append(norm, t.begin[gb], t.end[ge - 1]);
          continue;
        }
      }
      for (size_t i = gb; i < ge;) {
        const size_t n = std::min<size_t>(
            static_cast<size_t>(text::detail::utf8_length(static_cast<unsigned char>(text[i]))), ge - i);
        const std::string_view part = text.substr(i, n);
        auto [len, norm] = map_.shortest_match(part);
        out.append(len > 0 ? norm : part, t.begin[i], t.end[i + n - 1]);
        i += n;
      }
    }
    t = std::move(out);
  }

 private:
  sentencepiece::detail::CharsMap map_;
};

}  // namespace

std::unique_ptr<Normalizer> make_precompiled_normalizer(const nlohmann::json& j, const std::string& source) {
  EMBER_CHECK(j.contains("precompiled_charsmap") && j["precompiled_charsmap"].is_string(),
              "Tokenizer.from_file: ", source, ": Precompiled needs a base64 \"precompiled_charsmap\"");
  return std::make_unique<PrecompiledNormalizer>(base64_decode(j["precompiled_charsmap"].get<std::string>(), source),
                                                 source);
}

}  // namespace torch::text::tokenizers::detail
