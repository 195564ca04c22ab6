#include "ember/text/tokenizers/models.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <queue>
#include <sstream>
#include <utility>

#include "ember/core/error.h"
#include "ember/text/unicode.h"

namespace torch::text::tokenizers::detail {
namespace {

// ids beyond this are refused rather than allocating a table for them.
constexpr int64_t kMaxTokenId = int64_t{1} << 24;

struct ByteAlphabet {
  std::array<char32_t, 256> to_cp{};
  std::vector<int16_t> from_cp;  // indexed by code point < 512
  ByteAlphabet() : from_cp(512, -1) {
    int extra = 0;
    for (int b = 0; b < 256; ++b) {
      bool printable = (b >= '!' && b <= '~') || (b >= 0xA1 && b <= 0xAC) || (b >= 0xAE && b <= 0xFF);
      to_cp[b] = printable ? static_cast<char32_t>(b) : static_cast<char32_t>(256 + extra++);
      from_cp[to_cp[b]] = static_cast<int16_t>(b);
    }
  }
};

const ByteAlphabet& alphabet() {
  static const ByteAlphabet a;
  return a;
}

// A byte-alphabet token as raw bytes; false when a code point is outside the alphabet.
bool byte_level_to_bytes(std::string_view token, std::string& out) {
  out.clear();
  const char* p = token.data();
  const char* end = p + token.size();
  while (p < end) {
    char32_t cp = text::detail::next_code_point(p);
    int b = unicode_to_byte(cp);
    if (b < 0) return false;
    out.push_back(static_cast<char>(b));
  }
  return true;
}

using Symbol = WordToken;

class Bpe final : public Model {
 public:
  Bpe(std::vector<std::pair<std::string, int64_t>> vocab,
      const std::vector<std::pair<std::string, std::string>>& merges, BpeConfig config, const std::string& source)
      : config_(std::move(config)) {
    set_vocab(std::move(vocab), source);
    if (config_.unk_token) {
      auto id = token_to_id(*config_.unk_token);
      unk_id_ = id ? static_cast<int32_t>(*id) : -1;
    }
    const size_t prefix = config_.continuing_subword_prefix.size();
    int32_t rank = 0;
    for (const auto& [a, b] : merges) {
      int32_t ia = vocab_.find(a), ib = vocab_.find(b);
      EMBER_CHECK(ia >= 0 && ib >= 0, "Tokenizer.from_file: ", source, ": merge '", a, " ", b,
                  "' uses a token missing from the vocabulary");
      std::string merged = a;
      std::string_view right = b;
      if (prefix && right.substr(0, prefix) == config_.continuing_subword_prefix) right.remove_prefix(prefix);
      merged.append(right);
      int32_t im = vocab_.find(merged);
      EMBER_CHECK(im >= 0, "Tokenizer.from_file: ", source, ": merge '", a, " ", b, "' makes '", merged,
                  "', which is not in the vocabulary");
      merges_.insert(ia, ib, {rank++, im});
    }
  }

  void set_byte_level(bool on) override {
    byte_level_ = on;
    byte_ids_.fill(-1);
    if (!on) return;
    std::string bytes;
    for (size_t id = 0; id < id_to_token_->size(); ++id) {
      if (!has_id_[id]) continue;
      if (byte_level_to_bytes((*id_to_token_)[id], bytes)) raw_vocab_.insert(bytes, static_cast<int32_t>(id));
    }
    for (int b = 0; b < 256; ++b) {
      std::string s;
      text::detail::append_utf8(s, byte_to_unicode()[b]);
      byte_ids_[b] = vocab_.find(s);
    }
  }

  void tokenize(std::string_view word, std::vector<WordToken>& out, WordCache* cache) const override {
    if (word.empty()) return;
    if (cache && cache->get(word, out)) return;
    size_t first = out.size();
    if (config_.ignore_merges) {
      int32_t id = byte_level_ ? raw_vocab_.find(word) : vocab_.find(word);
      if (id >= 0) {
        out.push_back({id, static_cast<uint32_t>(word.size())});
        if (cache) cache->put(word, out.data() + first, 1);
        return;
      }
    }
    Symbols local;
    Symbols& syms = cache ? cache->scratch : local;  // reused across words
    syms.clear();
    initial_symbols(word, syms);
    if (syms.size() <= 64)
      merge_small(syms);
    else
      merge_large(syms);
    for (const Symbol& s : syms) out.push_back({s.id, s.len});
    if (cache) cache->put(word, out.data() + first, out.size() - first);
  }

 private:
  using Symbols = std::vector<Symbol>;

  void push_unknown(Symbols& syms, uint32_t len) const {
    if (unk_id_ < 0) return;  // without an unk token the piece is dropped, as in the reference
    if (config_.fuse_unk && !syms.empty() && syms.back().id == unk_id_) {
      syms.back().len += len;
      return;
    }
    syms.push_back({unk_id_, len});
  }

  void initial_symbols(std::string_view word, Symbols& syms) const {
    syms.reserve(word.size());
    if (byte_level_) {
      // Every byte is one symbol (one code point of the byte alphabet).
      for (unsigned char c : word) {
        int32_t id = byte_ids_[c];
        if (id >= 0) {
          syms.push_back({id, 1});
        } else {
          push_unknown(syms, 1);
        }
      }
      return;
    }
    std::string key;
    size_t i = 0;
    while (i < word.size()) {
      size_t len = static_cast<size_t>(text::detail::utf8_length(static_cast<unsigned char>(word[i])));
      len = std::min(len, word.size() - i);
      key.clear();
      if (i > 0) key += config_.continuing_subword_prefix;
      key.append(word.substr(i, len));
      if (i + len == word.size()) key += config_.end_of_word_suffix;
      int32_t id = vocab_.find(key);
      if (id >= 0) {
        syms.push_back({id, static_cast<uint32_t>(len)});
      } else if (config_.byte_fallback) {
        bool all = true;
        std::vector<Symbol> bytes;
        for (size_t k = 0; k < len; ++k) {
          char name[8];
          std::snprintf(name, sizeof name, "<0x%02X>", static_cast<unsigned char>(word[i + k]));
          int32_t b = vocab_.find(name);
          if (b < 0) {
            all = false;
            break;
          }
          bytes.push_back({b, 1});
        }
        if (all) {
          syms.insert(syms.end(), bytes.begin(), bytes.end());
        } else {
          push_unknown(syms, static_cast<uint32_t>(len));
        }
      } else {
        push_unknown(syms, static_cast<uint32_t>(len));
      }
      i += len;
    }
  }

  // Short words: the rank of every adjacent pair in a small array; merge the
  // lowest (leftmost on ties: the index breaks them in the packed key) and
  // recompute its two neighbours. Branch-free minimum, arrays on the stack.
  void merge_small(Symbols& syms) const {
    constexpr uint32_t kNone = UINT32_MAX;
    uint32_t ranks[64];
    int32_t merged[64], ids[64];
    uint32_t lens[64];
    size_t n = syms.size();
    for (size_t i = 0; i < n; ++i) {
      ids[i] = syms[i].id;
      lens[i] = syms[i].len;
    }
    auto rank_of = [&](size_t i) {
      const MergeMap::Merge* m = merges_.find(ids[i], ids[i + 1]);
      if (!m) return kNone;
      merged[i] = m->id;
      return static_cast<uint32_t>(m->rank);
    };
    // The pairs' slots are scattered over a table larger than the nearest
    // caches: load them all before the first lookup.
    for (size_t i = 0; i + 1 < n; ++i) merges_.prefetch(ids[i], ids[i + 1]);
    for (size_t i = 0; i + 1 < n; ++i) ranks[i] = rank_of(i);
    while (n > 1) {
      uint64_t best_key = UINT64_MAX;
      for (size_t i = 0; i + 1 < n; ++i) {
        const uint64_t k = (static_cast<uint64_t>(ranks[i]) << 6) | i;
        best_key = k < best_key ? k : best_key;
      }
      if ((best_key >> 6) == kNone) break;
      const size_t best = static_cast<size_t>(best_key & 63);
      ids[best] = merged[best];
      lens[best] += lens[best + 1];
      for (size_t i = best + 1; i + 1 < n; ++i) {
        ids[i] = ids[i + 1];
        lens[i] = lens[i + 1];
        ranks[i] = ranks[i + 1];
        merged[i] = merged[i + 1];
      }
      --n;
      if (best + 1 < n) ranks[best] = rank_of(best);
      if (best > 0) ranks[best - 1] = rank_of(best - 1);
    }
    syms.resize(n);
    for (size_t i = 0; i < n; ++i) syms[i] = {ids[i], lens[i]};
  }

  // Long words: a heap of candidate merges over a linked list of symbols.
  void merge_large(Symbols& syms) const {
    struct Node {
      Symbol s;
      int64_t prev, next;
    };
    struct Candidate {
      int32_t rank;
      int64_t pos;
      int32_t id;
      bool operator>(const Candidate& o) const { return rank != o.rank ? rank > o.rank : pos > o.pos; }
    };
    std::vector<Node> nodes(syms.size());
    for (size_t i = 0; i < syms.size(); ++i)
      nodes[i] = {syms[i], static_cast<int64_t>(i) - 1, i + 1 < syms.size() ? static_cast<int64_t>(i + 1) : -1};
    std::priority_queue<Candidate, std::vector<Candidate>, std::greater<Candidate>> heap;
    auto push = [&](int64_t i) {
      if (i < 0 || nodes[i].next < 0) return;
      const MergeMap::Merge* m = merges_.find(nodes[i].s.id, nodes[nodes[i].next].s.id);
      if (m) heap.push({m->rank, i, m->id});
    };
    for (size_t i = 0; i + 1 < nodes.size(); ++i) push(static_cast<int64_t>(i));
    while (!heap.empty()) {
      Candidate c = heap.top();
      heap.pop();
      Node& left = nodes[c.pos];
      if (left.s.len == 0 || left.next < 0) continue;
      Node& right = nodes[left.next];
      const MergeMap::Merge* m = merges_.find(left.s.id, right.s.id);
      if (!m || m->id != c.id) continue;  // stale: one side merged since
      left.s = {c.id, left.s.len + right.s.len};
      right.s.len = 0;
      left.next = right.next;
      if (right.next >= 0) nodes[right.next].prev = c.pos;
      push(left.prev);
      push(c.pos);
    }
    Symbols out;
    for (int64_t i = nodes.empty() ? -1 : 0; i >= 0; i = nodes[i].next) out.push_back(nodes[i].s);
    syms = std::move(out);
  }

  BpeConfig config_;
  int32_t unk_id_ = -1;
  MergeMap merges_;
  bool byte_level_ = false;
  StringIdMap raw_vocab_;
  std::array<int32_t, 256> byte_ids_{};
};

class WordPiece final : public Model {
 public:
  WordPiece(std::vector<std::pair<std::string, int64_t>> vocab, std::string unk, std::string prefix, int64_t max_chars,
            const std::string& source)
      : unk_(std::move(unk)), prefix_(std::move(prefix)), max_chars_(max_chars) {
    set_vocab(std::move(vocab), source);
    auto id = token_to_id(unk_);
    EMBER_CHECK(id.has_value(), "Tokenizer.from_file: ", source, ": WordPiece unk_token '", unk_,
                "' is not in the vocabulary");
    unk_id_ = static_cast<int32_t>(*id);
    StringIdMap continuation;  // "##ing" stored as "ing"; the lowest id wins
    for (size_t i = 0; i < id_to_token_->size(); ++i) {
      if (!has_id_[i]) continue;
      const std::string& t = (*id_to_token_)[i];
      if (vocab_.find(t) == static_cast<int32_t>(i)) starts_.insert(t, static_cast<int32_t>(i));
      // An empty prefix makes every token a continuation too (the reference looks pieces up bare).
      if (t.size() >= prefix_.size() && t.compare(0, prefix_.size(), prefix_) == 0)
        continuation.insert(std::string_view(t).substr(prefix_.size()), static_cast<int32_t>(i));
    }
    for (size_t i = 0; i < id_to_token_->size(); ++i) {
      if (!has_id_[i]) continue;
      const std::string& t = (*id_to_token_)[i];
      if (t.size() >= prefix_.size() && t.compare(0, prefix_.size(), prefix_) == 0) {
        std::string_view rest = std::string_view(t).substr(prefix_.size());
        if (continuation.find(rest) == static_cast<int32_t>(i)) continuations_.insert(rest, static_cast<int32_t>(i));
      }
    }
  }

  void tokenize(std::string_view word, std::vector<WordToken>& out, WordCache* cache) const override {
    if (word.empty()) return;
    if (cache && cache->get(word, out)) return;
    size_t first = out.size();
    if (static_cast<int64_t>(text::detail::count_code_points(word)) > max_chars_) {
      out.push_back({unk_id_, static_cast<uint32_t>(word.size())});
      return;
    }
    // Greedy longest match, walking the trie forward from each piece's start:
    // the walk ends where no token continues, and the last token passed at a
    // code point boundary is the longest one (the reference shrinks the
    // piece from the end one code point at a time; same result).
    size_t start = 0;
    while (start < word.size()) {
      const TokenTrie& trie = start == 0 ? starts_ : continuations_;
      size_t end = start;
      int32_t id = -1;
      int32_t node = 0;
      for (size_t i = start; i < word.size(); ++i) {
        node = trie.child(node, static_cast<unsigned char>(word[i]));
        if (node < 0) break;
        const int32_t t = trie.token_at(node);
        if (t >= 0 &&
            (i + 1 == word.size() || !text::detail::is_continuation_byte(static_cast<unsigned char>(word[i + 1])))) {
          id = t;
          end = i + 1;
        }
      }
      if (id < 0) {
        out.resize(first);
        out.push_back({unk_id_, static_cast<uint32_t>(word.size())});
        break;
      }
      out.push_back({id, static_cast<uint32_t>(end - start)});
      start = end;
    }
    if (cache) cache->put(word, out.data() + first, out.size() - first);
  }

 private:
  std::string unk_, prefix_;
  int64_t max_chars_;
  int32_t unk_id_ = -1;
  TokenTrie starts_, continuations_;  // the vocabulary; its "##" tokens without the prefix
};

class WordLevel final : public Model {
 public:
  WordLevel(std::vector<std::pair<std::string, int64_t>> vocab, std::string unk, const std::string& source) {
    set_vocab(std::move(vocab), source);
    auto id = token_to_id(unk);
    EMBER_CHECK(id.has_value(), "Tokenizer.from_file: ", source, ": WordLevel unk_token '", unk,
                "' is not in the vocabulary");
    unk_id_ = static_cast<int32_t>(*id);
  }
  void tokenize(std::string_view word, std::vector<WordToken>& out, WordCache*) const override {
    if (word.empty()) return;
    int32_t id = vocab_.find(word);
    out.push_back({id >= 0 ? id : unk_id_, static_cast<uint32_t>(word.size())});
  }

 private:
  int32_t unk_id_ = -1;
};

std::vector<std::pair<std::string, int64_t>> vocab_from_json(const nlohmann::json& v, const std::string& source) {
  EMBER_CHECK(v.is_object(), "Tokenizer.from_file: ", source, ": model.vocab must be an object of token: id");
  std::vector<std::pair<std::string, int64_t>> out;
  out.reserve(v.size());
  for (auto it = v.begin(); it != v.end(); ++it) {
    EMBER_CHECK(it.value().is_number_integer(), "Tokenizer.from_file: ", source, ": vocabulary id of '", it.key(),
                "' is not an integer");
    out.emplace_back(it.key(), it.value().get<int64_t>());
  }
  return out;
}

std::optional<std::string> opt_string(const nlohmann::json& j, const char* key) {
  auto it = j.find(key);
  if (it == j.end() || it->is_null()) return std::nullopt;
  return it->get<std::string>();
}

}  // namespace

const std::array<char32_t, 256>& byte_to_unicode() { return alphabet().to_cp; }

int unicode_to_byte(char32_t cp) { return cp < 512 ? alphabet().from_cp[cp] : -1; }

std::optional<int64_t> Model::token_to_id(std::string_view token) const {
  int32_t id = vocab_.find(token);
  if (id < 0) return std::nullopt;
  return id;
}

const std::string* Model::id_to_token(int64_t id) const {
  if (id < 0 || id >= static_cast<int64_t>(id_to_token_->size()) || !has_id_[static_cast<size_t>(id)]) return nullptr;
  return &(*id_to_token_)[static_cast<size_t>(id)];
}

void Model::set_vocab(std::vector<std::pair<std::string, int64_t>> entries, const std::string& source) {
  int64_t max_id = -1;
  for (const auto& [tok, id] : entries) {
    EMBER_CHECK(id >= 0 && id < kMaxTokenId, "Tokenizer.from_file: ", source, ": token '", tok, "' has id ", id,
                ", outside [0, ", kMaxTokenId, ")");
    max_id = std::max(max_id, id);
  }
  EMBER_CHECK(max_id < static_cast<int64_t>(entries.size()) * 4 + 4096, "Tokenizer.from_file: ", source,
              ": vocabulary ids are too sparse (largest ", max_id, " for ", entries.size(), " tokens)");
  id_to_token_->assign(static_cast<size_t>(max_id + 1), std::string());
  has_id_.assign(static_cast<size_t>(max_id + 1), false);
  for (auto& [tok, id] : entries) {
    vocab_.insert_or_assign(tok, static_cast<int32_t>(id));
    has_id_[static_cast<size_t>(id)] = true;
    (*id_to_token_)[static_cast<size_t>(id)] = std::move(tok);
  }
}

std::unique_ptr<Model> make_bpe(std::vector<std::pair<std::string, int64_t>> vocab,
                                const std::vector<std::pair<std::string, std::string>>& merges, BpeConfig config,
                                const std::string& source) {
  return std::make_unique<Bpe>(std::move(vocab), merges, std::move(config), source);
}

std::unique_ptr<Model> make_wordpiece(std::vector<std::pair<std::string, int64_t>> vocab, std::string unk_token,
                                      std::string continuing_subword_prefix, int64_t max_input_chars_per_word,
                                      const std::string& source) {
  return std::make_unique<WordPiece>(std::move(vocab), std::move(unk_token), std::move(continuing_subword_prefix),
                                     max_input_chars_per_word, source);
}

std::unique_ptr<Model> model_from_json(const nlohmann::json& j, const std::string& source) {
  EMBER_CHECK(j.is_object(), "Tokenizer.from_file: ", source, ": \"model\" must be an object");
  std::string type;
  if (j.contains("type") && j["type"].is_string()) {
    type = j["type"].get<std::string>();
  } else if (j.contains("merges")) {
    type = "BPE";
  } else if (j.contains("continuing_subword_prefix")) {
    type = "WordPiece";
  } else {
    type = "WordLevel";
  }
  EMBER_CHECK(j.contains("vocab"), "Tokenizer.from_file: ", source, ": model has no \"vocab\"");
  if (type == "Unigram") return make_unigram(j, source);
  if (type == "BPE") {
    BpeConfig c;
    c.unk_token = opt_string(j, "unk_token");
    c.continuing_subword_prefix = opt_string(j, "continuing_subword_prefix").value_or("");
    c.end_of_word_suffix = opt_string(j, "end_of_word_suffix").value_or("");
    c.fuse_unk = j.value("fuse_unk", false);
    c.byte_fallback = j.value("byte_fallback", false);
    c.ignore_merges = j.value("ignore_merges", false);
    EMBER_CHECK(!j.contains("dropout") || j["dropout"].is_null() || j["dropout"].get<double>() == 0.0,
                "Tokenizer.from_file: ", source, ": BPE dropout is not supported (encode would not be deterministic)");
    std::vector<std::pair<std::string, std::string>> merges;
    if (j.contains("merges")) {
      const auto& m = j["merges"];
      EMBER_CHECK(m.is_array(), "Tokenizer.from_file: ", source, ": model.merges must be an array");
      merges.reserve(m.size());
      for (const auto& e : m) {
        if (e.is_string()) {
          const std::string& s = e.get_ref<const std::string&>();
          size_t sp = s.find(' ');
          EMBER_CHECK(
              sp != std::string::npos && sp > 0 && sp + 1 < s.size() && s.find(' ', sp + 1) == std::string::npos,
              "Tokenizer.from_file: ", source, ": merge '", s, "' is not two tokens separated by a space");
          merges.emplace_back(s.substr(0, sp), s.substr(sp + 1));
        } else {
          EMBER_CHECK(e.is_array() && e.size() == 2 && e[0].is_string() && e[1].is_string(),
                      "Tokenizer.from_file: ", source, ": a merge must be \"a b\" or [\"a\", \"b\"]");
          merges.emplace_back(e[0].get<std::string>(), e[1].get<std::string>());
        }
      }
    }
    return make_bpe(vocab_from_json(j["vocab"], source), merges, std::move(c), source);
  }
  if (type == "WordPiece") {
    return make_wordpiece(vocab_from_json(j["vocab"], source), opt_string(j, "unk_token").value_or("[UNK]"),
                          opt_string(j, "continuing_subword_prefix").value_or("##"),
                          j.value("max_input_chars_per_word", int64_t{100}), source);
  }
  if (type == "WordLevel") {
    return std::make_unique<WordLevel>(vocab_from_json(j["vocab"], source),
                                       opt_string(j, "unk_token").value_or("<unk>"), source);
  }
  EMBER_ERROR("Tokenizer.from_file: ", source, ": unsupported model type '", type, "'");
}

std::string read_file(const std::string& path, const char* who) {
  std::ifstream f(path, std::ios::binary);
  EMBER_CHECK(f.good(), who, ": cannot open '", path, "'");
  std::ostringstream ss;
  ss << f.rdbuf();
  EMBER_CHECK(!f.bad(), who, ": error reading '", path, "'");
  return ss.str();
}

std::vector<std::pair<std::string, int64_t>> read_vocab_json(const std::string& path) {
  std::string bytes = read_file(path, "tokenizers: vocab.json");
  nlohmann::json j = nlohmann::json::parse(bytes, nullptr, /*allow_exceptions=*/false);
  EMBER_CHECK(!j.is_discarded(), "tokenizers: ", path, " is not well-formed JSON");
  return vocab_from_json(j, path);
}

std::vector<std::pair<std::string, std::string>> read_merges_txt(const std::string& path) {
  std::string bytes = read_file(path, "tokenizers: merges.txt");
  std::vector<std::pair<std::string, std::string>> merges;
  size_t pos = 0;
  size_t line_no = 0;
  while (pos < bytes.size()) {
    size_t nl = bytes.find('\n', pos);
    if (nl == std::string::npos) nl = bytes.size();
    std::string line = bytes.substr(pos, nl - pos);
    pos = nl + 1;
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.rfind("#version", 0) == 0 || line.empty()) continue;
    size_t sp = line.find(' ');
    EMBER_CHECK(sp != std::string::npos && sp > 0 && sp + 1 < line.size(), "tokenizers: ", path, " line ", line_no,
                ": a merge must be two tokens separated by a space, got '", line, "'");
    merges.emplace_back(line.substr(0, sp), line.substr(sp + 1));
  }
  return merges;
}

std::vector<std::pair<std::string, int64_t>> read_vocab_txt(const std::string& path) {
  std::string bytes = read_file(path, "tokenizers: vocab.txt");
  std::vector<std::pair<std::string, int64_t>> vocab;
  size_t pos = 0;
  while (pos < bytes.size()) {
    size_t nl = bytes.find('\n', pos);
    if (nl == std::string::npos) nl = bytes.size();
    std::string line = bytes.substr(pos, nl - pos);
    pos = nl + 1;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    vocab.emplace_back(text::detail::to_valid_utf8(line), static_cast<int64_t>(vocab.size()));
  }
  return vocab;
}

}  // namespace torch::text::tokenizers::detail
