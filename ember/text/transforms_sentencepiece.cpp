// torchtext.transforms.SentencePieceTokenizer.
#include "ember/core/error.h"
#include "ember/text/transforms.h"

namespace torch::text::transforms {

SentencePieceTokenizerImpl::SentencePieceTokenizerImpl(const std::string& sp_model_path) : sp_model_(sp_model_path) {}

std::vector<std::string> SentencePieceTokenizerImpl::forward(const std::string& input) {
  return sp_model_.encode_as_pieces(input);
}

std::vector<std::vector<std::string>> SentencePieceTokenizerImpl::forward(const std::vector<std::string>& input) {
  return sp_model_.encode_as_pieces(input);
}

TextData SentencePieceTokenizerImpl::forward_any(const TextData& input) {
  if (const auto* v = std::get_if<std::string>(&input)) return forward(*v);
  if (const auto* v = std::get_if<std::vector<std::string>>(&input)) return forward(*v);
  EMBER_ERROR("SentencePieceTokenizer: expected str or List[str] input, got variant alternative ", input.index());
}

}  // namespace torch::text::transforms
