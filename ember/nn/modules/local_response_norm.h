#pragma once
// LocalResponseNorm: normalizes each channel by the energy of `size` neighbouring
// channels, as torch::nn::LocalResponseNorm.
#include <ostream>

#include "ember/core/tensor.h"
#include "ember/nn/cloneable.h"
#include "ember/nn/functional/local_response_norm.h"
#include "ember/nn/pimpl.h"

namespace torch::nn {

class LocalResponseNormImpl : public Cloneable<LocalResponseNormImpl> {
 public:
  LocalResponseNormImpl(int64_t size) : LocalResponseNormImpl(LocalResponseNormOptions(size)) {}  // NOLINT
  explicit LocalResponseNormImpl(const LocalResponseNormOptions& options_) : options(options_) {}
  void reset() override {}
  void pretty_print(std::ostream& stream) const override;
  Tensor forward(const Tensor& input) { return functional::local_response_norm(input, options); }

  LocalResponseNormOptions options;
};
EMBER_NN_MODULE(LocalResponseNorm);

// CrossMapLRN2d: Lua Torch's cross-channel LRN on [N, C, H, W], kept by LibTorch with its own
// window (Note [CrossMapLRN2d's window] in local_response_norm.cpp); differentiable by
// composition.
class CrossMapLRN2dImpl : public Cloneable<CrossMapLRN2dImpl> {
 public:
  CrossMapLRN2dImpl(int64_t size) : CrossMapLRN2dImpl(CrossMapLRN2dOptions(size)) {}  // NOLINT
  explicit CrossMapLRN2dImpl(const CrossMapLRN2dOptions& options_) : options(options_) {}
  void reset() override {}
  void pretty_print(std::ostream& stream) const override;
  Tensor forward(const Tensor& input);

  CrossMapLRN2dOptions options;
};
EMBER_NN_MODULE(CrossMapLRN2d);

}  // namespace torch::nn
