#include "ember/nn/modules/upsampling.h"

#include <variant>

#include "ember/nn/functional/upsampling.h"
#include "ember/ops/nn/upsample.h"

namespace torch::nn {

void UpsampleImpl::pretty_print(std::ostream& stream) const {
  stream << "torch::nn::Upsample(";
  if (options.scale_factor())
    stream << "scale_factor=" << ArrayRef<double>(*options.scale_factor());
  else if (options.size())
    stream << "size=" << IntArrayRef(*options.size());
  stream << ", mode=" << std::visit([](auto tag) { return enum_name(tag); }, options.mode()) << ")";
}

Tensor UpsampleImpl::forward(const Tensor& input) {
  // Upsample's modes are the first five of interpolate's, in the same order.
  const functional::InterpolateFuncOptions::mode_t mode =
      std::visit([](auto tag) { return functional::InterpolateFuncOptions::mode_t(tag); }, options.mode());
  return functional::detail::interpolate(input, options.size(), options.scale_factor(), mode, options.align_corners(),
                                         std::nullopt, false);
}

void PixelShuffleImpl::pretty_print(std::ostream& stream) const {
  stream << "torch::nn::PixelShuffle(upscale_factor=" << options.upscale_factor() << ")";
}
Tensor PixelShuffleImpl::forward(const Tensor& input) { return pixel_shuffle(input, options.upscale_factor()); }

void PixelUnshuffleImpl::pretty_print(std::ostream& stream) const {
  stream << "torch::nn::PixelUnshuffle(downscale_factor=" << options.downscale_factor() << ")";
}
Tensor PixelUnshuffleImpl::forward(const Tensor& input) { return pixel_unshuffle(input, options.downscale_factor()); }

}  // namespace torch::nn
