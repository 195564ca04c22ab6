#include "ember/vision/models/convnext.h"

#include "ember/autograd/grad_mode.h"
#include "ember/core/error.h"
#include "ember/nn/init.h"
#include "ember/nn/modules/activation.h"
#include "ember/nn/modules/conv.h"
#include "ember/nn/modules/linear.h"
#include "ember/ops/all_ops.h"
#include "ember/ops/nn/normalization.h"
#include "ember/serialize/pt_reader.h"

namespace torch::vision::models {

LayerNorm2dImpl::LayerNorm2dImpl(const nn::LayerNormOptions& options_) : options(options_) { reset(); }

void LayerNorm2dImpl::reset() {
  EMBER_CHECK(options.normalized_shape().size() == 1 && options.normalized_shape()[0] > 0,
              "LayerNorm2d: expected one positive normalized dimension (the channels), got ",
              IntArrayRef(options.normalized_shape()));
  if (options.elementwise_affine()) {
    weight = register_parameter("weight", ones(options.normalized_shape()));
    bias = register_parameter("bias", zeros(options.normalized_shape()));
  }
}

void LayerNorm2dImpl::pretty_print(std::ostream& stream) const {
  stream << "LayerNorm2d(" << IntArrayRef(options.normalized_shape()) << ", eps=" << options.eps() << ")";
}

Tensor LayerNorm2dImpl::forward(const Tensor& x) {
  const int64_t c = options.normalized_shape()[0];
  EMBER_CHECK(x.defined() && x.dim() == 4 && x.size(1) == c, "LayerNorm2d: expected an (N, ", c,
              ", H, W) input, got shape ", x.defined() ? x.sizes() : IntArrayRef{});
  const auto opt = [](const Tensor& t) { return t.defined() ? std::optional<Tensor>(t) : std::nullopt; };
  Tensor y = x.permute({0, 2, 3, 1});
  y = layer_norm(y, options.normalized_shape(), opt(weight), opt(bias), options.eps());
  return y.permute({0, 3, 1, 2});
}

ops::NormLayer layer_norm2d_layer(double eps) {
  return [eps](int64_t n) { return nn::AnyModule(LayerNorm2d(nn::LayerNormOptions({n}).eps(eps))); };
}

CNBlockImpl::CNBlockImpl(const CNBlockOptions& options_) : options(options_) { reset(); }

void CNBlockImpl::reset() {
  const int64_t dim = options.dim();
  EMBER_CHECK(dim > 0, "CNBlock: dim must be positive, got ", dim);
  const ops::NormLayer norm = options.norm_layer().value_or(
      ops::NormLayer([](int64_t n) { return nn::AnyModule(nn::LayerNorm(nn::LayerNormOptions({n}).eps(1e-6))); }));
  block = nn::Sequential();
  block->push_back(nn::Conv2d(nn::Conv2dOptions(dim, dim, 7).padding(3).groups(dim).bias(true)));
  block->push_back(ops::Permute(std::vector<int64_t>{0, 2, 3, 1}));
  block->push_back(norm(dim));
  block->push_back(nn::Linear(dim, 4 * dim));
  block->push_back(nn::GELU());
  block->push_back(nn::Linear(4 * dim, dim));
  block->push_back(ops::Permute(std::vector<int64_t>{0, 3, 1, 2}));
  register_module("block", block);
  layer_scale = register_parameter("layer_scale", full({dim, 1, 1}, options.layer_scale()));
  stochastic_depth = register_module("stochastic_depth", ops::StochasticDepth(options.stochastic_depth_prob(), "row"));
}

Tensor CNBlockImpl::forward(const Tensor& input) {
  EMBER_CHECK(input.defined() && input.dim() == 4 && input.size(1) == options.dim(), "CNBlock: expected an (N, ",
              options.dim(), ", H, W) input, got shape ", input.defined() ? input.sizes() : IntArrayRef{});
  Tensor result = layer_scale * block->forward(input);
  result = stochastic_depth->forward(result);
  return result + input;
}

ConvNeXtImpl::ConvNeXtImpl(const ConvNeXtOptions& options_) : options(options_) { reset(); }

void ConvNeXtImpl::reset() {
  const auto& setting = options.block_setting();
  EMBER_CHECK(!setting.empty(), "ConvNeXt: The block_setting should not be empty");
  for (const CNBlockConfig& c : setting) {
    EMBER_CHECK(c.input_channels > 0 && c.num_layers >= 0 && (!c.out_channels || *c.out_channels > 0),
                "ConvNeXt: invalid CNBlockConfig(input_channels=", c.input_channels,
                ", out_channels=", c.out_channels ? *c.out_channels : -1, ", num_layers=", c.num_layers, ")");
  }
  EMBER_CHECK(options.num_classes() > 0, "ConvNeXt: num_classes must be positive, got ", options.num_classes());
  const CNBlockFactory block_fn = options.block().value_or(
      CNBlockFactory([](int64_t dim, double ls, double p) { return nn::AnyModule(CNBlock(dim, ls, p)); }));
  const ops::NormLayer norm = options.norm_layer().value_or(layer_norm2d_layer(1e-6));

  features = nn::Sequential();
  features->push_back(ops::Conv2dNormActivation(ops::Conv2dNormActivationOptions(3, setting[0].input_channels)
                                                    .kernel_size(4)
                                                    .stride(4)
                                                    .padding(ExpandingArray<2>(0))
                                                    .norm_layer(norm)
                                                    .activation_layer(std::nullopt)
                                                    .bias(true)));
  int64_t total_blocks = 0;
  for (const CNBlockConfig& c : setting) total_blocks += c.num_layers;
  int64_t block_id = 0;
  for (const CNBlockConfig& c : setting) {
    nn::Sequential stage;
    for (int64_t i = 0; i < c.num_layers; ++i) {
      // Python divides by (total - 1.0) and raises for a single block; that block gets 0 here.
      const double sd_prob = total_blocks > 1 ? options.stochastic_depth_prob() * static_cast<double>(block_id) /
                                                    (static_cast<double>(total_blocks) - 1.0)
                                              : 0.0;
      stage->push_back(block_fn(c.input_channels, options.layer_scale(), sd_prob));
      ++block_id;
    }
    features->push_back(stage);
    if (c.out_channels) {
      nn::Sequential down;
      down->push_back(norm(c.input_channels));
      down->push_back(nn::Conv2d(nn::Conv2dOptions(c.input_channels, *c.out_channels, 2).stride(2)));
      features->push_back(down);
    }
  }
  register_module("features", features);
  avgpool = register_module("avgpool", nn::AdaptiveAvgPool2d(1));
  const CNBlockConfig& last = setting.back();
  const int64_t last_channels = last.out_channels.value_or(last.input_channels);
  classifier = nn::Sequential();
  classifier->push_back(norm(last_channels));
  classifier->push_back(nn::Flatten(nn::FlattenOptions().start_dim(1)));
  classifier->push_back(nn::Linear(last_channels, options.num_classes()));
  register_module("classifier", classifier);

  NoGradGuard no_grad;
  for (const auto& m : modules(/*include_self=*/false)) {
    if (auto* conv = m->as<nn::Conv2dImpl>()) {
      nn::init::trunc_normal_(conv->weight, 0.0, 0.02);
      if (conv->bias.defined()) nn::init::zeros_(conv->bias);
    } else if (auto* linear = m->as<nn::LinearImpl>()) {
      nn::init::trunc_normal_(linear->weight, 0.0, 0.02);
      if (linear->bias.defined()) nn::init::zeros_(linear->bias);
    }
  }
}

Tensor ConvNeXtImpl::_forward_impl(const Tensor& x) {
  EMBER_CHECK(x.defined() && x.dim() == 4, "ConvNeXt: expected a 4-D (N, 3, H, W) input, got shape ",
              x.defined() ? x.sizes() : IntArrayRef{});
  EMBER_CHECK(isFloatingType(x.scalar_type()), "ConvNeXt: expected a floating-point input, got dtype ",
              x.scalar_type());
  EMBER_CHECK(x.size(1) == 3, "ConvNeXt: expected 3 input channels, got ", x.size(1), " (shape ", x.sizes(), ")");
  // Each downsampling halves the 4x-reduced stem output; an odd or empty map would fail deep inside.
  int64_t factor = 4;
  for (const CNBlockConfig& c : options.block_setting())
    if (c.out_channels) factor *= 2;
  EMBER_CHECK(x.size(2) >= factor && x.size(3) >= factor, "ConvNeXt: input of ", x.size(2), "x", x.size(3),
              " is too small (at least ", factor, "x", factor, ")");
  Tensor y = features->forward(x);
  y = avgpool->forward(y);
  return classifier->forward(y);
}

Tensor ConvNeXtImpl::forward(const Tensor& x) { return _forward_impl(x); }

ConvNeXtOptions convnext_config(const std::string& name, const ConvNeXtKwargs& kwargs) {
  std::vector<CNBlockConfig> setting;
  double sd = 0.0;
  if (name == "convnext_tiny") {
    setting = {{96, 192, 3}, {192, 384, 3}, {384, 768, 9}, {768, std::nullopt, 3}};
    sd = 0.1;
  } else if (name == "convnext_small") {
    setting = {{96, 192, 3}, {192, 384, 3}, {384, 768, 27}, {768, std::nullopt, 3}};
    sd = 0.4;
  } else if (name == "convnext_base") {
    setting = {{128, 256, 3}, {256, 512, 3}, {512, 1024, 27}, {1024, std::nullopt, 3}};
    sd = 0.5;
  } else if (name == "convnext_large") {
    setting = {{192, 384, 3}, {384, 768, 3}, {768, 1536, 27}, {1536, std::nullopt, 3}};
    sd = 0.5;
  } else {
    EMBER_CHECK(false, "convnext_config: unknown architecture '", name,
                "' (expected convnext_tiny, convnext_small, convnext_base or convnext_large)");
  }
  return ConvNeXtOptions(std::move(setting))
      .stochastic_depth_prob(kwargs.stochastic_depth_prob().value_or(sd))
      .layer_scale(kwargs.layer_scale())
      .num_classes(kwargs.num_classes().value_or(1000))
      .block(kwargs.block())
      .norm_layer(kwargs.norm_layer());
}

namespace {

ConvNeXt build_convnext(const char* name, const char* enum_name, const std::optional<Weights>& weights,
                        ConvNeXtKwargs kwargs) {
  detail::verify_weights(weights, enum_name, name);
  if (weights) kwargs.num_classes(detail::num_classes_for(weights, kwargs.num_classes(), name));
  ConvNeXt model(convnext_config(name, kwargs));
  if (weights) detail::load_weights(*model, *weights, name);
  return model;
}

}  // namespace

ConvNeXt convnext_tiny(std::optional<Weights> weights, bool, const ConvNeXtKwargs& kwargs) {
  return build_convnext("convnext_tiny", "ConvNeXt_Tiny_Weights", weights, kwargs);
}
ConvNeXt convnext_small(std::optional<Weights> weights, bool, const ConvNeXtKwargs& kwargs) {
  return build_convnext("convnext_small", "ConvNeXt_Small_Weights", weights, kwargs);
}
ConvNeXt convnext_base(std::optional<Weights> weights, bool, const ConvNeXtKwargs& kwargs) {
  return build_convnext("convnext_base", "ConvNeXt_Base_Weights", weights, kwargs);
}
ConvNeXt convnext_large(std::optional<Weights> weights, bool, const ConvNeXtKwargs& kwargs) {
  return build_convnext("convnext_large", "ConvNeXt_Large_Weights", weights, kwargs);
}

}  // namespace torch::vision::models
