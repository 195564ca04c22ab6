// ember::text::tokenizers against Hugging Face tokenizers (npm `tokenizers`):
// tests/golden/text/tokenizers_golden.json from tools/golden/gen_text_tokenizers.js.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <fstream>
#include <map>
#include <memory>
#include <sstream>

#include "common/test_util.h"
#include "ember/text/tokenizers.h"

namespace {

using ember::text::tokenizers::Encoding;
using ember::text::tokenizers::Tokenizer;
using nlohmann::json;

std::string golden_path(const std::string& name) { return std::string(EMBER_GOLDEN_DIR) + "/text/" + name; }

const json& golden() {
  static const json g = [] {
    std::ifstream f(golden_path("tokenizers_golden.json"));
    std::stringstream ss;
    ss << f.rdbuf();
    return json::parse(ss.str());
  }();
  return g;
}

Tokenizer& tokenizer(const std::string& name) {
  static std::map<std::string, std::unique_ptr<Tokenizer>> cache;
  auto it = cache.find(name);
  if (it == cache.end())
    it = cache.emplace(name, std::make_unique<Tokenizer>(Tokenizer::from_file(golden_path(name)))).first;
  return *it->second;
}

std::string from_hex(const std::string& hex) {
  std::string out;
  for (size_t i = 0; i + 1 < hex.size(); i += 2)
    out.push_back(static_cast<char>(std::stoi(hex.substr(i, 2), nullptr, 16)));
  return out;
}

std::vector<int64_t> ints(const json& j) { return j.get<std::vector<int64_t>>(); }

void expect_offsets(const Encoding& e, const json& want, const std::string& what) {
  ASSERT_EQ(e.offsets().size(), want.size()) << what;
  for (size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(std::get<0>(e.offsets()[i]), want[i][0].get<int64_t>()) << what << " token " << i;
    EXPECT_EQ(std::get<1>(e.offsets()[i]), want[i][1].get<int64_t>()) << what << " token " << i;
  }
}

void expect_encoding(const Encoding& e, const json& c, const std::string& what) {
  EXPECT_EQ(e.ids(), ints(c["ids"])) << what;
  EXPECT_EQ(e.tokens(), c["tokens"].get<std::vector<std::string>>()) << what;
  expect_offsets(e, c["offsets"], what);
  std::vector<std::optional<int64_t>> words;
  for (const auto& w : c["word_ids"])
    words.push_back(w.is_null() ? std::nullopt : std::optional<int64_t>(w.get<int64_t>()));
  EXPECT_EQ(e.word_ids(), words) << what;
  EXPECT_EQ(e.type_ids(), ints(c["type_ids"])) << what;
  EXPECT_EQ(e.special_tokens_mask(), ints(c["special_tokens_mask"])) << what;
  EXPECT_EQ(e.attention_mask(), ints(c["attention_mask"])) << what;
  ASSERT_EQ(e.overflowing().size(), c["overflowing"].size()) << what;
  for (size_t i = 0; i < e.overflowing().size(); ++i) {
    EXPECT_EQ(e.overflowing()[i].ids(), ints(c["overflowing"][i]["ids"])) << what << " overflowing " << i;
    EXPECT_EQ(e.overflowing()[i].type_ids(), ints(c["overflowing"][i]["type_ids"])) << what << " overflowing " << i;
    expect_offsets(e.overflowing()[i], c["overflowing"][i]["offsets"], what + " overflowing");
  }
}

std::string describe(const json& c) {
  std::string in = c.contains("raw_hex") ? "hex " + c["raw_hex"].get<std::string>() : json(c["input"]).dump();
  return c["tokenizer"].get<std::string>() + " " + in + (c.value("add_special_tokens", true) ? "" : " (no specials)");
}

TEST(TextTokenizers, EncodeMatchesReference) {
  int checked = 0;
  for (const auto& c : golden()["cases"]) {
    if (c.contains("batch")) continue;
    const Tokenizer& tok = tokenizer(c["tokenizer"]);
    std::string input = c.contains("raw_hex") ? from_hex(c["raw_hex"]) : c["input"].get<std::string>();
    bool add = c["add_special_tokens"].get<bool>();
    Encoding e = c.contains("pair") ? tok.encode(input, c["pair"].get<std::string>(), add) : tok.encode(input, add);
    expect_encoding(e, c, describe(c));
    ++checked;
  }
  EXPECT_GT(checked, 250);
}

TEST(TextTokenizers, DecodeMatchesReference) {
  for (const auto& c : golden()["cases"]) {
    if (!c.contains("decoded_skip")) continue;
    const Tokenizer& tok = tokenizer(c["tokenizer"]);
    EXPECT_EQ(tok.decode(ints(c["ids"]), true), c["decoded_skip"].get<std::string>()) << describe(c);
    EXPECT_EQ(tok.decode(ints(c["ids"]), false), c["decoded_keep"].get<std::string>()) << describe(c);
  }
}

TEST(TextTokenizers, EncodeBatchMatchesReference) {
  for (const auto& c : golden()["cases"]) {
    if (!c.contains("batch")) continue;
    const Tokenizer& tok = tokenizer(c["tokenizer"]);
    auto out = tok.encode_batch(c["batch"].get<std::vector<std::string>>());
    ASSERT_EQ(out.size(), c["results"].size());
    for (size_t i = 0; i < out.size(); ++i)
      expect_encoding(out[i], c["results"][i], c["tokenizer"].get<std::string>() + " batch " + std::to_string(i));
  }
}

TEST(TextTokenizers, TruncationAndPaddingMatchReference) {
  Tokenizer tok = Tokenizer::from_file(golden_path("roberta_tokenizer.json"));
  for (const auto& r : golden()["truncation"]) {
    const auto& t = r["settings"]["t"];
    std::string strategy = t.value("strategy", std::string("LongestFirst"));
    strategy = strategy == "OnlySecond" ? "only_second" : strategy == "OnlyFirst" ? "only_first" : "longest_first";
    tok.enable_truncation(t["maxLength"].get<int64_t>(), t.value("stride", int64_t{0}), strategy,
                          t.value("direction", std::string("right")));
    const auto& p = r["settings"]["p"];
    if (p.is_null()) {
      tok.no_padding();
    } else {
      std::optional<int64_t> length, multiple;
      if (p.contains("maxLength")) length = p["maxLength"].get<int64_t>();
      if (p.contains("padToMultipleOf")) multiple = p["padToMultipleOf"].get<int64_t>();
      tok.enable_padding(p.value("direction", std::string("right")), p.value("padId", int64_t{0}),
                         p.value("padTypeId", int64_t{0}), p.value("padToken", std::string("[PAD]")), length, multiple);
    }
    std::string what = r["settings"].dump();
    if (r.contains("single"))
      expect_encoding(tok.encode("The quick brown fox jumps over the lazy dog again and again"), r["single"], what);
    else
      EXPECT_EMBER_ERROR(tok.encode("The quick brown fox jumps over the lazy dog again and again"), "only_second");
    if (r.contains("pair")) {
      expect_encoding(tok.encode("The quick brown fox jumps", "over the lazy dog again and again and again"), r["pair"],
                      what + " pair");
      expect_encoding(tok.encode("one two three four five", "six seven eight nine ten"), r["pair2"], what + " pair2");
    }
  }
}

TEST(TextTokenizers, FromGpt2AndBertVocabularyFiles) {
  // vocab.json + merges.txt and vocab.txt give the same encodings as the tokenizer.json built on them.
  auto gpt2 = ember::text::tokenizers::ByteLevelBPETokenizer::from_file(golden_path("gpt2_vocab.json"),
                                                                        golden_path("gpt2_merges.txt"));
  auto bert = ember::text::tokenizers::BertWordPieceTokenizer::from_file(golden_path("bert_vocab.txt"));
  int n = 0;
  for (const auto& c : golden()["cases"]) {
    if (c.contains("batch") || c.contains("pair") || c.contains("raw_hex") || !c["add_special_tokens"].get<bool>())
      continue;
    std::string input = c["input"].get<std::string>();
    if (input.find("<|endoftext|>") != std::string::npos || input.find("[") != std::string::npos) continue;
    if (c["tokenizer"] == "gpt2_tokenizer.json") {
      expect_encoding(gpt2.encode(input), c, "vocab.json " + describe(c));
      ++n;
    } else if (c["tokenizer"] == "bert_tokenizer.json") {
      Encoding e = bert.encode(input);
      EXPECT_EQ(e.ids(), ints(c["ids"])) << describe(c);
      expect_offsets(e, c["offsets"], "vocab.txt " + describe(c));
      ++n;
    }
  }
  EXPECT_GT(n, 60);
}

TEST(TextTokenizers, ApiBasics) {
  Tokenizer& tok = tokenizer("bert_tokenizer.json");
  EXPECT_EQ(tok.token_to_id("[CLS]"), 2);
  EXPECT_EQ(tok.id_to_token(2), std::optional<std::string>("[CLS]"));
  EXPECT_EQ(tok.token_to_id("no-such-token-here"), std::nullopt);
  EXPECT_EQ(tok.id_to_token(1 << 30), std::nullopt);
  EXPECT_EQ(tok.num_special_tokens_to_add(false), 2);
  EXPECT_EQ(tok.num_special_tokens_to_add(true), 3);
  Encoding e = tok.encode("hello world");
  EXPECT_EQ(e.tokens().front(), "[CLS]");
  auto batch = tok.encode_batch({"hello world", "x"});
  ASSERT_EQ(batch.size(), 2u);
  EXPECT_EQ(batch[0].ids(), e.ids());
  auto pairs = tok.encode_batch({std::pair<std::string, std::string>("hello", "world")});
  EXPECT_EQ(pairs[0].ids(), tok.encode("hello", "world").ids());
  EXPECT_EQ(tok.decode(tok.encode("hello world").ids()), "hello world");
  EXPECT_EQ(e.special_tokens_mask().front(), 1);
}

TEST(TextTokenizers, MalformedFilesRaise) {
  EXPECT_EMBER_ERROR(Tokenizer::from_file("/nonexistent/tokenizer.json"), "cannot open");
  EXPECT_EMBER_ERROR(Tokenizer::from_str("{"), "not well-formed JSON");
  EXPECT_EMBER_ERROR(Tokenizer::from_str("[]"), "JSON object");
  EXPECT_EMBER_ERROR(Tokenizer::from_str("{}"), "no \"model\"");
  EXPECT_EMBER_ERROR(Tokenizer::from_str(std::string(100000, '[')), "nests deeper");
  EXPECT_EMBER_ERROR(Tokenizer::from_str(R"({"model":{"type":"BPE","vocab":{"a":0},"merges":["a b"]}})"),
                     "missing from the vocabulary");
  EXPECT_EMBER_ERROR(Tokenizer::from_str(R"({"model":{"type":"BPE","vocab":{"a":2000000000},"merges":[]}})"),
                     "outside");
  EXPECT_EMBER_ERROR(Tokenizer::from_str(R"({"model":{"type":"BPE","vocab":{"a":"x"},"merges":[]}})"),
                     "not an integer");
  EXPECT_EMBER_ERROR(Tokenizer::from_str(R"({"model":{"type":"Magic","vocab":{}}})"), "unsupported model type");
  EXPECT_EMBER_ERROR(
      Tokenizer::from_str(R"({"model":{"type":"WordPiece","vocab":{"[UNK]":0}},"normalizer":{"type":"Nope"}})"),
      "unsupported normalizer");
  EXPECT_EMBER_ERROR(Tokenizer::from_str(R"({"model":{"type":"WordPiece","vocab":{"a":0}}})"), "unk_token");
  EXPECT_EMBER_ERROR(
      Tokenizer::from_str(R"({"model":{"type":"BPE","vocab":{"a":0},"merges":[]},"added_tokens":[{"id":1}]})"),
      "content");
}

TEST(TextTokenizers, BadArgumentsRaise) {
  Tokenizer tok = Tokenizer::from_file(golden_path("bert_tokenizer.json"));
  EXPECT_EMBER_ERROR(tok.enable_truncation(-1), "max_length");
  EXPECT_EMBER_ERROR(tok.enable_truncation(8, 0, "sideways"), "strategy");
  EXPECT_EMBER_ERROR(tok.enable_padding("up"), "direction");
  tok.enable_truncation(1);
  EXPECT_EMBER_ERROR(tok.encode("hello"), "special tokens");
}

}  // namespace
