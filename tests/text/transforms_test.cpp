// ember::text vocab, functional and transforms against torchtext 0.14's Python
// layer (tests/golden/text/transforms_golden.json from
// tools/golden/gen_text_transforms.py); the tokenizer transforms against the
// Hugging Face encodings of the same vocabularies (tokenizers_golden.json).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <fstream>
#include <sstream>

#include "common/test_util.h"
#include "ember/text/functional.h"
#include "ember/text/transforms.h"
#include "ember/text/vocab.h"
#include "ember/torch.h"

namespace {

namespace F = ember::text::functional;
namespace T = ember::text::transforms;
using ember::text::vocab::build_vocab_from_iterator;
using ember::text::vocab::Vocab;
using nlohmann::json;

std::string golden_path(const std::string& name) { return std::string(EMBER_GOLDEN_DIR) + "/text/" + name; }

json load(const std::string& name) {
  std::ifstream f(golden_path(name));
  std::stringstream ss;
  ss << f.rdbuf();
  return json::parse(ss.str());
}

const json& golden() {
  static const json g = load("transforms_golden.json");
  return g;
}

ember::ScalarType dtype_of(const std::string& s) {
  if (s == "int64") return ember::kLong;
  if (s == "int32") return ember::kInt;
  if (s == "float32") return ember::kFloat;
  throw std::runtime_error("dtype " + s);
}

ember::Tensor tensor_of(const json& t) {
  std::vector<double> v = t["values"].get<std::vector<double>>();
  ember::Tensor x = ember::tensor(v, ember::TensorOptions().dtype(ember::kDouble));
  return x.reshape(t["shape"].get<std::vector<int64_t>>()).to(dtype_of(t["dtype"]));
}

TEST(TextVocab, BuildVocabFromIteratorMatchesTorchtext) {
  std::vector<std::vector<std::string>> corpus = {{"the", "cat", "sat", "on", "the", "mat"},
                                                  {"the", "dog", "ate", "the", "cat"},
                                                  {"a", "b", "b", "c", "c", "c", "<unk>"},
                                                  {},
                                                  {"zeta", "Alpha", "alpha",
                                                   "\xC3\xA9"
                                                   "clair",
                                                   "\xE4\xB8\xAD\xE6\x96\x87"}};
  for (const auto& c : golden()["vocab"]) {
    std::optional<int64_t> max_tokens;
    if (!c["max_tokens"].is_null()) max_tokens = c["max_tokens"].get<int64_t>();
    Vocab v =
        build_vocab_from_iterator(corpus, c["min_freq"].get<int64_t>(), c["specials"].get<std::vector<std::string>>(),
                                  c["special_first"].get<bool>(), max_tokens);
    EXPECT_EQ(v.get_itos(), c["itos"].get<std::vector<std::string>>()) << c.dump();
  }
}

TEST(TextVocab, LookupsAndDefaultIndex) {
  Vocab v = build_vocab_from_iterator({{"a", "b", "b"}}, 1, {"<unk>"});
  EXPECT_EQ(v.size(), 3);
  EXPECT_EQ(v["<unk>"], 0);
  EXPECT_EQ(v["b"], 1);
  EXPECT_TRUE(v.contains("a"));
  EXPECT_FALSE(v.contains("zzz"));
  EXPECT_EMBER_ERROR(v["zzz"], "zzz", "default index is not set");
  v.set_default_index(v["<unk>"]);
  EXPECT_EQ(v["zzz"], 0);
  EXPECT_EQ(v.get_default_index(), 0);
  EXPECT_EQ(v.lookup_indices({"a", "zzz", "b"}), (std::vector<int64_t>{2, 0, 1}));
  EXPECT_EQ(v.lookup_tokens({2, 1}), (std::vector<std::string>{"a", "b"}));
  EXPECT_EMBER_ERROR(v.lookup_token(3), "out of bounds");
  v.insert_token("c", 1);
  EXPECT_EQ(v.get_itos(), (std::vector<std::string>{"<unk>", "c", "b", "a"}));
  EXPECT_EQ(v["a"], 3);
  EXPECT_EMBER_ERROR(v.insert_token("a", 0), "already exists");
  EXPECT_EMBER_ERROR(v.insert_token("d", 9), "out of bounds");
  v.append_token("d");
  EXPECT_EQ(v["d"], 4);
  EXPECT_EMBER_ERROR(build_vocab_from_iterator({{"a"}}, 1, {"x", "y"}, true, 2), "max_tokens");
}

TEST(TextFunctional, MatchesTorchtext) {
  for (const auto& c : golden()["to_tensor"]) {
    std::optional<int64_t> pad;
    if (!c["padding_value"].is_null()) pad = c["padding_value"].get<int64_t>();
    ember::Tensor got =
        c["input"][0].is_array()
            ? F::to_tensor(c["input"].get<std::vector<std::vector<int64_t>>>(), pad, dtype_of(c["dtype"]))
            : F::to_tensor(c["input"].get<std::vector<int64_t>>(), pad, dtype_of(c["dtype"]));
    EXPECT_TENSOR_EQ(got, tensor_of(c["out"]));
  }
  EXPECT_EMBER_ERROR(F::to_tensor(std::vector<std::vector<int64_t>>{{1, 2}, {3}}), "different lengths");
  for (const auto& c : golden()["truncate"]) {
    int64_t n = c["max_seq_len"].get<int64_t>();
    if (c["input"][0].is_array())
      EXPECT_EQ(F::truncate(c["input"].get<std::vector<std::vector<int64_t>>>(), n),
                c["out"].get<std::vector<std::vector<int64_t>>>());
    else
      EXPECT_EQ(F::truncate(c["input"].get<std::vector<std::string>>(), n), c["out"].get<std::vector<std::string>>());
  }
  for (const auto& c : golden()["add_token"]) {
    bool begin = c["begin"].get<bool>();
    if (c["token"].is_string())
      EXPECT_EQ(
          F::add_token(c["input"].get<std::vector<std::vector<std::string>>>(), c["token"].get<std::string>(), begin),
          c["out"].get<std::vector<std::vector<std::string>>>());
    else
      EXPECT_EQ(F::add_token(c["input"].get<std::vector<std::vector<int64_t>>>(), c["token"].get<int64_t>(), begin),
                c["out"].get<std::vector<std::vector<int64_t>>>());
  }
  for (const auto& c : golden()["str_to_int"])
    EXPECT_EQ(F::str_to_int(c["input"].get<std::vector<std::string>>()), c["out"].get<std::vector<int64_t>>());
  EXPECT_EMBER_ERROR(F::str_to_int(std::vector<std::string>{"12x"}), "invalid literal", "12x");
}

TEST(TextTransforms, PadLabelsAndSequential) {
  for (const auto& c : golden()["pad"]) {
    T::PadTransform pad(c["max_length"].get<int64_t>(), c["pad_value"].get<int64_t>());
    EXPECT_TENSOR_EQ(pad(tensor_of(c["input"])), tensor_of(c["out"]));
  }
  for (const auto& c : golden()["labels"]) {
    T::LabelToIndex labels(c["names"].get<std::vector<std::string>>(), std::nullopt, c["sort_names"].get<bool>());
    EXPECT_EQ(labels->label_names, c["order"].get<std::vector<std::string>>());
    EXPECT_EQ(labels("neg"), labels->label_names.end() - labels->label_names.begin() -
                                 (labels->label_names.end() -
                                  std::find(labels->label_names.begin(), labels->label_names.end(), "neg")));
  }
  EXPECT_EMBER_ERROR(T::LabelToIndex(), "exactly one");

  Vocab v = build_vocab_from_iterator({{"hello", "world", "hello"}}, 1, {"<pad>", "<unk>"});
  v.set_default_index(v["<unk>"]);
  T::Sequential pipeline(T::Truncate(2), T::VocabTransform(v), T::AddToken(int64_t{7}, true), T::ToTensor(0));
  auto out = pipeline(T::TextData(std::vector<std::vector<std::string>>{{"hello", "world", "x"}, {"nope"}}));
  ember::Tensor t = std::get<ember::Tensor>(out);
  EXPECT_TENSOR_EQ(t, ember::tensor(std::vector<int64_t>{7, 2, 3, 7, 1, 0}).reshape({2, 3}));
  EXPECT_EQ(pipeline->named_children().size(), 4u);
  EXPECT_EMBER_ERROR(pipeline(T::TextData(int64_t{3})), "Truncate", "int");
}

TEST(TextTransforms, TokenizerTransformsMatchReference) {
  T::GPT2BPETokenizer gpt2(golden_path("gpt2_vocab.json"), golden_path("gpt2_merges.txt"));
  T::GPT2BPETokenizer gpt2_tokens(golden_path("gpt2_vocab.json"), golden_path("gpt2_merges.txt"), true);
  T::BERTTokenizer bert(golden_path("bert_vocab.txt"));
  T::BERTTokenizer bert_tokens(golden_path("bert_vocab.txt"), true, std::nullopt, true);
  int n = 0;
  const json tokenizer_golden = load("tokenizers_golden.json");
  for (const auto& c : tokenizer_golden["cases"]) {
    if (c.contains("batch") || c.contains("pair") || c.contains("raw_hex") || c["add_special_tokens"].get<bool>())
      continue;
    std::string input = c["input"].get<std::string>();
    std::vector<std::string> ids;
    for (int64_t id : c["ids"].get<std::vector<int64_t>>()) ids.push_back(std::to_string(id));
    if (c["tokenizer"] == "gpt2_tokenizer.json" && input.find("<|") == std::string::npos) {
      EXPECT_EQ(gpt2(input), ids) << input;
      EXPECT_EQ(gpt2_tokens(input), c["tokens"].get<std::vector<std::string>>()) << input;
      ++n;
    } else if (c["tokenizer"] == "bert_tokenizer.json" && input.find('[') == std::string::npos) {
      EXPECT_EQ(bert(input), ids) << input;
      EXPECT_EQ(bert_tokens(input), c["tokens"].get<std::vector<std::string>>()) << input;
      ++n;
    }
  }
  EXPECT_GT(n, 15);
  EXPECT_EQ(gpt2(std::vector<std::string>{"a b", "c"}).size(), 2u);
}

}  // namespace
