#pragma once
// torchtext.transforms: the text pipeline modules (VocabTransform, ToTensor,
// LabelToIndex, Truncate, AddToken, PadTransform, Sequential) and the
// tokenizer transforms GPT2BPETokenizer and BERTTokenizer, as LibTorch-style
// module holders (DOMAIN_API.md rule 3).
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "ember/core/tensor.h"
#include "ember/nn/cloneable.h"
#include "ember/nn/pimpl.h"
#include "ember/text/sentencepiece/sentencepiece_processor.h"
#include "ember/text/tokenizers/tokenizer.h"
#include "ember/text/vocab.h"

namespace torch::text::detail {
class CLIPEncoder;
}

namespace torch::text::transforms {

// What flows between the transforms of a Sequential: Python's str, List[str],
// List[List[str]], int, List[int], List[List[int]] or a Tensor.
using TextData = std::variant<std::string, std::vector<std::string>, std::vector<std::vector<std::string>>, int64_t,
                              std::vector<int64_t>, std::vector<std::vector<int64_t>>, Tensor>;

// Every transform can run on a TextData (Sequential chains them that way);
// a wrong kind of input raises ember::Error naming the transform.
class TextTransform {
 public:
  virtual ~TextTransform() = default;
  virtual TextData forward_any(const TextData& input) = 0;
};

class VocabTransformImpl : public nn::Cloneable<VocabTransformImpl>, public TextTransform {
 public:
  explicit VocabTransformImpl(vocab::Vocab vocab) : vocab(std::move(vocab)) {}
  void reset() override {}
  std::vector<int64_t> forward(const std::vector<std::string>& input);
  std::vector<std::vector<int64_t>> forward(const std::vector<std::vector<std::string>>& input);
  TextData forward_any(const TextData& input) override;
  vocab::Vocab vocab;
};
TORCH_MODULE(VocabTransform);

class ToTensorImpl : public nn::Cloneable<ToTensorImpl>, public TextTransform {
 public:
  explicit ToTensorImpl(std::optional<int64_t> padding_value = std::nullopt, ScalarType dtype = kLong)
      : padding_value(padding_value), dtype(dtype) {}
  void reset() override {}
  Tensor forward(const std::vector<int64_t>& input);
  Tensor forward(const std::vector<std::vector<int64_t>>& input);
  TextData forward_any(const TextData& input) override;
  std::optional<int64_t> padding_value;
  ScalarType dtype;
};
TORCH_MODULE(ToTensor);

class LabelToIndexImpl : public nn::Cloneable<LabelToIndexImpl>, public TextTransform {
 public:
  // Exactly one of label_names and label_path (one label a line); sort_names sorts them.
  explicit LabelToIndexImpl(std::optional<std::vector<std::string>> label_names = std::nullopt,
                            std::optional<std::string> label_path = std::nullopt, bool sort_names = false);
  void reset() override {}
  int64_t forward(const std::string& input);
  std::vector<int64_t> forward(const std::vector<std::string>& input);
  TextData forward_any(const TextData& input) override;
  std::vector<std::string> label_names;

 private:
  vocab::Vocab vocab_;
};
TORCH_MODULE(LabelToIndex);

class TruncateImpl : public nn::Cloneable<TruncateImpl>, public TextTransform {
 public:
  explicit TruncateImpl(int64_t max_seq_len) : max_seq_len(max_seq_len) {}
  void reset() override {}
  std::vector<int64_t> forward(const std::vector<int64_t>& input);
  std::vector<std::string> forward(const std::vector<std::string>& input);
  std::vector<std::vector<int64_t>> forward(const std::vector<std::vector<int64_t>>& input);
  std::vector<std::vector<std::string>> forward(const std::vector<std::vector<std::string>>& input);
  TextData forward_any(const TextData& input) override;
  int64_t max_seq_len;
};
TORCH_MODULE(Truncate);

class AddTokenImpl : public nn::Cloneable<AddTokenImpl>, public TextTransform {
 public:
  AddTokenImpl(int64_t token, bool begin = true) : token(token), begin(begin) {}
  AddTokenImpl(std::string token, bool begin = true) : token(std::move(token)), begin(begin) {}
  AddTokenImpl(const char* token, bool begin = true) : token(std::string(token)), begin(begin) {}
  void reset() override {}
  std::vector<int64_t> forward(const std::vector<int64_t>& input);
  std::vector<std::string> forward(const std::vector<std::string>& input);
  std::vector<std::vector<int64_t>> forward(const std::vector<std::vector<int64_t>>& input);
  std::vector<std::vector<std::string>> forward(const std::vector<std::vector<std::string>>& input);
  TextData forward_any(const TextData& input) override;
  std::variant<int64_t, std::string> token;
  bool begin;
};
TORCH_MODULE(AddToken);

class PadTransformImpl : public nn::Cloneable<PadTransformImpl>, public TextTransform {
 public:
  PadTransformImpl(int64_t max_length, int64_t pad_value) : max_length(max_length), pad_value(pad_value) {}
  void reset() override {}
  // Pads the last dimension up to max_length with pad_value.
  Tensor forward(const Tensor& x);
  TextData forward_any(const TextData& input) override;
  int64_t max_length, pad_value;
};
TORCH_MODULE(PadTransform);

// GPT2BPETokenizer(encoder_json_path, vocab_bpe_path, return_tokens=False):
// GPT-2's byte-level BPE; returns the ids as strings, or the tokens.
class GPT2BPETokenizerImpl : public nn::Cloneable<GPT2BPETokenizerImpl>, public TextTransform {
 public:
  GPT2BPETokenizerImpl(const std::string& encoder_json_path, const std::string& vocab_bpe_path,
                       bool return_tokens = false);
  void reset() override {}
  std::vector<std::string> forward(const std::string& input);
  std::vector<std::vector<std::string>> forward(const std::vector<std::string>& input);
  TextData forward_any(const TextData& input) override;

 private:
  std::shared_ptr<tokenizers::Tokenizer> bpe_;
  bool return_tokens_;
};
TORCH_MODULE(GPT2BPETokenizer);

// BERTTokenizer(vocab_path, do_lower_case=True, strip_accents=None, return_tokens=False).
class BERTTokenizerImpl : public nn::Cloneable<BERTTokenizerImpl>, public TextTransform {
 public:
  BERTTokenizerImpl(const std::string& vocab_path, bool do_lower_case = true,
                    std::optional<bool> strip_accents = std::nullopt, bool return_tokens = false);
  void reset() override {}
  std::vector<std::string> forward(const std::string& input);
  std::vector<std::vector<std::string>> forward(const std::vector<std::string>& input);
  TextData forward_any(const TextData& input) override;

 private:
  std::shared_ptr<tokenizers::Tokenizer> wordpiece_;
  bool return_tokens_;
};
TORCH_MODULE(BERTTokenizer);

// SentencePieceTokenizer(sp_model_path): a SentencePiece model's pieces.
class SentencePieceTokenizerImpl : public nn::Cloneable<SentencePieceTokenizerImpl>, public TextTransform {
 public:
  explicit SentencePieceTokenizerImpl(const std::string& sp_model_path);
  void reset() override {}
  std::vector<std::string> forward(const std::string& input);
  std::vector<std::vector<std::string>> forward(const std::vector<std::string>& input);
  TextData forward_any(const TextData& input) override;
  const sentencepiece::SentencePieceProcessor& sp_model() const { return sp_model_; }

 private:
  sentencepiece::SentencePieceProcessor sp_model_;
};
TORCH_MODULE(SentencePieceTokenizer);

// CLIPTokenizer(merges_path, encoder_json_path=None, num_merges=None,
// return_tokens=False): CLIP's lowercase byte-level BPE with '</w>' word ends;
// returns the ids as strings, or the tokens.
class CLIPTokenizerImpl : public nn::Cloneable<CLIPTokenizerImpl>, public TextTransform {
 public:
  explicit CLIPTokenizerImpl(const std::string& merges_path,
                             const std::optional<std::string>& encoder_json_path = std::nullopt,
                             std::optional<int64_t> num_merges = std::nullopt, bool return_tokens = false);
  void reset() override {}
  std::vector<std::string> forward(const std::string& input);
  std::vector<std::vector<std::string>> forward(const std::vector<std::string>& input);
  TextData forward_any(const TextData& input) override;

 private:
  std::shared_ptr<const text::detail::CLIPEncoder> bpe_;
  bool return_tokens_;
};
TORCH_MODULE(CLIPTokenizer);

// Sequential(*transforms): applies them in order (submodules "0", "1", ...).
class SequentialImpl : public nn::Cloneable<SequentialImpl>, public TextTransform {
 public:
  SequentialImpl() = default;
  template <typename... Holders>
  explicit SequentialImpl(Holders&&... transforms) {
    (push_back(std::forward<Holders>(transforms).ptr()), ...);
  }
  void reset() override {}
  template <typename Impl>
  void push_back(std::shared_ptr<Impl> t) {
    register_module(std::to_string(steps_.size()), t);
    steps_.push_back(t);
  }
  TextData forward(const TextData& input) { return forward_any(input); }
  TextData forward_any(const TextData& input) override;
  size_t size() const { return steps_.size(); }

 private:
  std::vector<std::shared_ptr<TextTransform>> steps_;
};
TORCH_MODULE(Sequential);

}  // namespace torch::text::transforms
