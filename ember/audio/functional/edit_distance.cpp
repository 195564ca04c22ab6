#include "ember/audio/functional/edit_distance.h"

#include <algorithm>
#include <numeric>

namespace torch::audio::functional {
namespace {

// Two rolling rows of the dynamic-programming table.
template <typename Seq>
int64_t levenshtein(const Seq& a, const Seq& b) {
  std::vector<int64_t> prev(b.size() + 1), cur(b.size() + 1);
  std::iota(prev.begin(), prev.end(), int64_t{0});
  for (size_t i = 1; i <= a.size(); ++i) {
    cur[0] = static_cast<int64_t>(i);
    for (size_t j = 1; j <= b.size(); ++j)
      cur[j] = a[i - 1] == b[j - 1] ? prev[j - 1] : 1 + std::min({prev[j - 1], cur[j - 1], prev[j]});
    std::swap(prev, cur);
  }
  return prev.back();
}

}  // namespace

int64_t edit_distance(const std::vector<std::string>& seq1, const std::vector<std::string>& seq2) {
  return levenshtein(seq1, seq2);
}
int64_t edit_distance(const std::vector<int64_t>& seq1, const std::vector<int64_t>& seq2) {
  return levenshtein(seq1, seq2);
}
int64_t edit_distance(const std::string& seq1, const std::string& seq2) { return levenshtein(seq1, seq2); }

}  // namespace torch::audio::functional
