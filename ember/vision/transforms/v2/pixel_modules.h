#pragma once
// The v2 transforms that touch only pixels, as torchvision's v2 ones: each wraps
// v1's module and applies it to the sample's image and video; boxes, masks and
// labels pass through unchanged. (With both an image and a video in one sample,
// each gets its own draw.) Options are v1's.
#include <vector>

#include "ember/core/arg.h"
#include "ember/vision/transforms/color_modules.h"
#include "ember/vision/transforms/tensor_modules.h"
#include "ember/vision/transforms/v2/sample_module.h"

namespace torch::vision::transforms::v2 {

#define EMBER_V2_PIXEL_MODULE(Name, ...)                                                       \
  using ::torch::vision::transforms::Name##Options;                                            \
  class Name##Impl : public detail::SampleModule<Name##Impl> {                                 \
   public:                                                                                     \
    explicit Name##Impl(Name##Options options_) : options(std::move(options_)), v1(options) {} \
    __VA_ARGS__                                                                                \
    void reset() override { v1 = ::torch::vision::transforms::Name(options); }                 \
    using detail::SampleModule<Name##Impl>::forward;                                           \
    Sample forward(Sample sample) {                                                            \
      return apply_pixels(std::move(sample), [this](const Tensor& x) { return v1(x); });       \
    }                                                                                          \
    Name##Options options;                                                                     \
    ::torch::vision::transforms::Name v1;                                                      \
  };                                                                                           \
  EMBER_VISION_TRANSFORM_MODULE(Name)

EMBER_V2_PIXEL_MODULE(Grayscale, GrayscaleImpl() : GrayscaleImpl(GrayscaleOptions()){});
EMBER_V2_PIXEL_MODULE(RandomGrayscale, RandomGrayscaleImpl() : RandomGrayscaleImpl(RandomGrayscaleOptions()){});
EMBER_V2_PIXEL_MODULE(RandomInvert, RandomInvertImpl() : RandomInvertImpl(RandomInvertOptions()){});
EMBER_V2_PIXEL_MODULE(RandomAutocontrast, RandomAutocontrastImpl()
                      : RandomAutocontrastImpl(RandomAutocontrastOptions()){});
EMBER_V2_PIXEL_MODULE(RandomEqualize, RandomEqualizeImpl() : RandomEqualizeImpl(RandomEqualizeOptions()){});
EMBER_V2_PIXEL_MODULE(RandomErasing, RandomErasingImpl() : RandomErasingImpl(RandomErasingOptions()){});
EMBER_V2_PIXEL_MODULE(GaussianBlur);
EMBER_V2_PIXEL_MODULE(RandomPosterize);
EMBER_V2_PIXEL_MODULE(RandomSolarize);
EMBER_V2_PIXEL_MODULE(RandomAdjustSharpness);

#undef EMBER_V2_PIXEL_MODULE

// v2's RandomPhotometricDistort (SSD's): each of brightness, contrast, saturation and hue is
// applied with probability p (factor drawn from its range), contrast before or after the
// saturation/hue pair, then the channels permuted with probability p; torchvision's draws in
// its order.
struct RandomPhotometricDistortOptions {
  TORCH_ARG(std::vector<double>, brightness) = {0.875, 1.125};
  TORCH_ARG(std::vector<double>, contrast) = {0.5, 1.5};
  TORCH_ARG(std::vector<double>, saturation) = {0.5, 1.5};
  TORCH_ARG(std::vector<double>, hue) = {-0.05, 0.05};
  TORCH_ARG(double, p) = 0.5;
};

class RandomPhotometricDistortImpl : public detail::SampleModule<RandomPhotometricDistortImpl> {
 public:
  explicit RandomPhotometricDistortImpl(RandomPhotometricDistortOptions options = {});
  void reset() override;
  using detail::SampleModule<RandomPhotometricDistortImpl>::forward;
  Sample forward(Sample sample);
  RandomPhotometricDistortOptions options;
};
EMBER_VISION_TRANSFORM_MODULE(RandomPhotometricDistort);

}  // namespace torch::vision::transforms::v2
