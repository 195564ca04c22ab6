#include "ember/text/vocab.h"

#include <algorithm>
#include <set>

#include "ember/core/error.h"

namespace torch::text::vocab {

Vocab::Vocab(std::vector<std::string> tokens, std::optional<int64_t> default_index) : default_index_(default_index) {
  itos_.reserve(tokens.size());
  for (auto& t : tokens) {
    // Duplicates keep their first index, as torchtext's VocabPybind does.
    if (stoi_.emplace(t, static_cast<int64_t>(itos_.size())).second) itos_.push_back(std::move(t));
  }
}

int64_t Vocab::operator[](const std::string& token) const {
  auto it = stoi_.find(token);
  if (it != stoi_.end()) return it->second;
  EMBER_CHECK(default_index_.has_value(), "Vocab.__getitem__: Token ", token,
              " not found and default index is not set");
  return *default_index_;
}

void Vocab::set_default_index(std::optional<int64_t> index) { default_index_ = index; }

void Vocab::insert_token(const std::string& token, int64_t index) {
  EMBER_CHECK(index >= 0 && index <= size(), "Vocab.insert_token: Specified index ", index,
              " is out of bounds for vocab of size ", size());
  auto it = stoi_.find(token);
  EMBER_CHECK(it == stoi_.end(), "Vocab.insert_token: Token ", token,
              " already exists in the Vocab with index: ", it == stoi_.end() ? 0 : it->second);
  itos_.insert(itos_.begin() + index, token);
  for (size_t i = static_cast<size_t>(index); i < itos_.size(); ++i) stoi_[itos_[i]] = static_cast<int64_t>(i);
}

void Vocab::append_token(const std::string& token) {
  auto it = stoi_.find(token);
  EMBER_CHECK(it == stoi_.end(), "Vocab.append_token: Token ", token,
              " already exists in the Vocab with index: ", it == stoi_.end() ? 0 : it->second);
  stoi_.emplace(token, size());
  itos_.push_back(token);
}

std::string Vocab::lookup_token(int64_t index) const {
  EMBER_CHECK(index >= 0 && index < size(), "Vocab.lookup_token: Specified index ", index,
              " is out of bounds of the size of itos dictionary: ", size());
  return itos_[static_cast<size_t>(index)];
}

std::vector<std::string> Vocab::lookup_tokens(const std::vector<int64_t>& indices) const {
  std::vector<std::string> out;
  out.reserve(indices.size());
  for (int64_t i : indices) out.push_back(lookup_token(i));
  return out;
}

std::vector<int64_t> Vocab::lookup_indices(const std::vector<std::string>& tokens) const {
  std::vector<int64_t> out;
  out.reserve(tokens.size());
  for (const auto& t : tokens) out.push_back((*this)[t]);
  return out;
}

Vocab vocab(const std::vector<std::pair<std::string, int64_t>>& ordered_dict, int64_t min_freq,
            const std::vector<std::string>& specials, bool special_first) {
  EMBER_CHECK(min_freq >= 1, "vocab: min_freq must be >= 1, got ", min_freq);
  std::set<std::string> special_set(specials.begin(), specials.end());
  std::vector<std::string> tokens;
  if (special_first) tokens = specials;
  std::set<std::string> seen;
  for (const auto& [tok, freq] : ordered_dict) {
    if (special_set.count(tok) || freq < min_freq) continue;
    if (!seen.insert(tok).second) continue;  // a dict holds each key once
    tokens.push_back(tok);
  }
  if (!special_first) tokens.insert(tokens.end(), specials.begin(), specials.end());
  return Vocab(std::move(tokens));
}

Vocab build_vocab_from_iterator(const std::vector<std::vector<std::string>>& iterator, int64_t min_freq,
                                const std::vector<std::string>& specials, bool special_first,
                                std::optional<int64_t> max_tokens) {
  std::unordered_map<std::string, int64_t> counter;
  for (const auto& tokens : iterator)
    for (const auto& t : tokens) ++counter[t];
  std::vector<std::pair<std::string, int64_t>> sorted(counter.begin(), counter.end());
  std::sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) {
    return a.second != b.second ? a.second > b.second : a.first < b.first;
  });
  if (max_tokens) {
    EMBER_CHECK(static_cast<int64_t>(specials.size()) < *max_tokens, "build_vocab_from_iterator: len(specials) (",
                specials.size(), ") >= max_tokens (", *max_tokens, "), so the vocab will be entirely special tokens.");
    sorted.resize(std::min(sorted.size(), static_cast<size_t>(*max_tokens - static_cast<int64_t>(specials.size()))));
  }
  return vocab(sorted, min_freq, specials, special_first);
}

}  // namespace torch::text::vocab
