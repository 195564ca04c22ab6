#pragma once
// tokenizers.models: BPE, WordPiece and WordLevel, read from a tokenizer.json
// "model" object or from the files GPT-2 (vocab.json + merges.txt) and BERT
// (vocab.txt) ship.
#include <array>
#include <memory>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ember/text/tokenizers/hash_tables.h"

namespace torch::text::tokenizers::detail {

class Model {
 public:
  virtual ~Model() = default;
  // Appends the tokens of one pre-token (its bytes; GPT-2's byte alphabet is
  // already undone when byte_level was set). `cache` may be null.
  virtual void tokenize(std::string_view word, std::vector<WordToken>& out, WordCache* cache) const = 0;
  // The model's own vocabulary (token strings as in the file).
  std::optional<int64_t> token_to_id(std::string_view token) const;
  const std::string* id_to_token(int64_t id) const;
  size_t vocab_size() const { return vocab_.size(); }
  // id -> token string ("" for unused ids), shared with the encodings that
  // reference it (Note [Compact encoding]).
  std::shared_ptr<const std::vector<std::string>> token_table() const { return id_to_token_; }
  // The pre-tokenizer is ByteLevel: words arrive as raw bytes.
  virtual void set_byte_level(bool on) {}
  // Tokens of this id read as the text they cover, not as the vocabulary's
  // string (Unigram's unknowns).
  virtual bool token_is_text(int32_t id) const { return false; }

 protected:
  // Fills vocab_ and id_to_token_ from (token, id) pairs; checks ids.
  void set_vocab(std::vector<std::pair<std::string, int64_t>> entries, const std::string& source);
  StringIdMap vocab_;
  std::shared_ptr<std::vector<std::string>> id_to_token_ = std::make_shared<std::vector<std::string>>();
  std::vector<bool> has_id_;
};

struct BpeConfig {
  std::optional<std::string> unk_token;
  std::string continuing_subword_prefix;
  std::string end_of_word_suffix;
  bool fuse_unk = false;
  bool byte_fallback = false;
  bool ignore_merges = false;
};

std::unique_ptr<Model> make_bpe(std::vector<std::pair<std::string, int64_t>> vocab,
                                const std::vector<std::pair<std::string, std::string>>& merges, BpeConfig config,
                                const std::string& source);
std::unique_ptr<Model> make_wordpiece(std::vector<std::pair<std::string, int64_t>> vocab, std::string unk_token,
                                      std::string continuing_subword_prefix, int64_t max_input_chars_per_word,
                                      const std::string& source);
std::unique_ptr<Model> model_from_json(const nlohmann::json& j, const std::string& source);
// The "Unigram" model object of a tokenizer.json.
std::unique_ptr<Model> make_unigram(const nlohmann::json& j, const std::string& source);

// GPT-2's vocab.json + merges.txt, BERT's vocab.txt (one token a line).
std::vector<std::pair<std::string, int64_t>> read_vocab_json(const std::string& path);
std::vector<std::pair<std::string, std::string>> read_merges_txt(const std::string& path);
std::vector<std::pair<std::string, int64_t>> read_vocab_txt(const std::string& path);
std::string read_file(const std::string& path, const char* who);

// GPT-2's reversible byte <-> code point table (bytes_to_unicode).
const std::array<char32_t, 256>& byte_to_unicode();
// The byte a code point of the byte alphabet stands for, or -1.
int unicode_to_byte(char32_t cp);

}  // namespace torch::text::tokenizers::detail
