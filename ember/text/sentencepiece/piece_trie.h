#pragma once
// A byte trie over a model's pieces: walking it along the text yields every
// piece that is a prefix of the text, shortest first, which is what both the
// unigram lattice and the user-defined-symbol matcher need.
#include <array>
#include <cstdint>
#include <string_view>
#include <utility>
#include <vector>

#include "ember/core/namespace.h"

namespace torch::text::sentencepiece::detail {

class PieceTrie {
 public:
  PieceTrie() = default;
  // Keys must be distinct and non-empty; values are >= 0.
  explicit PieceTrie(const std::vector<std::pair<std::string_view, int32_t>>& entries);

  bool empty() const { return nodes_.size() <= 1; }

  // Calls f(length, value) for every key that is a prefix of text, in order of
  // increasing length.
  template <typename F>
  void for_each_prefix(std::string_view text, F&& f) const {
    if (empty() || text.empty()) return;
    const auto* s = reinterpret_cast<const unsigned char*>(text.data());
    uint32_t node = root_[s[0]];
    size_t i = 1;
    while (node != kNone) {
      const Node& n = nodes_[node];
      if (n.value >= 0) f(i, n.value);
      if (i == text.size()) return;
      node = child(n, s[i]);
      ++i;
    }
  }

  // True when some key starts with byte c.
  bool has_prefix_starting_with(unsigned char c) const { return !empty() && root_[c] != kNone; }

  // Length of the longest key that is a prefix of text (0: none).
  size_t longest_prefix(std::string_view text) const {
    size_t best = 0;
    for_each_prefix(text, [&](size_t len, int32_t) { best = len; });
    return best;
  }

 private:
  static constexpr uint32_t kNone = 0xFFFFFFFFu;
  struct Node {
    int32_t value = -1;
    uint32_t edges_begin = 0, edges_end = 0;  // into labels_/children_, sorted by label
    uint32_t dense = kNone;                   // a node with many children: its 256-entry table in dense_
  };
  // Nodes with more children than this get a direct table.
  static constexpr uint32_t kDenseFrom = 12;
  uint32_t child(const Node& n, unsigned char c) const {
    if (n.dense != kNone) return dense_[n.dense + c];
    for (uint32_t e = n.edges_begin; e < n.edges_end; ++e) {
      if (labels_[e] == c) return children_[e];
      if (labels_[e] > c) break;
    }
    return kNone;
  }

  std::array<uint32_t, 256> root_{};  // the root's children, looked up directly
  std::vector<Node> nodes_;
  std::vector<unsigned char> labels_;
  std::vector<uint32_t> children_;
  std::vector<uint32_t> dense_;
};

}  // namespace torch::text::sentencepiece::detail
