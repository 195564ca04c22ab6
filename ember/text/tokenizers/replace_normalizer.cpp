// tokenizers.normalizers.Replace: every non-overlapping match of a string or
// a regex (ICU's regular expressions, run over the UTF-8 text) replaced by
// `content`, aligned (as the reference aligns it) with the last character of
// the text it replaced.
#include <unicode/uregex.h>
#include <unicode/utext.h>

#include <nlohmann/json.hpp>

#include <memory>
#include <mutex>

#include "ember/core/error.h"
#include "ember/text/tokenizers/normalizers.h"
#include "ember/text/unicode.h"

namespace torch::text::tokenizers::detail {

namespace {

// The time limit of Note [Regex time limit] (split_pre_tokenizers.cpp).
constexpr int32_t kRegexTimeLimit = 2000;

struct RegexCloser {
  void operator()(URegularExpression* r) const { uregex_close(r); }
};
struct UTextCloser {
  void operator()(UText* t) const { utext_close(t); }
};

class ReplaceNormalizer final : public Normalizer {
 public:
  ReplaceNormalizer(std::string pattern, bool is_regex, std::string content, const std::string& source)
      : pattern_(std::move(pattern)), content_(std::move(content)) {
    if (!is_regex) return;
    UErrorCode status = U_ZERO_ERROR;
    UParseError where{};
    std::unique_ptr<UText, UTextCloser> p(
        utext_openUTF8(nullptr, pattern_.data(), static_cast<int64_t>(pattern_.size()), &status));
    regex_.reset(uregex_openUText(p.get(), 0, &where, &status));
    EMBER_CHECK(U_SUCCESS(status), "Tokenizer.from_file: ", source, ": Replace regex '", pattern_,
                "' does not compile (", u_errorName(status), " at offset ", where.offset, ")");
  }

  void normalize(NormalizedText& t) const override {
    std::vector<std::pair<size_t, size_t>> matches;
    if (regex_) {
      // A compiled pattern is not re-entrant: each call matches with its own clone.
      UErrorCode status = U_ZERO_ERROR;
      std::unique_ptr<URegularExpression, RegexCloser> re(uregex_clone(regex_.get(), &status));
      uregex_setTimeLimit(re.get(), kRegexTimeLimit, &status);  // a clone does not keep the limit
      std::unique_ptr<UText, UTextCloser> ut(
          utext_openUTF8(nullptr, t.text.data(), static_cast<int64_t>(t.text.size()), &status));
      uregex_setUText(re.get(), ut.get(), &status);
      EMBER_CHECK(U_SUCCESS(status), "Tokenizer.encode: Replace regex failed (", u_errorName(status), ")");
      while (uregex_findNext(re.get(), &status) && U_SUCCESS(status)) {
        const auto b = static_cast<size_t>(uregex_start64(re.get(), 0, &status));
        const auto e = static_cast<size_t>(uregex_end64(re.get(), 0, &status));
        if (e > b) matches.emplace_back(b, e);
      }
      EMBER_CHECK(U_SUCCESS(status), "Tokenizer.encode: Replace regex '", pattern_, "' failed (", u_errorName(status),
                  status == U_REGEX_TIME_OUT ? ": it backtracks without end on this input)" : ")");
    } else if (!pattern_.empty()) {
      for (size_t p = t.text.find(pattern_); p != std::string::npos; p = t.text.find(pattern_, p + pattern_.size()))
        matches.emplace_back(p, p + pattern_.size());
    }
    if (matches.empty()) return;
    NormalizedText out;
    size_t at = 0;
    for (const auto& [b, e] : matches) {
      for (size_t k = at; k < b; ++k) out.append(std::string_view(&t.text[k], 1), t.begin[k], t.end[k]);
      // The reference aligns the replacement with the match's last character.
      size_t last = e - 1;
      while (last > b && text::detail::is_continuation_byte(static_cast<unsigned char>(t.text[last]))) --last;
      out.append(content_, t.begin[last], t.end[e - 1]);
      at = e;
    }
    for (size_t k = at; k < t.text.size(); ++k) out.append(std::string_view(&t.text[k], 1), t.begin[k], t.end[k]);
    t = std::move(out);
  }

 private:
  std::string pattern_, content_;
  std::unique_ptr<URegularExpression, RegexCloser> regex_;
};

}  // namespace

std::unique_ptr<Normalizer> make_replace_normalizer(const nlohmann::json& j, const std::string& source) {
  EMBER_CHECK(j.contains("pattern") && j["pattern"].is_object() && j.contains("content") && j["content"].is_string(),
              "Tokenizer.from_file: ", source, ": Replace needs a \"pattern\" object and a string \"content\"");
  const auto& p = j["pattern"];
  const bool is_regex = p.contains("Regex");
  const char* key = is_regex ? "Regex" : "String";
  EMBER_CHECK(p.contains(key) && p[key].is_string(), "Tokenizer.from_file: ", source,
              ": Replace pattern must be {\"String\": ...} or {\"Regex\": ...}");
  return std::make_unique<ReplaceNormalizer>(text::detail::to_valid_utf8(p[key].get<std::string>()), is_regex,
                                             text::detail::to_valid_utf8(j["content"].get<std::string>()), source);
}

}  // namespace torch::text::tokenizers::detail
