#include "ember/text/datasets/text_classification.h"

#include <algorithm>
#include <filesystem>

#include "ember/core/error.h"
#include "ember/text/datasets/file_reading.h"
#include "ember/text/datasets/splits.h"

namespace torch::text::datasets {

namespace {

// root/datasets/<name>/<folder>/<split>.csv, parsed as torchtext's parse_csv().map(_modify_res).
LabelTextDataset label_text_csv(const char* name, const std::string& folder, const std::string& root,
                                const std::string& split) {
  detail::check_split(name, split, {"train", "test"});
  std::string path = detail::dataset_dir(root, name);
  if (!folder.empty()) path += "/" + folder;
  path += "/" + split + ".csv";
  std::vector<LabelTextRow> rows;
  for (const detail::CsvRow& row : detail::read_csv(path, name)) {
    const int64_t label = detail::parse_int(detail::field(row, 0, name, path), name, path, row.line);
    std::string text;
    for (size_t i = 1; i < row.fields.size(); ++i) {
      if (i > 1) text.push_back(' ');
      text += row.fields[i];
    }
    rows.emplace_back(label, std::move(text));
  }
  return LabelTextDataset(name, split, std::move(rows));
}

}  // namespace

#define EMBER_DEFINE_CSV_DATASET(NAME, FOLDER)                                   \
  LabelTextDataset NAME(const std::string& root, const std::string& split) {     \
    return label_text_csv(#NAME, FOLDER, root, split);                           \
  }                                                                              \
  std::tuple<LabelTextDataset, LabelTextDataset> NAME(const std::string& root) { \
    return {NAME(root, std::string("train")), NAME(root, std::string("test"))};  \
  }

EMBER_DEFINE_CSV_DATASET(AG_NEWS, "")
EMBER_DEFINE_CSV_DATASET(AmazonReviewFull, "amazon_review_full_csv")
EMBER_DEFINE_CSV_DATASET(AmazonReviewPolarity, "amazon_review_polarity_csv")
EMBER_DEFINE_CSV_DATASET(DBpedia, "dbpedia_csv")
EMBER_DEFINE_CSV_DATASET(SogouNews, "sogou_news_csv")
EMBER_DEFINE_CSV_DATASET(YahooAnswers, "yahoo_answers_csv")
EMBER_DEFINE_CSV_DATASET(YelpReviewFull, "yelp_review_full_csv")
EMBER_DEFINE_CSV_DATASET(YelpReviewPolarity, "yelp_review_polarity_csv")

#undef EMBER_DEFINE_CSV_DATASET

LabelTextDataset IMDB(const std::string& root, const std::string& split) {
  detail::check_split("IMDB", split, {"train", "test"});
  namespace fs = std::filesystem;
  const std::string dir = detail::dataset_dir(root, "IMDB") + "/aclImdb/" + split;
  std::vector<LabelTextRow> rows;
  for (const auto& [label_name, label] : {std::pair<const char*, int64_t>{"neg", 1}, {"pos", 2}}) {
    const fs::path folder = fs::path(dir) / label_name;
    std::error_code ec;
    EMBER_CHECK(fs::is_directory(folder, ec), "IMDB: no folder ", folder.string(),
                " (Ember downloads nothing: extract aclImdb_v1.tar.gz there)");
    std::vector<fs::path> files;
    for (const auto& entry : fs::directory_iterator(folder, ec)) {
      if (entry.is_regular_file(ec)) files.push_back(entry.path());
    }
    EMBER_CHECK(!ec, "IMDB: cannot list ", folder.string(), ": ", ec.message());
    std::sort(files.begin(), files.end());
    for (const fs::path& file : files) {
      for (std::string& line : detail::read_lines(file.string(), "IMDB", true)) {
        if (detail::python_strip(line).empty()) continue;
        rows.emplace_back(label, std::move(line));
      }
    }
  }
  return LabelTextDataset("IMDB", split, std::move(rows));
}

std::tuple<LabelTextDataset, LabelTextDataset> IMDB(const std::string& root) {
  return {IMDB(root, std::string("train")), IMDB(root, std::string("test"))};
}

}  // namespace torch::text::datasets
