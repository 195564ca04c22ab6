#include "ember/vision/models/swin_transformer.h"

#include <cmath>

#include "ember/autograd/grad_mode.h"
#include "ember/core/error.h"
#include "ember/nn/functional/loss.h"
#include "ember/nn/init.h"
#include "ember/nn/modules/activation.h"
#include "ember/nn/modules/conv.h"
#include "ember/nn/modules/normalization.h"
#include "ember/ops/all_ops.h"
#include "ember/serialize/pt_reader.h"

namespace torch::vision::models {

namespace {

ops::NormLayer default_layer_norm(double eps = 1e-5) {
  return [eps](int64_t n) { return nn::AnyModule(nn::LayerNorm(nn::LayerNormOptions({n}).eps(eps))); };
}

ops::NormLayer or_default(const ops::NormLayer& norm) { return norm ? norm : default_layer_norm(); }

ops::ActivationLayer gelu_layer() {
  return [](std::optional<bool>) { return nn::AnyModule(nn::GELU()); };
}

void check_window(const std::vector<int64_t>& window_size, const std::vector<int64_t>& shift_size, const char* op) {
  EMBER_CHECK(window_size.size() == 2 && shift_size.size() == 2, op,
              ": window_size and shift_size must be of length 2, got ", IntArrayRef(window_size), " and ",
              IntArrayRef(shift_size));
  EMBER_CHECK(window_size[0] > 0 && window_size[1] > 0 && shift_size[0] >= 0 && shift_size[1] >= 0, op,
              ": window_size must be positive and shift_size non-negative, got ", IntArrayRef(window_size), " and ",
              IntArrayRef(shift_size));
}

void check_nhwc(const Tensor& x, int64_t channels, const char* op) {
  EMBER_CHECK(x.defined() && x.dim() == 4 && x.size(3) == channels, op, ": expected a [B, H, W, ", channels,
              "] input, got shape ", x.defined() ? x.sizes() : IntArrayRef{});
}

// Index into the (2Wh-1)(2Ww-1) table of every (query, key) pair of a window.
Tensor relative_position_index_for(const std::vector<int64_t>& ws) {
  const int64_t n = ws[0] * ws[1];
  std::vector<int64_t> idx(static_cast<size_t>(n * n));
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      const int64_t dh = i / ws[1] - j / ws[1] + ws[0] - 1;
      const int64_t dw = i % ws[1] - j % ws[1] + ws[1] - 1;
      idx[static_cast<size_t>(i * n + j)] = dh * (2 * ws[1] - 1) + dw;
    }
  }
  return from_blob(idx.data(), {n * n}, kLong).clone();
}

Tensor gather_relative_position_bias(const Tensor& table, const Tensor& index, const std::vector<int64_t>& ws) {
  const int64_t n = ws[0] * ws[1];
  Tensor bias = table.index_select(0, index).view({n, n, -1});
  return bias.permute({2, 0, 1}).contiguous().unsqueeze(0);
}

// Region ids of the shifted layout: tokens of different regions must not attend to each other.
Tensor shifted_window_mask(int64_t pad_h, int64_t pad_w, const std::vector<int64_t>& ws,
                           const std::vector<int64_t>& shift, ScalarType dtype) {
  auto region = [](int64_t p, int64_t size, int64_t window, int64_t s) {
    if (p < size - window) return 0;
    if (p < size - s) return 1;
    return 2;
  };
  const int64_t nh = pad_h / ws[0], nw = pad_w / ws[1], n = ws[0] * ws[1];
  std::vector<int64_t> ids(static_cast<size_t>(nh * nw * n));
  for (int64_t h = 0; h < pad_h; ++h) {
    for (int64_t w = 0; w < pad_w; ++w) {
      const int64_t win = (h / ws[0]) * nw + w / ws[1];
      const int64_t pos = (h % ws[0]) * ws[1] + w % ws[1];
      ids[static_cast<size_t>(win * n + pos)] =
          region(h, pad_h, ws[0], shift[0]) * 3 + region(w, pad_w, ws[1], shift[1]);
    }
  }
  const Tensor id = from_blob(ids.data(), {nh * nw, n}, kLong).clone();
  const Tensor differ = id.unsqueeze(1).ne(id.unsqueeze(2));
  return zeros({nh * nw, n, n}, dtype).masked_fill(differ, -100.0);
}

Tensor patch_merging_pad(const Tensor& x) {
  EMBER_CHECK(x.defined() && x.dim() >= 3, "PatchMerging: expected a [..., H, W, C] input, got shape ",
              x.defined() ? x.sizes() : IntArrayRef{});
  const int64_t h = x.size(-3), w = x.size(-2);
  const Tensor p = pad(x, {0, 0, 0, w % 2, 0, h % 2});
  const int64_t d = p.dim();
  auto grid = [&](int64_t h0, int64_t w0) {
    return p.slice(d - 3, h0, p.size(d - 3), 2).slice(d - 2, w0, p.size(d - 2), 2);
  };
  return cat({grid(0, 0), grid(1, 0), grid(0, 1), grid(1, 1)}, -1);
}

}  // namespace

Tensor shifted_window_attention(const Tensor& input, const Tensor& qkv_weight, const Tensor& proj_weight,
                                const Tensor& relative_position_bias, std::vector<int64_t> window_size,
                                int64_t num_heads, std::vector<int64_t> shift_size, double attention_dropout,
                                double dropout, const std::optional<Tensor>& qkv_bias,
                                const std::optional<Tensor>& proj_bias, const std::optional<Tensor>& logit_scale) {
  check_window(window_size, shift_size, "shifted_window_attention");
  EMBER_CHECK(input.defined() && input.dim() == 4,
              "shifted_window_attention: expected a [B, H, W, C] input, got shape ",
              input.defined() ? input.sizes() : IntArrayRef{});
  const int64_t b = input.size(0), h = input.size(1), w = input.size(2), c = input.size(3);
  // An empty map has no windows to divide the batch into.
  EMBER_CHECK(h > 0 && w > 0, "shifted_window_attention: expected a non-empty H and W, got shape ", input.sizes());
  EMBER_CHECK(qkv_weight.defined() && qkv_weight.dim() == 2 && qkv_weight.size(0) == 3 * c && qkv_weight.size(1) == c,
              "shifted_window_attention: expected qkv_weight of shape [", 3 * c, ", ", c, "], got ",
              qkv_weight.defined() ? qkv_weight.sizes() : IntArrayRef{});
  EMBER_CHECK(proj_weight.defined() && proj_weight.dim() == 2 && proj_weight.size(0) == c && proj_weight.size(1) == c,
              "shifted_window_attention: expected proj_weight of shape [", c, ", ", c, "], got ",
              proj_weight.defined() ? proj_weight.sizes() : IntArrayRef{});
  EMBER_CHECK(num_heads > 0 && c % num_heads == 0, "shifted_window_attention: C = ", c,
              " is not divisible by num_heads = ", num_heads);
  const auto& ws = window_size;
  const int64_t pad_r = (ws[1] - w % ws[1]) % ws[1];
  const int64_t pad_b = (ws[0] - h % ws[0]) % ws[0];
  Tensor x = pad(input, {0, 0, 0, pad_r, 0, pad_b});
  const int64_t pad_h = x.size(1), pad_w = x.size(2);
  auto& shift = shift_size;
  if (ws[0] >= pad_h) shift[0] = 0;
  if (ws[1] >= pad_w) shift[1] = 0;
  const bool shifted = shift[0] + shift[1] > 0;
  if (shifted) x = roll(x, {-shift[0], -shift[1]}, {1, 2});

  const int64_t num_windows = (pad_h / ws[0]) * (pad_w / ws[1]);
  const int64_t n = ws[0] * ws[1];
  x = x.view({b, pad_h / ws[0], ws[0], pad_w / ws[1], ws[1], c});
  x = x.permute({0, 1, 3, 2, 4, 5}).reshape({b * num_windows, n, c});

  std::optional<Tensor> in_bias = qkv_bias;
  if (logit_scale && qkv_bias) {
    // v2 keeps the key bias at zero.
    const int64_t len = qkv_bias->numel() / 3;
    in_bias = cat({qkv_bias->narrow(0, 0, len), zeros_like(qkv_bias->narrow(0, len, len)),
                   qkv_bias->narrow(0, 2 * len, qkv_bias->numel() - 2 * len)},
                  0);
  }
  Tensor qkv = linear(x, qkv_weight, in_bias);
  qkv = qkv.reshape({x.size(0), x.size(1), 3, num_heads, c / num_heads}).permute({2, 0, 3, 1, 4});
  Tensor q = qkv[0], k = qkv[1], v = qkv[2];
  Tensor attn;
  if (logit_scale) {
    namespace F = nn::functional;
    attn = matmul(F::normalize(q, F::NormalizeFuncOptions().dim(-1)),
                  F::normalize(k, F::NormalizeFuncOptions().dim(-1)).transpose(-2, -1));
    attn = attn * clamp_max(*logit_scale, std::log(100.0)).exp();
  } else {
    q = q * std::pow(static_cast<double>(c / num_heads), -0.5);
    attn = matmul(q, k.transpose(-2, -1));
  }
  attn = attn + relative_position_bias;
  if (shifted) {
    const Tensor mask = shifted_window_mask(pad_h, pad_w, ws, shift, attn.scalar_type()).to(attn.device());
    attn = attn.view({x.size(0) / num_windows, num_windows, num_heads, n, n});
    attn = attn + mask.unsqueeze(1).unsqueeze(0);
    attn = attn.view({-1, num_heads, n, n});
  }
  attn = softmax(attn, -1);
  // torchvision calls F.dropout with its default training=True.
  if (attention_dropout > 0) attn = ember::dropout(attn, attention_dropout, true);
  x = matmul(attn, v).transpose(1, 2).reshape({x.size(0), n, c});
  x = linear(x, proj_weight, proj_bias);
  if (dropout > 0) x = ember::dropout(x, dropout, true);
  x = x.view({b, pad_h / ws[0], pad_w / ws[1], ws[0], ws[1], c});
  x = x.permute({0, 1, 3, 2, 4, 5}).reshape({b, pad_h, pad_w, c});
  if (shifted) x = roll(x, {shift[0], shift[1]}, {1, 2});
  return x.slice(1, 0, h).slice(2, 0, w).contiguous();
}

PatchMergingImpl::PatchMergingImpl(int64_t dim_, ops::NormLayer norm_layer_)
    : dim(dim_), norm_layer(or_default(norm_layer_)) {
  reset();
}

void PatchMergingImpl::reset() {
  EMBER_CHECK(dim > 0, "PatchMerging: dim must be positive, got ", dim);
  reduction = register_module("reduction", nn::Linear(nn::LinearOptions(4 * dim, 2 * dim).bias(false)));
  norm = norm_layer(4 * dim);
  register_module("norm", norm.ptr());
}

Tensor PatchMergingImpl::forward(const Tensor& x) {
  EMBER_CHECK(x.defined() && x.dim() >= 3 && x.size(-1) == dim, "PatchMerging: expected a [..., H, W, ", dim,
              "] input, got shape ", x.defined() ? x.sizes() : IntArrayRef{});
  return reduction->forward(norm.forward(patch_merging_pad(x)));
}

PatchMergingV2Impl::PatchMergingV2Impl(int64_t dim_, ops::NormLayer norm_layer_)
    : dim(dim_), norm_layer(or_default(norm_layer_)) {
  reset();
}

void PatchMergingV2Impl::reset() {
  EMBER_CHECK(dim > 0, "PatchMergingV2: dim must be positive, got ", dim);
  reduction = register_module("reduction", nn::Linear(nn::LinearOptions(4 * dim, 2 * dim).bias(false)));
  norm = norm_layer(2 * dim);
  register_module("norm", norm.ptr());
}

Tensor PatchMergingV2Impl::forward(const Tensor& x) {
  EMBER_CHECK(x.defined() && x.dim() >= 3 && x.size(-1) == dim, "PatchMergingV2: expected a [..., H, W, ", dim,
              "] input, got shape ", x.defined() ? x.sizes() : IntArrayRef{});
  return norm.forward(reduction->forward(patch_merging_pad(x)));
}

ShiftedWindowAttentionImpl::ShiftedWindowAttentionImpl(const ShiftedWindowAttentionOptions& options_)
    : options(options_) {
  reset();
}

void ShiftedWindowAttentionImpl::reset() {
  const auto& o = options;
  check_window(o.window_size(), o.shift_size(), "ShiftedWindowAttention");
  EMBER_CHECK(o.dim() > 0 && o.num_heads() > 0 && o.dim() % o.num_heads() == 0, "ShiftedWindowAttention: dim ", o.dim(),
              " must be a positive multiple of num_heads ", o.num_heads());
  qkv = register_module("qkv", nn::Linear(nn::LinearOptions(o.dim(), 3 * o.dim()).bias(o.qkv_bias())));
  proj = register_module("proj", nn::Linear(nn::LinearOptions(o.dim(), o.dim()).bias(o.proj_bias())));
  const auto& ws = o.window_size();
  NoGradGuard no_grad;
  relative_position_bias_table =
      register_parameter("relative_position_bias_table",
                         nn::init::trunc_normal_(zeros({(2 * ws[0] - 1) * (2 * ws[1] - 1), o.num_heads()}), 0.0, 0.02));
  relative_position_index = register_buffer("relative_position_index", relative_position_index_for(ws));
}

Tensor ShiftedWindowAttentionImpl::get_relative_position_bias() {
  return gather_relative_position_bias(relative_position_bias_table, relative_position_index, options.window_size());
}

Tensor ShiftedWindowAttentionImpl::forward(const Tensor& x) {
  check_nhwc(x, options.dim(), "ShiftedWindowAttention");
  return shifted_window_attention(x, qkv->weight, proj->weight, get_relative_position_bias(), options.window_size(),
                                  options.num_heads(), options.shift_size(), options.attention_dropout(),
                                  options.dropout(),
                                  qkv->bias.defined() ? std::optional<Tensor>(qkv->bias) : std::nullopt,
                                  proj->bias.defined() ? std::optional<Tensor>(proj->bias) : std::nullopt);
}

ShiftedWindowAttentionV2Impl::ShiftedWindowAttentionV2Impl(const ShiftedWindowAttentionOptions& options_)
    : options(options_) {
  reset();
}

void ShiftedWindowAttentionV2Impl::reset() {
  const auto& o = options;
  check_window(o.window_size(), o.shift_size(), "ShiftedWindowAttentionV2");
  EMBER_CHECK(o.dim() > 0 && o.num_heads() > 0 && o.dim() % o.num_heads() == 0, "ShiftedWindowAttentionV2: dim ",
              o.dim(), " must be a positive multiple of num_heads ", o.num_heads());
  const auto& ws = o.window_size();
  EMBER_CHECK(ws[0] > 1 && ws[1] > 1, "ShiftedWindowAttentionV2: window_size must exceed 1 (the coordinate table ",
              "divides by window_size - 1), got ", IntArrayRef(ws));
  qkv = register_module("qkv", nn::Linear(nn::LinearOptions(o.dim(), 3 * o.dim()).bias(o.qkv_bias())));
  proj = register_module("proj", nn::Linear(nn::LinearOptions(o.dim(), o.dim()).bias(o.proj_bias())));
  NoGradGuard no_grad;
  // Relative coordinates scaled to [-8, 8], then sign(t) * log2(|t| + 1) / 3, in float32 as torchvision.
  const Tensor ch = arange(-(ws[0] - 1), ws[0], kFloat) / static_cast<float>(ws[0] - 1) * 8.0f;
  const Tensor cw = arange(-(ws[1] - 1), ws[1], kFloat) / static_cast<float>(ws[1] - 1) * 8.0f;
  const auto grids = meshgrid({ch, cw}, "ij");
  Tensor table = stack({grids[0], grids[1]}, 0).permute({1, 2, 0}).contiguous().unsqueeze(0);
  table = sign(table) * log2(table.abs() + 1.0) / 3.0;
  logit_scale = register_parameter("logit_scale", log(ones({o.num_heads(), 1, 1}) * 10.0));
  relative_coords_table = register_buffer("relative_coords_table", table);
  relative_position_index = register_buffer("relative_position_index", relative_position_index_for(ws));
  cpb_mlp = nn::Sequential();
  cpb_mlp->push_back(nn::Linear(2, 512));
  cpb_mlp->push_back(nn::ReLU(nn::ReLUOptions(true)));
  cpb_mlp->push_back(nn::Linear(nn::LinearOptions(512, o.num_heads()).bias(false)));
  register_module("cpb_mlp", cpb_mlp);
  if (o.qkv_bias()) qkv->bias.narrow(0, o.dim(), o.dim()).zero_();
}

Tensor ShiftedWindowAttentionV2Impl::get_relative_position_bias() {
  const Tensor table = cpb_mlp->forward(relative_coords_table).view({-1, options.num_heads()});
  return sigmoid(gather_relative_position_bias(table, relative_position_index, options.window_size())) * 16.0;
}

Tensor ShiftedWindowAttentionV2Impl::forward(const Tensor& x) {
  check_nhwc(x, options.dim(), "ShiftedWindowAttentionV2");
  return shifted_window_attention(x, qkv->weight, proj->weight, get_relative_position_bias(), options.window_size(),
                                  options.num_heads(), options.shift_size(), options.attention_dropout(),
                                  options.dropout(),
                                  qkv->bias.defined() ? std::optional<Tensor>(qkv->bias) : std::nullopt,
                                  proj->bias.defined() ? std::optional<Tensor>(proj->bias) : std::nullopt, logit_scale);
}

namespace {

template <typename Block, typename Attn>
void build_swin_block(Block& self, const SwinTransformerBlockOptions& o) {
  EMBER_CHECK(o.dim() > 0, "SwinTransformerBlock: dim must be positive, got ", o.dim());
  const ops::NormLayer norm = or_default(o.norm_layer());
  self.norm1 = norm(o.dim());
  self.register_module("norm1", self.norm1.ptr());
  self.attn = self.register_module(
      "attn", Attn(ShiftedWindowAttentionOptions(o.dim(), o.window_size(), o.shift_size(), o.num_heads())
                       .attention_dropout(o.attention_dropout())
                       .dropout(o.dropout())));
  self.stochastic_depth =
      self.register_module("stochastic_depth", ops::StochasticDepth(o.stochastic_depth_prob(), "row"));
  self.norm2 = norm(o.dim());
  self.register_module("norm2", self.norm2.ptr());
  const auto hidden = static_cast<int64_t>(static_cast<double>(o.dim()) * o.mlp_ratio());
  self.mlp = self.register_module("mlp", ops::MLP(ops::MLPOptions(o.dim(), {hidden, o.dim()})
                                                      .activation_layer(gelu_layer())
                                                      .inplace(std::nullopt)
                                                      .dropout(o.dropout())));
  NoGradGuard no_grad;
  for (const auto& child : self.mlp->children()) {
    if (auto* lin = child->template as<nn::LinearImpl>()) {
      nn::init::xavier_uniform_(lin->weight);
      if (lin->bias.defined()) nn::init::normal_(lin->bias, 0.0, 1e-6);
    }
  }
}

}  // namespace

SwinTransformerBlockImpl::SwinTransformerBlockImpl(const SwinTransformerBlockOptions& options_) : options(options_) {
  reset();
}

void SwinTransformerBlockImpl::reset() {
  build_swin_block<SwinTransformerBlockImpl, ShiftedWindowAttention>(*this, options);
}

Tensor SwinTransformerBlockImpl::forward(const Tensor& x) {
  check_nhwc(x, options.dim(), "SwinTransformerBlock");
  Tensor y = x + stochastic_depth->forward(attn->forward(norm1.forward(x)));
  return y + stochastic_depth->forward(mlp->forward(norm2.forward(y)));
}

SwinTransformerBlockV2Impl::SwinTransformerBlockV2Impl(const SwinTransformerBlockOptions& options_)
    : options(options_) {
  reset();
}

void SwinTransformerBlockV2Impl::reset() {
  build_swin_block<SwinTransformerBlockV2Impl, ShiftedWindowAttentionV2>(*this, options);
}

Tensor SwinTransformerBlockV2Impl::forward(const Tensor& x) {
  check_nhwc(x, options.dim(), "SwinTransformerBlockV2");
  Tensor y = x + stochastic_depth->forward(norm1.forward(attn->forward(x)));
  return y + stochastic_depth->forward(norm2.forward(mlp->forward(y)));
}

SwinBlockFactory swin_transformer_block() {
  return [](const SwinTransformerBlockOptions& o) { return nn::AnyModule(SwinTransformerBlock(o)); };
}
SwinBlockFactory swin_transformer_block_v2() {
  return [](const SwinTransformerBlockOptions& o) { return nn::AnyModule(SwinTransformerBlockV2(o)); };
}
SwinDownsampleFactory patch_merging() {
  return [](int64_t dim, const ops::NormLayer& norm) { return nn::AnyModule(PatchMerging(dim, norm)); };
}
SwinDownsampleFactory patch_merging_v2() {
  return [](int64_t dim, const ops::NormLayer& norm) { return nn::AnyModule(PatchMergingV2(dim, norm)); };
}

SwinTransformerImpl::SwinTransformerImpl(const SwinTransformerOptions& options_) : options(options_) { reset(); }

void SwinTransformerImpl::reset() {
  const auto& o = options;
  EMBER_CHECK(o.patch_size().size() == 2 && o.patch_size()[0] > 0 && o.patch_size()[1] > 0,
              "SwinTransformer: patch_size must be two positive ints, got ", IntArrayRef(o.patch_size()));
  EMBER_CHECK(!o.depths().empty() && o.depths().size() == o.num_heads().size(),
              "SwinTransformer: depths and num_heads must be non-empty and of equal length, got ",
              IntArrayRef(o.depths()), " and ", IntArrayRef(o.num_heads()));
  EMBER_CHECK(o.embed_dim() > 0 && o.num_classes() > 0,
              "SwinTransformer: embed_dim and num_classes must be positive, got ", o.embed_dim(), " and ",
              o.num_classes());
  const ops::NormLayer norm_layer = o.norm_layer().value_or(default_layer_norm(1e-5));
  const SwinBlockFactory block = o.block().value_or(swin_transformer_block());

  features = nn::Sequential();
  nn::Sequential stem;
  stem->push_back(nn::Conv2d(nn::Conv2dOptions(3, o.embed_dim(), {o.patch_size()[0], o.patch_size()[1]})
                                 .stride({o.patch_size()[0], o.patch_size()[1]})));
  stem->push_back(ops::Permute(std::vector<int64_t>{0, 2, 3, 1}));
  stem->push_back(norm_layer(o.embed_dim()));
  features->push_back(stem);
  int64_t total = 0;
  for (int64_t d : o.depths()) total += d;
  int64_t block_id = 0;
  const auto num_stages = static_cast<int64_t>(o.depths().size());
  for (int64_t s = 0; s < num_stages; ++s) {
    nn::Sequential stage;
    const int64_t dim = o.embed_dim() << s;
    for (int64_t i = 0; i < o.depths()[static_cast<size_t>(s)]; ++i) {
      // Python divides by (total - 1) and raises for a single block; that block gets 0 here.
      const double sd =
          total > 1 ? o.stochastic_depth_prob() * static_cast<double>(block_id) / static_cast<double>(total - 1) : 0.0;
      std::vector<int64_t> shift;
      for (int64_t w : o.window_size()) shift.push_back(i % 2 == 0 ? 0 : w / 2);
      stage->push_back(
          block(SwinTransformerBlockOptions(dim, o.num_heads()[static_cast<size_t>(s)], o.window_size(), shift)
                    .mlp_ratio(o.mlp_ratio())
                    .dropout(o.dropout())
                    .attention_dropout(o.attention_dropout())
                    .stochastic_depth_prob(sd)
                    .norm_layer(norm_layer)));
      ++block_id;
    }
    features->push_back(stage);
    if (s < num_stages - 1) features->push_back(o.downsample_layer()(dim, norm_layer));
  }
  register_module("features", features);
  const int64_t num_features = o.embed_dim() << (num_stages - 1);
  norm = norm_layer(num_features);
  register_module("norm", norm.ptr());
  permute = register_module("permute", ops::Permute(std::vector<int64_t>{0, 3, 1, 2}));
  avgpool = register_module("avgpool", nn::AdaptiveAvgPool2d(1));
  flatten = register_module("flatten", nn::Flatten(nn::FlattenOptions().start_dim(1)));
  head = register_module("head", nn::Linear(num_features, o.num_classes()));

  NoGradGuard no_grad;
  for (const auto& m : modules(/*include_self=*/false)) {
    if (auto* lin = m->as<nn::LinearImpl>()) {
      nn::init::trunc_normal_(lin->weight, 0.0, 0.02);
      if (lin->bias.defined()) nn::init::zeros_(lin->bias);
    }
  }
}

Tensor SwinTransformerImpl::forward(const Tensor& x) {
  EMBER_CHECK(x.defined() && x.dim() == 4, "SwinTransformer: expected a 4-D (N, 3, H, W) input, got shape ",
              x.defined() ? x.sizes() : IntArrayRef{});
  EMBER_CHECK(isFloatingType(x.scalar_type()), "SwinTransformer: expected a floating-point input, got dtype ",
              x.scalar_type());
  EMBER_CHECK(x.size(1) == 3, "SwinTransformer: expected 3 input channels, got ", x.size(1), " (shape ", x.sizes(),
              ")");
  EMBER_CHECK(x.size(2) >= options.patch_size()[0] && x.size(3) >= options.patch_size()[1],
              "SwinTransformer: input of ", x.size(2), "x", x.size(3), " is smaller than the patch size ",
              IntArrayRef(options.patch_size()));
  Tensor y = features->forward(x);
  y = norm.forward(y);
  y = permute->forward(y);
  y = avgpool->forward(y);
  y = flatten->forward(y);
  return head->forward(y);
}

SwinTransformerOptions swin_transformer_config(const std::string& name, const SwinTransformerKwargs& kwargs) {
  struct Arch {
    const char* name;
    int64_t embed_dim;
    std::vector<int64_t> depths, num_heads;
    int64_t window;
    double sd;
    bool v2;
  };
  static const Arch archs[] = {
      {"swin_t", 96, {2, 2, 6, 2}, {3, 6, 12, 24}, 7, 0.2, false},
      {"swin_s", 96, {2, 2, 18, 2}, {3, 6, 12, 24}, 7, 0.3, false},
      {"swin_b", 128, {2, 2, 18, 2}, {4, 8, 16, 32}, 7, 0.5, false},
      {"swin_v2_t", 96, {2, 2, 6, 2}, {3, 6, 12, 24}, 8, 0.2, true},
      {"swin_v2_s", 96, {2, 2, 18, 2}, {3, 6, 12, 24}, 8, 0.3, true},
      {"swin_v2_b", 128, {2, 2, 18, 2}, {4, 8, 16, 32}, 8, 0.5, true},
  };
  for (const Arch& a : archs) {
    if (name != a.name) continue;
    SwinTransformerOptions o({4, 4}, a.embed_dim, a.depths, a.num_heads, {a.window, a.window});
    o.mlp_ratio(kwargs.mlp_ratio())
        .dropout(kwargs.dropout())
        .attention_dropout(kwargs.attention_dropout())
        .stochastic_depth_prob(kwargs.stochastic_depth_prob().value_or(a.sd))
        .num_classes(kwargs.num_classes().value_or(1000))
        .norm_layer(kwargs.norm_layer());
    if (a.v2) o.block(swin_transformer_block_v2()).downsample_layer(patch_merging_v2());
    return o;
  }
  EMBER_CHECK(false, "swin_transformer_config: unknown architecture '", name,
              "' (expected swin_t, swin_s, swin_b, swin_v2_t, swin_v2_s or swin_v2_b)");
  return SwinTransformerOptions({}, 0, {}, {}, {});
}

namespace {

SwinTransformer build_swin(const char* name, const char* enum_name, const std::optional<Weights>& weights,
                           SwinTransformerKwargs kwargs) {
  detail::verify_weights(weights, enum_name, name);
  if (weights) kwargs.num_classes(detail::num_classes_for(weights, kwargs.num_classes(), name));
  SwinTransformer model(swin_transformer_config(name, kwargs));
  if (weights) detail::load_weights(*model, *weights, name);
  return model;
}

}  // namespace

SwinTransformer swin_t(std::optional<Weights> weights, bool, const SwinTransformerKwargs& kwargs) {
  return build_swin("swin_t", "Swin_T_Weights", weights, kwargs);
}
SwinTransformer swin_s(std::optional<Weights> weights, bool, const SwinTransformerKwargs& kwargs) {
  return build_swin("swin_s", "Swin_S_Weights", weights, kwargs);
}
SwinTransformer swin_b(std::optional<Weights> weights, bool, const SwinTransformerKwargs& kwargs) {
  return build_swin("swin_b", "Swin_B_Weights", weights, kwargs);
}
SwinTransformer swin_v2_t(std::optional<Weights> weights, bool, const SwinTransformerKwargs& kwargs) {
  return build_swin("swin_v2_t", "Swin_V2_T_Weights", weights, kwargs);
}
SwinTransformer swin_v2_s(std::optional<Weights> weights, bool, const SwinTransformerKwargs& kwargs) {
  return build_swin("swin_v2_s", "Swin_V2_S_Weights", weights, kwargs);
}
SwinTransformer swin_v2_b(std::optional<Weights> weights, bool, const SwinTransformerKwargs& kwargs) {
  return build_swin("swin_v2_b", "Swin_V2_B_Weights", weights, kwargs);
}

}  // namespace torch::vision::models
