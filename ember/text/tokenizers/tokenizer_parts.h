#pragma once
// What a Tokenizer is made of (private to ember/text/tokenizers).
#include <array>
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
  // Word caches kept warm between calls: encode() and each encode_batch
  // worker lease a free one; a caller that finds them all busy encodes with a
  // fresh cache (same output, Note [Tokenizer speed]).
  struct CacheSlot {
    std::mutex mutex;
    WordCache cache;
  };
  std::array<CacheSlot, 4> caches;

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
