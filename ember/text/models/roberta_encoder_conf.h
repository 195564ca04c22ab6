#pragma once
// torchtext.models.RobertaEncoderConf: the encoder's hyper-parameters (a Python
// dataclass). Both spellings work: RobertaEncoderConf(250002) positionally in the
// dataclass's field order, and RobertaEncoderConf().vocab_size(250002) by keyword.
#include <cstdint>
#include <optional>

#include "ember/core/arg.h"

namespace torch::text::models {

struct RobertaEncoderConf {
  explicit RobertaEncoderConf(int64_t vocab_size = 50265, int64_t embedding_dim = 768, int64_t ffn_dimension = 3072,
                              int64_t padding_idx = 1, int64_t max_seq_len = 514, int64_t num_attention_heads = 12,
                              int64_t num_encoder_layers = 12, double dropout = 0.1,
                              std::optional<double> scaling = std::nullopt, bool normalize_before = false)
      : vocab_size_(vocab_size),
        embedding_dim_(embedding_dim),
        ffn_dimension_(ffn_dimension),
        padding_idx_(padding_idx),
        max_seq_len_(max_seq_len),
        num_attention_heads_(num_attention_heads),
        num_encoder_layers_(num_encoder_layers),
        dropout_(dropout),
        scaling_(scaling),
        normalize_before_(normalize_before) {}
  bool operator==(const RobertaEncoderConf& o) const;
  TORCH_ARG(int64_t, vocab_size);
  TORCH_ARG(int64_t, embedding_dim);
  TORCH_ARG(int64_t, ffn_dimension);
  TORCH_ARG(int64_t, padding_idx);
  TORCH_ARG(int64_t, max_seq_len);
  TORCH_ARG(int64_t, num_attention_heads);
  TORCH_ARG(int64_t, num_encoder_layers);
  TORCH_ARG(double, dropout);
  // Accepted as torchtext accepts it; torch.nn's attention always scales by
  // 1/sqrt(head_dim), and so does torchtext 0.14's encoder, whatever is given.
  TORCH_ARG(std::optional<double>, scaling);
  TORCH_ARG(bool, normalize_before);
};

}  // namespace torch::text::models
