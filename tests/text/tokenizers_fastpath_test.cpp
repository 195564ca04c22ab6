// The tokenizers' fast paths against their general forms on large generated
// inputs (hostile Unicode and invalid UTF-8 included): the hand-written GPT-2
// scanner against ICU's regex engine running the same pattern, the BPE merge
// loop and the WordPiece matcher against plain textbook versions written here,
// the word cache against no cache, and the compact Encoding against one that
// holds every token as a string.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "common/test_util.h"
#include "ember/text/tokenizers.h"
#include "ember/text/tokenizers/hash_tables.h"
#include "ember/text/tokenizers/models.h"

namespace {

using ember::text::tokenizers::Encoding;
using ember::text::tokenizers::Offsets;
using ember::text::tokenizers::Tokenizer;
namespace detail = ember::text::tokenizers::detail;
using nlohmann::json;

std::string golden_path(const std::string& name) { return std::string(EMBER_GOLDEN_DIR) + "/text/" + name; }

std::string read_text(const std::string& name) {
  std::ifstream f(golden_path(name), std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

void append_utf8(std::string& s, char32_t c) {
  if (c < 0x80) {
    s.push_back(static_cast<char>(c));
  } else if (c < 0x800) {
    s.push_back(static_cast<char>(0xC0 | (c >> 6)));
    s.push_back(static_cast<char>(0x80 | (c & 0x3F)));
  } else if (c < 0x10000) {
    s.push_back(static_cast<char>(0xE0 | (c >> 12)));
    s.push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
    s.push_back(static_cast<char>(0x80 | (c & 0x3F)));
  } else {
    s.push_back(static_cast<char>(0xF0 | (c >> 18)));
    s.push_back(static_cast<char>(0x80 | ((c >> 12) & 0x3F)));
    s.push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
    s.push_back(static_cast<char>(0x80 | (c & 0x3F)));
  }
}

// Text that exercises every branch of the GPT-2 pattern: contractions (and
// near misses), every kind of Unicode space, letters and numbers of many
// scripts and planes, marks, controls, RTL overrides, ZWJ emoji sequences,
// NUL and, when `invalid`, broken UTF-8.
std::string hostile_text(std::mt19937& rng, size_t pieces, bool invalid) {
  static const char32_t kChars[] = {
      'a',    'Z',    'q',    '0',    '7',     ' ',     ' ',     ' ',    '\t',    '\n',    '\r',    '\v',
      '\f',   '\'',   '\'',   's',    't',     'r',     'e',     'v',    'm',     'l',     'd',     'S',
      '.',    ',',    '!',    '-',    '_',     '$',     0,       0x1F,   0x7F,    0x85,    0xA0,    0x1680,
      0x2000, 0x2007, 0x200B, 0x2028, 0x2029,  0x202F,  0x205F,  0x3000, 0xFEFF,  0xE9,    0x301,   0x300,
      0x416,  0x5D0,  0x627,  0x663,  0x966,   0x4E2D,  0x3042,  0xAC00, 0x2160,  0x2167,  0xBD,    0xB2,
      0x202E, 0x202D, 0x200D, 0x200C, 0x1F600, 0x1F469, 0x1F3FD, 0xFE0F, 0x1D400, 0x1D7CE, 0x10400, 0x20000,
      0xE000, 0xFFFD, 0x2019, 0xFF07, 0x1F1FA, 0x1F1F8, 0x0E01,  0x0E31, 0x1100,  0x2764};
  static const char* kChunks[] = {"'s", "'t",  "'re", "'ve",  "'m",  "'ll",   "'d",  "'S",  "'RE",   "'x",
                                  "''", " 's", "  ",  "   a", " \n", "\n\n ", " 12", " ..", "don't", "they'll"};
  static const char* kBroken[] = {"\xFF", "\xC3", "\xE2\x82", "\xF0\x9F\x98", "\x80", "\xED\xA0\x80", "\xC0\xAF"};
  std::uniform_int_distribution<size_t> pick_char(0, std::size(kChars) - 1);
  std::uniform_int_distribution<size_t> pick_chunk(0, std::size(kChunks) - 1);
  std::uniform_int_distribution<size_t> pick_broken(0, std::size(kBroken) - 1);
  std::uniform_int_distribution<int> kind(0, 99);
  std::string s;
  for (size_t i = 0; i < pieces; ++i) {
    const int k = kind(rng);
    if (k < 15) {
      s += kChunks[pick_chunk(rng)];
    } else if (invalid && k < 19) {
      s += kBroken[pick_broken(rng)];
    } else {
      append_utf8(s, kChars[pick_char(rng)]);
    }
  }
  return s;
}

json gpt2_json() { return json::parse(read_text("gpt2_tokenizer.json")); }

void expect_same_encoding(const Encoding& a, const Encoding& b, const std::string& what) {
  EXPECT_EQ(a.ids(), b.ids()) << what;
  EXPECT_EQ(a.tokens(), b.tokens()) << what;
  EXPECT_EQ(a.offsets(), b.offsets()) << what;
  EXPECT_EQ(a.word_ids(), b.word_ids()) << what;
  EXPECT_EQ(a.type_ids(), b.type_ids()) << what;
  EXPECT_EQ(a.sequence_ids(), b.sequence_ids()) << what;
  EXPECT_EQ(a.special_tokens_mask(), b.special_tokens_mask()) << what;
  EXPECT_EQ(a.attention_mask(), b.attention_mask()) << what;
}

// The ByteLevel pre-tokenizer's scanner against a Split pre-tokenizer running
// GPT-2's pattern through ICU, on the same model: every encoding equal.
TEST(TextTokenizersFastPath, Gpt2ScannerEqualsIcuRegex) {
  json fast = gpt2_json();
  fast["pre_tokenizer"] = {{"type", "ByteLevel"}, {"add_prefix_space", false}, {"use_regex", true}};
  json general = gpt2_json();
  general["pre_tokenizer"] = {
      {"type", "Sequence"},
      {"pretokenizers",
       json::array(
           {{{"type", "Split"},
             {"pattern",
              {{"Regex", "'s|'t|'re|'ve|'m|'ll|'d| ?\\p{L}+| ?\\p{N}+| ?[^\\s\\p{L}\\p{N}]+|\\s+(?!\\S)|\\s+"}}},
             {"behavior", "Isolated"},
             {"invert", false}},
            {{"type", "ByteLevel"}, {"add_prefix_space", false}, {"use_regex", false}}})}};
  const Tokenizer a = Tokenizer::from_str(fast.dump());
  const Tokenizer b = Tokenizer::from_str(general.dump());
  std::mt19937 rng(38);
  std::uniform_int_distribution<size_t> len(0, 80);
  size_t bytes = 0;
  for (int i = 0; i < 3000; ++i) {
    const std::string s = hostile_text(rng, len(rng), i % 3 == 0);
    bytes += s.size();
    expect_same_encoding(a.encode(s, false), b.encode(s, false), "input #" + std::to_string(i));
    if (HasFailure()) return;
  }
  EXPECT_GT(bytes, 50000u);
}

// Textbook BPE: the lowest-ranked adjacent pair is merged (leftmost first)
// until none is left, on std::map ranks.
std::vector<int32_t> reference_bpe(const std::vector<int32_t>& symbols,
                                   const std::map<std::pair<int32_t, int32_t>, std::pair<int32_t, int32_t>>& merges) {
  std::vector<int32_t> s = symbols;
  for (;;) {
    int32_t best_rank = INT32_MAX;
    size_t best = 0;
    for (size_t i = 0; i + 1 < s.size(); ++i) {
      auto it = merges.find({s[i], s[i + 1]});
      if (it != merges.end() && it->second.first < best_rank) {
        best_rank = it->second.first;
        best = i;
      }
    }
    if (best_rank == INT32_MAX) return s;
    s[best] = merges.at({s[best], s[best + 1]}).second;
    s.erase(s.begin() + static_cast<std::ptrdiff_t>(best) + 1);
  }
}

std::vector<int32_t> ids_of(const std::vector<detail::WordToken>& t) {
  std::vector<int32_t> out;
  for (const auto& w : t) out.push_back(w.id);
  return out;
}

// Words built from the vocabulary's own pieces, so merges fire often, with
// random bytes mixed in; lengths cross the short/long merge loops' boundary
// and the word cache's short/long/uncached limits.
std::vector<std::string> generated_words(std::mt19937& rng, const std::vector<std::string>& pieces, size_t n) {
  std::uniform_int_distribution<size_t> pick(0, pieces.size() - 1);
  std::uniform_int_distribution<int> parts(1, 40);
  std::uniform_int_distribution<int> byte(0, 255);
  std::uniform_int_distribution<int> coin(0, 9);
  std::vector<std::string> words;
  for (size_t i = 0; i < n; ++i) {
    std::string w;
    const int k = parts(rng) / (coin(rng) < 7 ? 8 : 1) + 1;
    for (int j = 0; j < k; ++j) {
      if (coin(rng) == 0)
        w.push_back(static_cast<char>(byte(rng)));
      else
        w += pieces[pick(rng)];
    }
    words.push_back(w);
  }
  return words;
}

TEST(TextTokenizersFastPath, BpeMergeLoopAndCacheEqualTextbookBpe) {
  auto vocab = detail::read_vocab_json(golden_path("gpt2_vocab.json"));
  const auto merges = detail::read_merges_txt(golden_path("gpt2_merges.txt"));
  std::map<std::string, int32_t> by_token;
  for (const auto& [t, id] : vocab) by_token[t] = static_cast<int32_t>(id);
  std::map<std::pair<int32_t, int32_t>, std::pair<int32_t, int32_t>> ranks;
  for (size_t r = 0; r < merges.size(); ++r) {
    const auto& [a, b] = merges[r];
    ranks.emplace(std::make_pair(by_token.at(a), by_token.at(b)),
                  std::make_pair(static_cast<int32_t>(r), by_token.at(a + b)));
  }
  // The pieces as raw bytes (the model works on bytes once byte-level).
  std::vector<std::string> pieces;
  for (const auto& [t, id] : vocab) {
    std::string raw;
    const char* p = t.data();
    bool ok = true;
    while (p < t.data() + t.size()) {
      char32_t c = 0;
      const unsigned char u = static_cast<unsigned char>(*p);
      const int n = u < 0x80 ? 1 : u < 0xE0 ? 2 : u < 0xF0 ? 3 : 4;
      c = n == 1 ? u : u & (0xFF >> (n + 1));
      for (int k = 1; k < n; ++k) c = (c << 6) | (static_cast<unsigned char>(p[k]) & 0x3F);
      p += n;
      const int b = detail::unicode_to_byte(c);
      if (b < 0) ok = false;
      raw.push_back(static_cast<char>(b));
    }
    if (ok) pieces.push_back(raw);
  }
  ASSERT_GT(pieces.size(), 1000u);
  auto model = detail::make_bpe(vocab, merges, detail::BpeConfig{}, "test");
  model->set_byte_level(true);
  std::mt19937 rng(7);
  const auto words = generated_words(rng, pieces, 6000);
  detail::WordCache cache;
  size_t long_words = 0;
  for (int round = 0; round < 2; ++round) {
    for (size_t i = 0; i < words.size(); ++i) {
      const std::string& w = words[i];
      std::vector<int32_t> symbols;
      for (unsigned char c : w) {
        std::string cp;
        append_utf8(cp, detail::byte_to_unicode()[c]);
        symbols.push_back(by_token.at(cp));
      }
      const auto expected = reference_bpe(symbols, ranks);
      std::vector<detail::WordToken> plain, cached;
      model->tokenize(w, plain, nullptr);
      model->tokenize(w, cached, &cache);  // a miss in round 0 (mostly), a hit or a recompute in round 1
      ASSERT_EQ(ids_of(plain), expected) << "word #" << i << " of " << w.size() << " bytes";
      ASSERT_EQ(ids_of(cached), expected) << "word #" << i << " (cached, round " << round << ")";
      uint32_t covered = 0;
      for (const auto& t : cached) covered += t.len;
      ASSERT_EQ(covered, w.size()) << "word #" << i;
      long_words += symbols.size() > 64;
    }
  }
  EXPECT_GT(long_words, 50u);  // the heap loop ran too
}

// Textbook WordPiece: greedy longest match from the left on std::map, words
// longer than 100 code points unknown.
std::vector<int32_t> reference_wordpiece(const std::string& w, const std::map<std::string, int32_t>& vocab,
                                         int32_t unk) {
  size_t chars = 0;
  for (unsigned char c : w) chars += (c & 0xC0) != 0x80;
  if (chars > 100) return {unk};  // max_input_chars_per_word
  std::vector<int32_t> out;
  size_t start = 0;
  while (start < w.size()) {
    size_t end = w.size();
    int32_t id = -1;
    while (end > start) {
      std::string piece = w.substr(start, end - start);
      if (start > 0) piece = "##" + piece;
      auto it = vocab.find(piece);
      if (it != vocab.end()) {
        id = it->second;
        break;
      }
      do --end;
      while (end > start && (static_cast<unsigned char>(w[end]) & 0xC0) == 0x80);
    }
    if (id < 0) return {unk};
    out.push_back(id);
    start = end;
  }
  return out;
}

TEST(TextTokenizersFastPath, WordPieceAndCacheEqualTextbookWordPiece) {
  auto vocab = detail::read_vocab_txt(golden_path("bert_vocab.txt"));
  std::map<std::string, int32_t> by_token;
  std::vector<std::string> pieces;
  for (const auto& [t, id] : vocab) {
    by_token[t] = static_cast<int32_t>(id);
    pieces.push_back(t.rfind("##", 0) == 0 ? t.substr(2) : t);
  }
  const int32_t unk = by_token.at("[UNK]");
  auto model = detail::make_wordpiece(vocab, "[UNK]", "##", 100, "test");
  std::mt19937 rng(11);
  const auto words = generated_words(rng, pieces, 8000);
  detail::WordCache cache;
  for (int round = 0; round < 2; ++round) {
    for (size_t i = 0; i < words.size(); ++i) {
      const std::string& w = words[i];
      if (w.empty()) continue;
      const auto expected = reference_wordpiece(w, by_token, unk);
      std::vector<detail::WordToken> plain, cached;
      model->tokenize(w, plain, nullptr);
      model->tokenize(w, cached, &cache);
      ASSERT_EQ(ids_of(plain), expected) << "word #" << i << ": " << w;
      ASSERT_EQ(ids_of(cached), expected) << "word #" << i << " (cached): " << w;
    }
  }
}

// A compact encoding (vocabulary references) and one built from strings go
// through the same truncation, padding, merging and slicing.
TEST(TextTokenizersFastPath, CompactEncodingEqualsStringEncoding) {
  auto table = std::make_shared<std::vector<std::string>>();
  for (int i = 0; i < 50; ++i) table->push_back("tok" + std::to_string(i) + (i % 7 == 0 ? std::string(20, 'x') : ""));
  std::mt19937 rng(5);
  std::uniform_int_distribution<int> id(0, 49);
  std::uniform_int_distribution<int> coin(0, 3);
  for (int trial = 0; trial < 200; ++trial) {
    Encoding compact, plain;
    compact.set_vocabulary(table);
    const int n = trial % 23;
    for (int i = 0; i < n; ++i) {
      const int64_t t = id(rng);
      const Offsets o{i, i + 1};
      const int c = coin(rng);
      if (c == 0) {
        const std::string added = "<added" + std::to_string(i) + ">";
        compact.push_back(t, added, o, i, 0, false);
        plain.push_back(t, added, o, i, 0, false);
      } else if (c == 1) {
        const std::string text = "text" + std::to_string(i);
        compact.push_back_text(t, text, o, i);
        compact.fill_sequence(0);
        plain.push_back(t, text, o, i, 0, false);
      } else {
        compact.push_back_vocab(t, o, i);
        compact.fill_sequence(0);
        plain.push_back(t, (*table)[static_cast<size_t>(t)], o, i, 0, false);
      }
    }
    const std::string what = "trial " + std::to_string(trial);
    expect_same_encoding(compact, plain, what);
    for (size_t i = 0; i < compact.size(); ++i) EXPECT_EQ(compact.token(i), plain.tokens()[i]) << what;
    Encoding c2 = compact, p2 = plain;
    c2.truncate(5, 2, trial % 2 ? "left" : "right");
    p2.truncate(5, 2, trial % 2 ? "left" : "right");
    expect_same_encoding(c2, p2, what + " truncated");
    ASSERT_EQ(c2.overflowing().size(), p2.overflowing().size());
    for (size_t k = 0; k < c2.overflowing().size(); ++k)
      expect_same_encoding(c2.overflowing()[k], p2.overflowing()[k], what + " overflow");
    c2.pad(9, 3, 1, "[PAD]", trial % 3 ? "right" : "left");
    p2.pad(9, 3, 1, "[PAD]", trial % 3 ? "right" : "left");
    expect_same_encoding(c2, p2, what + " padded");
    Encoding cm = Encoding::merge({compact, c2, plain}, trial % 2 == 0);
    Encoding pm = Encoding::merge({plain, p2, plain}, trial % 2 == 0);
    expect_same_encoding(cm, pm, what + " merged");
    // mutable_tokens() turns references into strings that can be edited.
    if (cm.size() > 0) {
      cm.mutable_tokens()[0] = "edited";
      EXPECT_EQ(cm.tokens()[0], "edited");
      EXPECT_EQ(cm.token(0), "edited");
    }
    if (HasFailure()) return;
  }
}

TEST(TextTokenizersFastPath, TokensOfOneEncodingFromManyThreads) {
  const Tokenizer tok = Tokenizer::from_file(golden_path("gpt2_tokenizer.json"));
  std::mt19937 rng(3);
  const Encoding e = tok.encode(hostile_text(rng, 4000, true));
  const Encoding copy = e;
  std::vector<std::vector<std::string>> seen(4);
  std::vector<std::thread> threads;
  for (size_t t = 0; t < seen.size(); ++t) threads.emplace_back([&, t] { seen[t] = e.tokens(); });
  for (auto& t : threads) t.join();
  for (const auto& s : seen) EXPECT_EQ(s, copy.tokens());
  for (size_t i = 0; i < e.size(); ++i) {
    auto expected = tok.id_to_token(e.ids()[i]);
    ASSERT_TRUE(expected.has_value());
    EXPECT_EQ(e.tokens()[i], *expected) << i;
  }
}

// encode (shared cache), encode_batch (per-thread caches) and a fresh
// tokenizer per text (cold cache) agree on a corpus with repeated words.
TEST(TextTokenizersFastPath, CachedAndColdEncodesAgree) {
  for (const char* file : {"gpt2_tokenizer.json", "bert_tokenizer.json", "roberta_tokenizer.json"}) {
    const Tokenizer warm = Tokenizer::from_file(golden_path(file));
    std::mt19937 rng(21);
    std::vector<std::string> texts;
    for (int i = 0; i < 300; ++i) texts.push_back(hostile_text(rng, 60, i % 4 == 0));
    for (int i = 0; i < 300; ++i)
      texts.push_back(texts[static_cast<size_t>(i)] + " " + texts[static_cast<size_t>(299 - i)]);
    const auto batch = warm.encode_batch(texts);
    for (size_t i = 0; i < texts.size(); i += 23) {
      const Tokenizer cold = Tokenizer::from_file(golden_path(file));
      const Encoding c = cold.encode(texts[i]);
      expect_same_encoding(warm.encode(texts[i]), c, std::string(file) + " text " + std::to_string(i));
      expect_same_encoding(batch[i], c, std::string(file) + " batch text " + std::to_string(i));
      if (HasFailure()) return;
    }
  }
}

}  // namespace
