#include "ember/text/transforms.h"

#include <algorithm>
#include <fstream>

#include "ember/core/error.h"
#include "ember/ops/factory/factory.h"
#include "ember/ops/shape/shape_ops.h"
#include "ember/text/functional.h"
#include "ember/text/tokenizers/tokenizer_parts.h"

namespace torch::text::transforms {
namespace {

const char* kind_of(const TextData& d) {
  switch (d.index()) {
    case 0:
      return "str";
    case 1:
      return "List[str]";
    case 2:
      return "List[List[str]]";
    case 3:
      return "int";
    case 4:
      return "List[int]";
    case 5:
      return "List[List[int]]";
    default:
      return "Tensor";
  }
}

[[noreturn]] void bad_input(const char* who, const TextData& d) {
  EMBER_ERROR(who, ": unsupported input type ", kind_of(d));
}

std::vector<std::string> ids_as_strings(const tokenizers::Encoding& e, bool return_tokens) {
  if (return_tokens) return e.tokens();
  std::vector<std::string> out;
  out.reserve(e.ids().size());
  for (int64_t id : e.ids()) out.push_back(std::to_string(id));
  return out;
}

}  // namespace

std::vector<int64_t> VocabTransformImpl::forward(const std::vector<std::string>& input) {
  return vocab.lookup_indices(input);
}
std::vector<std::vector<int64_t>> VocabTransformImpl::forward(const std::vector<std::vector<std::string>>& input) {
  std::vector<std::vector<int64_t>> out;
  for (const auto& v : input) out.push_back(vocab.lookup_indices(v));
  return out;
}
TextData VocabTransformImpl::forward_any(const TextData& input) {
  if (auto* v = std::get_if<std::vector<std::string>>(&input)) return forward(*v);
  if (auto* v = std::get_if<std::vector<std::vector<std::string>>>(&input)) return forward(*v);
  bad_input("VocabTransform", input);
}

Tensor ToTensorImpl::forward(const std::vector<int64_t>& input) {
  return functional::to_tensor(input, padding_value, dtype);
}
Tensor ToTensorImpl::forward(const std::vector<std::vector<int64_t>>& input) {
  return functional::to_tensor(input, padding_value, dtype);
}
TextData ToTensorImpl::forward_any(const TextData& input) {
  if (auto* v = std::get_if<std::vector<int64_t>>(&input)) return forward(*v);
  if (auto* v = std::get_if<std::vector<std::vector<int64_t>>>(&input)) return forward(*v);
  bad_input("ToTensor", input);
}

LabelToIndexImpl::LabelToIndexImpl(std::optional<std::vector<std::string>> names, std::optional<std::string> path,
                                   bool sort_names) {
  EMBER_CHECK(names.has_value() != path.has_value(),
              "LabelToIndex: exactly one of label_names and label_path must be given");
  if (names) {
    label_names = *names;
  } else {
    std::ifstream f(*path);
    EMBER_CHECK(f.good(), "LabelToIndex: cannot open label_path '", *path, "'");
    std::string line;
    while (std::getline(f, line)) {
      // Python's line.strip()
      size_t b = line.find_first_not_of(" \t\r\n\f\v"), e = line.find_last_not_of(" \t\r\n\f\v");
      if (b == std::string::npos) continue;
      label_names.push_back(line.substr(b, e - b + 1));
    }
  }
  if (sort_names) std::sort(label_names.begin(), label_names.end());
  vocab_ = vocab::Vocab(label_names);
}
int64_t LabelToIndexImpl::forward(const std::string& input) { return vocab_[input]; }
std::vector<int64_t> LabelToIndexImpl::forward(const std::vector<std::string>& input) {
  return vocab_.lookup_indices(input);
}
TextData LabelToIndexImpl::forward_any(const TextData& input) {
  if (auto* v = std::get_if<std::string>(&input)) return forward(*v);
  if (auto* v = std::get_if<std::vector<std::string>>(&input)) return forward(*v);
  bad_input("LabelToIndex", input);
}

std::vector<int64_t> TruncateImpl::forward(const std::vector<int64_t>& input) {
  return functional::truncate(input, max_seq_len);
}
std::vector<std::string> TruncateImpl::forward(const std::vector<std::string>& input) {
  return functional::truncate(input, max_seq_len);
}
std::vector<std::vector<int64_t>> TruncateImpl::forward(const std::vector<std::vector<int64_t>>& input) {
  return functional::truncate(input, max_seq_len);
}
std::vector<std::vector<std::string>> TruncateImpl::forward(const std::vector<std::vector<std::string>>& input) {
  return functional::truncate(input, max_seq_len);
}
TextData TruncateImpl::forward_any(const TextData& input) {
  return std::visit(
      [&](const auto& v) -> TextData {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, std::vector<int64_t>> || std::is_same_v<T, std::vector<std::string>> ||
                      std::is_same_v<T, std::vector<std::vector<int64_t>>> ||
                      std::is_same_v<T, std::vector<std::vector<std::string>>>)
          return forward(v);
        else
          bad_input("Truncate", input);
      },
      input);
}

namespace {

template <typename T>
const T& token_as(const std::variant<int64_t, std::string>& token) {
  const T* t = std::get_if<T>(&token);
  EMBER_CHECK(t, "AddToken: the token's type (", token.index() == 0 ? "int" : "str",
              ") does not match the input's element type");
  return *t;
}

}  // namespace

std::vector<int64_t> AddTokenImpl::forward(const std::vector<int64_t>& input) {
  return functional::add_token(input, token_as<int64_t>(token), begin);
}
std::vector<std::string> AddTokenImpl::forward(const std::vector<std::string>& input) {
  return functional::add_token(input, token_as<std::string>(token), begin);
}
std::vector<std::vector<int64_t>> AddTokenImpl::forward(const std::vector<std::vector<int64_t>>& input) {
  return functional::add_token(input, token_as<int64_t>(token), begin);
}
std::vector<std::vector<std::string>> AddTokenImpl::forward(const std::vector<std::vector<std::string>>& input) {
  return functional::add_token(input, token_as<std::string>(token), begin);
}
TextData AddTokenImpl::forward_any(const TextData& input) {
  return std::visit(
      [&](const auto& v) -> TextData {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, std::vector<int64_t>> || std::is_same_v<T, std::vector<std::string>> ||
                      std::is_same_v<T, std::vector<std::vector<int64_t>>> ||
                      std::is_same_v<T, std::vector<std::vector<std::string>>>)
          return forward(v);
        else
          bad_input("AddToken", input);
      },
      input);
}

Tensor PadTransformImpl::forward(const Tensor& x) {
  EMBER_CHECK(x.dim() >= 1, "PadTransform: input must have at least one dimension");
  int64_t n = x.size(-1);
  if (n >= max_length) return x;
  std::vector<int64_t> shape = x.sizes().vec();
  shape.back() = max_length - n;
  Tensor pad = torch::full(shape, pad_value, TensorOptions().dtype(x.scalar_type()));
  return torch::cat({x, pad}, -1);
}
TextData PadTransformImpl::forward_any(const TextData& input) {
  if (auto* t = std::get_if<Tensor>(&input)) return forward(*t);
  bad_input("PadTransform", input);
}

GPT2BPETokenizerImpl::GPT2BPETokenizerImpl(const std::string& encoder_json_path, const std::string& vocab_bpe_path,
                                           bool return_tokens)
    : bpe_(std::make_shared<tokenizers::ByteLevelBPETokenizer>(encoder_json_path, vocab_bpe_path)),
      return_tokens_(return_tokens) {}
std::vector<std::string> GPT2BPETokenizerImpl::forward(const std::string& input) {
  return ids_as_strings(bpe_->encode(input), return_tokens_);
}
std::vector<std::vector<std::string>> GPT2BPETokenizerImpl::forward(const std::vector<std::string>& input) {
  std::vector<std::vector<std::string>> out;
  for (const auto& s : input) out.push_back(forward(s));
  return out;
}
TextData GPT2BPETokenizerImpl::forward_any(const TextData& input) {
  if (auto* v = std::get_if<std::string>(&input)) return forward(*v);
  if (auto* v = std::get_if<std::vector<std::string>>(&input)) return forward(*v);
  bad_input("GPT2BPETokenizer", input);
}

BERTTokenizerImpl::BERTTokenizerImpl(const std::string& vocab_path, bool do_lower_case,
                                     std::optional<bool> strip_accents, bool return_tokens)
    : wordpiece_(tokenizers::detail::make_bert_tokenizer(vocab_path, do_lower_case, strip_accents)),
      return_tokens_(return_tokens) {}
std::vector<std::string> BERTTokenizerImpl::forward(const std::string& input) {
  return ids_as_strings(wordpiece_->encode(input, false), return_tokens_);
}
std::vector<std::vector<std::string>> BERTTokenizerImpl::forward(const std::vector<std::string>& input) {
  std::vector<std::vector<std::string>> out;
  for (const auto& s : input) out.push_back(forward(s));
  return out;
}
TextData BERTTokenizerImpl::forward_any(const TextData& input) {
  if (auto* v = std::get_if<std::string>(&input)) return forward(*v);
  if (auto* v = std::get_if<std::vector<std::string>>(&input)) return forward(*v);
  bad_input("BERTTokenizer", input);
}

TextData SequentialImpl::forward_any(const TextData& input) {
  TextData x = input;
  for (const auto& t : steps_) x = t->forward_any(x);
  return x;
}

}  // namespace torch::text::transforms
