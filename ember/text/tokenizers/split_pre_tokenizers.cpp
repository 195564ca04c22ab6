// tokenizers.pre_tokenizers Whitespace, Punctuation and Digits: splits by a
// per-character class with the tokenizers package's SplitDelimiterBehavior.
#include <unicode/uchar.h>
#include <unicode/uregex.h>
#include <unicode/utext.h>

#include <nlohmann/json.hpp>

#include <algorithm>

#include "ember/core/error.h"
#include "ember/text/tokenizers/pre_tokenizers.h"
#include "ember/text/unicode.h"

namespace torch::text::tokenizers::detail {

namespace {

enum class Behavior { Removed, Isolated, MergedWithPrevious, MergedWithNext, Contiguous };

Behavior behavior_from_json(const nlohmann::json& j, const char* def, const std::string& source) {
  const std::string b = j.contains("behavior") && j["behavior"].is_string() ? j["behavior"].get<std::string>() : def;
  if (b == "Removed") return Behavior::Removed;
  if (b == "Isolated") return Behavior::Isolated;
  if (b == "MergedWithPrevious") return Behavior::MergedWithPrevious;
  if (b == "MergedWithNext") return Behavior::MergedWithNext;
  if (b == "Contiguous") return Behavior::Contiguous;
  EMBER_ERROR("Tokenizer.from_file: ", source, ": unknown split behavior '", b, "'");
}

struct Piece {
  uint32_t begin, end;
  bool is_match;
};

// Rust's char predicates, through ICU.
bool is_rust_numeric(char32_t c) { return (U_GET_GC_MASK(static_cast<UChar32>(c)) & U_GC_N_MASK) != 0; }
bool is_punc(char32_t c) {
  const bool ascii_punct = c < 0x80 && ((c >= 0x21 && c <= 0x2F) || (c >= 0x3A && c <= 0x40) ||
                                        (c >= 0x5B && c <= 0x60) || (c >= 0x7B && c <= 0x7E));
  return ascii_punct || text::detail::is_punctuation(c);
}
// Rust regex \w and \s (Unicode).
bool is_word(char32_t c) {
  const auto u = static_cast<UChar32>(c);
  const uint32_t gc = U_GET_GC_MASK(u);
  return u_hasBinaryProperty(u, UCHAR_ALPHABETIC) || (gc & (U_GC_M_MASK | U_GC_ND_MASK | U_GC_PC_MASK)) != 0 ||
         u_hasBinaryProperty(u, UCHAR_JOIN_CONTROL);
}
bool is_space(char32_t c) { return u_hasBinaryProperty(static_cast<UChar32>(c), UCHAR_WHITE_SPACE); }

// The pattern's matches within [b, e): every matching character alone, and
// the runs between them (the package's find_matches for a char predicate).
template <typename Pred>
void char_matches(std::string_view text, uint32_t b, uint32_t e, Pred&& pred, std::vector<Piece>& out) {
  uint32_t last = b;
  for (uint32_t i = b; i < e;) {
    const char* p = text.data() + i;
    const char32_t c = text::detail::next_code_point(p);
    const auto next = static_cast<uint32_t>(p - text.data());
    if (pred(c)) {
      if (last < i) out.push_back({last, i, false});
      out.push_back({i, next, true});
      last = next;
    }
    i = next;
  }
  if (last < e) out.push_back({last, e, false});
}

void apply(Behavior behavior, const std::vector<Piece>& m, std::vector<Span>& out) {
  std::vector<Piece> acc;
  bool previous_match = false;
  switch (behavior) {
    case Behavior::Removed:
      for (const Piece& p : m)
        if (!p.is_match) acc.push_back(p);
      break;
    case Behavior::Isolated:
      acc = m;
      break;
    case Behavior::MergedWithPrevious:
      for (const Piece& p : m) {
        if (p.is_match && !previous_match && !acc.empty())
          acc.back().end = p.end;
        else
          acc.push_back(p);
        previous_match = p.is_match;
      }
      break;
    case Behavior::MergedWithNext:
      for (size_t k = m.size(); k-- > 0;) {
        const Piece& p = m[k];
        if (p.is_match && !previous_match && !acc.empty())
          acc.back().begin = p.begin;
        else
          acc.push_back(p);
        previous_match = p.is_match;
      }
      std::reverse(acc.begin(), acc.end());
      break;
    case Behavior::Contiguous:
      for (const Piece& p : m) {
        if (p.is_match == previous_match && !acc.empty())
          acc.back().end = p.end;
        else
          acc.push_back(p);
        previous_match = p.is_match;
      }
      break;
  }
  for (const Piece& p : acc)
    if (p.begin < p.end) out.push_back(Span{p.begin, p.end});
}

template <typename Pred>
class CharSplitPreTokenizer final : public PreTokenizer {
 public:
  CharSplitPreTokenizer(Pred pred, Behavior behavior) : pred_(pred), behavior_(behavior) {}
  void split(std::string_view text, std::vector<Span>& spans) const override {
    std::vector<Span> out;
    std::vector<Piece> m;
    for (const Span& s : spans) {
      m.clear();
      char_matches(text, s.begin, s.end, pred_, m);
      apply(behavior_, m, out);
    }
    spans = std::move(out);
  }

 private:
  Pred pred_;
  Behavior behavior_;
};

template <typename Pred>
std::unique_ptr<PreTokenizer> make_char_split(Pred pred, Behavior behavior) {
  return std::make_unique<CharSplitPreTokenizer<Pred>>(pred, behavior);
}

// Whitespace: the matches of \w+|[^\w\s]+; whitespace is dropped.
class WhitespacePreTokenizer final : public PreTokenizer {
 public:
  void split(std::string_view text, std::vector<Span>& spans) const override {
    std::vector<Span> out;
    for (const Span& s : spans) {
      int run = -1;  // 0: word run, 1: other run
      uint32_t start = s.begin;
      for (uint32_t i = s.begin; i < s.end;) {
        const char* p = text.data() + i;
        const char32_t c = text::detail::next_code_point(p);
        const auto next = static_cast<uint32_t>(p - text.data());
        const int kind = is_word(c) ? 0 : is_space(c) ? -1 : 1;
        if (kind != run) {
          if (run >= 0) out.push_back(Span{start, i});
          start = i;
          run = kind;
        }
        i = next;
      }
      if (run >= 0) out.push_back(Span{start, s.end});
    }
    spans = std::move(out);
  }
};

// Note [Regex time limit]
// A tokenizer.json is untrusted, and a pattern such as (a+)+$ backtracks exponentially on a
// long run of a's: each match step is bounded by ICU's time limit (in its match-engine steps,
// on the order of milliseconds each), so such a file raises instead of hanging encode. Patterns
// real tokenizers use finish in microseconds, far inside it.
constexpr int32_t kRegexTimeLimit = 2000;

struct RegexCloser {
  void operator()(URegularExpression* r) const { uregex_close(r); }
};
struct UTextCloser {
  void operator()(UText* t) const { utext_close(t); }
};

// Split(pattern, behavior, invert): the matches of a String or Regex pattern
// (ICU regular expressions over the UTF-8 text) and the text between them.
class SplitPreTokenizer final : public PreTokenizer {
 public:
  SplitPreTokenizer(std::string pattern, bool is_regex, Behavior behavior, bool invert, const std::string& source)
      : pattern_(std::move(pattern)), behavior_(behavior), invert_(invert) {
    if (!is_regex) return;
    UErrorCode status = U_ZERO_ERROR;
    UParseError where{};
    std::unique_ptr<UText, UTextCloser> p(
        utext_openUTF8(nullptr, pattern_.data(), static_cast<int64_t>(pattern_.size()), &status));
    regex_.reset(uregex_openUText(p.get(), 0, &where, &status));
    EMBER_CHECK(U_SUCCESS(status), "Tokenizer.from_file: ", source, ": Split regex '", pattern_, "' does not compile (",
                u_errorName(status), " at offset ", where.offset, ")");
  }
  void split(std::string_view text, std::vector<Span>& spans) const override {
    std::vector<Span> out;
    std::vector<Piece> m;
    std::unique_ptr<URegularExpression, RegexCloser> re;
    UErrorCode status = U_ZERO_ERROR;
    if (regex_) {
      re.reset(uregex_clone(regex_.get(), &status));
      uregex_setTimeLimit(re.get(), kRegexTimeLimit, &status);  // a clone does not keep the limit
    }
    for (const Span& s : spans) {
      m.clear();
      uint32_t prev = s.begin;
      auto add_match = [&](uint32_t b, uint32_t e) {
        if (prev != b) m.push_back({prev, b, invert_});
        m.push_back({b, e, !invert_});
        prev = e;
      };
      const std::string_view inside = text.substr(s.begin, s.end - s.begin);
      if (re) {
        std::unique_ptr<UText, UTextCloser> ut(
            utext_openUTF8(nullptr, inside.data(), static_cast<int64_t>(inside.size()), &status));
        uregex_setUText(re.get(), ut.get(), &status);
        while (U_SUCCESS(status) && uregex_findNext(re.get(), &status)) {
          const auto b = static_cast<uint32_t>(uregex_start64(re.get(), 0, &status));
          const auto e = static_cast<uint32_t>(uregex_end64(re.get(), 0, &status));
          add_match(s.begin + b, s.begin + e);
        }
        EMBER_CHECK(U_SUCCESS(status), "Tokenizer.encode: Split regex '", pattern_, "' failed (", u_errorName(status),
                    status == U_REGEX_TIME_OUT ? ": it backtracks without end on this input)" : ")");
      } else if (!pattern_.empty()) {
        for (size_t p = inside.find(pattern_); p != std::string_view::npos;
             p = inside.find(pattern_, p + pattern_.size()))
          add_match(s.begin + static_cast<uint32_t>(p), s.begin + static_cast<uint32_t>(p + pattern_.size()));
      }
      if (prev != s.end) m.push_back({prev, s.end, invert_});
      apply(behavior_, m, out);
    }
    spans = std::move(out);
  }

 private:
  std::string pattern_;
  Behavior behavior_;
  bool invert_;
  std::unique_ptr<URegularExpression, RegexCloser> regex_;
};

}  // namespace

std::unique_ptr<PreTokenizer> split_pre_tokenizer_from_json(const nlohmann::json& j, const std::string& type,
                                                            const std::string& source) {
  if (type == "Whitespace") return std::make_unique<WhitespacePreTokenizer>();
  if (type == "Split") {
    EMBER_CHECK(j.contains("pattern") && j["pattern"].is_object(), "Tokenizer.from_file: ", source,
                ": Split needs a \"pattern\" object");
    const auto& p = j["pattern"];
    const bool is_regex = p.contains("Regex");
    const char* key = is_regex ? "Regex" : "String";
    EMBER_CHECK(p.contains(key) && p[key].is_string(), "Tokenizer.from_file: ", source,
                ": Split pattern must be {\"String\": ...} or {\"Regex\": ...}");
    const bool invert = j.contains("invert") && j["invert"].is_boolean() && j["invert"].get<bool>();
    return std::make_unique<SplitPreTokenizer>(text::detail::to_valid_utf8(p[key].get<std::string>()), is_regex,
                                               behavior_from_json(j, "Isolated", source), invert, source);
  }
  if (type == "Punctuation") return make_char_split(is_punc, behavior_from_json(j, "Isolated", source));
  if (type == "Digits") {
    const bool individual =
        j.contains("individual_digits") && j["individual_digits"].is_boolean() && j["individual_digits"].get<bool>();
    return make_char_split(is_rust_numeric, individual ? Behavior::Isolated : Behavior::Contiguous);
  }
  return nullptr;
}

}  // namespace torch::text::tokenizers::detail
