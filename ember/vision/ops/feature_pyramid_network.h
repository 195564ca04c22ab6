#pragma once
// torchvision.ops.FeaturePyramidNetwork with its extra blocks
// (LastLevelMaxPool, LastLevelP6P7): top-down pathway with lateral 1x1
// convolutions and 3x3 output convolutions over an ordered dict of feature
// maps. Submodule names equal torchvision's (inner_blocks.<i>.0.weight, ...).
#include <cstdint>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <tuple>
#include <vector>

#include "ember/core/arg.h"
#include "ember/core/ordered_dict.h"
#include "ember/core/tensor.h"
#include "ember/nn/cloneable.h"
#include "ember/nn/modules/container/modulelist.h"
#include "ember/nn/modules/conv.h"
#include "ember/nn/pimpl.h"
#include "ember/vision/ops/misc.h"

namespace torch::vision::ops {

// An extra block appends levels: given the FPN's results, the original
// features and the names, it returns the extended results and names.
class ExtraFPNBlockImpl : public nn::Module {
 public:
  virtual std::tuple<std::vector<Tensor>, std::vector<std::string>> forward(std::vector<Tensor> results,
                                                                            const std::vector<Tensor>& x,
                                                                            std::vector<std::string> names) = 0;
};

class LastLevelMaxPoolImpl : public ExtraFPNBlockImpl {
 public:
  void pretty_print(std::ostream& stream) const override { stream << "LastLevelMaxPool()"; }
  std::tuple<std::vector<Tensor>, std::vector<std::string>> forward(std::vector<Tensor> results,
                                                                    const std::vector<Tensor>& x,
                                                                    std::vector<std::string> names) override;
};
TORCH_MODULE(LastLevelMaxPool);

class LastLevelP6P7Impl : public ExtraFPNBlockImpl {
 public:
  LastLevelP6P7Impl(int64_t in_channels, int64_t out_channels);
  void pretty_print(std::ostream& stream) const override { stream << "LastLevelP6P7"; }
  std::tuple<std::vector<Tensor>, std::vector<std::string>> forward(std::vector<Tensor> results,
                                                                    const std::vector<Tensor>& x,
                                                                    std::vector<std::string> names) override;
  nn::Conv2d p6{nullptr}, p7{nullptr};
  bool use_P5;
};
TORCH_MODULE(LastLevelP6P7);

struct FeaturePyramidNetworkOptions {
  FeaturePyramidNetworkOptions(std::vector<int64_t> in_channels_list, int64_t out_channels)
      : in_channels_list_(std::move(in_channels_list)), out_channels_(out_channels) {}
  TORCH_ARG(std::vector<int64_t>, in_channels_list);
  TORCH_ARG(int64_t, out_channels);
  TORCH_ARG(std::shared_ptr<ExtraFPNBlockImpl>, extra_blocks) = nullptr;
  TORCH_ARG(std::optional<NormLayer>, norm_layer) = std::nullopt;
};

class FeaturePyramidNetworkImpl : public nn::Cloneable<FeaturePyramidNetworkImpl> {
 public:
  FeaturePyramidNetworkImpl(std::vector<int64_t> in_channels_list, int64_t out_channels)
      : FeaturePyramidNetworkImpl(FeaturePyramidNetworkOptions(std::move(in_channels_list), out_channels)) {}
  explicit FeaturePyramidNetworkImpl(const FeaturePyramidNetworkOptions& options_);
  void reset() override;
  void pretty_print(std::ostream& stream) const override { stream << "FeaturePyramidNetwork"; }
  OrderedDict<std::string, Tensor> forward(const OrderedDict<std::string, Tensor>& x);
  FeaturePyramidNetworkOptions options;
  nn::ModuleList inner_blocks{nullptr}, layer_blocks{nullptr};
  std::vector<Conv2dNormActivation> inner, layer;
};
TORCH_MODULE(FeaturePyramidNetwork);

}  // namespace torch::vision::ops
