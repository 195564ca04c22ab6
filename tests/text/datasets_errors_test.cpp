// Bad files and arguments raise ember::Error naming the dataset, the file and
// the problem (where torchtext raises: a missing file, a bad split, a label
// Python's int() rejects, a short row, invalid UTF-8, an oversized field).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "common/test_util.h"
#include "ember/text/datasets.h"
#include "ember/text/datasets/file_reading.h"
#include "ember/torch.h"

namespace text_datasets_test {
namespace {

namespace D = ember::text::datasets;
namespace fs = std::filesystem;

class TextDatasetErrors : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() / ("ember_text_datasets_" + std::to_string(::getpid()) + "_" +
                                         ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(root_ / "datasets" / "AG_NEWS");
  }
  void TearDown() override { fs::remove_all(root_); }
  std::string write_ag_news(const std::string& content) {
    const fs::path p = root_ / "datasets" / "AG_NEWS" / "train.csv";
    std::ofstream(p, std::ios::binary) << content;
    return p.string();
  }
  fs::path root_;
};

TEST_F(TextDatasetErrors, MissingFilesAndSplits) {
  EXPECT_EMBER_ERROR(D::AG_NEWS(root_.string(), "test"), "AG_NEWS", "test.csv", "downloads nothing");
  EXPECT_EMBER_ERROR(D::AG_NEWS(root_.string(), "valid"), "AG_NEWS", "'valid'", "train, test");
  EXPECT_EMBER_ERROR(D::IMDB(root_.string(), "train"), "IMDB", "aclImdb");
  EXPECT_EMBER_ERROR(D::Multi30k(root_.string(), "train", {"de", "fr"}), "Multi30k", "language_pair");
}

TEST_F(TextDatasetErrors, BadRows) {
  write_ag_news("\"1\",\"ok\"\n\"x\",\"bad label\"\n");
  EXPECT_EMBER_ERROR(D::AG_NEWS(root_.string(), "train"), "AG_NEWS", "line 2", "invalid literal for int()", "'x'");
  write_ag_news("\"1\",\"ok\"\n\n\"2\",\"after a blank line\"\n");
  EXPECT_EMBER_ERROR(D::AG_NEWS(root_.string(), "train"), "AG_NEWS", "line 2", "0 fields");
  write_ag_news("\"1\",\"bad \xff byte\"\n");
  EXPECT_EMBER_ERROR(D::AG_NEWS(root_.string(), "train"), "AG_NEWS", "utf-8", "line 1");
  write_ag_news("\"1\",\"" + std::string(131073, 'a') + "\"\n");
  EXPECT_EMBER_ERROR(D::AG_NEWS(root_.string(), "train"), "field larger than field limit");
}

TEST_F(TextDatasetErrors, UnterminatedQuoteAtEndOfFileKeepsTheField) {
  // Python's csv (strict=False) saves the open field at the end of the input.
  write_ag_news("\"1\",\"open quote\nstill open");
  D::LabelTextDataset ds = D::AG_NEWS(root_.string(), "train");
  ASSERT_EQ(*ds.size(), 1u);
  EXPECT_EQ(std::get<1>(ds.get(0)), "open quote\nstill open");
  EXPECT_EMBER_ERROR(ds.get(1), "AG_NEWS", "index 1", "1 rows");
}

TEST_F(TextDatasetErrors, BadSquadJson) {
  const fs::path dir = root_ / "datasets" / "SQuAD1";
  fs::create_directories(dir);
  const auto squad = [&](const std::string& content) {
    std::ofstream(dir / "dev-v1.1.json", std::ios::binary) << content;
    return D::SQuAD1(root_.string(), "dev");
  };
  EXPECT_EMBER_ERROR(squad("{\"data\": ["), "SQuAD1", "invalid JSON");
  EXPECT_EMBER_ERROR(squad(std::string(100000, '[')), "SQuAD1", "nested deeper");
  EXPECT_EMBER_ERROR(squad("{\"version\": 1}"), "SQuAD1", "missing key 'data'");
  EXPECT_EMBER_ERROR(squad("{\"data\": [{\"paragraphs\": [{\"context\": 3, \"qas\": [{\"question\": \"q\", "
                           "\"answers\": []}]}]}]}"),
                     "'context' is not a string");
  EXPECT_EMBER_ERROR(squad("{\"data\": [{\"paragraphs\": [{\"context\": \"c\", \"qas\": [{\"question\": \"q\", "
                           "\"answers\": [{\"text\": \"a\", \"answer_start\": \"0\"}]}]}]}]}"),
                     "'answer_start' is not an integer");
}

TEST(TextDatasetParsing, PythonNumberRules) {
  namespace d = D::detail;
  EXPECT_EQ(d::parse_int(" +1_000 ", "X", "f", 1), 1000);
  EXPECT_EQ(d::parse_int("-007", "X", "f", 1), -7);
  EXPECT_EMBER_ERROR(d::parse_int("1__0", "X", "f", 1), "invalid literal");
  EXPECT_EMBER_ERROR(d::parse_int("", "X", "f", 1), "invalid literal");
  EXPECT_EMBER_ERROR(d::parse_int("1.0", "X", "f", 1), "invalid literal");
  EXPECT_DOUBLE_EQ(d::parse_float(" 3.25 ", "X", "f", 1), 3.25);
  EXPECT_DOUBLE_EQ(d::parse_float("1e-2", "X", "f", 1), 0.01);
  EXPECT_EMBER_ERROR(d::parse_float("0x10", "X", "f", 1), "could not convert");
  EXPECT_EMBER_ERROR(d::parse_float("abc", "X", "f", 1), "could not convert");
  EXPECT_EQ(d::python_strip("\u3000 x y\t\x1f"), "x y");
  EXPECT_EQ(d::python_strip(" \xf0\x9f "), "\xf0\x9f");
}

}  // namespace
}  // namespace text_datasets_test
