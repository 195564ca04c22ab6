#pragma once
// torchvision.models.vision_transformer: VisionTransformer (ViT) and its
// builders vit_b_16 ... vit_h_14. The module tree equals torchvision's, so
// state_dict() keys match its checkpoints (including
// encoder.layers.encoder_layer_0.self_attention.in_proj_weight).
#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "ember/core/arg.h"
#include "ember/core/ordered_dict.h"
#include "ember/core/tensor.h"
#include "ember/nn/cloneable.h"
#include "ember/nn/modules/container/any.h"
#include "ember/nn/modules/container/sequential.h"
#include "ember/nn/modules/dropout.h"
#include "ember/nn/modules/multihead_attention.h"
#include "ember/nn/pimpl.h"
#include "ember/vision/models/weights_enums_transformers.h"
#include "ember/vision/ops/misc.h"

namespace torch::vision::models {

// One conv-norm-activation layer of the convolutional stem (arXiv:2106.14881).
struct ConvStemConfig {
  int64_t out_channels;
  int64_t kernel_size;
  int64_t stride;
  ops::NormLayer norm_layer = ops::batch_norm2d_layer();
  ops::ActivationLayer activation_layer = ops::relu_layer();
};

// Python's default norm_layer, partial(nn.LayerNorm, eps=1e-6).
ops::NormLayer vit_layer_norm(double eps = 1e-6);

// The transformer MLP: Linear ("0"), GELU, Dropout, Linear ("3"), Dropout.
class MLPBlockImpl : public ops::MLPImpl {
 public:
  MLPBlockImpl(int64_t in_dim, int64_t mlp_dim, double dropout);
  void pretty_print(std::ostream& stream) const override { stream << "MLPBlock"; }
};
TORCH_MODULE(MLPBlock);

struct EncoderBlockOptions {
  EncoderBlockOptions(int64_t num_heads, int64_t hidden_dim, int64_t mlp_dim, double dropout, double attention_dropout)
      : num_heads_(num_heads),
        hidden_dim_(hidden_dim),
        mlp_dim_(mlp_dim),
        dropout_(dropout),
        attention_dropout_(attention_dropout) {}
  TORCH_ARG(int64_t, num_heads);
  TORCH_ARG(int64_t, hidden_dim);
  TORCH_ARG(int64_t, mlp_dim);
  TORCH_ARG(double, dropout);
  TORCH_ARG(double, attention_dropout);
  TORCH_ARG(ops::NormLayer, norm_layer) = vit_layer_norm();
};

class EncoderBlockImpl : public nn::Cloneable<EncoderBlockImpl> {
 public:
  explicit EncoderBlockImpl(const EncoderBlockOptions& options_);
  void reset() override;
  void pretty_print(std::ostream& stream) const override { stream << "EncoderBlock"; }
  // input: (batch_size, seq_length, hidden_dim).
  Tensor forward(const Tensor& input);
  EncoderBlockOptions options;
  nn::AnyModule ln_1, ln_2;
  nn::MultiheadAttention self_attention = nullptr;
  nn::Dropout dropout = nullptr;
  MLPBlock mlp = nullptr;
};
TORCH_MODULE(EncoderBlock);

struct EncoderOptions {
  EncoderOptions(int64_t seq_length, int64_t num_layers, int64_t num_heads, int64_t hidden_dim, int64_t mlp_dim,
                 double dropout, double attention_dropout)
      : seq_length_(seq_length),
        num_layers_(num_layers),
        num_heads_(num_heads),
        hidden_dim_(hidden_dim),
        mlp_dim_(mlp_dim),
        dropout_(dropout),
        attention_dropout_(attention_dropout) {}
  TORCH_ARG(int64_t, seq_length);
  TORCH_ARG(int64_t, num_layers);
  TORCH_ARG(int64_t, num_heads);
  TORCH_ARG(int64_t, hidden_dim);
  TORCH_ARG(int64_t, mlp_dim);
  TORCH_ARG(double, dropout);
  TORCH_ARG(double, attention_dropout);
  TORCH_ARG(ops::NormLayer, norm_layer) = vit_layer_norm();
};

class EncoderImpl : public nn::Cloneable<EncoderImpl> {
 public:
  explicit EncoderImpl(const EncoderOptions& options_);
  void reset() override;
  void pretty_print(std::ostream& stream) const override { stream << "Encoder"; }
  Tensor forward(const Tensor& input);
  EncoderOptions options;
  Tensor pos_embedding;
  nn::Dropout dropout = nullptr;
  nn::Sequential layers = nullptr;
  nn::AnyModule ln;
};
TORCH_MODULE(Encoder);

struct VisionTransformerOptions {
  VisionTransformerOptions(int64_t image_size, int64_t patch_size, int64_t num_layers, int64_t num_heads,
                           int64_t hidden_dim, int64_t mlp_dim)
      : image_size_(image_size),
        patch_size_(patch_size),
        num_layers_(num_layers),
        num_heads_(num_heads),
        hidden_dim_(hidden_dim),
        mlp_dim_(mlp_dim) {}
  TORCH_ARG(int64_t, image_size);
  TORCH_ARG(int64_t, patch_size);
  TORCH_ARG(int64_t, num_layers);
  TORCH_ARG(int64_t, num_heads);
  TORCH_ARG(int64_t, hidden_dim);
  TORCH_ARG(int64_t, mlp_dim);
  TORCH_ARG(double, dropout) = 0.0;
  TORCH_ARG(double, attention_dropout) = 0.0;
  TORCH_ARG(int64_t, num_classes) = 1000;
  TORCH_ARG(std::optional<int64_t>, representation_size) = std::nullopt;
  TORCH_ARG(ops::NormLayer, norm_layer) = vit_layer_norm();
  TORCH_ARG(std::optional<std::vector<ConvStemConfig>>, conv_stem_configs) = std::nullopt;
};

class VisionTransformerImpl : public nn::Cloneable<VisionTransformerImpl> {
 public:
  VisionTransformerImpl(int64_t image_size, int64_t patch_size, int64_t num_layers, int64_t num_heads,
                        int64_t hidden_dim, int64_t mlp_dim)
      : VisionTransformerImpl(
            VisionTransformerOptions(image_size, patch_size, num_layers, num_heads, hidden_dim, mlp_dim)) {}
  explicit VisionTransformerImpl(const VisionTransformerOptions& options_);
  void reset() override;
  void pretty_print(std::ostream& stream) const override;
  // x: (n, 3, image_size, image_size) float; returns (n, num_classes) logits.
  Tensor forward(const Tensor& x);
  // (n, 3, h, w) -> (n, (h / p) * (w / p), hidden_dim).
  Tensor _process_input(const Tensor& x);

  // Module::load_state_dict after torchvision's key remap for checkpoints
  // saved before MLPBlock became an MLP (mlp.linear_1 -> mlp.0, linear_2 -> mlp.3).
  LoadStateDictResult load_state_dict(const OrderedDict<std::string, Tensor>& state_dict, bool strict = true);
  LoadStateDictResult load_state_dict(const std::vector<std::pair<std::string, Tensor>>& state_dict,
                                      bool strict = true);

  VisionTransformerOptions options;
  int64_t seq_length = 0;
  nn::AnyModule conv_proj;
  Tensor class_token;
  Encoder encoder = nullptr;
  nn::Sequential heads = nullptr;
};
TORCH_MODULE(VisionTransformer);

// Keyword arguments the builders pass on to VisionTransformer (Python's **kwargs).
struct VisionTransformerKwargs {
  // Unset: 224, or the weights' min_size (a different value raises).
  TORCH_ARG(std::optional<int64_t>, image_size) = std::nullopt;
  TORCH_ARG(double, dropout) = 0.0;
  TORCH_ARG(double, attention_dropout) = 0.0;
  // Unset: 1000, or the weights' categories (a different value raises).
  TORCH_ARG(std::optional<int64_t>, num_classes) = std::nullopt;
  TORCH_ARG(std::optional<int64_t>, representation_size) = std::nullopt;
  TORCH_ARG(ops::NormLayer, norm_layer) = vit_layer_norm();
  TORCH_ARG(std::optional<std::vector<ConvStemConfig>>, conv_stem_configs) = std::nullopt;
};

// The builders. `weights` (ViT_B_16_Weights::IMAGENET1K_V1.with_path(file), ...)
// set num_classes and image_size and are loaded strictly from the file they
// point at; nothing is downloaded, and `progress` is accepted for Python's
// signature only.
VisionTransformer vit_b_16(std::optional<Weights> weights = std::nullopt, bool progress = true,
                           const VisionTransformerKwargs& kwargs = {});
VisionTransformer vit_b_32(std::optional<Weights> weights = std::nullopt, bool progress = true,
                           const VisionTransformerKwargs& kwargs = {});
VisionTransformer vit_l_16(std::optional<Weights> weights = std::nullopt, bool progress = true,
                           const VisionTransformerKwargs& kwargs = {});
VisionTransformer vit_l_32(std::optional<Weights> weights = std::nullopt, bool progress = true,
                           const VisionTransformerKwargs& kwargs = {});
VisionTransformer vit_h_14(std::optional<Weights> weights = std::nullopt, bool progress = true,
                           const VisionTransformerKwargs& kwargs = {});

// The VisionTransformerOptions a builder uses ("vit_b_16", ...), so a
// configuration can be checked or varied without building the model.
VisionTransformerOptions vision_transformer_config(const std::string& name, const VisionTransformerKwargs& kwargs = {});

// Resizes encoder.pos_embedding of `model_state` to the grid of a model for
// image_size / patch_size (the class token's embedding is kept), as
// torchvision's interpolate_embeddings. interpolation_mode: "bilinear" or
// "bicubic" (with align_corners, as torchvision). reset_heads drops the
// heads.* entries.
OrderedDict<std::string, Tensor> interpolate_embeddings(int64_t image_size, int64_t patch_size,
                                                        const OrderedDict<std::string, Tensor>& model_state,
                                                        const std::string& interpolation_mode = "bicubic",
                                                        bool reset_heads = false);

}  // namespace torch::vision::models
