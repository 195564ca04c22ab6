#include "ember/vision/ops/feature_pyramid_network.h"

#include "ember/core/error.h"
#include "ember/nn/init.h"
#include "ember/ops/all_ops.h"

namespace torch::vision::ops {

namespace {

// kaiming_uniform_(a=1) weights and zero biases, as torchvision's FPN.
void init_conv(nn::Conv2dImpl& conv) {
  nn::init::kaiming_uniform_(conv.weight, 1.0);
  if (conv.bias.defined()) nn::init::constant_(conv.bias, 0);
}

}  // namespace

std::tuple<std::vector<Tensor>, std::vector<std::string>> LastLevelMaxPoolImpl::forward(
    std::vector<Tensor> results, const std::vector<Tensor>& /*x*/, std::vector<std::string> names) {
  EMBER_CHECK(!results.empty(), "LastLevelMaxPool: no feature maps");
  names.push_back("pool");
  results.push_back(max_pool2d(results.back(), {1, 1}, {2, 2}, {0, 0}));
  return {std::move(results), std::move(names)};
}

LastLevelP6P7Impl::LastLevelP6P7Impl(int64_t in_channels, int64_t out_channels) : use_P5(in_channels == out_channels) {
  p6 = register_module("p6", nn::Conv2d(nn::Conv2dOptions(in_channels, out_channels, 3).stride(2).padding(1)));
  p7 = register_module("p7", nn::Conv2d(nn::Conv2dOptions(out_channels, out_channels, 3).stride(2).padding(1)));
  init_conv(*p6);
  init_conv(*p7);
}

std::tuple<std::vector<Tensor>, std::vector<std::string>> LastLevelP6P7Impl::forward(std::vector<Tensor> results,
                                                                                     const std::vector<Tensor>& x,
                                                                                     std::vector<std::string> names) {
  EMBER_CHECK(!results.empty() && !x.empty(), "LastLevelP6P7: no feature maps");
  const Tensor p6_out = p6(use_P5 ? results.back() : x.back());
  const Tensor p7_out = p7(relu(p6_out));
  results.push_back(p6_out);
  results.push_back(p7_out);
  names.push_back("p6");
  names.push_back("p7");
  return {std::move(results), std::move(names)};
}

FeaturePyramidNetworkImpl::FeaturePyramidNetworkImpl(const FeaturePyramidNetworkOptions& options_) : options(options_) {
  reset();
}

void FeaturePyramidNetworkImpl::reset() {
  inner_blocks = register_module("inner_blocks", nn::ModuleList());
  layer_blocks = register_module("layer_blocks", nn::ModuleList());
  inner.clear();
  layer.clear();
  const int64_t out = options.out_channels();
  for (const int64_t in : options.in_channels_list()) {
    EMBER_CHECK(in > 0, "FeaturePyramidNetwork: in_channels=", in, " is not supported");
    inner.emplace_back(Conv2dNormActivationOptions(in, out)
                           .kernel_size(1)
                           .padding(ExpandingArray<2>(0))
                           .norm_layer(options.norm_layer())
                           .activation_layer(std::nullopt));
    layer.emplace_back(Conv2dNormActivationOptions(out, out)
                           .kernel_size(3)
                           .norm_layer(options.norm_layer())
                           .activation_layer(std::nullopt));
    inner_blocks->push_back(inner.back());
    layer_blocks->push_back(layer.back());
  }
  for (const auto& m : modules(/*include_self=*/false))
    if (auto* conv = dynamic_cast<nn::Conv2dImpl*>(m.get())) init_conv(*conv);
  if (options.extra_blocks()) register_module("extra_blocks", options.extra_blocks());
}

OrderedDict<std::string, Tensor> FeaturePyramidNetworkImpl::forward(const OrderedDict<std::string, Tensor>& x) {
  const int64_t n = static_cast<int64_t>(x.size());
  EMBER_CHECK(n == static_cast<int64_t>(inner.size()), "FeaturePyramidNetwork: expected ", inner.size(),
              " feature maps, got ", n);
  std::vector<std::string> names = x.keys();
  const std::vector<Tensor> feats = x.values();
  Tensor last_inner = inner[n - 1](feats[n - 1]);
  std::vector<Tensor> results{layer[n - 1](last_inner)};
  for (int64_t idx = n - 2; idx >= 0; --idx) {
    const Tensor lateral = inner[idx](feats[idx]);
    const Tensor top_down = upsample_nearest2d(last_inner, {lateral.size(-2), lateral.size(-1)});
    last_inner = lateral + top_down;
    results.insert(results.begin(), layer[idx](last_inner));
  }
  if (options.extra_blocks()) std::tie(results, names) = options.extra_blocks()->forward(results, feats, names);
  OrderedDict<std::string, Tensor> out;
  for (size_t i = 0; i < results.size(); ++i) out.insert(names[i], results[i]);
  return out;
}

}  // namespace torch::vision::ops
