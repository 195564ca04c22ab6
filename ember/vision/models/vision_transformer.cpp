#include "ember/vision/models/vision_transformer.h"

#include <cmath>

#include "ember/autograd/grad_mode.h"
#include "ember/core/error.h"
#include "ember/nn/functional/upsampling.h"
#include "ember/nn/init.h"
#include "ember/nn/modules/activation.h"
#include "ember/nn/modules/conv.h"
#include "ember/nn/modules/linear.h"
#include "ember/nn/modules/normalization.h"
#include "ember/ops/all_ops.h"
#include "ember/serialize/pt_reader.h"

namespace torch::vision::models {

namespace {

ops::ActivationLayer gelu_layer() {
  return [](std::optional<bool>) { return nn::AnyModule(nn::GELU()); };
}

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// torchvision's MLPBlock._load_from_state_dict for version-1 checkpoints:
// "<prefix>mlp.linear_{1,2}.{weight,bias}" become "<prefix>mlp.{0,3}.*".
std::string remap_legacy_mlp_key(const std::string& key) {
  static const std::pair<const char*, const char*> renames[] = {{"mlp.linear_1.weight", "mlp.0.weight"},
                                                                {"mlp.linear_1.bias", "mlp.0.bias"},
                                                                {"mlp.linear_2.weight", "mlp.3.weight"},
                                                                {"mlp.linear_2.bias", "mlp.3.bias"}};
  for (const auto& [old_suffix, new_suffix] : renames) {
    const std::string o = old_suffix;
    if (ends_with(key, o) && (key.size() == o.size() || key[key.size() - o.size() - 1] == '.')) {
      return key.substr(0, key.size() - o.size()) + new_suffix;
    }
  }
  return key;
}

void check_positive(int64_t v, const char* what) {
  EMBER_CHECK(v > 0, "VisionTransformer: ", what, " must be positive, got ", v);
}

}  // namespace

ops::NormLayer vit_layer_norm(double eps) {
  return [eps](int64_t n) { return nn::AnyModule(nn::LayerNorm(nn::LayerNormOptions({n}).eps(eps))); };
}

MLPBlockImpl::MLPBlockImpl(int64_t in_dim, int64_t mlp_dim, double dropout)
    : ops::MLPImpl(ops::MLPOptions(in_dim, {mlp_dim, in_dim})
                       .activation_layer(gelu_layer())
                       .inplace(std::nullopt)
                       .dropout(dropout)) {
  NoGradGuard no_grad;
  for (const auto& child : children()) {
    if (auto* linear = child->as<nn::LinearImpl>()) {
      nn::init::xavier_uniform_(linear->weight);
      if (linear->bias.defined()) nn::init::normal_(linear->bias, 0.0, 1e-6);
    }
  }
}

EncoderBlockImpl::EncoderBlockImpl(const EncoderBlockOptions& options_) : options(options_) { reset(); }

void EncoderBlockImpl::reset() {
  ln_1 = options.norm_layer()(options.hidden_dim());
  register_module("ln_1", ln_1.ptr());
  self_attention = register_module(
      "self_attention", nn::MultiheadAttention(nn::MultiheadAttentionOptions(options.hidden_dim(), options.num_heads())
                                                   .dropout(options.attention_dropout())
                                                   .batch_first(true)));
  dropout = register_module("dropout", nn::Dropout(options.dropout()));
  ln_2 = options.norm_layer()(options.hidden_dim());
  register_module("ln_2", ln_2.ptr());
  mlp = register_module("mlp", MLPBlock(options.hidden_dim(), options.mlp_dim(), options.dropout()));
}

Tensor EncoderBlockImpl::forward(const Tensor& input) {
  EMBER_CHECK(input.defined() && input.dim() == 3, "EncoderBlock: expected (batch_size, seq_length, hidden_dim), got ",
              input.defined() ? input.sizes() : IntArrayRef{});
  Tensor x = ln_1.forward(input);
  x = std::get<0>(self_attention->forward(x, x, x, Tensor(), /*need_weights=*/false));
  x = dropout->forward(x);
  x = x + input;
  Tensor y = mlp->forward(ln_2.forward(x));
  return x + y;
}

EncoderImpl::EncoderImpl(const EncoderOptions& options_) : options(options_) { reset(); }

void EncoderImpl::reset() {
  pos_embedding = register_parameter(
      "pos_embedding", nn::init::normal_(empty({1, options.seq_length(), options.hidden_dim()}), 0.0, 0.02));
  dropout = register_module("dropout", nn::Dropout(options.dropout()));
  layers = nn::Sequential();
  for (int64_t i = 0; i < options.num_layers(); ++i) {
    layers->push_back("encoder_layer_" + std::to_string(i),
                      EncoderBlock(EncoderBlockOptions(options.num_heads(), options.hidden_dim(), options.mlp_dim(),
                                                       options.dropout(), options.attention_dropout())
                                       .norm_layer(options.norm_layer())));
  }
  register_module("layers", layers);
  ln = options.norm_layer()(options.hidden_dim());
  register_module("ln", ln.ptr());
}

Tensor EncoderImpl::forward(const Tensor& input) {
  EMBER_CHECK(input.defined() && input.dim() == 3, "Encoder: expected (batch_size, seq_length, hidden_dim), got ",
              input.defined() ? input.sizes() : IntArrayRef{});
  EMBER_CHECK(input.size(1) == options.seq_length() && input.size(2) == options.hidden_dim(),
              "Encoder: expected seq_length ", options.seq_length(), " and hidden_dim ", options.hidden_dim(),
              ", got shape ", input.sizes());
  Tensor x = input + pos_embedding;
  x = layers->forward(dropout->forward(x));
  return ln.forward(x);
}

VisionTransformerImpl::VisionTransformerImpl(const VisionTransformerOptions& options_) : options(options_) { reset(); }

void VisionTransformerImpl::reset() {
  const auto& o = options;
  check_positive(o.image_size(), "image_size");
  check_positive(o.patch_size(), "patch_size");
  check_positive(o.num_heads(), "num_heads");
  check_positive(o.hidden_dim(), "hidden_dim");
  check_positive(o.mlp_dim(), "mlp_dim");
  check_positive(o.num_classes(), "num_classes");
  EMBER_CHECK(o.num_layers() >= 0, "VisionTransformer: num_layers must not be negative, got ", o.num_layers());
  EMBER_CHECK(o.image_size() % o.patch_size() == 0,
              "VisionTransformer: Input shape indivisible by patch size! (image_size ", o.image_size(), ", patch_size ",
              o.patch_size(), ")");
  EMBER_CHECK(o.hidden_dim() % o.num_heads() == 0, "VisionTransformer: hidden_dim ", o.hidden_dim(),
              " is not divisible by num_heads ", o.num_heads());
  NoGradGuard no_grad;
  if (o.conv_stem_configs()) {
    nn::Sequential seq_proj;
    int64_t prev_channels = 3;
    for (size_t i = 0; i < o.conv_stem_configs()->size(); ++i) {
      const ConvStemConfig& c = (*o.conv_stem_configs())[i];
      seq_proj->push_back("conv_bn_relu_" + std::to_string(i),
                          ops::Conv2dNormActivation(ops::Conv2dNormActivationOptions(prev_channels, c.out_channels)
                                                        .kernel_size(c.kernel_size)
                                                        .stride(c.stride)
                                                        .norm_layer(c.norm_layer)
                                                        .activation_layer(c.activation_layer)));
      prev_channels = c.out_channels;
    }
    nn::Conv2d conv_last(nn::Conv2dOptions(prev_channels, o.hidden_dim(), 1));
    nn::init::normal_(conv_last->weight, 0.0, std::sqrt(2.0 / static_cast<double>(o.hidden_dim())));
    nn::init::zeros_(conv_last->bias);
    seq_proj->push_back("conv_last", conv_last);
    conv_proj = nn::AnyModule(seq_proj);
  } else {
    nn::Conv2d conv(nn::Conv2dOptions(3, o.hidden_dim(), o.patch_size()).stride(o.patch_size()));
    const double fan_in = 3.0 * static_cast<double>(o.patch_size() * o.patch_size());
    nn::init::trunc_normal_(conv->weight, 0.0, std::sqrt(1.0 / fan_in));
    nn::init::zeros_(conv->bias);
    conv_proj = nn::AnyModule(conv);
  }
  register_module("conv_proj", conv_proj.ptr());

  const int64_t grid = o.image_size() / o.patch_size();
  seq_length = grid * grid + 1;
  class_token = register_parameter("class_token", zeros({1, 1, o.hidden_dim()}));
  encoder = register_module("encoder", Encoder(EncoderOptions(seq_length, o.num_layers(), o.num_heads(), o.hidden_dim(),
                                                              o.mlp_dim(), o.dropout(), o.attention_dropout())
                                                   .norm_layer(o.norm_layer())));
  heads = nn::Sequential();
  int64_t head_in = o.hidden_dim();
  if (o.representation_size()) {
    check_positive(*o.representation_size(), "representation_size");
    nn::Linear pre_logits(o.hidden_dim(), *o.representation_size());
    nn::init::trunc_normal_(pre_logits->weight, 0.0, std::sqrt(1.0 / static_cast<double>(o.hidden_dim())));
    nn::init::zeros_(pre_logits->bias);
    heads->push_back("pre_logits", pre_logits);
    heads->push_back("act", nn::Tanh());
    head_in = *o.representation_size();
  }
  nn::Linear head(head_in, o.num_classes());
  nn::init::zeros_(head->weight);
  nn::init::zeros_(head->bias);
  heads->push_back("head", head);
  register_module("heads", heads);
}

void VisionTransformerImpl::pretty_print(std::ostream& stream) const {
  stream << "VisionTransformer(image_size=" << options.image_size() << ", patch_size=" << options.patch_size()
         << ", num_layers=" << options.num_layers() << ", hidden_dim=" << options.hidden_dim() << ")";
}

Tensor VisionTransformerImpl::_process_input(const Tensor& x) {
  EMBER_CHECK(x.defined() && x.dim() == 4, "VisionTransformer: expected a 4-D (n, 3, h, w) input, got shape ",
              x.defined() ? x.sizes() : IntArrayRef{});
  EMBER_CHECK(isFloatingType(x.scalar_type()), "VisionTransformer: expected a floating-point input, got dtype ",
              x.scalar_type());
  EMBER_CHECK(x.size(1) == 3, "VisionTransformer: expected 3 input channels, got ", x.size(1), " (shape ", x.sizes(),
              ")");
  const int64_t n = x.size(0), h = x.size(2), w = x.size(3), p = options.patch_size();
  EMBER_CHECK(h == options.image_size(), "VisionTransformer: Wrong image height! Expected ", options.image_size(),
              " but got ", h, "!");
  EMBER_CHECK(w == options.image_size(), "VisionTransformer: Wrong image width! Expected ", options.image_size(),
              " but got ", w, "!");
  Tensor y = conv_proj.forward(x);
  y = y.reshape({n, options.hidden_dim(), (h / p) * (w / p)});
  return y.permute({0, 2, 1});
}

Tensor VisionTransformerImpl::forward(const Tensor& x) {
  Tensor y = _process_input(x);
  const int64_t n = y.size(0);
  Tensor batch_class_token = class_token.expand({n, -1, -1});
  y = cat({batch_class_token, y}, 1);
  y = encoder->forward(y);
  y = y.select(1, 0);
  return heads->forward(y);
}

nn::Module::LoadStateDictResult VisionTransformerImpl::load_state_dict(
    const OrderedDict<std::string, Tensor>& state_dict, bool strict) {
  OrderedDict<std::string, Tensor> remapped;
  for (const auto& item : state_dict) remapped.insert(remap_legacy_mlp_key(item.key()), item.value());
  return nn::Module::load_state_dict(remapped, strict);
}

nn::Module::LoadStateDictResult VisionTransformerImpl::load_state_dict(
    const std::vector<std::pair<std::string, Tensor>>& state_dict, bool strict) {
  std::vector<std::pair<std::string, Tensor>> remapped;
  remapped.reserve(state_dict.size());
  for (const auto& [key, value] : state_dict) remapped.emplace_back(remap_legacy_mlp_key(key), value);
  return nn::Module::load_state_dict(remapped, strict);
}

VisionTransformerOptions vision_transformer_config(const std::string& name, const VisionTransformerKwargs& kwargs) {
  struct Arch {
    const char* name;
    int64_t patch_size, num_layers, num_heads, hidden_dim, mlp_dim;
  };
  static const Arch archs[] = {{"vit_b_16", 16, 12, 12, 768, 3072},
                               {"vit_b_32", 32, 12, 12, 768, 3072},
                               {"vit_l_16", 16, 24, 16, 1024, 4096},
                               {"vit_l_32", 32, 24, 16, 1024, 4096},
                               {"vit_h_14", 14, 32, 16, 1280, 5120}};
  for (const Arch& a : archs) {
    if (name != a.name) continue;
    return VisionTransformerOptions(kwargs.image_size().value_or(224), a.patch_size, a.num_layers, a.num_heads,
                                    a.hidden_dim, a.mlp_dim)
        .dropout(kwargs.dropout())
        .attention_dropout(kwargs.attention_dropout())
        .num_classes(kwargs.num_classes().value_or(1000))
        .representation_size(kwargs.representation_size())
        .norm_layer(kwargs.norm_layer())
        .conv_stem_configs(kwargs.conv_stem_configs());
  }
  EMBER_CHECK(false, "vision_transformer_config: unknown architecture '", name,
              "' (expected vit_b_16, vit_b_32, vit_l_16, vit_l_32 or vit_h_14)");
  return VisionTransformerOptions(0, 0, 0, 0, 0, 0);
}

namespace {

VisionTransformer build_vit(const char* name, const char* enum_name, const std::optional<Weights>& weights,
                            VisionTransformerKwargs kwargs) {
  detail::verify_weights(weights, enum_name, name);
  if (weights) {
    // torchvision's _vision_transformer: the weights fix the classes and the (square) input size.
    kwargs.num_classes(detail::num_classes_for(weights, kwargs.num_classes(), name));
    const auto [h, w] = weights->meta.min_size;
    EMBER_CHECK(h == w, name, ": the weights' min_size must be square, got ", h, "x", w);
    kwargs.image_size(detail::ovewrite_value_param(name, "image_size", kwargs.image_size(), h));
  }
  VisionTransformer model(vision_transformer_config(name, kwargs));
  // The model's own load_state_dict: it remaps version-1 checkpoint keys first.
  if (weights) model->load_state_dict(weights->get_state_dict(), true);
  return model;
}

}  // namespace

VisionTransformer vit_b_16(std::optional<Weights> weights, bool, const VisionTransformerKwargs& kwargs) {
  return build_vit("vit_b_16", "ViT_B_16_Weights", weights, kwargs);
}
VisionTransformer vit_b_32(std::optional<Weights> weights, bool, const VisionTransformerKwargs& kwargs) {
  return build_vit("vit_b_32", "ViT_B_32_Weights", weights, kwargs);
}
VisionTransformer vit_l_16(std::optional<Weights> weights, bool, const VisionTransformerKwargs& kwargs) {
  return build_vit("vit_l_16", "ViT_L_16_Weights", weights, kwargs);
}
VisionTransformer vit_l_32(std::optional<Weights> weights, bool, const VisionTransformerKwargs& kwargs) {
  return build_vit("vit_l_32", "ViT_L_32_Weights", weights, kwargs);
}
VisionTransformer vit_h_14(std::optional<Weights> weights, bool, const VisionTransformerKwargs& kwargs) {
  return build_vit("vit_h_14", "ViT_H_14_Weights", weights, kwargs);
}

OrderedDict<std::string, Tensor> interpolate_embeddings(int64_t image_size, int64_t patch_size,
                                                        const OrderedDict<std::string, Tensor>& model_state,
                                                        const std::string& interpolation_mode, bool reset_heads) {
  EMBER_CHECK(image_size > 0 && patch_size > 0,
              "interpolate_embeddings: image_size and patch_size must be positive, got ", image_size, " and ",
              patch_size);
  const Tensor* found = model_state.find("encoder.pos_embedding");
  EMBER_CHECK(found != nullptr, "interpolate_embeddings: model_state has no 'encoder.pos_embedding'");
  const Tensor pos_embedding = *found;
  EMBER_CHECK(pos_embedding.dim() == 3 && pos_embedding.size(0) == 1,
              "interpolate_embeddings: Unexpected position embedding shape: ", pos_embedding.sizes());
  int64_t seq_length = pos_embedding.size(1);
  const int64_t hidden_dim = pos_embedding.size(2);
  const int64_t new_grid = image_size / patch_size;
  int64_t new_seq_length = new_grid * new_grid + 1;
  if (new_seq_length == seq_length) return model_state;

  seq_length -= 1;
  new_seq_length -= 1;
  const auto grid = static_cast<int64_t>(std::llround(std::sqrt(static_cast<double>(seq_length))));
  EMBER_CHECK(grid * grid == seq_length, "interpolate_embeddings: seq_length is not a perfect square! Instead got ",
              "seq_length_1d * seq_length_1d = ", grid * grid, " and seq_length = ", seq_length);
  namespace F = nn::functional;
  F::InterpolateFuncOptions opts;
  opts.size(std::vector<int64_t>{new_grid, new_grid}).align_corners(true);
  if (interpolation_mode == "bicubic") {
    opts.mode(kBicubic);
  } else if (interpolation_mode == "bilinear") {
    opts.mode(kBilinear);
  } else {
    // torchvision passes align_corners=True, which PyTorch rejects for the other modes.
    EMBER_CHECK(false, "interpolate_embeddings: unsupported interpolation_mode '", interpolation_mode,
                "' (align_corners=True needs bilinear or bicubic)");
  }
  const Tensor token = pos_embedding.narrow(1, 0, 1);
  Tensor img = pos_embedding.narrow(1, 1, seq_length).permute({0, 2, 1}).reshape({1, hidden_dim, grid, grid});
  img = F::interpolate(img, opts);
  img = img.reshape({1, hidden_dim, new_seq_length}).permute({0, 2, 1});
  const Tensor new_pos_embedding = cat({token, img}, 1);

  OrderedDict<std::string, Tensor> result;
  for (const auto& item : model_state) {
    if (reset_heads && item.key().rfind("heads", 0) == 0) continue;
    result.insert(item.key(), item.key() == "encoder.pos_embedding" ? new_pos_embedding : item.value());
  }
  return result;
}

}  // namespace torch::vision::models
