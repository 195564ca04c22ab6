#pragma once
// Token and word dictionaries and the lexicon file, as flashlight-text's
// Dictionary and load_words read them for torchaudio's ctc_decoder.
#include <cstdint>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace torch::audio::models::decoder::detail {

// Entries to indices. Several entries may share an index (a tokens file line
// "a A" maps both to one index); get_entry gives the first one.
class Dictionary {
 public:
  // One index per non-empty line; the line's whitespace-separated entries share it.
  static Dictionary from_file(const std::string& path);
  // One index per entry, in order.
  static Dictionary from_list(const std::vector<std::string>& entries);

  // Adds `entry` under a new index (no-op when present).
  void add_entry(const std::string& entry);
  bool contains(const std::string& entry) const { return entry2idx_.count(entry) != 0; }
  // Raises naming `entry` when it is absent.
  int64_t get_index(const std::string& entry) const;
  const std::string& get_entry(int64_t idx) const;
  int64_t index_size() const { return static_cast<int64_t>(idx2entry_.size()); }

 private:
  void add_line(const std::vector<std::string>& entries);
  std::unordered_map<std::string, int64_t> entry2idx_;
  std::vector<std::string> idx2entry_;
};

// word -> its spellings (token sequences), in the file's order of first appearance.
using Lexicon = std::vector<std::pair<std::string, std::vector<std::vector<std::string>>>>;

// Reads "word tok tok ..." lines; a word on several lines has several spellings.
Lexicon load_words(const std::string& path);

// Whitespace-separated fields of `line`.
std::vector<std::string> split_on_whitespace(const std::string& line);

}  // namespace torch::audio::models::decoder::detail
