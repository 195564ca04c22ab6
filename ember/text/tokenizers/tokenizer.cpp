#include "ember/text/tokenizers/tokenizer.h"

#include <nlohmann/json.hpp>

#include <malloc.h>

#include <algorithm>
#include <exception>

#include "ember/core/error.h"
#include "ember/core/parallel.h"
#include "ember/text/tokenizers/tokenizer_parts.h"
#include "ember/text/unicode.h"

namespace torch::text::tokenizers {

using detail::NormalizedText;
using detail::Segment;
using detail::Span;
using detail::TokenizerParts;
using detail::WordCache;
using detail::WordToken;

namespace {

constexpr int kMaxJsonDepth = 64;

// Deepest [ / { nesting outside strings, so nlohmann's recursive parser never
// sees input deep enough to exhaust the stack.
int json_depth(std::string_view s) {
  int depth = 0, max_depth = 0;
  bool in_string = false;
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (in_string) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      max_depth = std::max(max_depth, ++depth);
      if (max_depth > kMaxJsonDepth) return max_depth;
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return max_depth;
}

std::string direction_name(const nlohmann::json& j, const char* key, const std::string& source) {
  std::string d = j.value(key, std::string("Right"));
  std::transform(d.begin(), d.end(), d.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  EMBER_CHECK(d == "right" || d == "left", "Tokenizer.from_file: ", source, ": ", key, " must be Left or Right, got '",
              d, "'");
  return d;
}

AddedToken added_token_from_json(const nlohmann::json& t, const std::string& source) {
  EMBER_CHECK(t.is_object() && t.contains("content") && t["content"].is_string(), "Tokenizer.from_file: ", source,
              ": an added token needs a string \"content\"");
  AddedToken a;
  a.content = t["content"].get<std::string>();
  EMBER_CHECK(!a.content.empty() && text::detail::is_valid_utf8(a.content), "Tokenizer.from_file: ", source,
              ": an added token's content must be non-empty UTF-8");
  a.single_word = t.value("single_word", false);
  a.lstrip = t.value("lstrip", false);
  a.rstrip = t.value("rstrip", false);
  a.normalized = t.value("normalized", true);
  a.special = t.value("special", false);
  return a;
}

}  // namespace

Tokenizer::Tokenizer(std::unique_ptr<TokenizerParts> parts) : parts_(std::move(parts)) {}
Tokenizer::Tokenizer(Tokenizer&&) noexcept = default;
Tokenizer& Tokenizer::operator=(Tokenizer&&) noexcept = default;
Tokenizer::~Tokenizer() = default;

Tokenizer Tokenizer::from_file(const std::string& path) {
  std::string bytes = detail::read_file(path, "Tokenizer.from_file");
  try {
    Tokenizer tok = from_buffer(bytes);
    bytes = std::string();
#if defined(__GLIBC__)
    // The parsed JSON document (many small nodes, several times the file's
    // size) is freed by now; glibc keeps such memory resident unless asked.
    malloc_trim(0);
#endif
    return tok;
  } catch (const Error& e) {
    EMBER_ERROR("Tokenizer.from_file: ", path, ": ", e.what_without_backtrace());
  }
}

Tokenizer Tokenizer::from_str(const std::string& json) { return from_buffer(json); }

Tokenizer Tokenizer::from_buffer(std::string_view bytes) {
  const std::string source = "<tokenizer.json>";
  EMBER_CHECK(json_depth(bytes) <= kMaxJsonDepth, "Tokenizer.from_file: ", source, ": JSON nests deeper than ",
              kMaxJsonDepth, " levels");
  nlohmann::json j = nlohmann::json::parse(bytes.begin(), bytes.end(), nullptr, /*allow_exceptions=*/false);
  EMBER_CHECK(!j.is_discarded(), "Tokenizer.from_file: ", source, ": not well-formed JSON");
  EMBER_CHECK(j.is_object(), "Tokenizer.from_file: ", source, ": the top level must be a JSON object");
  EMBER_CHECK(j.contains("model"), "Tokenizer.from_file: ", source, ": no \"model\"");
  auto parts = std::make_unique<TokenizerParts>();
  try {
    parts->model = detail::model_from_json(j["model"], source);
    parts->normalizer = detail::normalizer_from_json(j.value("normalizer", nlohmann::json()), source);
    parts->pre_tokenizer = detail::pre_tokenizer_from_json(j.value("pre_tokenizer", nlohmann::json()), source);
    parts->post_processor = detail::post_processor_from_json(j.value("post_processor", nlohmann::json()), source);
    parts->decoder = detail::decoder_from_json(j.value("decoder", nlohmann::json()), source);
    if (j.contains("added_tokens") && !j["added_tokens"].is_null()) {
      EMBER_CHECK(j["added_tokens"].is_array(), "Tokenizer.from_file: ", source, ": added_tokens must be an array");
      for (const auto& t : j["added_tokens"]) {
        AddedToken a = added_token_from_json(t, source);
        EMBER_CHECK(t.contains("id") && t["id"].is_number_integer() && t["id"].get<int64_t>() >= 0,
                    "Tokenizer.from_file: ", source, ": added token '", a.content, "' needs an id >= 0");
        parts->added.add(a, t["id"].get<int64_t>());
      }
    }
  } catch (const nlohmann::json::exception& e) {
    EMBER_ERROR("Tokenizer.from_file: ", source, ": unexpected JSON value: ", e.what());
  }
  parts->finish();
  Tokenizer tok(std::move(parts));
  try {
    if (j.contains("truncation") && !j["truncation"].is_null()) {
      const auto& t = j["truncation"];
      EMBER_CHECK(t.is_object(), "Tokenizer.from_file: ", source, ": truncation must be an object");
      std::string strategy = t.value("strategy", std::string("LongestFirst"));
      std::string s = strategy == "LongestFirst" ? "longest_first"
                      : strategy == "OnlyFirst"  ? "only_first"
                      : strategy == "OnlySecond" ? "only_second"
                                                 : "";
      EMBER_CHECK(!s.empty(), "Tokenizer.from_file: ", source, ": unknown truncation strategy '", strategy, "'");
      tok.enable_truncation(t.value("max_length", int64_t{512}), t.value("stride", int64_t{0}), s,
                            direction_name(t, "direction", source));
    }
    if (j.contains("padding") && !j["padding"].is_null()) {
      const auto& p = j["padding"];
      EMBER_CHECK(p.is_object(), "Tokenizer.from_file: ", source, ": padding must be an object");
      std::optional<int64_t> length;
      if (p.contains("strategy") && p["strategy"].is_object() && p["strategy"].contains("Fixed"))
        length = p["strategy"]["Fixed"].get<int64_t>();
      std::optional<int64_t> multiple;
      if (p.contains("pad_to_multiple_of") && !p["pad_to_multiple_of"].is_null())
        multiple = p["pad_to_multiple_of"].get<int64_t>();
      tok.enable_padding(direction_name(p, "direction", source), p.value("pad_id", int64_t{0}),
                         p.value("pad_type_id", int64_t{0}), p.value("pad_token", std::string("[PAD]")), length,
                         multiple);
    }
  } catch (const nlohmann::json::exception& e) {
    EMBER_ERROR("Tokenizer.from_file: ", source, ": unexpected JSON value: ", e.what());
  }
  return tok;
}

namespace {

// The word cache's entries are scattered over a table larger than the
// nearest caches: loading all of a text's entries before the first lookup
// overlaps their latencies (Note [Word cache]).
void prefetch_words(const WordCache* cache, std::string_view text, const std::vector<Span>& spans) {
  if (!cache) return;
  for (const Span& s : spans) cache->prefetch(text.substr(s.begin, s.end - s.begin));
}

}  // namespace

// Note [Tokenizer speed]
// No regex engine: the pre-tokenizers are hand-written state machines over
// code points, with an ICU-derived class table for the BMP (the GPT-2 scanner
// is checked against ICU running the pattern, tokenizers_fastpath_test.cpp).
// The vocabulary, the merge ranks and WordPiece's prefix trie are flat
// open-addressing tables. BPE merges a short word in stack arrays of its
// adjacent pairs' ranks (a heap for long words). Words go through a per-thread
// cache (Note [Word cache]) whose entries for a text are prefetched first. The
// encoding refers to the vocabulary instead of copying token strings (Note
// [Compact encoding]), its uniform fields are filled in bulk, and the
// encoder's buffers are reused. Without a normalizer offsets come from one
// forward cursor (Note [Identity alignment]).
Encoding Tokenizer::encode_single(std::string_view raw, int64_t type_id, WordCache* cache) const {
  std::string repaired;
  std::string_view text = raw;
  if (!text::detail::is_valid_utf8(raw)) {
    repaired = text::detail::to_valid_utf8(raw);
    text = repaired;
  }
  EMBER_CHECK(text.size() < (size_t{1} << 32), "Tokenizer.encode: input of ", text.size(),
              " bytes is larger than 4 GiB");
  const TokenizerParts& p = *parts_;
  std::vector<Segment> local_segments;
  std::vector<Span> local_spans;
  std::vector<WordToken> local_toks;
  std::vector<Segment>& segments = cache ? cache->segments : local_segments;
  std::vector<Span>& spans = cache ? cache->spans : local_spans;
  std::vector<WordToken>& toks = cache ? cache->tokens : local_toks;
  segments.clear();
  if (p.added.empty())
    segments.push_back({0, static_cast<uint32_t>(text.size()), -1});
  else
    p.added.split(text, segments);

  Encoding enc;
  enc.set_vocabulary(p.model->token_table());
  // Untouched capacity costs no memory; regrowing a large encoding costs a copy.
  enc.reserve(text.size() / 4 + 4);
  uint32_t cursor = 0, chars = 0;  // chars = code points before byte `cursor`
  auto advance_to = [&](uint32_t byte) {
    for (; cursor < byte; ++cursor)
      chars += !text::detail::is_continuation_byte(static_cast<unsigned char>(text[cursor]));
  };
  int64_t word = 0;
  const bool prefix_space = p.pre_tokenizer && p.pre_tokenizer->adds_prefix_space();
  for (const Segment& seg : segments) {
    if (seg.begin == seg.end) continue;
    advance_to(seg.begin);
    const uint32_t first_char = chars;
    if (seg.token >= 0) {
      advance_to(seg.end);
      // The token reads as the matched text, lstrip/rstrip whitespace included.
      enc.push_back_text(seg.token, std::string(text.substr(seg.begin, seg.end - seg.begin)),
                         Offsets{first_char, chars}, word++);
      continue;
    }
    const std::string_view seg_text = text.substr(seg.begin, seg.end - seg.begin);
    const bool rewrites = p.pre_tokenizer && p.pre_tokenizer->rewrites_text();
    if (!p.normalizer && !rewrites) {
      // Note [Identity alignment]
      // Without a normalizer every byte maps to the code point it is part of;
      // token offsets come from one forward cursor instead of per-byte tables.
      std::string spaced;
      std::string_view work = seg_text;
      uint32_t shift = 0;
      if (prefix_space && seg_text[0] != ' ') {
        spaced.reserve(seg_text.size() + 1);
        spaced.push_back(' ');
        spaced.append(seg_text);
        work = spaced;
        shift = 1;
      }
      uint32_t seg_byte = 0, seg_char = first_char;
      auto char_at = [&](uint32_t i) {
        if (i < shift) return first_char;
        for (uint32_t j = i - shift; seg_byte < j;)
          seg_char += !text::detail::is_continuation_byte(static_cast<unsigned char>(seg_text[++seg_byte]));
        return seg_char;
      };
      spans.assign(1, Span{0, static_cast<uint32_t>(work.size())});
      if (p.pre_tokenizer) p.pre_tokenizer->split(work, spans);
      prefetch_words(cache, work, spans);
      for (const Span& s : spans) {
        if (s.begin == s.end) continue;
        toks.clear();
        p.model->tokenize(work.substr(s.begin, s.end - s.begin), toks, cache);
        uint32_t pos = s.begin;
        for (const WordToken& t : toks) {
          uint32_t e = pos + t.len;
          int64_t b = char_at(pos);
          Offsets o{b, int64_t{char_at(e - 1)} + 1};
          if (p.model->token_is_text(t.id))
            enc.push_back_text(t.id, std::string(work.substr(pos, t.len)), o, word);
          else
            enc.push_back_vocab(t.id, o, word);
          pos = e;
        }
        ++word;
      }
      continue;
    }
    NormalizedText nt = NormalizedText::identity(seg_text, first_char);
    if (p.normalizer) p.normalizer->normalize(nt);
    if (rewrites) p.pre_tokenizer->rewrite(nt, seg.begin == 0);
    if (nt.text.empty()) continue;
    if (prefix_space && nt.text[0] != ' ') {
      NormalizedText spaced;
      spaced.append(" ", nt.begin[0], nt.end[0]);
      spaced.text += nt.text;
      spaced.begin.insert(spaced.begin.end(), nt.begin.begin(), nt.begin.end());
      spaced.end.insert(spaced.end.end(), nt.end.begin(), nt.end.end());
      nt = std::move(spaced);
    }
    spans.assign(1, Span{0, static_cast<uint32_t>(nt.text.size())});
    if (p.pre_tokenizer) p.pre_tokenizer->split(nt.text, spans);
    prefetch_words(cache, nt.text, spans);
    for (const Span& s : spans) {
      if (s.begin == s.end) continue;
      toks.clear();
      p.model->tokenize(std::string_view(nt.text).substr(s.begin, s.end - s.begin), toks, cache);
      uint32_t pos = s.begin;
      for (const WordToken& t : toks) {
        uint32_t e = pos + t.len;
        Offsets o{nt.begin[pos], nt.end[e - 1]};
        if (p.model->token_is_text(t.id))
          enc.push_back_text(t.id, nt.text.substr(pos, t.len), o, word);
        else
          enc.push_back_vocab(t.id, o, word);
        pos = e;
      }
      ++word;
    }
  }
  enc.fill_sequence(type_id);
  if (cache) cache->trim_buffers();
  return enc;
}

namespace {

// Note [Truncation at word boundaries]
// tokenizers 0.2x tokenizes a sequence word by word and stops once it holds
// max_length tokens, so a truncated encoding's overflowing parts only hold the
// rest of the last word it tokenized. ember tokenizes everything and then cuts
// at the same word boundary, which gives the same encodings.
Encoding cut_at_word_boundary(Encoding e, int64_t limit, const std::string& direction) {
  const int64_t n = static_cast<int64_t>(e.size());
  if (n <= limit) return e;
  const auto& words = e.word_ids();
  if (direction == "right") {
    size_t end = static_cast<size_t>(std::max<int64_t>(limit, 1));
    while (end < words.size() && words[end] == words[end - 1]) ++end;
    return e.slice(0, end);
  }
  size_t begin = static_cast<size_t>(n - std::max<int64_t>(limit, 1));
  while (begin > 0 && words[begin] == words[begin - 1]) --begin;
  // Counting words from the end, the reference numbers the kept ones from 0.
  Encoding kept = e.slice(begin, static_cast<size_t>(n));
  if (words[begin]) kept.shift_word_ids(-*words[begin]);
  return kept;
}

}  // namespace

Encoding Tokenizer::post_process(Encoding encoding, std::optional<Encoding> pair, bool add_special_tokens) const {
  if (!padding_) return truncate_and_process(std::move(encoding), std::move(pair), add_special_tokens);
  std::vector<Encoding> one;
  one.push_back(truncate_and_process(std::move(encoding), std::move(pair), add_special_tokens));
  pad_batch(one);
  return std::move(one[0]);
}

Encoding Tokenizer::truncate_and_process(Encoding encoding, std::optional<Encoding> pair,
                                         bool add_special_tokens) const {
  if (truncation_) {
    TruncationParams t = *truncation_;
    // The reference stops tokenizing a sequence at the first word boundary at
    // or past max_length tokens (counting from the end for direction left),
    // before it subtracts the special tokens; what lies beyond is not in the
    // overflowing parts either (Note [Truncation at word boundaries]).
    encoding = cut_at_word_boundary(std::move(encoding), t.max_length, t.direction);
    if (pair) pair = cut_at_word_boundary(std::move(*pair), t.max_length, t.direction);
    if (add_special_tokens) {
      int64_t n_added = num_special_tokens_to_add(pair.has_value());
      EMBER_CHECK(t.max_length >= n_added, "Tokenizer.encode: truncation max_length (", t.max_length,
                  ") is smaller than the ", n_added, " special tokens the post-processor adds");
      t.max_length -= n_added;
    }
    const int64_t n1 = static_cast<int64_t>(encoding.size());
    const int64_t n2 = pair ? static_cast<int64_t>(pair->size()) : 0;
    if (t.max_length == 0) {
      encoding.truncate(0, t.stride, t.direction);
      if (pair) pair->truncate(0, t.stride, t.direction);
    } else if (n1 + n2 > t.max_length) {
      const int64_t to_remove = n1 + n2 - t.max_length;
      if (t.strategy == "longest_first") {
        if (pair) {
          // The shorter sequence keeps what it can, up to half; the longer gets the rest.
          int64_t a = std::min(n1, n2), b = std::max(n1, n2);
          b = a > t.max_length ? a : std::max(a, t.max_length - a);
          if (a + b > t.max_length) {
            a = t.max_length / 2;
            b = a + t.max_length % 2;
          }
          if (n1 > n2) std::swap(a, b);
          encoding.truncate(a, t.stride, t.direction);
          pair->truncate(b, t.stride, t.direction);
        } else {
          encoding.truncate(t.max_length, t.stride, t.direction);
        }
      } else {
        bool first = t.strategy == "only_first";
        EMBER_CHECK(first || pair, "Tokenizer.encode: truncation strategy only_second needs a pair of sequences");
        Encoding& target = first ? encoding : *pair;
        int64_t len = static_cast<int64_t>(target.size());
        EMBER_CHECK(len > to_remove, "Tokenizer.encode: truncation error: sequence of ", len,
                    " tokens is too short to remove ", to_remove, " tokens");
        target.truncate(len - to_remove, t.stride, t.direction);
      }
    }
  }
  return detail::post_process(parts_->post_processor.get(), std::move(encoding), std::move(pair), add_special_tokens);
}

void Tokenizer::pad_batch(std::vector<Encoding>& encodings) const {
  if (!padding_ || encodings.empty()) return;
  const PaddingParams& p = *padding_;
  int64_t length = 0;
  if (p.length) {
    length = *p.length;
  } else {
    for (const auto& e : encodings) length = std::max(length, static_cast<int64_t>(e.size()));
  }
  if (p.pad_to_multiple_of && *p.pad_to_multiple_of > 0 && length % *p.pad_to_multiple_of != 0)
    length += *p.pad_to_multiple_of - length % *p.pad_to_multiple_of;
  for (auto& e : encodings) e.pad(length, p.pad_id, p.pad_type_id, p.pad_token, p.direction);
}

Encoding Tokenizer::encode_with(std::string_view a, std::optional<std::string_view> b, bool add_special_tokens,
                                WordCache* cache) const {
  Encoding ea = encode_single(a, 0, cache);
  std::optional<Encoding> eb;
  if (b) eb = encode_single(*b, 1, cache);
  return post_process(std::move(ea), std::move(eb), add_special_tokens);
}

namespace {

// One of the tokenizer's warm word caches, locked, or none when all are busy.
struct CacheLease {
  std::unique_lock<std::mutex> lock;
  WordCache* cache = nullptr;
};

CacheLease lease_cache(TokenizerParts& parts) {
  for (auto& slot : parts.caches) {
    std::unique_lock<std::mutex> lock(slot.mutex, std::try_to_lock);
    if (lock.owns_lock()) return {std::move(lock), &slot.cache};
  }
  return {};
}

}  // namespace

Encoding Tokenizer::encode(std::string_view sequence, bool add_special_tokens) const {
  CacheLease lease = lease_cache(*parts_);
  return encode_with(sequence, std::nullopt, add_special_tokens, lease.cache);
}

Encoding Tokenizer::encode(std::string_view sequence, std::string_view pair, bool add_special_tokens) const {
  CacheLease lease = lease_cache(*parts_);
  return encode_with(sequence, pair, add_special_tokens, lease.cache);
}

namespace {

// Runs f(i, cache) for i in [0, n) on the intra-op threads, one word cache per
// chunk: a warm one of the tokenizer's when free, else a fresh one.
template <typename F>
void parallel_encode(TokenizerParts& parts, size_t n, const F& f) {
  std::exception_ptr error;
  std::mutex error_mutex;
  torch::parallel_for(0, static_cast<int64_t>(n), 1, [&](int64_t begin, int64_t end) {
    CacheLease lease = lease_cache(parts);
    WordCache fresh;
    WordCache* cache = lease.cache ? lease.cache : &fresh;
    try {
      for (int64_t i = begin; i < end; ++i) f(static_cast<size_t>(i), cache);
    } catch (...) {
      std::lock_guard<std::mutex> g(error_mutex);
      if (!error) error = std::current_exception();
    }
  });
  if (error) std::rethrow_exception(error);
}

}  // namespace

std::vector<Encoding> Tokenizer::encode_batch(const std::vector<std::string>& input, bool add_special_tokens) const {
  std::vector<Encoding> out(input.size());
  parallel_encode(*parts_, input.size(), [&](size_t i, WordCache* cache) {
    out[i] = truncate_and_process(encode_single(input[i], 0, cache), std::nullopt, add_special_tokens);
  });
  // Padding waits until every member of the batch is known.
  pad_batch(out);
  return out;
}

std::vector<Encoding> Tokenizer::encode_batch(const std::vector<std::pair<std::string, std::string>>& input,
                                              bool add_special_tokens) const {
  std::vector<Encoding> out(input.size());
  parallel_encode(*parts_, input.size(), [&](size_t i, WordCache* cache) {
    out[i] = truncate_and_process(encode_single(input[i].first, 0, cache), encode_single(input[i].second, 1, cache),
                                  add_special_tokens);
  });
  pad_batch(out);
  return out;
}

std::string Tokenizer::decode(const std::vector<int64_t>& ids, bool skip_special_tokens) const {
  std::vector<std::string> tokens;
  tokens.reserve(ids.size());
  for (int64_t id : ids) {
    if (skip_special_tokens && parts_->added.is_special(id)) continue;
    auto t = id_to_token(id);
    if (t) tokens.push_back(std::move(*t));
  }
  if (parts_->decoder) {
    parts_->decoder->decode_chain(tokens);
    std::string out;
    for (const auto& t : tokens) out += t;
    return out;
  }
  std::string out;
  for (size_t i = 0; i < tokens.size(); ++i) {
    if (i) out += ' ';
    out += tokens[i];
  }
  return out;
}

std::vector<std::string> Tokenizer::decode_batch(const std::vector<std::vector<int64_t>>& sequences,
                                                 bool skip_special_tokens) const {
  std::vector<std::string> out;
  out.reserve(sequences.size());
  for (const auto& s : sequences) out.push_back(decode(s, skip_special_tokens));
  return out;
}

std::optional<int64_t> Tokenizer::token_to_id(const std::string& token) const {
  // Added tokens win over the model's vocabulary.
  if (auto id = parts_->added.id_of(token)) return id;
  return parts_->model->token_to_id(token);
}

std::optional<std::string> Tokenizer::id_to_token(int64_t id) const {
  if (const AddedToken* t = parts_->added.token(id)) return t->content;
  const std::string* s = parts_->model->id_to_token(id);
  if (!s) return std::nullopt;
  return *s;
}

int64_t Tokenizer::get_vocab_size(bool with_added_tokens) const {
  int64_t n = static_cast<int64_t>(parts_->model->vocab_size());
  if (!with_added_tokens) return n;
  // The union of both vocabularies, as get_vocab(with_added_tokens=True) has it.
  for (const std::string& c : parts_->added.contents())
    if (!parts_->model->token_to_id(c)) ++n;
  return n;
}

int64_t Tokenizer::add_tokens(const std::vector<AddedToken>& tokens) {
  int64_t added = 0;
  for (const AddedToken& t : tokens) {
    EMBER_CHECK(!t.content.empty() && text::detail::is_valid_utf8(t.content),
                "Tokenizer.add_tokens: a token must be non-empty UTF-8");
    if (parts_->added.find(t.content) >= 0) continue;
    auto id = parts_->model->token_to_id(t.content);
    int64_t new_id = id ? *id : get_vocab_size(true);
    parts_->added.add(t, new_id);
    ++added;
  }
  return added;
}

int64_t Tokenizer::add_tokens(const std::vector<std::string>& tokens) {
  std::vector<AddedToken> t;
  for (const auto& s : tokens) t.push_back(AddedToken{s});
  return add_tokens(t);
}

int64_t Tokenizer::add_special_tokens(const std::vector<std::string>& tokens) {
  std::vector<AddedToken> t;
  for (const auto& s : tokens) {
    AddedToken a{s};
    a.special = true;
    a.normalized = false;
    t.push_back(a);
  }
  return add_tokens(t);
}

int64_t Tokenizer::num_special_tokens_to_add(bool is_pair) const {
  return parts_->post_processor ? static_cast<int64_t>(parts_->post_processor->added_tokens(is_pair)) : 0;
}

void Tokenizer::enable_truncation(int64_t max_length, int64_t stride, const std::string& strategy,
                                  const std::string& direction) {
  EMBER_CHECK(max_length >= 0, "Tokenizer.enable_truncation: max_length must be >= 0, got ", max_length);
  EMBER_CHECK(stride >= 0, "Tokenizer.enable_truncation: stride must be >= 0, got ", stride);
  EMBER_CHECK(strategy == "longest_first" || strategy == "only_first" || strategy == "only_second",
              "Tokenizer.enable_truncation: strategy must be longest_first, only_first or only_second, got '", strategy,
              "'");
  EMBER_CHECK(direction == "right" || direction == "left",
              "Tokenizer.enable_truncation: direction must be 'right' or 'left', got '", direction, "'");
  truncation_ = TruncationParams{max_length, stride, strategy, direction};
}

void Tokenizer::enable_padding(const std::string& direction, int64_t pad_id, int64_t pad_type_id,
                               const std::string& pad_token, std::optional<int64_t> length,
                               std::optional<int64_t> pad_to_multiple_of) {
  EMBER_CHECK(direction == "right" || direction == "left",
              "Tokenizer.enable_padding: direction must be 'right' or 'left', got '", direction, "'");
  EMBER_CHECK(!length || *length >= 0, "Tokenizer.enable_padding: length must be >= 0, got ", length.value_or(0));
  EMBER_CHECK(!pad_to_multiple_of || *pad_to_multiple_of > 0,
              "Tokenizer.enable_padding: pad_to_multiple_of must be > 0, got ", pad_to_multiple_of.value_or(0));
  padding_ = PaddingParams{direction, pad_id, pad_type_id, pad_token, length, pad_to_multiple_of};
}

}  // namespace torch::text::tokenizers
