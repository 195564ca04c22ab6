#pragma once
// What a Tokenizer is made of (private to ember/text/tokenizers).
#include <memory>
#include <mutex>

#include "ember/text/tokenizers/added_vocabulary.h"
#include "ember/text/tokenizers/decoders.h"
#include "ember/text/tokenizers/hash_tables.h"
#include "ember/text/tokenizers/models.h"
#include "ember/text/tokenizers/normalizers.h"
#include "ember/text/tokenizers/post_processors.h"
#include "ember/text/tokenizers/pre_tokenizers.h"
#include "ember/text/tokenizers/tokenizer.h"

namespace torch::text::tokenizers::detail {

struct TokenizerParts {
  std::unique_ptr<Model> model;
  std::unique_ptr<Normalizer> normalizer;
  std::unique_ptr<PreTokenizer> pre_tokenizer;
  std::unique_ptr<PostProcessor> post_processor;
  std::unique_ptr<Decoder> decoder;
  AddedVocabulary added;
  // encode() on one thread reuses this word cache; a concurrent caller that
  // finds it busy encodes without one (same output, Note [Tokenizer speed]).
  std::mutex cache_mutex;
  WordCache cache;

  // Wires the model to the pre-tokenizer's byte alphabet.
  void finish() {
    if (model) model->set_byte_level(pre_tokenizer && pre_tokenizer->is_byte_level());
  }
};

// BERT's basic tokenizer + WordPiece on a vocab.txt, without special tokens
// (torchtext's BERTTokenizer).
std::shared_ptr<Tokenizer> make_bert_tokenizer(const std::string& vocab, bool lowercase,
                                               std::optional<bool> strip_accents);

}  // namespace torch::text::tokenizers::detail
