#pragma once
// torchtext.datasets.SQuAD1 / SQuAD2 over the JSON files the user has, under
// root/datasets/<NAME>/ (train-v1.1.json, dev-v1.1.json; train-v2.0.json,
// dev-v2.0.json): one row per question, (context, question, answers,
// answer_starts), in file order; a question without answers (SQuAD 2's
// impossible ones) yields answers {""} and answer_starts {-1}, as torchtext.
#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

#include "ember/text/datasets/text_dataset.h"

namespace torch::text::datasets {

using SQuADRow = std::tuple<std::string, std::string, std::vector<std::string>, std::vector<int64_t>>;

TextDataset<SQuADRow> SQuAD1(const std::string& root, const std::string& split);
std::tuple<TextDataset<SQuADRow>, TextDataset<SQuADRow>> SQuAD1(const std::string& root);
TextDataset<SQuADRow> SQuAD2(const std::string& root, const std::string& split);
std::tuple<TextDataset<SQuADRow>, TextDataset<SQuADRow>> SQuAD2(const std::string& root);

}  // namespace torch::text::datasets
