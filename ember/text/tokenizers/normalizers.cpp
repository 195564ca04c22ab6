#include "ember/text/tokenizers/normalizers.h"

#include <nlohmann/json.hpp>

#include <utility>
#include <vector>

#include "ember/core/error.h"
#include "ember/text/unicode.h"

namespace torch::text::tokenizers::detail {
namespace {

using text::detail::NormalizationForm;

// Rewrites t one code point at a time: f(cp, out) appends cp's replacement,
// which keeps cp's alignment.
template <typename F>
void transform_chars(NormalizedText& t, F&& f) {
  NormalizedText out;
  out.text.reserve(t.text.size());
  out.begin.reserve(t.text.size());
  out.end.reserve(t.text.size());
  std::string piece;
  const char* base = t.text.data();
  const char* p = base;
  const char* end = base + t.text.size();
  while (p < end) {
    size_t i = static_cast<size_t>(p - base);
    char32_t cp = text::detail::next_code_point(p);
    size_t j = static_cast<size_t>(p - base);
    piece.clear();
    f(cp, piece);
    out.append(piece, t.begin[i], t.end[j - 1]);
  }
  t = std::move(out);
}

bool is_chinese_char(char32_t c) {
  return (c >= 0x4E00 && c <= 0x9FFF) || (c >= 0x3400 && c <= 0x4DBF) || (c >= 0x20000 && c <= 0x2A6DF) ||
         (c >= 0x2A700 && c <= 0x2B73F) || (c >= 0x2B740 && c <= 0x2B81F) || (c >= 0x2B820 && c <= 0x2CEAF) ||
         (c >= 0xF900 && c <= 0xFAFF) || (c >= 0x2F800 && c <= 0x2FA1F);
}

void unicode_normalize(NormalizedText& t, NormalizationForm form) {
  // Each segment that starts at a normalization boundary is normalized on its
  // own; its output code points take the segment's whole original range.
  NormalizedText out;
  const char* base = t.text.data();
  const char* p = base;
  const char* end = base + t.text.size();
  size_t seg = 0;
  bool all_ascii = true;
  auto flush = [&](size_t from, size_t to) {
    if (from == to) return;
    std::string_view s(base + from, to - from);
    if (all_ascii) {
      for (size_t k = from; k < to; ++k) out.append(std::string_view(base + k, 1), t.begin[k], t.end[k]);
      return;
    }
    std::string whole = text::detail::normalize(s, form);
    if (form == NormalizationForm::NFD || form == NormalizationForm::NFKD) {
      // Decomposition keeps each code point's own alignment: decompose them
      // one at a time, then reorder combining marks canonically (a stable sort
      // by combining class), carrying the alignments along.
      struct Aligned {
        char32_t cp;
        uint32_t b, e;
      };
      std::vector<Aligned> cps;
      const char* q = s.data();
      const char* q_end = q + s.size();
      while (q < q_end) {
        const char* start = q;
        text::detail::next_code_point(q);
        size_t i = from + static_cast<size_t>(start - s.data());
        size_t j = from + static_cast<size_t>(q - s.data());
        std::string one = text::detail::normalize(std::string_view(start, static_cast<size_t>(q - start)), form);
        const char* r = one.data();
        while (r < one.data() + one.size()) cps.push_back({text::detail::next_code_point(r), t.begin[i], t.end[j - 1]});
      }
      for (size_t k = 0; k < cps.size();) {
        if (text::detail::combining_class(cps[k].cp) == 0) {
          ++k;
          continue;
        }
        size_t run = k;
        while (run < cps.size() && text::detail::combining_class(cps[run].cp) != 0) ++run;
        std::stable_sort(cps.begin() + static_cast<ptrdiff_t>(k), cps.begin() + static_cast<ptrdiff_t>(run),
                         [](const Aligned& x, const Aligned& y) {
                           return text::detail::combining_class(x.cp) < text::detail::combining_class(y.cp);
                         });
        k = run;
      }
      NormalizedText parts;
      std::string buf;
      for (const Aligned& a : cps) {
        buf.clear();
        text::detail::append_utf8(buf, a.cp);
        parts.append(buf, a.b, a.e);
      }
      if (parts.text == whole) {
        out.text += parts.text;
        out.begin.insert(out.begin.end(), parts.begin.begin(), parts.begin.end());
        out.end.insert(out.end.end(), parts.end.begin(), parts.end.end());
        return;
      }
    }
    out.append(whole, t.begin[from], t.end[to - 1]);
  };
  while (p < end) {
    size_t i = static_cast<size_t>(p - base);
    char32_t cp = text::detail::next_code_point(p);
    // ASCII never combines with what precedes it, in any of the four forms.
    if (i > seg && (cp < 0x80 || text::detail::has_boundary_before(cp, form))) {
      flush(seg, i);
      seg = i;
      all_ascii = true;
    }
    if (cp >= 0x80) all_ascii = false;
  }
  flush(seg, t.text.size());
  t = std::move(out);
}

void strip_marks(NormalizedText& t) {
  transform_chars(t, [](char32_t cp, std::string& out) {
    if (!text::detail::is_nonspacing_mark(cp)) text::detail::append_utf8(out, cp);
  });
}

void lowercase(NormalizedText& t) {
  transform_chars(t, [](char32_t cp, std::string& out) { text::detail::append_lowercase(out, cp); });
}

class BertNormalizer final : public Normalizer {
 public:
  BertNormalizer(bool clean, bool chinese, bool strip, bool lower)
      : clean_(clean), chinese_(chinese), strip_(strip), lower_(lower) {}
  // One pass, one code point at a time: clean, Chinese spacing, accent
  // stripping (NFD of the code point, marks dropped) and lowercasing each act
  // on a single code point, so fusing them gives the reference's output. (NFD
  // of a whole string may also reorder combining marks; stripping drops them.)
  void normalize(NormalizedText& t) const override {
    NormalizedText out;
    out.text.reserve(t.text.size() + 8);
    out.begin.reserve(t.text.size() + 8);
    out.end.reserve(t.text.size() + 8);
    std::string piece, stage;
    const char* base = t.text.data();
    const char* p = base;
    const char* end = base + t.text.size();
    while (p < end) {
      const size_t i = static_cast<size_t>(p - base);
      const unsigned char c0 = static_cast<unsigned char>(*p);
      if (c0 < 0x80) {
        ++p;
        char c = static_cast<char>(c0);
        if (clean_) {
          bool keep_control = c == '\t' || c == '\n' || c == '\r';
          if (c0 == 0 || ((c0 < 0x20 || c0 == 0x7F) && !keep_control)) continue;
          if (keep_control) c = ' ';  // VT and FF are controls (Cc): removed above
        }
        if (lower_ && c >= 'A' && c <= 'Z') c = static_cast<char>(c + 32);
        out.text.push_back(c);
        out.begin.push_back(t.begin[i]);
        out.end.push_back(t.end[i]);
        continue;
      }
      char32_t cp = text::detail::next_code_point(p);
      const size_t j = static_cast<size_t>(p - base);
      const uint32_t b = t.begin[i], e = t.end[j - 1];
      if (clean_) {
        if (cp == 0xFFFD || text::detail::is_other(cp)) continue;
        if (text::detail::is_whitespace(cp)) {
          out.append(" ", b, e);
          continue;
        }
      }
      const bool cjk = chinese_ && is_chinese_char(cp);
      if (cjk) out.append(" ", b, e);
      piece.clear();
      text::detail::append_utf8(piece, cp);
      if (strip_) {
        stage = text::detail::normalize(piece, NormalizationForm::NFD);
        piece.clear();
        for (const char* q = stage.data(); q < stage.data() + stage.size();) {
          char32_t d = text::detail::next_code_point(q);
          if (!text::detail::is_nonspacing_mark(d)) text::detail::append_utf8(piece, d);
        }
      }
      if (lower_) {
        stage.clear();
        for (const char* q = piece.data(); q < piece.data() + piece.size();)
          text::detail::append_lowercase(stage, text::detail::next_code_point(q));
        piece.swap(stage);
      }
      out.append(piece, b, e);
      if (cjk) out.append(" ", b, e);
    }
    t = std::move(out);
  }

 private:
  bool clean_, chinese_, strip_, lower_;
};

class FormNormalizer final : public Normalizer {
 public:
  explicit FormNormalizer(NormalizationForm f) : form_(f) {}
  void normalize(NormalizedText& t) const override { unicode_normalize(t, form_); }

 private:
  NormalizationForm form_;
};

class LowercaseNormalizer final : public Normalizer {
 public:
  void normalize(NormalizedText& t) const override { lowercase(t); }
};

class StripAccentsNormalizer final : public Normalizer {
 public:
  void normalize(NormalizedText& t) const override { strip_marks(t); }
};

class StripNormalizer final : public Normalizer {
 public:
  StripNormalizer(bool left, bool right) : left_(left), right_(right) {}
  void normalize(NormalizedText& t) const override {
    // Find the code-point boundaries of the leading/trailing whitespace.
    const char* base = t.text.data();
    const char* p = base;
    const char* end = base + t.text.size();
    size_t first = t.text.size(), last = 0;
    while (p < end) {
      size_t i = static_cast<size_t>(p - base);
      char32_t cp = text::detail::next_code_point(p);
      if (!text::detail::is_whitespace(cp)) {
        if (first == t.text.size()) first = i;
        last = static_cast<size_t>(p - base);
      }
    }
    if (first == t.text.size()) {
      if (left_ || right_) t.clear();
      return;
    }
    size_t b = left_ ? first : 0, e = right_ ? last : t.text.size();
    NormalizedText out;
    out.text = t.text.substr(b, e - b);
    out.begin.assign(t.begin.begin() + static_cast<ptrdiff_t>(b), t.begin.begin() + static_cast<ptrdiff_t>(e));
    out.end.assign(t.end.begin() + static_cast<ptrdiff_t>(b), t.end.begin() + static_cast<ptrdiff_t>(e));
    t = std::move(out);
  }

 private:
  bool left_, right_;
};

class PrependNormalizer final : public Normalizer {
 public:
  explicit PrependNormalizer(std::string s) : prepend_(std::move(s)) {}
  void normalize(NormalizedText& t) const override {
    if (t.text.empty()) return;
    NormalizedText out;
    out.append(prepend_, t.begin[0], t.end[0]);
    out.append(t.text, 0, 0);
    std::copy(t.begin.begin(), t.begin.end(), out.begin.begin() + static_cast<ptrdiff_t>(prepend_.size()));
    std::copy(t.end.begin(), t.end.end(), out.end.begin() + static_cast<ptrdiff_t>(prepend_.size()));
    t = std::move(out);
  }

 private:
  std::string prepend_;
};

class SequenceNormalizer final : public Normalizer {
 public:
  explicit SequenceNormalizer(std::vector<std::unique_ptr<Normalizer>> n) : parts_(std::move(n)) {}
  void normalize(NormalizedText& t) const override {
    for (const auto& n : parts_) n->normalize(t);
  }

 private:
  std::vector<std::unique_ptr<Normalizer>> parts_;
};

bool get_bool(const nlohmann::json& j, const char* key, bool def) {
  auto it = j.find(key);
  if (it == j.end() || it->is_null()) return def;
  return it->get<bool>();
}

}  // namespace

std::unique_ptr<Normalizer> make_bert_normalizer(bool clean_text, bool handle_chinese_chars, bool strip_accents,
                                                 bool lowercase) {
  return std::make_unique<BertNormalizer>(clean_text, handle_chinese_chars, strip_accents, lowercase);
}

std::unique_ptr<Normalizer> normalizer_from_json(const nlohmann::json& j, const std::string& source) {
  if (j.is_null()) return nullptr;
  EMBER_CHECK(j.is_object() && j.contains("type") && j["type"].is_string(), "Tokenizer.from_file: ", source,
              ": normalizer must be an object with a \"type\"");
  const std::string type = j["type"].get<std::string>();
  if (type == "BertNormalizer") {
    bool lower = get_bool(j, "lowercase", true);
    return make_bert_normalizer(get_bool(j, "clean_text", true), get_bool(j, "handle_chinese_chars", true),
                                get_bool(j, "strip_accents", lower), lower);
  }
  if (type == "Lowercase") return std::make_unique<LowercaseNormalizer>();
  if (type == "Precompiled") return make_precompiled_normalizer(j, source);
  if (type == "Replace") return make_replace_normalizer(j, source);
  if (type == "StripAccents") return std::make_unique<StripAccentsNormalizer>();
  if (type == "NFC") return std::make_unique<FormNormalizer>(NormalizationForm::NFC);
  if (type == "NFD") return std::make_unique<FormNormalizer>(NormalizationForm::NFD);
  if (type == "NFKC") return std::make_unique<FormNormalizer>(NormalizationForm::NFKC);
  if (type == "NFKD") return std::make_unique<FormNormalizer>(NormalizationForm::NFKD);
  if (type == "Strip")
    return std::make_unique<StripNormalizer>(get_bool(j, "strip_left", true), get_bool(j, "strip_right", true));
  if (type == "Prepend") {
    EMBER_CHECK(j.contains("prepend") && j["prepend"].is_string(), "Tokenizer.from_file: ", source,
                ": Prepend normalizer needs a string \"prepend\"");
    return std::make_unique<PrependNormalizer>(text::detail::to_valid_utf8(j["prepend"].get<std::string>()));
  }
  if (type == "Sequence") {
    EMBER_CHECK(j.contains("normalizers") && j["normalizers"].is_array(), "Tokenizer.from_file: ", source,
                ": Sequence normalizer needs an array \"normalizers\"");
    std::vector<std::unique_ptr<Normalizer>> parts;
    for (const auto& n : j["normalizers"]) {
      auto p = normalizer_from_json(n, source);
      if (p) parts.push_back(std::move(p));
    }
    return std::make_unique<SequenceNormalizer>(std::move(parts));
  }
  EMBER_ERROR("Tokenizer.from_file: ", source, ": unsupported normalizer type '", type, "'");
}

}  // namespace torch::text::tokenizers::detail
