#pragma once
// The lexicon trie of flashlight's LexiconDecoder: a path of token indices
// per spelling, the words it spells at its end node with their unigram LM
// scores, and each node's maximum score over its subtree ("smeared"), which the
// search adds as a look-ahead while a word is being spelt.
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace torch::audio::models::decoder::detail {

class LexiconTrie {
 public:
  struct Node {
    std::vector<std::pair<int32_t, int32_t>> children;  // (token, node), sorted by token
    std::vector<int64_t> labels;                        // word indices spelt here
    std::vector<float> scores;                          // their LM scores
    float max_score = 0;
  };
  // flashlight keeps at most this many words per spelling.
  static constexpr size_t kMaxLabels = 6;

  explicit LexiconTrie(int64_t vocab_size);
  // Adds a spelling (token indices, each checked against the vocabulary).
  void insert(const std::vector<int64_t>& tokens, int64_t label, float score);
  // Sets every node's max_score to the largest word score at or below it.
  void smear_max();

  static constexpr int32_t root() { return 0; }
  const Node& node(int32_t i) const { return nodes_[i]; }
  // The child of `node` along `token`, or -1.
  int32_t child(int32_t node, int64_t token) const;

 private:
  int64_t vocab_size_;
  std::vector<Node> nodes_;
  std::vector<int32_t> parent_;
};

}  // namespace torch::audio::models::decoder::detail
