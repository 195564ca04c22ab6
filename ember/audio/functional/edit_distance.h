#pragma once
// torchaudio.functional.edit_distance: the Levenshtein distance between two
// sequences (of words, token ids or characters), unit costs.
#include <cstdint>
#include <string>
#include <vector>

namespace torch::audio::functional {

int64_t edit_distance(const std::vector<std::string>& seq1, const std::vector<std::string>& seq2);
int64_t edit_distance(const std::vector<int64_t>& seq1, const std::vector<int64_t>& seq2);
int64_t edit_distance(const std::string& seq1, const std::string& seq2);

}  // namespace torch::audio::functional
