#include "ember/text/tokenizers/decoders.h"

#include <nlohmann/json.hpp>

#include <utility>

#include "ember/core/error.h"
#include "ember/text/tokenizers/models.h"
#include "ember/text/unicode.h"

namespace torch::text::tokenizers::detail {
namespace {

void replace_all(std::string& s, std::string_view from, std::string_view to) {
  if (from.empty()) return;
  size_t pos = 0;
  while ((pos = s.find(from, pos)) != std::string::npos) {
    s.replace(pos, from.size(), to);
    pos += to.size();
  }
}

class ByteLevelDecoder final : public Decoder {
 public:
  void decode_chain(std::vector<std::string>& tokens) const override {
    // Tokens back to bytes (a token with a code point outside the byte
    // alphabet keeps its own UTF-8), then one lossy UTF-8 decode of them all.
    std::string bytes;
    for (const std::string& t : tokens) {
      std::string raw;
      bool ok = true;
      const char* p = t.data();
      const char* end = p + t.size();
      while (p < end) {
        int b = unicode_to_byte(text::detail::next_code_point(p));
        if (b < 0) {
          ok = false;
          break;
        }
        raw.push_back(static_cast<char>(b));
      }
      bytes += ok ? raw : t;
    }
    tokens.assign(1, text::detail::to_valid_utf8(bytes));
  }
};

class WordPieceDecoder final : public Decoder {
 public:
  WordPieceDecoder(std::string prefix, bool cleanup) : prefix_(std::move(prefix)), cleanup_(cleanup) {}
  void decode_chain(std::vector<std::string>& tokens) const override {
    for (size_t i = 0; i < tokens.size(); ++i) {
      std::string& t = tokens[i];
      if (i != 0) {
        if (!prefix_.empty() && t.compare(0, prefix_.size(), prefix_) == 0)
          t.erase(0, prefix_.size());
        else
          t = " " + t;
      }
      if (cleanup_) cleanup(t);
    }
  }
  static void cleanup(std::string& s) {
    replace_all(s, " .", ".");
    replace_all(s, " ?", "?");
    replace_all(s, " !", "!");
    replace_all(s, " ,", ",");
    replace_all(s, " ' ", "'");
    replace_all(s, " n't", "n't");
    replace_all(s, " 'm", "'m");
    replace_all(s, " do not", " don't");
    replace_all(s, " 's", "'s");
    replace_all(s, " 've", "'ve");
    replace_all(s, " 're", "'re");
  }

 private:
  std::string prefix_;
  bool cleanup_;
};

class BpeDecoder final : public Decoder {
 public:
  explicit BpeDecoder(std::string suffix) : suffix_(std::move(suffix)) {}
  void decode_chain(std::vector<std::string>& tokens) const override {
    for (size_t i = 0; i < tokens.size(); ++i) replace_all(tokens[i], suffix_, i + 1 == tokens.size() ? "" : " ");
  }

 private:
  std::string suffix_;
};

class FuseDecoder final : public Decoder {
 public:
  void decode_chain(std::vector<std::string>& tokens) const override {
    std::string all;
    for (const auto& t : tokens) all += t;
    tokens.assign(1, all);
  }
};

class StripDecoder final : public Decoder {
 public:
  StripDecoder(std::string content, size_t start, size_t stop)
      : content_(std::move(content)), start_(start), stop_(stop) {}
  void decode_chain(std::vector<std::string>& tokens) const override {
    for (std::string& t : tokens) {
      size_t b = 0;
      for (size_t k = 0; k < start_ && t.compare(b, content_.size(), content_) == 0 && !content_.empty(); ++k)
        b += content_.size();
      size_t e = t.size();
      for (size_t k = 0; k < stop_ && e >= b + content_.size() && !content_.empty() &&
                         t.compare(e - content_.size(), content_.size(), content_) == 0;
           ++k)
        e -= content_.size();
      t = t.substr(b, e - b);
    }
  }

 private:
  std::string content_;
  size_t start_, stop_;
};

class ReplaceDecoder final : public Decoder {
 public:
  ReplaceDecoder(std::string from, std::string to) : from_(std::move(from)), to_(std::move(to)) {}
  void decode_chain(std::vector<std::string>& tokens) const override {
    for (std::string& t : tokens) replace_all(t, from_, to_);
  }

 private:
  std::string from_, to_;
};

class SequenceDecoder final : public Decoder {
 public:
  explicit SequenceDecoder(std::vector<std::unique_ptr<Decoder>> parts) : parts_(std::move(parts)) {}
  void decode_chain(std::vector<std::string>& tokens) const override {
    for (const auto& d : parts_) d->decode_chain(tokens);
  }

 private:
  std::vector<std::unique_ptr<Decoder>> parts_;
};

}  // namespace

std::unique_ptr<Decoder> make_byte_level_decoder() { return std::make_unique<ByteLevelDecoder>(); }
std::unique_ptr<Decoder> make_wordpiece_decoder(std::string prefix, bool cleanup) {
  return std::make_unique<WordPieceDecoder>(std::move(prefix), cleanup);
}

namespace {

// ByteFallback: runs of <0xXX> tokens become the text their bytes spell, or
// one U+FFFD per byte when they are not valid UTF-8.
class ByteFallbackDecoder final : public Decoder {
 public:
  void decode_chain(std::vector<std::string>& tokens) const override {
    std::vector<std::string> out;
    std::string bytes;
    size_t n_bytes = 0;
    auto flush = [&] {
      if (n_bytes == 0) return;
      if (text::detail::is_valid_utf8(bytes))
        out.push_back(bytes);
      else
        for (size_t i = 0; i < n_bytes; ++i) out.emplace_back("\xef\xbf\xbd");
      bytes.clear();
      n_bytes = 0;
    };
    for (auto& t : tokens) {
      const int b = byte_of(t);
      if (b >= 0) {
        bytes.push_back(static_cast<char>(b));
        ++n_bytes;
        continue;
      }
      flush();
      out.push_back(std::move(t));
    }
    flush();
    tokens = std::move(out);
  }

 private:
  // Rust's u8::from_str_radix(&token[3..5], 16) on "<0x??>".
  static int byte_of(const std::string& t) {
    if (t.size() != 6 || t.compare(0, 3, "<0x") != 0 || t[5] != '>') return -1;
    auto hex = [](char c) {
      return c >= '0' && c <= '9'   ? c - '0'
             : c >= 'a' && c <= 'f' ? c - 'a' + 10
             : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                    : -1;
    };
    if (t[3] == '+') return hex(t[4]);
    const int hi = hex(t[3]), lo = hex(t[4]);
    return hi < 0 || lo < 0 ? -1 : hi * 16 + lo;
  }
};

// CTC: repeated tokens collapse, the pad token vanishes, and with cleanup the
// word delimiter reads as a space (after WordPiece's cleanup); empty tokens drop.
class CtcDecoder final : public Decoder {
 public:
  CtcDecoder(std::string pad, std::string delimiter, bool cleanup)
      : pad_(std::move(pad)), delimiter_(std::move(delimiter)), cleanup_(cleanup) {}
  void decode_chain(std::vector<std::string>& tokens) const override {
    std::vector<std::string> out;
    for (size_t i = 0; i < tokens.size(); ++i) {
      if (i > 0 && tokens[i] == tokens[i - 1]) continue;
      std::string t = tokens[i];
      if (!pad_.empty()) replace_all(t, pad_, "");
      if (cleanup_) {
        WordPieceDecoder::cleanup(t);
        if (!delimiter_.empty()) replace_all(t, delimiter_, " ");
      }
      if (!t.empty()) out.push_back(std::move(t));
    }
    tokens = std::move(out);
  }

 private:
  std::string pad_, delimiter_;
  bool cleanup_;
};

// Metaspace: the replacement reads as a space, except in the first token
// where it is dropped (unless prepend_scheme is never).
class MetaspaceDecoder final : public Decoder {
 public:
  MetaspaceDecoder(std::string replacement, bool prepends)
      : replacement_(std::move(replacement)), prepends_(prepends) {}
  void decode_chain(std::vector<std::string>& tokens) const override {
    if (replacement_.empty()) return;
    for (size_t i = 0; i < tokens.size(); ++i) {
      std::string out;
      const std::string& t = tokens[i];
      for (size_t pos = 0; pos < t.size();) {
        if (t.compare(pos, replacement_.size(), replacement_) == 0) {
          if (!(i == 0 && prepends_)) out.push_back(' ');
          pos += replacement_.size();
        } else {
          out.push_back(t[pos++]);
        }
      }
      tokens[i] = std::move(out);
    }
  }

 private:
  std::string replacement_;
  bool prepends_;
};

}  // namespace

std::unique_ptr<Decoder> decoder_from_json(const nlohmann::json& j, const std::string& source) {
  if (j.is_null()) return nullptr;
  EMBER_CHECK(j.is_object() && j.contains("type") && j["type"].is_string(), "Tokenizer.from_file: ", source,
              ": decoder must be an object with a \"type\"");
  const std::string type = j["type"].get<std::string>();
  if (type == "ByteLevel") return make_byte_level_decoder();
  if (type == "WordPiece")
    return make_wordpiece_decoder(j.value("prefix", std::string("##")), j.value("cleanup", true));
  if (type == "BPEDecoder") return std::make_unique<BpeDecoder>(j.value("suffix", std::string("</w>")));
  if (type == "Fuse") return std::make_unique<FuseDecoder>();
  if (type == "ByteFallback") return std::make_unique<ByteFallbackDecoder>();
  if (type == "CTC")
    return std::make_unique<CtcDecoder>(j.value("pad_token", std::string("<pad>")),
                                        j.value("word_delimiter_token", std::string("|")), j.value("cleanup", true));
  if (type == "Metaspace") {
    bool prepends = true;
    if (j.contains("prepend_scheme") && j["prepend_scheme"].is_string())
      prepends = j["prepend_scheme"].get<std::string>() != "never";
    else if (j.contains("add_prefix_space") && j["add_prefix_space"].is_boolean())
      prepends = j["add_prefix_space"].get<bool>();
    return std::make_unique<MetaspaceDecoder>(j.value("replacement", std::string("\xe2\x96\x81")), prepends);
  }
  if (type == "Strip") {
    int64_t start = j.value("start", int64_t{0}), stop = j.value("stop", int64_t{0});
    EMBER_CHECK(start >= 0 && stop >= 0, "Tokenizer.from_file: ", source, ": Strip decoder needs start, stop >= 0");
    return std::make_unique<StripDecoder>(j.value("content", std::string(" ")), static_cast<size_t>(start),
                                          static_cast<size_t>(stop));
  }
  if (type == "Replace") {
    EMBER_CHECK(j.contains("pattern") && j["pattern"].is_object() && j["pattern"].contains("String") &&
                    j["pattern"]["String"].is_string() && j.contains("content") && j["content"].is_string(),
                "Tokenizer.from_file: ", source, ": only Replace decoders with a String pattern are supported");
    return std::make_unique<ReplaceDecoder>(j["pattern"]["String"].get<std::string>(), j["content"].get<std::string>());
  }
  if (type == "Sequence") {
    EMBER_CHECK(j.contains("decoders") && j["decoders"].is_array(), "Tokenizer.from_file: ", source,
                ": Sequence decoder needs an array \"decoders\"");
    std::vector<std::unique_ptr<Decoder>> parts;
    for (const auto& d : j["decoders"]) {
      auto p = decoder_from_json(d, source);
      if (p) parts.push_back(std::move(p));
    }
    return std::make_unique<SequenceDecoder>(std::move(parts));
  }
  EMBER_ERROR("Tokenizer.from_file: ", source, ": unsupported decoder type '", type, "'");
}

}  // namespace torch::text::tokenizers::detail
