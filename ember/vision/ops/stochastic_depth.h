#pragma once
// torchvision.ops.stochastic_depth, drop_block2d/3d and their modules
// (StochasticDepth, DropBlock2d, DropBlock3d): regularisers that drop whole
// residual branches or contiguous blocks; identity outside training. The
// noise comes from Ember's generator, so seeded runs repeat.
#include <cstdint>
#include <ostream>
#include <string>

#include "ember/core/arg.h"
#include "ember/core/tensor.h"
#include "ember/nn/cloneable.h"
#include "ember/nn/pimpl.h"

namespace torch::vision::ops {

// mode "batch" drops the whole input, "row" each sample of the batch.
Tensor stochastic_depth(const Tensor& input, double p, const std::string& mode, bool training = true);

Tensor drop_block2d(const Tensor& input, double p, int64_t block_size, bool inplace = false, double eps = 1e-6,
                    bool training = true);
Tensor drop_block3d(const Tensor& input, double p, int64_t block_size, bool inplace = false, double eps = 1e-6,
                    bool training = true);

struct StochasticDepthOptions {
  StochasticDepthOptions(double p, std::string mode) : p_(p), mode_(std::move(mode)) {}
  TORCH_ARG(double, p);
  TORCH_ARG(std::string, mode);
};

class StochasticDepthImpl : public nn::Cloneable<StochasticDepthImpl> {
 public:
  StochasticDepthImpl(double p, std::string mode) : StochasticDepthImpl(StochasticDepthOptions(p, std::move(mode))) {}
  explicit StochasticDepthImpl(const StochasticDepthOptions& options_) : options(options_) {}
  void reset() override {}
  void pretty_print(std::ostream& stream) const override;
  Tensor forward(const Tensor& input);
  StochasticDepthOptions options;
};
TORCH_MODULE(StochasticDepth);

struct DropBlockOptions {
  DropBlockOptions(double p, int64_t block_size) : p_(p), block_size_(block_size) {}
  TORCH_ARG(double, p);
  TORCH_ARG(int64_t, block_size);
  TORCH_ARG(bool, inplace) = false;
  TORCH_ARG(double, eps) = 1e-6;
};
using DropBlock2dOptions = DropBlockOptions;
using DropBlock3dOptions = DropBlockOptions;

class DropBlock2dImpl : public nn::Cloneable<DropBlock2dImpl> {
 public:
  DropBlock2dImpl(double p, int64_t block_size) : DropBlock2dImpl(DropBlockOptions(p, block_size)) {}
  explicit DropBlock2dImpl(const DropBlockOptions& options_) : options(options_) {}
  void reset() override {}
  void pretty_print(std::ostream& stream) const override;
  Tensor forward(const Tensor& input);
  DropBlockOptions options;
};
TORCH_MODULE(DropBlock2d);

class DropBlock3dImpl : public nn::Cloneable<DropBlock3dImpl> {
 public:
  DropBlock3dImpl(double p, int64_t block_size) : DropBlock3dImpl(DropBlockOptions(p, block_size)) {}
  explicit DropBlock3dImpl(const DropBlockOptions& options_) : options(options_) {}
  void reset() override {}
  void pretty_print(std::ostream& stream) const override;
  Tensor forward(const Tensor& input);
  DropBlockOptions options;
};
TORCH_MODULE(DropBlock3d);

}  // namespace torch::vision::ops
