#pragma once
// torchtext.datasets' language-modeling and translation sets over extracted
// files (nothing is downloaded), under root/datasets/<NAME>/:
//   WikiText2     wikitext-2/wiki.{train,valid,test}.tokens     every line, "\n" kept
//   WikiText103   wikitext-103/wiki.{train,valid,test}.tokens   every line, "\n" kept
//   PennTreebank  ptb.{train,valid,test}.txt                    every line, str.strip()ped
//   Multi30k      {train,val,test}.{de,en}                      (source, target) lines, "\n" removed,
//                 paired until the shorter file ends (torchdata's zip)
#include <string>
#include <tuple>
#include <utility>

#include "ember/text/datasets/text_dataset.h"

namespace torch::text::datasets {

using LineDataset = TextDataset<std::string>;
using TranslationRow = std::tuple<std::string, std::string>;

LineDataset WikiText2(const std::string& root, const std::string& split);
std::tuple<LineDataset, LineDataset, LineDataset> WikiText2(const std::string& root);
LineDataset WikiText103(const std::string& root, const std::string& split);
std::tuple<LineDataset, LineDataset, LineDataset> WikiText103(const std::string& root);
LineDataset PennTreebank(const std::string& root, const std::string& split);
std::tuple<LineDataset, LineDataset, LineDataset> PennTreebank(const std::string& root);

// language_pair ("de", "en") or ("en", "de"): which file is the source.
TextDataset<TranslationRow> Multi30k(const std::string& root, const std::string& split,
                                     std::pair<std::string, std::string> language_pair = {"de", "en"});
std::tuple<TextDataset<TranslationRow>, TextDataset<TranslationRow>, TextDataset<TranslationRow>> Multi30k(
    const std::string& root);

}  // namespace torch::text::datasets
