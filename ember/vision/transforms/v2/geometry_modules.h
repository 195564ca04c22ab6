#pragma once
// The v2 geometric transform modules: torchvision.transforms.v2's
// RandomHorizontalFlip, RandomVerticalFlip, Resize, CenterCrop, RandomCrop,
// RandomResizedCrop, Pad, RandomRotation, RandomAffine, RandomPerspective and
// ElasticTransform. Each draws its parameters once per Sample (from Ember's
// generator, with v1's get_params) and applies them to the image, video,
// masks (NEAREST, fill 0) and boxes alike. Options are v1's; an antialias left
// nullopt means v2's default, true.
#include <initializer_list>
#include <memory>
#include <vector>

#include "ember/vision/transforms/geometry_modules.h"
#include "ember/vision/transforms/v2/sample_module.h"

namespace torch::vision::transforms::v2 {

using ::torch::vision::transforms::CenterCropOptions;
using ::torch::vision::transforms::ElasticTransformOptions;
using ::torch::vision::transforms::PadOptions;
using ::torch::vision::transforms::RandomAffineOptions;
using ::torch::vision::transforms::RandomCropOptions;
using ::torch::vision::transforms::RandomHorizontalFlipOptions;
using ::torch::vision::transforms::RandomPerspectiveOptions;
using ::torch::vision::transforms::RandomResizedCropOptions;
using ::torch::vision::transforms::RandomRotationOptions;
using ::torch::vision::transforms::RandomVerticalFlipOptions;
using ::torch::vision::transforms::ResizeOptions;

// The holder, also constructible from a braced list of sizes or angles, so
// Resize({224, 224}) and RandomRotation({-30, 30}) read as in Python (the plain
// macro's holder finds such a list ambiguous).
#define EMBER_V2_LIST_MODULE(Name, T)                                                     \
  class Name : public ::torch::nn::ModuleHolder<Name##Impl> {                             \
   public:                                                                                \
    using ::torch::nn::ModuleHolder<Name##Impl>::ModuleHolder;                            \
    using ::torch::nn::ModuleHolder<Name##Impl>::get;                                     \
    using Impl = Name##Impl;                                                              \
    Name(const Name##Options& options) /* NOLINT */                                       \
        : ::torch::nn::ModuleHolder<Name##Impl>(std::make_shared<Name##Impl>(options)) {} \
    Name(std::initializer_list<T> values) /* NOLINT */                                    \
        : Name(Name##Options(std::vector<T>(values))) {}                                  \
  }

#define EMBER_V2_SAMPLE_MODULE_BODY(Name)          \
 public:                                           \
  explicit Name##Impl(Name##Options options);      \
  void reset() override;                           \
  using detail::SampleModule<Name##Impl>::forward; \
  Sample forward(Sample sample);                   \
  Name##Options options

class RandomHorizontalFlipImpl : public detail::SampleModule<RandomHorizontalFlipImpl> {
  EMBER_V2_SAMPLE_MODULE_BODY(RandomHorizontalFlip);
  RandomHorizontalFlipImpl() : RandomHorizontalFlipImpl(RandomHorizontalFlipOptions()) {}
};
EMBER_VISION_TRANSFORM_MODULE(RandomHorizontalFlip);

class RandomVerticalFlipImpl : public detail::SampleModule<RandomVerticalFlipImpl> {
  EMBER_V2_SAMPLE_MODULE_BODY(RandomVerticalFlip);
  RandomVerticalFlipImpl() : RandomVerticalFlipImpl(RandomVerticalFlipOptions()) {}
};
EMBER_VISION_TRANSFORM_MODULE(RandomVerticalFlip);

class ResizeImpl : public detail::SampleModule<ResizeImpl> {
  EMBER_V2_SAMPLE_MODULE_BODY(Resize);
};
EMBER_V2_LIST_MODULE(Resize, int64_t);

class CenterCropImpl : public detail::SampleModule<CenterCropImpl> {
  EMBER_V2_SAMPLE_MODULE_BODY(CenterCrop);
};
EMBER_V2_LIST_MODULE(CenterCrop, int64_t);

// v2's RandomCrop: padding (optional), pad_if_needed, then a random crop of size.
class RandomCropImpl : public detail::SampleModule<RandomCropImpl> {
  EMBER_V2_SAMPLE_MODULE_BODY(RandomCrop);
};
EMBER_V2_LIST_MODULE(RandomCrop, int64_t);

class RandomResizedCropImpl : public detail::SampleModule<RandomResizedCropImpl> {
  EMBER_V2_SAMPLE_MODULE_BODY(RandomResizedCrop);
};
EMBER_V2_LIST_MODULE(RandomResizedCrop, int64_t);

class PadImpl : public detail::SampleModule<PadImpl> {
  EMBER_V2_SAMPLE_MODULE_BODY(Pad);
};
EMBER_V2_LIST_MODULE(Pad, int64_t);

class RandomRotationImpl : public detail::SampleModule<RandomRotationImpl> {
  EMBER_V2_SAMPLE_MODULE_BODY(RandomRotation);
  std::vector<double> degrees;  // [min, max]
};
EMBER_V2_LIST_MODULE(RandomRotation, double);

class RandomAffineImpl : public detail::SampleModule<RandomAffineImpl> {
  EMBER_V2_SAMPLE_MODULE_BODY(RandomAffine);
  std::vector<double> degrees;                // [min, max]
  std::optional<std::vector<double>> shears;  // as v1's RandomAffine
};
EMBER_V2_LIST_MODULE(RandomAffine, double);

class RandomPerspectiveImpl : public detail::SampleModule<RandomPerspectiveImpl> {
  EMBER_V2_SAMPLE_MODULE_BODY(RandomPerspective);
  RandomPerspectiveImpl() : RandomPerspectiveImpl(RandomPerspectiveOptions()) {}
};
EMBER_VISION_TRANSFORM_MODULE(RandomPerspective);

class ElasticTransformImpl : public detail::SampleModule<ElasticTransformImpl> {
  EMBER_V2_SAMPLE_MODULE_BODY(ElasticTransform);
  ElasticTransformImpl() : ElasticTransformImpl(ElasticTransformOptions()) {}
};
EMBER_VISION_TRANSFORM_MODULE(ElasticTransform);

// FiveCrop and TenCrop: v1's modules. As in torchvision's v2 they take images only (the crops
// are separate outputs, which boxes and masks cannot follow).
using ::torch::vision::transforms::FiveCrop;
using ::torch::vision::transforms::FiveCropOptions;
using ::torch::vision::transforms::TenCrop;
using ::torch::vision::transforms::TenCropOptions;

#undef EMBER_V2_SAMPLE_MODULE_BODY
#undef EMBER_V2_LIST_MODULE

}  // namespace torch::vision::transforms::v2
