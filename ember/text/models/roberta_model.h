#pragma once
// torchtext.models.roberta.model: RobertaEncoder, RobertaClassificationHead and
// RobertaModel. state_dict names are torchtext's: "encoder.transformer.<...>",
// "head.dense.weight", "head.out_proj.bias".
#include <cstdint>
#include <optional>

#include "ember/core/tensor.h"
#include "ember/nn/cloneable.h"
#include "ember/nn/modules/container/any.h"
#include "ember/nn/modules/dropout.h"
#include "ember/nn/modules/linear.h"
#include "ember/nn/pimpl.h"
#include "ember/text/models/roberta_encoder_conf.h"
#include "ember/text/models/roberta_modules.h"

namespace torch::text::models {

// RobertaEncoder(vocab_size, embedding_dim, ffn_dimension, padding_idx,
// max_seq_len, num_attention_heads, num_encoder_layers, dropout=0.1,
// scaling=None, normalize_before=False, freeze=False), here from a conf.
// forward(tokens [B, T], masked_tokens) -> [B, T', C], or [K, C] for the K
// positions masked_tokens (bool or 0/1, [B, T']) selects.
class RobertaEncoderImpl : public nn::Cloneable<RobertaEncoderImpl> {
 public:
  explicit RobertaEncoderImpl(const RobertaEncoderConf& conf, bool freeze = false);
  void reset() override;
  Tensor forward(const Tensor& tokens, const std::optional<Tensor>& masked_tokens = std::nullopt);

 protected:
  FORWARD_HAS_DEFAULT_ARGS({1, nn::AnyValue(std::optional<Tensor>())})

 public:
  RobertaEncoderConf conf;
  bool freeze;
  roberta::modules::TransformerEncoder transformer{nullptr};
};
TORCH_MODULE(RobertaEncoder);

struct RobertaClassificationHeadOptions {
  RobertaClassificationHeadOptions(int64_t num_classes, int64_t input_dim)
      : num_classes_(num_classes), input_dim_(input_dim) {}
  TORCH_ARG(int64_t, num_classes);
  TORCH_ARG(int64_t, input_dim);
  // nullopt (or 0, as Python's `not inner_dim`): input_dim.
  TORCH_ARG(std::optional<int64_t>, inner_dim) = std::nullopt;
  TORCH_ARG(double, dropout) = 0.1;
  // Python passes the activation's class (nn.ReLU); here an instance of it.
  // Empty: nn::ReLU.
  TORCH_ARG(nn::AnyModule, activation);
};

// features [B, T, C] -> logits [B, num_classes] from the first (<s>) position:
// dropout, dense, activation, dropout, out_proj.
class RobertaClassificationHeadImpl : public nn::Cloneable<RobertaClassificationHeadImpl> {
 public:
  RobertaClassificationHeadImpl(int64_t num_classes, int64_t input_dim, std::optional<int64_t> inner_dim = std::nullopt,
                                double dropout = 0.1, nn::AnyModule activation = {});
  explicit RobertaClassificationHeadImpl(RobertaClassificationHeadOptions options_);
  void reset() override;
  Tensor forward(const Tensor& features);

  RobertaClassificationHeadOptions options;
  nn::Linear dense{nullptr};
  nn::Dropout dropout{nullptr};
  nn::Linear out_proj{nullptr};
  nn::AnyModule activation_fn;

 private:
  bool built_ = false;
};
TORCH_MODULE(RobertaClassificationHead);

// RobertaModel(encoder_conf, head=None, freeze_encoder=False): the encoder's
// features, or the head's output on them. head is any module taking the
// features tensor (empty AnyModule: None).
class RobertaModelImpl : public nn::Cloneable<RobertaModelImpl> {
 public:
  explicit RobertaModelImpl(const RobertaEncoderConf& encoder_conf, nn::AnyModule head = {},
                            bool freeze_encoder = false);
  template <typename Head, typename = std::enable_if_t<nn::detail::is_module_holder_v<std::decay_t<Head>>>>
  RobertaModelImpl(const RobertaEncoderConf& encoder_conf, Head head, bool freeze_encoder = false)
      : RobertaModelImpl(encoder_conf, nn::AnyModule(std::move(head)), freeze_encoder) {}
  void reset() override;
  Tensor forward(const Tensor& tokens, const std::optional<Tensor>& masked_tokens = std::nullopt);

 protected:
  FORWARD_HAS_DEFAULT_ARGS({1, nn::AnyValue(std::optional<Tensor>())})

 public:
  RobertaEncoderConf encoder_conf;
  bool freeze_encoder;
  RobertaEncoder encoder{nullptr};
  nn::AnyModule head;

 private:
  bool built_ = false;
};
TORCH_MODULE(RobertaModel);

}  // namespace torch::text::models
