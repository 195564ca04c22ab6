// torchtext's CLIPTokenizer against tests/golden/text/clip_golden.json, which
// tools/golden/gen_text_clip.py computes with torchtext's documented algorithm
// (Debian's torchtext 0.14 has no C++ extension to run).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <fstream>
#include <sstream>

#include "common/test_util.h"
#include "ember/text/transforms.h"

namespace {

namespace T = ember::text::transforms;
using nlohmann::json;

std::string golden_path(const std::string& name) { return std::string(EMBER_GOLDEN_DIR) + "/text/" + name; }

const json& golden() {
  static const json g = [] {
    std::ifstream f(golden_path("clip_golden.json"));
    std::stringstream ss;
    ss << f.rdbuf();
    return json::parse(ss.str());
  }();
  return g;
}

TEST(CLIPTokenizer, WithEncoderJson) {
  T::CLIPTokenizer ids(golden_path("clip_merges.txt"), golden_path("clip_encoder.json"));
  T::CLIPTokenizer toks(golden_path("clip_merges.txt"), golden_path("clip_encoder.json"), std::nullopt, true);
  for (const json& c : golden()["cases"]) {
    const std::string in = c["input"].get<std::string>();
    EXPECT_EQ(toks(in), c["tokens"].get<std::vector<std::string>>()) << in;
    EXPECT_EQ(ids(in), c["ids"].get<std::vector<std::string>>()) << in;
  }
}

TEST(CLIPTokenizer, VocabularyFromMerges) {
  const int64_t half = golden()["half_merges"].get<int64_t>();
  T::CLIPTokenizer ids(golden_path("clip_merges.txt"), std::nullopt, half);
  T::CLIPTokenizer toks(golden_path("clip_merges.txt"), std::nullopt, half, true);
  std::vector<std::string> inputs;
  std::vector<std::vector<std::string>> want;
  for (const json& c : golden()["cases"]) {
    const std::string in = c["input"].get<std::string>();
    EXPECT_EQ(toks(in), c["half_tokens"].get<std::vector<std::string>>()) << in;
    inputs.push_back(in);
    want.push_back(c["half_ids"].get<std::vector<std::string>>());
  }
  EXPECT_EQ(ids(inputs), want);
  // All merges (num_merges=None): the encoder json's tokens. (Its ids differ:
  // the file's final newline makes an empty last "merge", one more vocabulary
  // entry before the specials, as in torchtext.)
  T::CLIPTokenizer all(golden_path("clip_merges.txt"), std::nullopt, std::nullopt, true);
  for (const json& c : golden()["cases"])
    EXPECT_EQ(all(c["input"].get<std::string>()), c["tokens"].get<std::vector<std::string>>());
}

TEST(CLIPTokenizer, BadInput) {
  EXPECT_EMBER_ERROR(T::CLIPTokenizer(golden_path("no_such_merges.txt")), "no_such_merges.txt");
  T::CLIPTokenizer tok(golden_path("clip_merges.txt"), golden_path("clip_encoder.json"));
  EXPECT_EMBER_ERROR(tok->forward_any(T::TextData(int64_t{1})), "CLIPTokenizer");
  // Invalid UTF-8 reads as U+FFFD, which the byte alphabet spells.
  EXPECT_FALSE(tok(std::string("a\xff"
                               "b"))
                   .empty());
}

}  // namespace
