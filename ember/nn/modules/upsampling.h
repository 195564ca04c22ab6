#pragma once
// Upsample, PixelShuffle, PixelUnshuffle, as torch::nn (torch/nn/modules/{upsampling,pixelshuffle}.h).
#include <ostream>

#include "ember/core/tensor.h"
#include "ember/nn/cloneable.h"
#include "ember/nn/options/pixelshuffle.h"
#include "ember/nn/options/upsampling.h"
#include "ember/nn/pimpl.h"

namespace torch::nn {

// F::interpolate with the module's size / scale_factor / mode / align_corners.
class UpsampleImpl : public Cloneable<UpsampleImpl> {
 public:
  explicit UpsampleImpl(const UpsampleOptions& options_ = {}) : options(options_) {}
  void reset() override {}
  void pretty_print(std::ostream& stream) const override;
  Tensor forward(const Tensor& input);

  UpsampleOptions options;
};
EMBER_NN_MODULE(Upsample);

// (*, C * r^2, H, W) -> (*, C, H * r, W * r).
class PixelShuffleImpl : public Cloneable<PixelShuffleImpl> {
 public:
  explicit PixelShuffleImpl(const PixelShuffleOptions& options_) : options(options_) {}
  void reset() override {}
  void pretty_print(std::ostream& stream) const override;
  Tensor forward(const Tensor& input);

  PixelShuffleOptions options;
};
EMBER_NN_MODULE(PixelShuffle);

// (*, C, H * r, W * r) -> (*, C * r^2, H, W).
class PixelUnshuffleImpl : public Cloneable<PixelUnshuffleImpl> {
 public:
  explicit PixelUnshuffleImpl(const PixelUnshuffleOptions& options_) : options(options_) {}
  void reset() override {}
  void pretty_print(std::ostream& stream) const override;
  Tensor forward(const Tensor& input);

  PixelUnshuffleOptions options;
};
EMBER_NN_MODULE(PixelUnshuffle);

}  // namespace torch::nn
