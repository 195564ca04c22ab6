#include "ember/text/models/roberta_encoder_conf.h"

namespace torch::text::models {

bool RobertaEncoderConf::operator==(const RobertaEncoderConf& o) const {
  return vocab_size_ == o.vocab_size_ && embedding_dim_ == o.embedding_dim_ && ffn_dimension_ == o.ffn_dimension_ &&
         padding_idx_ == o.padding_idx_ && max_seq_len_ == o.max_seq_len_ &&
         num_attention_heads_ == o.num_attention_heads_ && num_encoder_layers_ == o.num_encoder_layers_ &&
         dropout_ == o.dropout_ && scaling_ == o.scaling_ && normalize_before_ == o.normalize_before_;
}

}  // namespace torch::text::models
