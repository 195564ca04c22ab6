#pragma once
// torchtext.datasets' IOB-style sequence tagging sets over extracted files,
// under root/datasets/<NAME>/, read as torchtext's read_iob does: lines are
// str.strip()ped and split on the separator; a blank line ends a sentence, and
// a row holds one list per column (column i collects the i-th entry of every
// line that has one).
//   CoNLL2000Chunking  {train,test}.txt               separator " "   (words, POS tags, chunk tags)
//   UDPOS              train.txt, dev.txt, test.txt   separator "\t"  (words, UD tags, PTB tags)
//                      (splits train, valid, test)
#include <string>
#include <tuple>
#include <vector>

#include "ember/text/datasets/text_dataset.h"

namespace torch::text::datasets {

using TaggingRow = std::vector<std::vector<std::string>>;

TextDataset<TaggingRow> CoNLL2000Chunking(const std::string& root, const std::string& split);
std::tuple<TextDataset<TaggingRow>, TextDataset<TaggingRow>> CoNLL2000Chunking(const std::string& root);
TextDataset<TaggingRow> UDPOS(const std::string& root, const std::string& split);
std::tuple<TextDataset<TaggingRow>, TextDataset<TaggingRow>, TextDataset<TaggingRow>> UDPOS(const std::string& root);

}  // namespace torch::text::datasets
