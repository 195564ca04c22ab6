#pragma once
// tokenizers.processors: TemplateProcessing, BertProcessing,
// RobertaProcessing, ByteLevel and Sequence, read from a tokenizer.json
// "post_processor" object. They add special tokens, set type ids and (for
// the byte-level ones) trim the offsets of leading/trailing spaces.
#include <memory>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

#include "ember/text/tokenizers/encoding.h"

namespace torch::text::tokenizers::detail {

class PostProcessor {
 public:
  virtual ~PostProcessor() = default;
  virtual size_t added_tokens(bool is_pair) const = 0;
  // encodings: one, or two for a pair; sequence ids already set.
  virtual void process_encodings(std::vector<Encoding>& encodings, bool add_special_tokens) const = 0;
};

std::unique_ptr<PostProcessor> post_processor_from_json(const nlohmann::json& j, const std::string& source);
std::unique_ptr<PostProcessor> make_bert_processing(std::string sep, int64_t sep_id, std::string cls, int64_t cls_id);

// The full step: sequence ids, the processor (or the default merge), one Encoding.
Encoding post_process(const PostProcessor* p, Encoding a, std::optional<Encoding> b, bool add_special_tokens);

}  // namespace torch::text::tokenizers::detail
