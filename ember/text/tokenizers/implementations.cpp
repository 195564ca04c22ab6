// tokenizers.implementations: the standard pipelines around GPT-2's and BERT's vocabulary files.
#include <nlohmann/json.hpp>

#include "ember/core/error.h"
#include "ember/text/tokenizers/tokenizer.h"
#include "ember/text/tokenizers/tokenizer_parts.h"

namespace torch::text::tokenizers {
namespace {

std::unique_ptr<detail::TokenizerParts> byte_level_parts(const std::string& vocab, const std::string& merges,
                                                         bool add_prefix_space, bool lowercase, bool trim_offsets) {
  auto p = std::make_unique<detail::TokenizerParts>();
  p->model =
      detail::make_bpe(detail::read_vocab_json(vocab), detail::read_merges_txt(merges), detail::BpeConfig{}, vocab);
  if (lowercase) p->normalizer = detail::normalizer_from_json(nlohmann::json{{"type", "Lowercase"}}, vocab);
  p->pre_tokenizer = detail::make_byte_level_pre_tokenizer(add_prefix_space, true);
  p->decoder = detail::make_byte_level_decoder();
  p->post_processor = detail::post_processor_from_json(
      nlohmann::json{{"type", "ByteLevel"}, {"trim_offsets", trim_offsets}, {"add_prefix_space", add_prefix_space}},
      vocab);
  p->finish();
  return p;
}

std::unique_ptr<detail::TokenizerParts> bert_parts(const std::string& vocab, const std::string& unk,
                                                   const std::string& sep, const std::string& cls, bool clean_text,
                                                   bool chinese, std::optional<bool> strip_accents, bool lowercase,
                                                   const std::string& prefix, bool post_process = true) {
  auto p = std::make_unique<detail::TokenizerParts>();
  p->model = detail::make_wordpiece(detail::read_vocab_txt(vocab), unk, prefix, 100, vocab);
  p->normalizer = detail::make_bert_normalizer(clean_text, chinese, strip_accents.value_or(lowercase), lowercase);
  p->pre_tokenizer = detail::make_bert_pre_tokenizer();
  auto sep_id = p->model->token_to_id(sep);
  auto cls_id = p->model->token_to_id(cls);
  EMBER_CHECK(!post_process || (sep_id && cls_id), "BertWordPieceTokenizer: ", vocab, " lacks the sep token '", sep,
              "' or the cls token '", cls, "'");
  if (post_process) p->post_processor = detail::make_bert_processing(sep, *sep_id, cls, *cls_id);
  p->decoder = detail::make_wordpiece_decoder(prefix, true);
  p->finish();
  return p;
}

}  // namespace

ByteLevelBPETokenizer::ByteLevelBPETokenizer(const std::string& vocab, const std::string& merges, bool add_prefix_space,
                                             bool lowercase, bool trim_offsets)
    : Tokenizer(byte_level_parts(vocab, merges, add_prefix_space, lowercase, trim_offsets)) {}

BertWordPieceTokenizer::BertWordPieceTokenizer(const std::string& vocab, const std::string& unk_token,
                                               const std::string& sep_token, const std::string& cls_token,
                                               const std::string& pad_token, const std::string& mask_token,
                                               bool clean_text, bool handle_chinese_chars,
                                               std::optional<bool> strip_accents, bool lowercase,
                                               const std::string& wordpieces_prefix)
    : Tokenizer(bert_parts(vocab, unk_token, sep_token, cls_token, clean_text, handle_chinese_chars, strip_accents,
                           lowercase, wordpieces_prefix)) {
  // The special tokens the vocabulary has become added special tokens, as in the Python class.
  std::vector<std::string> specials;
  for (const std::string* t : {&unk_token, &sep_token, &cls_token, &pad_token, &mask_token})
    if (token_to_id(*t)) specials.push_back(*t);
  add_special_tokens(specials);
}

}  // namespace torch::text::tokenizers

namespace torch::text::tokenizers {
namespace detail {
namespace {

class PipelineTokenizer : public Tokenizer {
 public:
  explicit PipelineTokenizer(std::unique_ptr<TokenizerParts> parts) : Tokenizer(std::move(parts)) {}
};

}  // namespace

std::shared_ptr<Tokenizer> make_bert_tokenizer(const std::string& vocab, bool lowercase,
                                               std::optional<bool> strip_accents) {
  return std::make_shared<PipelineTokenizer>(
      bert_parts(vocab, "[UNK]", "[SEP]", "[CLS]", true, true, strip_accents, lowercase, "##", /*post_process=*/false));
}

}  // namespace detail
}  // namespace torch::text::tokenizers
