#pragma once
// torchtext.vocab: Vocab, vocab(ordered_dict, ...) and build_vocab_from_iterator.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "ember/core/namespace.h"

namespace torch::text::vocab {

// torchtext.vocab.Vocab: tokens <-> indices, with an optional default index
// for tokens it does not hold.
class Vocab {
 public:
  Vocab() = default;
  explicit Vocab(std::vector<std::string> tokens, std::optional<int64_t> default_index = std::nullopt);

  int64_t size() const { return static_cast<int64_t>(itos_.size()); }                // __len__
  bool contains(const std::string& token) const { return stoi_.count(token) != 0; }  // __contains__
  int64_t operator[](const std::string& token) const;                                // __getitem__
  int64_t forward(const std::string& token) const { return (*this)[token]; }
  std::vector<int64_t> forward(const std::vector<std::string>& tokens) const { return lookup_indices(tokens); }
  std::vector<int64_t> operator()(const std::vector<std::string>& tokens) const { return lookup_indices(tokens); }

  void set_default_index(std::optional<int64_t> index);
  std::optional<int64_t> get_default_index() const { return default_index_; }
  void insert_token(const std::string& token, int64_t index);
  void append_token(const std::string& token);
  std::string lookup_token(int64_t index) const;
  std::vector<std::string> lookup_tokens(const std::vector<int64_t>& indices) const;
  std::vector<int64_t> lookup_indices(const std::vector<std::string>& tokens) const;
  std::unordered_map<std::string, int64_t> get_stoi() const { return stoi_; }
  const std::vector<std::string>& get_itos() const { return itos_; }

 private:
  std::vector<std::string> itos_;
  std::unordered_map<std::string, int64_t> stoi_;
  std::optional<int64_t> default_index_;
};

// torchtext.vocab.vocab(ordered_dict, min_freq=1, specials=None, special_first=True):
// `ordered_dict` as (token, frequency) pairs in their order.
Vocab vocab(const std::vector<std::pair<std::string, int64_t>>& ordered_dict, int64_t min_freq = 1,
            const std::vector<std::string>& specials = {}, bool special_first = true);

// build_vocab_from_iterator(iterator, min_freq=1, specials=None, special_first=True, max_tokens=None):
// tokens sorted by frequency, ties by token.
Vocab build_vocab_from_iterator(const std::vector<std::vector<std::string>>& iterator, int64_t min_freq = 1,
                                const std::vector<std::string>& specials = {}, bool special_first = true,
                                std::optional<int64_t> max_tokens = std::nullopt);

}  // namespace torch::text::vocab
