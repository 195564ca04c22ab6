#include "ember/text/tokenizers/pre_tokenizers.h"

#include <nlohmann/json.hpp>

#include <utility>

#include "ember/core/error.h"
#include "ember/text/unicode.h"

namespace torch::text::tokenizers::detail {
namespace {

using text::detail::char_class;
using text::detail::CharClass;

struct Decoded {
  char32_t cp;
  uint32_t next;
  CharClass cls;
};

inline Decoded decode_at(std::string_view text, uint32_t i) {
  unsigned char c = static_cast<unsigned char>(text[i]);
  if (c < 0x80) {
    // ASCII: \s is \t\n\v\f\r and space; letters and digits as usual.
    CharClass k = ((c | 0x20) >= 'a' && (c | 0x20) <= 'z') ? text::detail::kLetter
                  : (c >= '0' && c <= '9')                 ? text::detail::kNumber
                  : (c == ' ' || (c >= 9 && c <= 13))      ? text::detail::kSpace
                                                           : text::detail::kOther;
    return {c, i + 1, k};
  }
  const char* p = text.data() + i;
  char32_t cp = text::detail::next_code_point(p);
  return {cp, static_cast<uint32_t>(p - text.data()), char_class(cp)};
}

class ByteLevelPreTokenizer final : public PreTokenizer {
 public:
  ByteLevelPreTokenizer(bool prefix, bool regex) : prefix_(prefix), regex_(regex) {}
  void split(std::string_view text, std::vector<Span>& spans) const override {
    if (!regex_) return;
    if (spans.size() == 1) {  // the usual case: split in place, keeping the buffer
      const Span s = spans[0];
      spans.clear();
      gpt2_split(text, s.begin, s.end, spans);
      return;
    }
    std::vector<Span> out;
    out.reserve(spans.size() * 2 + text.size() / 4);
    for (const Span& s : spans) gpt2_split(text, s.begin, s.end, out);
    spans = std::move(out);
  }
  bool adds_prefix_space() const override { return prefix_; }
  bool is_byte_level() const override { return true; }

 private:
  bool prefix_, regex_;
};

bool is_bert_punctuation(char32_t c) {
  if (c < 0x80) return (c >= 33 && c <= 47) || (c >= 58 && c <= 64) || (c >= 91 && c <= 96) || (c >= 123 && c <= 126);
  return text::detail::is_punctuation(c);
}

// Splits on whitespace (removed) and, when `punct`, isolates every punctuation character.
void split_whitespace_punct(std::string_view text, std::vector<Span>& spans, bool punct) {
  std::vector<Span> out, in;
  Span single{0, 0};
  const Span* first = &single;
  const Span* last = first + 1;
  if (spans.size() == 1) {
    single = spans[0];
    spans.clear();
    out.swap(spans);  // the usual case: the caller's buffer takes the result
  } else {
    in = std::move(spans);
    first = in.data();
    last = first + in.size();
  }
  out.reserve(static_cast<size_t>(last - first) + text.size() / 4);
  for (const Span* it = first; it != last; ++it) {
    const Span& s = *it;
    uint32_t word = s.begin;
    uint32_t i = s.begin;
    while (i < s.end) {
      Decoded d = decode_at(text, i);
      if (d.cls == text::detail::kSpace) {
        if (word < i) out.push_back({word, i});
        word = d.next;
      } else if (punct && is_bert_punctuation(d.cp)) {
        if (word < i) out.push_back({word, i});
        out.push_back({i, d.next});
        word = d.next;
      }
      i = d.next;
    }
    if (word < s.end) out.push_back({word, s.end});
  }
  spans = std::move(out);
}

class BertPreTokenizer final : public PreTokenizer {
 public:
  void split(std::string_view text, std::vector<Span>& spans) const override {
    split_whitespace_punct(text, spans, true);
  }
};

class WhitespaceSplitPreTokenizer final : public PreTokenizer {
 public:
  void split(std::string_view text, std::vector<Span>& spans) const override {
    split_whitespace_punct(text, spans, false);
  }
};

// Metaspace(replacement, prepend_scheme, split): spaces become the
// replacement; "always" prepends it (unless present), "first" only at the
// start of the input; split cuts before every replacement.
class MetaspacePreTokenizer final : public PreTokenizer {
 public:
  MetaspacePreTokenizer(std::string replacement, std::string prepend_scheme, bool split)
      : replacement_(std::move(replacement)), scheme_(std::move(prepend_scheme)), split_(split) {}
  bool rewrites_text() const override { return true; }
  void rewrite(NormalizedText& nt, bool first_segment) const override {
    if (nt.text.empty()) return;
    NormalizedText out;
    for (size_t i = 0; i < nt.text.size(); ++i) {
      if (nt.text[i] == ' ')
        out.append(replacement_, nt.begin[i], nt.end[i]);
      else
        out.append(std::string_view(&nt.text[i], 1), nt.begin[i], nt.end[i]);
    }
    // The prefix is judged after the spaces are replaced, and aligned with the first character.
    const bool prepend = (scheme_ == "always" || (scheme_ == "first" && first_segment)) &&
                         std::string_view(out.text).substr(0, replacement_.size()) != replacement_;
    if (prepend) {
      NormalizedText prefixed;
      prefixed.append(replacement_, out.begin[0], out.end[0]);
      prefixed.text += out.text;
      prefixed.begin.insert(prefixed.begin.end(), out.begin.begin(), out.begin.end());
      prefixed.end.insert(prefixed.end.end(), out.end.begin(), out.end.end());
      out = std::move(prefixed);
    }
    nt = std::move(out);
  }
  void split(std::string_view text, std::vector<Span>& spans) const override {
    if (!split_ || replacement_.empty()) return;
    std::vector<Span> out;
    for (const Span& s : spans) {
      uint32_t begin = s.begin;
      for (size_t pos = text.find(replacement_, s.begin + 1); pos != std::string_view::npos && pos < s.end;
           pos = text.find(replacement_, pos + 1)) {
        out.push_back(Span{begin, static_cast<uint32_t>(pos)});
        begin = static_cast<uint32_t>(pos);
      }
      out.push_back(Span{begin, s.end});
    }
    spans = std::move(out);
  }

 private:
  std::string replacement_, scheme_;
  bool split_;
};

class SequencePreTokenizer final : public PreTokenizer {
 public:
  explicit SequencePreTokenizer(std::vector<std::unique_ptr<PreTokenizer>> parts) : parts_(std::move(parts)) {}
  void split(std::string_view text, std::vector<Span>& spans) const override {
    for (const auto& p : parts_) p->split(text, spans);
  }
  bool adds_prefix_space() const override { return !parts_.empty() && parts_.front()->adds_prefix_space(); }
  bool is_byte_level() const override {
    for (const auto& p : parts_)
      if (p->is_byte_level()) return true;
    return false;
  }
  bool rewrites_text() const override {
    for (const auto& p : parts_)
      if (p->rewrites_text()) return true;
    return false;
  }
  void rewrite(NormalizedText& text, bool first_segment) const override {
    for (const auto& p : parts_) p->rewrite(text, first_segment);
  }

 private:
  std::vector<std::unique_ptr<PreTokenizer>> parts_;
};

bool get_bool(const nlohmann::json& j, const char* key, bool def) {
  auto it = j.find(key);
  if (it == j.end() || it->is_null()) return def;
  return it->get<bool>();
}

}  // namespace

void gpt2_split(std::string_view text, uint32_t b, uint32_t e, std::vector<Span>& out) {
  uint32_t i = b;
  while (i < e) {
    unsigned char c0 = static_cast<unsigned char>(text[i]);
    // 's|'t|'re|'ve|'m|'ll|'d (case-sensitive, ASCII apostrophe).
    if (c0 == '\'' && i + 1 < e) {
      char c1 = text[i + 1];
      if (c1 == 's' || c1 == 't' || c1 == 'm' || c1 == 'd') {
        out.push_back({i, i + 2});
        i += 2;
        continue;
      }
      if (i + 2 < e) {
        char c2 = text[i + 2];
        if ((c1 == 'r' && c2 == 'e') || (c1 == 'v' && c2 == 'e') || (c1 == 'l' && c2 == 'l')) {
          out.push_back({i, i + 3});
          i += 3;
          continue;
        }
      }
    }
    Decoded d0 = decode_at(text, i);
    // ` ?\p{L}+ | ?\p{N}+ | ?[^\s\p{L}\p{N}]+`: an optional ASCII space, then a run of one class.
    uint32_t run = i;
    CharClass cls = d0.cls;
    if (c0 == ' ' && d0.next < e) {
      Decoded d1 = decode_at(text, d0.next);
      if (d1.cls != text::detail::kSpace) {
        run = d0.next;
        cls = d1.cls;
      }
    }
    if (cls != text::detail::kSpace) {
      uint32_t p = run;
      while (p < e) {
        Decoded d = decode_at(text, p);
        if (d.cls != cls) break;
        p = d.next;
      }
      out.push_back({i, p});
      i = p;
      continue;
    }
    // `\s+(?!\S)|\s+`: a whitespace run, minus its last character when a
    // non-space follows and the run is longer than one character.
    uint32_t q = i, last = i;
    while (q < e) {
      Decoded d = decode_at(text, q);
      if (d.cls != text::detail::kSpace) break;
      last = q;
      q = d.next;
    }
    if (q < e && last > i) q = last;
    out.push_back({i, q});
    i = q;
  }
}

std::unique_ptr<PreTokenizer> make_byte_level_pre_tokenizer(bool add_prefix_space, bool use_regex) {
  return std::make_unique<ByteLevelPreTokenizer>(add_prefix_space, use_regex);
}

std::unique_ptr<PreTokenizer> make_bert_pre_tokenizer() { return std::make_unique<BertPreTokenizer>(); }

std::unique_ptr<PreTokenizer> pre_tokenizer_from_json(const nlohmann::json& j, const std::string& source) {
  if (j.is_null()) return nullptr;
  EMBER_CHECK(j.is_object() && j.contains("type") && j["type"].is_string(), "Tokenizer.from_file: ", source,
              ": pre_tokenizer must be an object with a \"type\"");
  const std::string type = j["type"].get<std::string>();
  if (type == "ByteLevel")
    return make_byte_level_pre_tokenizer(get_bool(j, "add_prefix_space", true), get_bool(j, "use_regex", true));
  if (type == "BertPreTokenizer") return make_bert_pre_tokenizer();
  if (type == "WhitespaceSplit") return std::make_unique<WhitespaceSplitPreTokenizer>();
  if (auto p = split_pre_tokenizer_from_json(j, type, source)) return p;
  if (type == "Metaspace") {
    std::string scheme = j.contains("prepend_scheme") && j["prepend_scheme"].is_string()
                             ? j["prepend_scheme"].get<std::string>()
                             : (get_bool(j, "add_prefix_space", true) ? "always" : "never");
    EMBER_CHECK(scheme == "always" || scheme == "first" || scheme == "never", "Tokenizer.from_file: ", source,
                ": Metaspace prepend_scheme '", scheme, "' is not always, first or never");
    const std::string replacement = j.value("replacement", std::string("\xe2\x96\x81"));
    EMBER_CHECK(text::detail::is_valid_utf8(replacement) && text::detail::count_code_points(replacement) == 1,
                "Tokenizer.from_file: ", source, ": Metaspace replacement '", replacement, "' is not one character");
    return std::make_unique<MetaspacePreTokenizer>(replacement, scheme, get_bool(j, "split", true));
  }
  if (type == "Sequence") {
    EMBER_CHECK(j.contains("pretokenizers") && j["pretokenizers"].is_array(), "Tokenizer.from_file: ", source,
                ": Sequence pre_tokenizer needs an array \"pretokenizers\"");
    std::vector<std::unique_ptr<PreTokenizer>> parts;
    for (const auto& p : j["pretokenizers"]) {
      auto q = pre_tokenizer_from_json(p, source);
      if (q) parts.push_back(std::move(q));
    }
    return std::make_unique<SequencePreTokenizer>(std::move(parts));
  }
  EMBER_ERROR("Tokenizer.from_file: ", source, ": unsupported pre_tokenizer type '", type, "'");
}

}  // namespace torch::text::tokenizers::detail
