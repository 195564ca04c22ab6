#include "ember/text/datasets/language_modeling.h"

#include <algorithm>

#include "ember/core/error.h"
#include "ember/text/datasets/file_reading.h"
#include "ember/text/datasets/splits.h"

namespace torch::text::datasets {

namespace {

LineDataset wikitext(const char* name, const char* folder, const std::string& root, const std::string& split) {
  detail::check_split(name, split, {"train", "valid", "test"});
  const std::string path = detail::dataset_dir(root, name) + "/" + folder + "/wiki." + split + ".tokens";
  return LineDataset(name, split, detail::read_lines(path, name, false));
}

}  // namespace

LineDataset WikiText2(const std::string& root, const std::string& split) {
  return wikitext("WikiText2", "wikitext-2", root, split);
}
LineDataset WikiText103(const std::string& root, const std::string& split) {
  return wikitext("WikiText103", "wikitext-103", root, split);
}

LineDataset PennTreebank(const std::string& root, const std::string& split) {
  detail::check_split("PennTreebank", split, {"train", "valid", "test"});
  const std::string path = detail::dataset_dir(root, "PennTreebank") + "/ptb." + split + ".txt";
  std::vector<std::string> lines = detail::read_lines(path, "PennTreebank", true);
  for (std::string& line : lines) line = detail::python_strip(line);
  return LineDataset("PennTreebank", split, std::move(lines));
}

TextDataset<TranslationRow> Multi30k(const std::string& root, const std::string& split,
                                     std::pair<std::string, std::string> language_pair) {
  detail::check_split("Multi30k", split, {"train", "valid", "test"});
  const auto& [src, tgt] = language_pair;
  EMBER_CHECK((src == "de" && tgt == "en") || (src == "en" && tgt == "de"),
              "Multi30k: language_pair must be (\"de\", \"en\") or (\"en\", \"de\"), got (\"", src, "\", \"", tgt,
              "\")");
  const std::string prefix = split == "train" ? "train" : split == "valid" ? "val" : "test";
  const std::string dir = detail::dataset_dir(root, "Multi30k") + "/" + prefix + ".";
  std::vector<std::string> sources = detail::read_lines(dir + src, "Multi30k", true);
  std::vector<std::string> targets = detail::read_lines(dir + tgt, "Multi30k", true);
  const size_t n = std::min(sources.size(), targets.size());
  std::vector<TranslationRow> rows;
  rows.reserve(n);
  for (size_t i = 0; i < n; ++i) rows.emplace_back(std::move(sources[i]), std::move(targets[i]));
  return TextDataset<TranslationRow>("Multi30k", split, std::move(rows));
}

std::tuple<LineDataset, LineDataset, LineDataset> WikiText2(const std::string& root) {
  return {WikiText2(root, std::string("train")), WikiText2(root, std::string("valid")),
          WikiText2(root, std::string("test"))};
}
std::tuple<LineDataset, LineDataset, LineDataset> WikiText103(const std::string& root) {
  return {WikiText103(root, std::string("train")), WikiText103(root, std::string("valid")),
          WikiText103(root, std::string("test"))};
}
std::tuple<LineDataset, LineDataset, LineDataset> PennTreebank(const std::string& root) {
  return {PennTreebank(root, std::string("train")), PennTreebank(root, std::string("valid")),
          PennTreebank(root, std::string("test"))};
}
std::tuple<TextDataset<TranslationRow>, TextDataset<TranslationRow>, TextDataset<TranslationRow>> Multi30k(
    const std::string& root) {
  return {Multi30k(root, std::string("train")), Multi30k(root, std::string("valid")),
          Multi30k(root, std::string("test"))};
}

}  // namespace torch::text::datasets
