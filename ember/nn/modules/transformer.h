#pragma once
// TransformerEncoder, TransformerDecoder and Transformer, as torch::nn (LibTorch 1.13).
// state_dict names follow torch.nn: layers.0.self_attn.in_proj_weight, norm.weight,
// encoder.layers.0..., decoder.norm.bias.
#include <ostream>

#include "ember/core/tensor.h"
#include "ember/nn/cloneable.h"
#include "ember/nn/modules/container/any.h"
#include "ember/nn/modules/container/modulelist.h"
#include "ember/nn/modules/transformer_layer.h"
#include "ember/nn/options/transformer_coder.h"
#include "ember/nn/pimpl.h"

namespace torch::nn {

// A stack of num_layers clones of encoder_layer, then the optional norm.
class TransformerEncoderImpl : public Cloneable<TransformerEncoderImpl> {
 public:
  TransformerEncoderImpl(TransformerEncoderLayer encoder_layer, int64_t num_layers)
      : TransformerEncoderImpl(TransformerEncoderOptions(std::move(encoder_layer), num_layers)) {}
  explicit TransformerEncoderImpl(TransformerEncoderOptions options_);

  Tensor forward(const Tensor& src, const Tensor& src_mask = {}, const Tensor& src_key_padding_mask = {});

 protected:
  FORWARD_HAS_DEFAULT_ARGS({1, AnyValue(Tensor())}, {2, AnyValue(Tensor())})

 public:
  void reset() override;
  void reset_parameters();

  TransformerEncoderOptions options;
  ModuleList layers = nullptr;
  AnyModule norm;
};
EMBER_NN_MODULE(TransformerEncoder);

// A stack of num_layers clones of decoder_layer, then the optional norm.
class TransformerDecoderImpl : public Cloneable<TransformerDecoderImpl> {
 public:
  TransformerDecoderImpl(TransformerDecoderLayer decoder_layer, int64_t num_layers)
      : TransformerDecoderImpl(TransformerDecoderOptions(std::move(decoder_layer), num_layers)) {}
  explicit TransformerDecoderImpl(TransformerDecoderOptions options_);

  Tensor forward(const Tensor& tgt, const Tensor& memory, const Tensor& tgt_mask = {}, const Tensor& memory_mask = {},
                 const Tensor& tgt_key_padding_mask = {}, const Tensor& memory_key_padding_mask = {});

 protected:
  FORWARD_HAS_DEFAULT_ARGS({2, AnyValue(Tensor())}, {3, AnyValue(Tensor())}, {4, AnyValue(Tensor())},
                           {5, AnyValue(Tensor())})

 public:
  void reset() override;
  void reset_parameters();

  TransformerDecoderOptions options;
  ModuleList layers = nullptr;
  AnyModule norm;
};
EMBER_NN_MODULE(TransformerDecoder);

// Encoder (with a final LayerNorm) + decoder (with a final LayerNorm), or custom ones.
class TransformerImpl : public Cloneable<TransformerImpl> {
 public:
  explicit TransformerImpl(TransformerOptions options_);

  // src (S, N, E), tgt (T, N, E) (batch-first with options.batch_first()); returns (T, N, E).
  Tensor forward(const Tensor& src, const Tensor& tgt, const Tensor& src_mask = {}, const Tensor& tgt_mask = {},
                 const Tensor& memory_mask = {}, const Tensor& src_key_padding_mask = {},
                 const Tensor& tgt_key_padding_mask = {}, const Tensor& memory_key_padding_mask = {});

 protected:
  FORWARD_HAS_DEFAULT_ARGS({2, AnyValue(Tensor())}, {3, AnyValue(Tensor())}, {4, AnyValue(Tensor())},
                           {5, AnyValue(Tensor())}, {6, AnyValue(Tensor())}, {7, AnyValue(Tensor())})

 public:
  void reset() override;
  // xavier_uniform_ on every parameter with more than one dim, as PyTorch.
  void reset_parameters();

  // A float (sz, sz) mask: 0 on and below the diagonal, -inf above (no attending to later positions).
  static Tensor generate_square_subsequent_mask(int64_t sz);

  TransformerOptions options;
  AnyModule encoder;
  AnyModule decoder;
};
EMBER_NN_MODULE(Transformer);

}  // namespace torch::nn
