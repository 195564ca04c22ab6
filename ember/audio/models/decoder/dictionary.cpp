#include "ember/audio/models/decoder/dictionary.h"

#include <fstream>
#include <sstream>

#include "ember/core/error.h"

namespace torch::audio::models::decoder::detail {

std::vector<std::string> split_on_whitespace(const std::string& line) {
  std::istringstream in(line);
  std::vector<std::string> out;
  for (std::string f; in >> f;) out.push_back(std::move(f));
  return out;
}

namespace {
std::ifstream open_text(const std::string& path, const char* what) {
  std::ifstream in(path);
  EMBER_CHECK(in.good(), "ctc_decoder: cannot open the ", what, " file '", path, "'");
  return in;
}
}  // namespace

void Dictionary::add_line(const std::vector<std::string>& entries) {
  if (entries.empty()) return;
  const int64_t idx = index_size();
  bool added = false;
  for (const std::string& e : entries)
    if (entry2idx_.emplace(e, idx).second) added = true;
  if (added) idx2entry_.push_back(entries.front());
}

void Dictionary::add_entry(const std::string& entry) { add_line({entry}); }

Dictionary Dictionary::from_file(const std::string& path) {
  std::ifstream in = open_text(path, "tokens");
  Dictionary d;
  for (std::string line; std::getline(in, line);) d.add_line(split_on_whitespace(line));
  return d;
}

Dictionary Dictionary::from_list(const std::vector<std::string>& entries) {
  Dictionary d;
  for (const std::string& e : entries) d.add_entry(e);
  return d;
}

int64_t Dictionary::get_index(const std::string& entry) const {
  auto it = entry2idx_.find(entry);
  EMBER_CHECK(it != entry2idx_.end(), "ctc_decoder: unknown entry in dictionary: '", entry, "'");
  return it->second;
}

const std::string& Dictionary::get_entry(int64_t idx) const {
  EMBER_CHECK(idx >= 0 && idx < index_size(), "ctc_decoder: dictionary index ", idx, " out of range [0, ", index_size(),
              ")");
  return idx2entry_[idx];
}

Lexicon load_words(const std::string& path) {
  std::ifstream in = open_text(path, "lexicon");
  Lexicon lexicon;
  std::unordered_map<std::string, size_t> position;
  for (std::string line; std::getline(in, line);) {
    std::vector<std::string> fields = split_on_whitespace(line);
    if (fields.empty()) continue;
    EMBER_CHECK(fields.size() >= 2, "ctc_decoder: invalid lexicon line (a word and its spelling expected): '", line,
                "'");
    auto [it, fresh] = position.emplace(fields[0], lexicon.size());
    if (fresh) lexicon.emplace_back(fields[0], std::vector<std::vector<std::string>>{});
    lexicon[it->second].second.emplace_back(fields.begin() + 1, fields.end());
  }
  return lexicon;
}

}  // namespace torch::audio::models::decoder::detail
