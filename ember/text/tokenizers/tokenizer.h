#pragma once
// tokenizers.Tokenizer: Hugging Face tokenizer.json files (BPE, WordPiece,
// WordLevel models; their normalizers, pre-tokenizers, post-processors and
// decoders; added tokens, truncation and padding), with the `tokenizers`
// package's method names and defaults.
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ember/text/tokenizers/added_vocabulary.h"
#include "ember/text/tokenizers/encoding.h"

namespace torch::text::tokenizers {

namespace detail {
class Model;
class Normalizer;
class PreTokenizer;
class PostProcessor;
class Decoder;
class WordCache;
struct TokenizerParts;
}  // namespace detail

struct TruncationParams {
  int64_t max_length = 512;
  int64_t stride = 0;
  std::string strategy = "longest_first";  // "longest_first", "only_first", "only_second"
  std::string direction = "right";
};

struct PaddingParams {
  std::string direction = "right";
  int64_t pad_id = 0;
  int64_t pad_type_id = 0;
  std::string pad_token = "[PAD]";
  std::optional<int64_t> length;  // nullopt: pad to the longest of the batch
  std::optional<int64_t> pad_to_multiple_of;
};

class Tokenizer {
 public:
  // Note [Tokenizer files are untrusted]
  // from_file / from_str / from_buffer check the JSON's nesting, every type,
  // id and merge against the vocabulary, and raise ember::Error naming the
  // file and the problem; nothing is allocated from a count the file claims.
  static Tokenizer from_file(const std::string& path);
  static Tokenizer from_str(const std::string& json);
  static Tokenizer from_buffer(std::string_view json);

  Tokenizer(Tokenizer&&) noexcept;
  Tokenizer& operator=(Tokenizer&&) noexcept;
  ~Tokenizer();

  // encode(sequence, pair=None, is_pretokenized=False, add_special_tokens=True);
  // invalid UTF-8 is read as the reference reads its lossy decode (Note [Invalid UTF-8]).
  Encoding encode(std::string_view sequence, bool add_special_tokens = true) const;
  Encoding encode(std::string_view sequence, std::string_view pair, bool add_special_tokens = true) const;
  Encoding encode(const char* sequence, const char* pair, bool add_special_tokens = true) const {
    return encode(std::string_view(sequence), std::string_view(pair), add_special_tokens);
  }
  // Across the intra-op threads; padded together when padding is enabled.
  std::vector<Encoding> encode_batch(const std::vector<std::string>& input, bool add_special_tokens = true) const;
  std::vector<Encoding> encode_batch(const std::vector<std::pair<std::string, std::string>>& input,
                                     bool add_special_tokens = true) const;
  // encode_batch({"a", "b"}) means texts; a braced list of pairs is ambiguous
  // by design (it could also build strings from pointer pairs): spell std::pair.
  std::vector<Encoding> encode_batch(std::initializer_list<std::string> input, bool add_special_tokens = true) const {
    return encode_batch(std::vector<std::string>(input), add_special_tokens);
  }
  std::vector<Encoding> encode_batch(std::initializer_list<std::pair<std::string, std::string>> input,
                                     bool add_special_tokens = true) const {
    return encode_batch(std::vector<std::pair<std::string, std::string>>(input), add_special_tokens);
  }

  std::string decode(const std::vector<int64_t>& ids, bool skip_special_tokens = true) const;
  std::vector<std::string> decode_batch(const std::vector<std::vector<int64_t>>& sequences,
                                        bool skip_special_tokens = true) const;

  std::optional<int64_t> token_to_id(const std::string& token) const;
  std::optional<std::string> id_to_token(int64_t id) const;
  int64_t get_vocab_size(bool with_added_tokens = true) const;

  // Returns the number of tokens that were new.
  int64_t add_tokens(const std::vector<AddedToken>& tokens);
  int64_t add_tokens(const std::vector<std::string>& tokens);
  int64_t add_special_tokens(const std::vector<std::string>& tokens);
  int64_t num_special_tokens_to_add(bool is_pair) const;

  void enable_truncation(int64_t max_length, int64_t stride = 0, const std::string& strategy = "longest_first",
                         const std::string& direction = "right");
  void no_truncation() { truncation_.reset(); }
  const std::optional<TruncationParams>& truncation() const { return truncation_; }
  void enable_padding(const std::string& direction = "right", int64_t pad_id = 0, int64_t pad_type_id = 0,
                      const std::string& pad_token = "[PAD]", std::optional<int64_t> length = std::nullopt,
                      std::optional<int64_t> pad_to_multiple_of = std::nullopt);
  void no_padding() { padding_.reset(); }
  const std::optional<PaddingParams>& padding() const { return padding_; }

  // Truncation, the post-processor and padding applied to ready encodings.
  Encoding post_process(Encoding encoding, std::optional<Encoding> pair = std::nullopt,
                        bool add_special_tokens = true) const;

 protected:
  explicit Tokenizer(std::unique_ptr<detail::TokenizerParts> parts);
  detail::TokenizerParts& parts() { return *parts_; }

 private:
  Encoding encode_single(std::string_view text, int64_t type_id, detail::WordCache* cache) const;
  Encoding encode_with(std::string_view a, std::optional<std::string_view> b, bool add_special_tokens,
                       detail::WordCache* cache) const;
  Encoding truncate_and_process(Encoding encoding, std::optional<Encoding> pair, bool add_special_tokens) const;
  void pad_batch(std::vector<Encoding>& encodings) const;

  std::unique_ptr<detail::TokenizerParts> parts_;
  std::optional<TruncationParams> truncation_;
  std::optional<PaddingParams> padding_;
};

// tokenizers.implementations.ByteLevelBPETokenizer / BertWordPieceTokenizer:
// the pipelines GPT-2's vocab.json + merges.txt and BERT's vocab.txt come with.
class ByteLevelBPETokenizer : public Tokenizer {
 public:
  // vocab.json and merges.txt paths; (the Python class's dropout and subword
  // affix options are not offered).
  ByteLevelBPETokenizer(const std::string& vocab, const std::string& merges, bool add_prefix_space = false,
                        bool lowercase = false, bool trim_offsets = false);
  static ByteLevelBPETokenizer from_file(const std::string& vocab_filename, const std::string& merges_filename,
                                         bool add_prefix_space = false, bool lowercase = false,
                                         bool trim_offsets = false) {
    return ByteLevelBPETokenizer(vocab_filename, merges_filename, add_prefix_space, lowercase, trim_offsets);
  }
};

class BertWordPieceTokenizer : public Tokenizer {
 public:
  explicit BertWordPieceTokenizer(const std::string& vocab, const std::string& unk_token = "[UNK]",
                                  const std::string& sep_token = "[SEP]", const std::string& cls_token = "[CLS]",
                                  const std::string& pad_token = "[PAD]", const std::string& mask_token = "[MASK]",
                                  bool clean_text = true, bool handle_chinese_chars = true,
                                  std::optional<bool> strip_accents = std::nullopt, bool lowercase = true,
                                  const std::string& wordpieces_prefix = "##");
  static BertWordPieceTokenizer from_file(const std::string& vocab) { return BertWordPieceTokenizer(vocab); }
};

}  // namespace torch::text::tokenizers
