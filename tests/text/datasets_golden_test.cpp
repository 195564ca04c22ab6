// torchtext 0.14.1's dataset readers against ours on fixture files in each
// layout (tools/golden/gen_text_datasets.py): the same rows, in the same order,
// for every split, and the datasets work with the DataLoader.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "common/test_util.h"
#include "ember/text/datasets.h"
#include "ember/torch.h"

namespace text_datasets_test {
namespace {

namespace D = ember::text::datasets;
using nlohmann::json;

const std::string kRoot = std::string(EMBER_GOLDEN_DIR) + "/text/datasets/root";

const json& golden() {
  static const json j = [] {
    std::ifstream in(std::string(EMBER_GOLDEN_DIR) + "/text/datasets_golden.json");
    std::stringstream s;
    s << in.rdbuf();
    return json::parse(s.str());
  }();
  return j;
}

json to_json(int64_t v) { return v; }
json to_json(double v) { return v; }
json to_json(const std::string& v) { return v; }
json to_json(const std::optional<int64_t>& v) { return v.has_value() ? json(*v) : json(nullptr); }
json to_json(const std::vector<std::string>& v) { return v; }
json to_json(const std::vector<int64_t>& v) { return v; }
json to_json(const std::vector<std::vector<std::string>>& v) { return v; }
template <typename... T>
json to_json(const std::tuple<T...>& row) {
  json out = json::array();
  std::apply([&](const auto&... v) { (out.push_back(to_json(v)), ...); }, row);
  return out;
}

// SST2's test rows and the sentence-pair test rows are shorter in Python (no label).
json python_row(const json& ours, const std::string& dataset, const std::string& split) {
  if (split != "test") return ours;
  if (dataset == "SST2") return json::array({ours[0]});
  if (dataset == "QNLI" || dataset == "RTE" || dataset == "WNLI") return json::array({ours[1], ours[2]});
  return ours;
}

template <typename Dataset>
void expect_rows(Dataset ds, const std::string& dataset, const std::string& split, const json& expected) {
  SCOPED_TRACE(dataset + " " + split);
  ASSERT_EQ(*ds.size(), expected.size());
  for (size_t i = 0; i < expected.size(); ++i) {
    EXPECT_EQ(python_row(to_json(ds.get(i)), dataset, split), expected[i]) << "row " << i;
  }
}

TEST(TextDatasets, ClassificationCsvsMatchTorchtext) {
  using F = D::LabelTextDataset (*)(const std::string&, const std::string&);
  const std::vector<std::pair<std::string, F>> sets = {{"AG_NEWS", &D::AG_NEWS},
                                                       {"AmazonReviewFull", &D::AmazonReviewFull},
                                                       {"AmazonReviewPolarity", &D::AmazonReviewPolarity},
                                                       {"DBpedia", &D::DBpedia},
                                                       {"SogouNews", &D::SogouNews},
                                                       {"YahooAnswers", &D::YahooAnswers},
                                                       {"YelpReviewFull", &D::YelpReviewFull},
                                                       {"YelpReviewPolarity", &D::YelpReviewPolarity},
                                                       {"IMDB", &D::IMDB}};
  for (const auto& [name, f] : sets) {
    for (const std::string split : {"train", "test"}) expect_rows(f(kRoot, split), name, split, golden()[name][split]);
  }
  auto [train, test] = D::AG_NEWS(kRoot);
  EXPECT_EQ(train.split(), "train");
  EXPECT_EQ(test.split(), "test");
  EXPECT_EQ(std::get<0>(train.get(0)), 3);
}

TEST(TextDatasets, GlueTasksMatchTorchtext) {
  for (const std::string split : {"train", "dev", "test"}) {
    expect_rows(D::SST2(kRoot, split), "SST2", split, golden()["SST2"][split]);
    expect_rows(D::CoLA(kRoot, split), "CoLA", split, golden()["CoLA"][split]);
    expect_rows(D::QNLI(kRoot, split), "QNLI", split, golden()["QNLI"][split]);
    expect_rows(D::RTE(kRoot, split), "RTE", split, golden()["RTE"][split]);
    expect_rows(D::WNLI(kRoot, split), "WNLI", split, golden()["WNLI"][split]);
    expect_rows(D::STSB(kRoot, split), "STSB", split, golden()["STSB"][split]);
  }
  for (const std::string split : {"train", "test"}) {
    expect_rows(D::MRPC(kRoot, split), "MRPC", split, golden()["MRPC"][split]);
  }
  auto [train, dev, test] = D::SST2(kRoot);
  EXPECT_FALSE(std::get<1>(test.get(0)).has_value());
  EXPECT_TRUE(std::get<1>(train.get(0)).has_value());
}

TEST(TextDatasets, MnliAndQqpMatchTorchtext) {
  for (const std::string split : {"train", "dev_matched", "dev_mismatched"}) {
    expect_rows(D::MNLI(kRoot, split), "MNLI", split, golden()["MNLI"][split]);
  }
  expect_rows(D::QQP(kRoot), "QQP", "train", golden()["QQP"]);
}

TEST(TextDatasets, SquadAndIobTaggingMatchTorchtext) {
  for (const std::string split : {"train", "dev"}) {
    expect_rows(D::SQuAD1(kRoot, split), "SQuAD1", split, golden()["SQuAD1"][split]);
    expect_rows(D::SQuAD2(kRoot, split), "SQuAD2", split, golden()["SQuAD2"][split]);
  }
  for (const std::string split : {"train", "test"}) {
    expect_rows(D::CoNLL2000Chunking(kRoot, split), "CoNLL2000Chunking", split, golden()["CoNLL2000Chunking"][split]);
  }
  for (const std::string split : {"train", "valid", "test"}) {
    expect_rows(D::UDPOS(kRoot, split), "UDPOS", split, golden()["UDPOS"][split]);
  }
}

TEST(TextDatasets, LanguageModelingAndTranslationMatchTorchtext) {
  for (const std::string split : {"train", "valid", "test"}) {
    expect_rows(D::WikiText2(kRoot, split), "WikiText2", split, golden()["WikiText2"][split]);
    expect_rows(D::WikiText103(kRoot, split), "WikiText103", split, golden()["WikiText103"][split]);
    expect_rows(D::PennTreebank(kRoot, split), "PennTreebank", split, golden()["PennTreebank"][split]);
    expect_rows(D::Multi30k(kRoot, split), "Multi30k", split, golden()["Multi30k"][split]["de_en"]);
    expect_rows(D::Multi30k(kRoot, split, {"en", "de"}), "Multi30k", split, golden()["Multi30k"][split]["en_de"]);
  }
}

TEST(TextDatasets, WorkWithTheDataLoader) {
  auto loader = ember::data::make_data_loader<ember::data::samplers::SequentialSampler>(
      D::AG_NEWS(kRoot, "train"), ember::data::DataLoaderOptions().batch_size(3));
  std::vector<int64_t> labels;
  size_t batches = 0;
  for (const auto& batch : *loader) {
    ++batches;
    for (const D::LabelTextRow& row : batch) labels.push_back(std::get<0>(row));
  }
  EXPECT_EQ(batches, 3u);
  std::vector<int64_t> expected;
  for (const json& row : golden()["AG_NEWS"]["train"]) expected.push_back(row[0].get<int64_t>());
  EXPECT_EQ(labels, expected);
}

}  // namespace
}  // namespace text_datasets_test
