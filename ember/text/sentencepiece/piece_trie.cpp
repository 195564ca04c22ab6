#include "ember/text/sentencepiece/piece_trie.h"

#include <algorithm>
#include <map>
#include <memory>

namespace torch::text::sentencepiece::detail {

PieceTrie::PieceTrie(const std::vector<std::pair<std::string_view, int32_t>>& entries) {
  root_.fill(kNone);
  // Built as a pointer-free tree of maps, then laid out breadth-first in flat
  // arrays so a walk touches few cache lines.
  struct BuildNode {
    int32_t value = -1;
    std::map<unsigned char, uint32_t> next;
  };
  std::vector<BuildNode> build(1);
  for (const auto& [key, value] : entries) {
    uint32_t node = 0;
    for (const char ch : key) {
      const auto c = static_cast<unsigned char>(ch);
      auto it = build[node].next.find(c);
      if (it == build[node].next.end()) {
        const auto fresh = static_cast<uint32_t>(build.size());
        build[node].next.emplace(c, fresh);
        build.emplace_back();
        node = fresh;
      } else {
        node = it->second;
      }
    }
    build[node].value = value;
  }
  // Breadth-first renumbering.
  std::vector<uint32_t> order{0}, new_id(build.size(), 0);
  for (size_t i = 0; i < order.size(); ++i)
    for (const auto& [c, child] : build[order[i]].next) {
      new_id[child] = static_cast<uint32_t>(order.size());
      order.push_back(child);
    }
  nodes_.resize(order.size());
  for (size_t i = 0; i < order.size(); ++i) {
    const BuildNode& b = build[order[i]];
    Node& n = nodes_[i];
    n.value = b.value;
    n.edges_begin = static_cast<uint32_t>(labels_.size());
    for (const auto& [c, child] : b.next) {
      labels_.push_back(c);
      children_.push_back(new_id[child]);
    }
    n.edges_end = static_cast<uint32_t>(labels_.size());
    if (n.edges_end - n.edges_begin > kDenseFrom) {
      n.dense = static_cast<uint32_t>(dense_.size());
      dense_.resize(dense_.size() + 256, kNone);
      for (uint32_t e = n.edges_begin; e < n.edges_end; ++e) dense_[n.dense + labels_[e]] = children_[e];
    }
  }
  for (const auto& [c, child] : build[0].next) root_[c] = new_id[child];
}

}  // namespace torch::text::sentencepiece::detail
