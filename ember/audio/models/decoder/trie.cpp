#include "ember/audio/models/decoder/trie.h"

#include <algorithm>
#include <limits>

#include "ember/core/error.h"

namespace torch::audio::models::decoder::detail {

LexiconTrie::LexiconTrie(int64_t vocab_size) : vocab_size_(vocab_size), nodes_(1), parent_(1, -1) {}

int32_t LexiconTrie::child(int32_t node, int64_t token) const {
  const auto& c = nodes_[node].children;
  auto it = std::lower_bound(c.begin(), c.end(), std::make_pair(static_cast<int32_t>(token), INT32_MIN));
  return it != c.end() && it->first == token ? it->second : -1;
}

void LexiconTrie::insert(const std::vector<int64_t>& tokens, int64_t label, float score) {
  int32_t node = root();
  for (int64_t t : tokens) {
    EMBER_CHECK(t >= 0 && t < vocab_size_, "ctc_decoder: lexicon token index ", t, " out of range [0, ", vocab_size_,
                ")");
    int32_t next = child(node, t);
    if (next < 0) {
      EMBER_CHECK(nodes_.size() < static_cast<size_t>(std::numeric_limits<int32_t>::max()),
                  "ctc_decoder: lexicon too large");
      next = static_cast<int32_t>(nodes_.size());
      auto& c = nodes_[node].children;
      c.insert(std::lower_bound(c.begin(), c.end(), std::make_pair(static_cast<int32_t>(t), INT32_MIN)),
               {static_cast<int32_t>(t), next});
      nodes_.emplace_back();
      parent_.push_back(node);
    }
    node = next;
  }
  Node& n = nodes_[node];
  if (n.labels.size() < kMaxLabels) {
    n.labels.push_back(label);
    n.scores.push_back(score);
  }
}

void LexiconTrie::smear_max() {
  for (Node& n : nodes_) {
    n.max_score = -std::numeric_limits<float>::infinity();
    for (float s : n.scores) n.max_score = std::max(n.max_score, s);
  }
  // Children are created after their parents, so a reverse walk finishes a
  // subtree before its root (and needs no recursion on long spellings).
  for (size_t i = nodes_.size() - 1; i > 0; --i) {
    Node& p = nodes_[parent_[i]];
    p.max_score = std::max(p.max_score, nodes_[i].max_score);
  }
}

}  // namespace torch::audio::models::decoder::detail
