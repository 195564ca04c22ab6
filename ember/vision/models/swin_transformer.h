#pragma once
// torchvision.models.swin_transformer: Swin Transformer v1 (arXiv:2103.14030)
// and v2 (arXiv:2111.09883) with shifted-window attention and relative
// position bias computed as torchvision computes them, and the
// swin_t/s/b and swin_v2_t/s/b builders. The module trees equal
// torchvision's, so state_dict() keys match its checkpoints.
#include <cstdint>
#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "ember/core/arg.h"
#include "ember/core/tensor.h"
#include "ember/nn/cloneable.h"
#include "ember/nn/modules/container/any.h"
#include "ember/nn/modules/container/sequential.h"
#include "ember/nn/modules/linear.h"
#include "ember/nn/modules/pooling.h"
#include "ember/nn/pimpl.h"
#include "ember/vision/models/weights_enums_transformers.h"
#include "ember/vision/ops/misc.h"
#include "ember/vision/ops/stochastic_depth.h"

namespace torch::vision::models {

// Window multi-head self-attention on an [N, H, W, C] input, shifted by
// shift_size, with the relative position bias [1, heads, Wh*Ww, Wh*Ww];
// logit_scale selects v2's scaled cosine attention. As torchvision's, the
// two dropouts apply whenever their probability is positive (F.dropout's
// default training=True), also in eval mode.
Tensor shifted_window_attention(const Tensor& input, const Tensor& qkv_weight, const Tensor& proj_weight,
                                const Tensor& relative_position_bias, std::vector<int64_t> window_size,
                                int64_t num_heads, std::vector<int64_t> shift_size, double attention_dropout = 0.0,
                                double dropout = 0.0, const std::optional<Tensor>& qkv_bias = std::nullopt,
                                const std::optional<Tensor>& proj_bias = std::nullopt,
                                const std::optional<Tensor>& logit_scale = std::nullopt);

// [..., H, W, C] -> [..., H/2, W/2, 2C]: pad to even, concatenate the four
// sub-grids, then norm(4C) + Linear (v1) or Linear + norm(2C) (v2).
class PatchMergingImpl : public nn::Cloneable<PatchMergingImpl> {
 public:
  explicit PatchMergingImpl(int64_t dim, ops::NormLayer norm_layer = {});
  void reset() override;
  void pretty_print(std::ostream& stream) const override { stream << "PatchMerging(dim=" << dim << ")"; }
  Tensor forward(const Tensor& x);
  int64_t dim;
  ops::NormLayer norm_layer;
  nn::Linear reduction = nullptr;
  nn::AnyModule norm;
};
TORCH_MODULE(PatchMerging);

class PatchMergingV2Impl : public nn::Cloneable<PatchMergingV2Impl> {
 public:
  explicit PatchMergingV2Impl(int64_t dim, ops::NormLayer norm_layer = {});
  void reset() override;
  void pretty_print(std::ostream& stream) const override { stream << "PatchMergingV2(dim=" << dim << ")"; }
  Tensor forward(const Tensor& x);
  int64_t dim;
  ops::NormLayer norm_layer;
  nn::Linear reduction = nullptr;
  nn::AnyModule norm;
};
TORCH_MODULE(PatchMergingV2);

struct ShiftedWindowAttentionOptions {
  ShiftedWindowAttentionOptions(int64_t dim, std::vector<int64_t> window_size, std::vector<int64_t> shift_size,
                                int64_t num_heads)
      : dim_(dim), window_size_(std::move(window_size)), shift_size_(std::move(shift_size)), num_heads_(num_heads) {}
  TORCH_ARG(int64_t, dim);
  TORCH_ARG(std::vector<int64_t>, window_size);
  TORCH_ARG(std::vector<int64_t>, shift_size);
  TORCH_ARG(int64_t, num_heads);
  TORCH_ARG(bool, qkv_bias) = true;
  TORCH_ARG(bool, proj_bias) = true;
  TORCH_ARG(double, attention_dropout) = 0.0;
  TORCH_ARG(double, dropout) = 0.0;
};

// v1: a learned table of (2Wh-1)(2Ww-1) x heads biases.
class ShiftedWindowAttentionImpl : public nn::Cloneable<ShiftedWindowAttentionImpl> {
 public:
  explicit ShiftedWindowAttentionImpl(const ShiftedWindowAttentionOptions& options_);
  void reset() override;
  void pretty_print(std::ostream& stream) const override { stream << "ShiftedWindowAttention"; }
  Tensor get_relative_position_bias();
  // x: [B, H, W, C].
  Tensor forward(const Tensor& x);
  ShiftedWindowAttentionOptions options;
  nn::Linear qkv = nullptr, proj = nullptr;
  Tensor relative_position_bias_table, relative_position_index;
};
TORCH_MODULE(ShiftedWindowAttention);

// v2: the bias comes from a small MLP (cpb_mlp) over log-spaced relative
// coordinates, and attention is cosine similarity times exp(logit_scale).
class ShiftedWindowAttentionV2Impl : public nn::Cloneable<ShiftedWindowAttentionV2Impl> {
 public:
  explicit ShiftedWindowAttentionV2Impl(const ShiftedWindowAttentionOptions& options_);
  void reset() override;
  void pretty_print(std::ostream& stream) const override { stream << "ShiftedWindowAttentionV2"; }
  Tensor get_relative_position_bias();
  Tensor forward(const Tensor& x);
  ShiftedWindowAttentionOptions options;
  Tensor logit_scale;
  nn::Linear qkv = nullptr, proj = nullptr;
  Tensor relative_coords_table, relative_position_index;
  nn::Sequential cpb_mlp = nullptr;
};
TORCH_MODULE(ShiftedWindowAttentionV2);

struct SwinTransformerBlockOptions {
  SwinTransformerBlockOptions(int64_t dim, int64_t num_heads, std::vector<int64_t> window_size,
                              std::vector<int64_t> shift_size)
      : dim_(dim), num_heads_(num_heads), window_size_(std::move(window_size)), shift_size_(std::move(shift_size)) {}
  TORCH_ARG(int64_t, dim);
  TORCH_ARG(int64_t, num_heads);
  TORCH_ARG(std::vector<int64_t>, window_size);
  TORCH_ARG(std::vector<int64_t>, shift_size);
  TORCH_ARG(double, mlp_ratio) = 4.0;
  TORCH_ARG(double, dropout) = 0.0;
  TORCH_ARG(double, attention_dropout) = 0.0;
  TORCH_ARG(double, stochastic_depth_prob) = 0.0;
  // Empty: nn.LayerNorm (eps 1e-5).
  TORCH_ARG(ops::NormLayer, norm_layer) = {};
};

// x + sd(attn(norm1(x))), then x + sd(mlp(norm2(x))).
class SwinTransformerBlockImpl : public nn::Cloneable<SwinTransformerBlockImpl> {
 public:
  explicit SwinTransformerBlockImpl(const SwinTransformerBlockOptions& options_);
  void reset() override;
  void pretty_print(std::ostream& stream) const override { stream << "SwinTransformerBlock"; }
  Tensor forward(const Tensor& x);
  SwinTransformerBlockOptions options;
  nn::AnyModule norm1, norm2;
  ShiftedWindowAttention attn = nullptr;
  ops::StochasticDepth stochastic_depth = nullptr;
  ops::MLP mlp = nullptr;
};
TORCH_MODULE(SwinTransformerBlock);

// Post-norm: x + sd(norm1(attn(x))), then x + sd(norm2(mlp(x))).
class SwinTransformerBlockV2Impl : public nn::Cloneable<SwinTransformerBlockV2Impl> {
 public:
  explicit SwinTransformerBlockV2Impl(const SwinTransformerBlockOptions& options_);
  void reset() override;
  void pretty_print(std::ostream& stream) const override { stream << "SwinTransformerBlockV2"; }
  Tensor forward(const Tensor& x);
  SwinTransformerBlockOptions options;
  nn::AnyModule norm1, norm2;
  ShiftedWindowAttentionV2 attn = nullptr;
  ops::StochasticDepth stochastic_depth = nullptr;
  ops::MLP mlp = nullptr;
};
TORCH_MODULE(SwinTransformerBlockV2);

// Python's `block` and `downsample_layer` arguments.
using SwinBlockFactory = std::function<nn::AnyModule(const SwinTransformerBlockOptions&)>;
using SwinDownsampleFactory = std::function<nn::AnyModule(int64_t, const ops::NormLayer&)>;
SwinBlockFactory swin_transformer_block();     // SwinTransformerBlock
SwinBlockFactory swin_transformer_block_v2();  // SwinTransformerBlockV2
SwinDownsampleFactory patch_merging();         // PatchMerging
SwinDownsampleFactory patch_merging_v2();      // PatchMergingV2

struct SwinTransformerOptions {
  SwinTransformerOptions(std::vector<int64_t> patch_size, int64_t embed_dim, std::vector<int64_t> depths,
                         std::vector<int64_t> num_heads, std::vector<int64_t> window_size)
      : patch_size_(std::move(patch_size)),
        embed_dim_(embed_dim),
        depths_(std::move(depths)),
        num_heads_(std::move(num_heads)),
        window_size_(std::move(window_size)) {}
  TORCH_ARG(std::vector<int64_t>, patch_size);
  TORCH_ARG(int64_t, embed_dim);
  TORCH_ARG(std::vector<int64_t>, depths);
  TORCH_ARG(std::vector<int64_t>, num_heads);
  TORCH_ARG(std::vector<int64_t>, window_size);
  TORCH_ARG(double, mlp_ratio) = 4.0;
  TORCH_ARG(double, dropout) = 0.0;
  TORCH_ARG(double, attention_dropout) = 0.0;
  TORCH_ARG(double, stochastic_depth_prob) = 0.1;
  TORCH_ARG(int64_t, num_classes) = 1000;
  // nullopt: partial(nn.LayerNorm, eps=1e-5).
  TORCH_ARG(std::optional<ops::NormLayer>, norm_layer) = std::nullopt;
  // nullopt: SwinTransformerBlock.
  TORCH_ARG(std::optional<SwinBlockFactory>, block) = std::nullopt;
  TORCH_ARG(SwinDownsampleFactory, downsample_layer) = patch_merging();
};

class SwinTransformerImpl : public nn::Cloneable<SwinTransformerImpl> {
 public:
  explicit SwinTransformerImpl(const SwinTransformerOptions& options_);
  void reset() override;
  void pretty_print(std::ostream& stream) const override { stream << "SwinTransformer"; }
  // x: (N, 3, H, W) float; returns (N, num_classes).
  Tensor forward(const Tensor& x);
  SwinTransformerOptions options;
  nn::Sequential features = nullptr;
  nn::AnyModule norm;
  ops::Permute permute = nullptr;
  nn::AdaptiveAvgPool2d avgpool = nullptr;
  nn::Flatten flatten = nullptr;
  nn::Linear head = nullptr;
};
TORCH_MODULE(SwinTransformer);

// Keyword arguments the builders pass on to SwinTransformer;
// stochastic_depth_prob nullopt takes the builder's default.
struct SwinTransformerKwargs {
  TORCH_ARG(double, mlp_ratio) = 4.0;
  TORCH_ARG(double, dropout) = 0.0;
  TORCH_ARG(double, attention_dropout) = 0.0;
  TORCH_ARG(std::optional<double>, stochastic_depth_prob) = std::nullopt;
  // Unset: 1000, or the weights' categories (a different value raises).
  TORCH_ARG(std::optional<int64_t>, num_classes) = std::nullopt;
  TORCH_ARG(std::optional<ops::NormLayer>, norm_layer) = std::nullopt;
};

// `weights` (Swin_T_Weights::IMAGENET1K_V1.with_path(file), ...) set
// num_classes and are loaded strictly from their file (nothing is
// downloaded; `progress` is accepted for Python's signature only).
SwinTransformer swin_t(std::optional<Weights> weights = std::nullopt, bool progress = true,
                       const SwinTransformerKwargs& kwargs = {});
SwinTransformer swin_s(std::optional<Weights> weights = std::nullopt, bool progress = true,
                       const SwinTransformerKwargs& kwargs = {});
SwinTransformer swin_b(std::optional<Weights> weights = std::nullopt, bool progress = true,
                       const SwinTransformerKwargs& kwargs = {});
SwinTransformer swin_v2_t(std::optional<Weights> weights = std::nullopt, bool progress = true,
                          const SwinTransformerKwargs& kwargs = {});
SwinTransformer swin_v2_s(std::optional<Weights> weights = std::nullopt, bool progress = true,
                          const SwinTransformerKwargs& kwargs = {});
SwinTransformer swin_v2_b(std::optional<Weights> weights = std::nullopt, bool progress = true,
                          const SwinTransformerKwargs& kwargs = {});

// The SwinTransformerOptions a builder uses ("swin_t", ..., "swin_v2_b").
SwinTransformerOptions swin_transformer_config(const std::string& name, const SwinTransformerKwargs& kwargs = {});

}  // namespace torch::vision::models
