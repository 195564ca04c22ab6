#pragma once
// The dataset the torchtext readers return: the rows torchtext's datapipe
// yields, in its order, as a torch::data map-style dataset (get(i), size()),
// so it works with the DataLoader and its samplers.
#include <cstddef>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "ember/core/error.h"
#include "ember/data/datasets/base.h"

namespace torch::text::datasets {

template <typename Row>
class TextDataset : public data::datasets::Dataset<TextDataset<Row>, Row> {
 public:
  TextDataset(std::string name, std::string split, std::vector<Row> rows)
      : name_(std::move(name)), split_(std::move(split)), rows_(std::move(rows)) {}

  Row get(size_t index) override {
    EMBER_CHECK(index < rows_.size(), name_, "(split=", split_, "): index ", index, " out of range for ", rows_.size(),
                " rows");
    return rows_[index];
  }
  std::optional<size_t> size() const override { return rows_.size(); }

  const std::vector<Row>& rows() const { return rows_; }
  auto begin() const { return rows_.begin(); }
  auto end() const { return rows_.end(); }
  const std::string& name() const { return name_; }
  const std::string& split() const { return split_; }

 private:
  std::string name_, split_;
  std::vector<Row> rows_;
};

// (label, text): AG_NEWS, the Yelp / Amazon / DBpedia / Yahoo / Sogou CSVs, IMDB.
using LabelTextRow = std::tuple<int64_t, std::string>;
using LabelTextDataset = TextDataset<LabelTextRow>;

}  // namespace torch::text::datasets
