// The Whitespace, Punctuation (every behavior) and Digits pre-tokenizers
// against the npm `tokenizers` (tests/golden/text/pre_tokenizers_golden.json
// from tools/golden/gen_text_pre_tokenizers.js, on the BERT fixture vocabulary).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <fstream>
#include <sstream>

#include "common/test_util.h"
#include "ember/text/tokenizers.h"

namespace {

using ember::text::tokenizers::Tokenizer;
using nlohmann::json;

std::string golden_path(const std::string& name) { return std::string(EMBER_GOLDEN_DIR) + "/text/" + name; }

json read_json(const std::string& name) {
  std::ifstream f(golden_path(name));
  std::stringstream ss;
  ss << f.rdbuf();
  return json::parse(ss.str());
}

TEST(TextPreTokenizers, SplitsMatchReference) {
  const json golden = read_json("pre_tokenizers_golden.json");
  json vocab = json::object();
  {
    std::ifstream f(golden_path("bert_vocab.txt"));
    int64_t id = 0;
    for (std::string line; std::getline(f, line);)
      if (!line.empty()) vocab[line] = id++;
  }
  int checked = 0;
  for (const json& entry : golden) {
    json config = entry["tokenizer"];
    config["model"]["vocab"] = vocab;
    const Tokenizer tok = Tokenizer::from_str(config.dump());
    for (const json& c : entry["cases"]) {
      const std::string what = entry["name"].get<std::string>() + " " + json(c["input"]).dump();
      const auto e = tok.encode(c["input"].get<std::string>(), false);
      EXPECT_EQ(e.ids(), c["ids"].get<std::vector<int64_t>>()) << what;
      EXPECT_EQ(e.tokens(), c["tokens"].get<std::vector<std::string>>()) << what;
      ASSERT_EQ(e.offsets().size(), c["offsets"].size()) << what;
      for (size_t i = 0; i < e.offsets().size(); ++i) {
        EXPECT_EQ(std::get<0>(e.offsets()[i]), c["offsets"][i][0].get<int64_t>()) << what << " token " << i;
        EXPECT_EQ(std::get<1>(e.offsets()[i]), c["offsets"][i][1].get<int64_t>()) << what << " token " << i;
      }
      std::vector<std::optional<int64_t>> words;
      for (const auto& w : c["word_ids"])
        words.push_back(w.is_null() ? std::nullopt : std::optional<int64_t>(w.get<int64_t>()));
      EXPECT_EQ(e.word_ids(), words) << what;
      ++checked;
    }
  }
  EXPECT_GT(checked, 200);
  EXPECT_EMBER_ERROR(Tokenizer::from_str(R"({"pre_tokenizer": {"type": "Punctuation", "behavior": "Sideways"},
                                            "model": {"type": "WordLevel", "vocab": {"<unk>": 0}}})"),
                     "Sideways");
}

}  // namespace

namespace {

// Note [Regex time limit]: a pattern that backtracks without end raises instead of hanging.
TEST(TextPreTokenizers, CatastrophicRegexRaisesInsteadOfHanging) {
  const std::string model = R"("model": {"type": "WordLevel", "vocab": {"a": 0, "[UNK]": 1}, "unk_token": "[UNK]"})";
  const Tokenizer split = Tokenizer::from_str(
      "{" + model + R"(, "pre_tokenizer": {"type": "Split", "pattern": {"Regex": "(a+)+$"}, "behavior": "Isolated",
      "invert": false}})");
  const std::string text = std::string(40, 'a') + "b";
  EXPECT_EMBER_ERROR(split.encode(text), "Split regex", "U_REGEX_TIME_OUT");
  const Tokenizer replace = Tokenizer::from_str(
      "{" + model + R"(, "normalizer": {"type": "Replace", "pattern": {"Regex": "(a+)+$"}, "content": "x"}})");
  EXPECT_EMBER_ERROR(replace.encode(text), "Replace regex", "U_REGEX_TIME_OUT");
  // A pattern that matches quickly still works on the same input.
  const Tokenizer fine = Tokenizer::from_str(
      "{" + model + R"(, "pre_tokenizer": {"type": "Split", "pattern": {"Regex": "a"}, "behavior": "Isolated",
      "invert": false}})");
  EXPECT_EQ(fine.encode(text).ids().size(), 41u);
}

}  // namespace
