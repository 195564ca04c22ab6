#include "ember/text/datasets/sequence_tagging.h"

#include <string_view>

#include "ember/text/datasets/file_reading.h"
#include "ember/text/datasets/splits.h"

namespace torch::text::datasets {

namespace {

// Python's str.split(sep) for a non-empty sep.
std::vector<std::string> split_on(std::string_view s, std::string_view sep) {
  std::vector<std::string> out;
  size_t start = 0;
  while (true) {
    const size_t at = s.find(sep, start);
    if (at == std::string_view::npos) {
      out.emplace_back(s.substr(start));
      return out;
    }
    out.emplace_back(s.substr(start, at - start));
    start = at + sep.size();
  }
}

TextDataset<TaggingRow> read_iob(const char* name, const std::string& split, const std::string& path,
                                 std::string_view sep) {
  std::vector<TaggingRow> rows;
  TaggingRow columns;
  for (const std::string& raw : detail::read_lines(path, name, true)) {
    const std::string line = detail::python_strip(raw);
    if (line.empty()) {
      if (!columns.empty()) rows.push_back(std::move(columns));
      columns.clear();
      continue;
    }
    std::vector<std::string> parts = split_on(line, sep);
    for (size_t i = 0; i < parts.size(); ++i) {
      if (columns.size() < i + 1) columns.emplace_back();
      columns[i].push_back(std::move(parts[i]));
    }
  }
  if (!columns.empty()) rows.push_back(std::move(columns));
  return TextDataset<TaggingRow>(name, split, std::move(rows));
}

}  // namespace

TextDataset<TaggingRow> CoNLL2000Chunking(const std::string& root, const std::string& split) {
  detail::check_split("CoNLL2000Chunking", split, {"train", "test"});
  return read_iob("CoNLL2000Chunking", split, detail::dataset_dir(root, "CoNLL2000Chunking") + "/" + split + ".txt",
                  " ");
}

TextDataset<TaggingRow> UDPOS(const std::string& root, const std::string& split) {
  detail::check_split("UDPOS", split, {"train", "valid", "test"});
  const std::string file = split == "valid" ? "dev" : split;
  return read_iob("UDPOS", split, detail::dataset_dir(root, "UDPOS") + "/" + file + ".txt", "\t");
}

std::tuple<TextDataset<TaggingRow>, TextDataset<TaggingRow>> CoNLL2000Chunking(const std::string& root) {
  return {CoNLL2000Chunking(root, std::string("train")), CoNLL2000Chunking(root, std::string("test"))};
}

std::tuple<TextDataset<TaggingRow>, TextDataset<TaggingRow>, TextDataset<TaggingRow>> UDPOS(const std::string& root) {
  return {UDPOS(root, std::string("train")), UDPOS(root, std::string("valid")), UDPOS(root, std::string("test"))};
}

}  // namespace torch::text::datasets
