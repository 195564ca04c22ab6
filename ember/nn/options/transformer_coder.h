#pragma once
// Options of TransformerEncoder, TransformerDecoder and Transformer, as LibTorch's
// torch/nn/options/{transformercoder,transformer}.h (+ PyTorch 1.13's layer_norm_eps,
// batch_first and norm_first on Transformer).
#include <cstdint>

#include "ember/core/arg.h"
#include "ember/nn/modules/container/any.h"
#include "ember/nn/modules/transformer_layer.h"
#include "ember/nn/options/transformer.h"

namespace torch::nn {

// TransformerEncoderOptions(TransformerEncoderLayer(512, 8), 6).norm(AnyModule(LayerNorm(...)))
struct TransformerEncoderOptions {
  TransformerEncoderOptions(TransformerEncoderLayer encoder_layer, int64_t num_layers)
      : encoder_layer_(std::move(encoder_layer)), num_layers_(num_layers) {}
  TransformerEncoderOptions(const TransformerEncoderLayerOptions& encoder_layer_options, int64_t num_layers);
  // Cloned num_layers times, so every layer starts from the same weights (as PyTorch's deepcopy).
  TORCH_ARG(TransformerEncoderLayer, encoder_layer) = nullptr;
  TORCH_ARG(int64_t, num_layers);
  // Optional final normalization (empty: none).
  TORCH_ARG(AnyModule, norm);
};

struct TransformerDecoderOptions {
  TransformerDecoderOptions(TransformerDecoderLayer decoder_layer, int64_t num_layers)
      : decoder_layer_(std::move(decoder_layer)), num_layers_(num_layers) {}
  TransformerDecoderOptions(const TransformerDecoderLayerOptions& decoder_layer_options, int64_t num_layers);
  TORCH_ARG(TransformerDecoderLayer, decoder_layer) = nullptr;
  TORCH_ARG(int64_t, num_layers);
  TORCH_ARG(AnyModule, norm);
};

// TransformerOptions(512, 8, 6, 6).dim_feedforward(2048)
struct TransformerOptions {
  using activation_t = TransformerActivation;
  TransformerOptions() = default;
  TransformerOptions(int64_t d_model, int64_t nhead) : d_model_(d_model), nhead_(nhead) {}
  TransformerOptions(int64_t d_model, int64_t nhead, int64_t num_encoder_layers, int64_t num_decoder_layers)
      : d_model_(d_model),
        nhead_(nhead),
        num_encoder_layers_(num_encoder_layers),
        num_decoder_layers_(num_decoder_layers) {}
  TORCH_ARG(int64_t, d_model) = 512;
  TORCH_ARG(int64_t, nhead) = 8;
  TORCH_ARG(int64_t, num_encoder_layers) = 6;
  TORCH_ARG(int64_t, num_decoder_layers) = 6;
  TORCH_ARG(int64_t, dim_feedforward) = 2048;
  TORCH_ARG(double, dropout) = 0.1;
  TORCH_ARG(activation_t, activation) = enumtype::kReLU();
  // A module used instead of the default TransformerEncoder / TransformerDecoder.
  TORCH_ARG(AnyModule, custom_encoder);
  TORCH_ARG(AnyModule, custom_decoder);
  TORCH_ARG(double, layer_norm_eps) = 1e-5;
  TORCH_ARG(bool, batch_first) = false;
  TORCH_ARG(bool, norm_first) = false;
};

}  // namespace torch::nn
