#pragma once
// The v2 geometric transform modules: torchvision.transforms.v2's
// RandomHorizontalFlip, RandomVerticalFlip, Resize, CenterCrop, RandomCrop,
// RandomResizedCrop, Pad, RandomRotation, RandomAffine, RandomPerspective and
// ElasticTransform. Each draws its parameters once per Sample (from Ember's
// generator, with v1's get_params) and applies them to the image, video,
// masks (NEAREST, fill 0) and boxes alike. Options are v1's; an antialias left
// nullopt means v2's default, true.
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
EMBER_VISION_TRANSFORM_MODULE(Resize);

class CenterCropImpl : public detail::SampleModule<CenterCropImpl> {
  EMBER_V2_SAMPLE_MODULE_BODY(CenterCrop);
};
EMBER_VISION_TRANSFORM_MODULE(CenterCrop);

// v2's RandomCrop: padding (optional), pad_if_needed, then a random crop of size.
class RandomCropImpl : public detail::SampleModule<RandomCropImpl> {
  EMBER_V2_SAMPLE_MODULE_BODY(RandomCrop);
};
EMBER_VISION_TRANSFORM_MODULE(RandomCrop);

class RandomResizedCropImpl : public detail::SampleModule<RandomResizedCropImpl> {
  EMBER_V2_SAMPLE_MODULE_BODY(RandomResizedCrop);
};
EMBER_VISION_TRANSFORM_MODULE(RandomResizedCrop);

class PadImpl : public detail::SampleModule<PadImpl> {
  EMBER_V2_SAMPLE_MODULE_BODY(Pad);
};
EMBER_VISION_TRANSFORM_MODULE(Pad);

class RandomRotationImpl : public detail::SampleModule<RandomRotationImpl> {
  EMBER_V2_SAMPLE_MODULE_BODY(RandomRotation);
  std::vector<double> degrees;  // [min, max]
};
EMBER_VISION_TRANSFORM_MODULE(RandomRotation);

class RandomAffineImpl : public detail::SampleModule<RandomAffineImpl> {
  EMBER_V2_SAMPLE_MODULE_BODY(RandomAffine);
  std::vector<double> degrees;                // [min, max]
  std::optional<std::vector<double>> shears;  // as v1's RandomAffine
};
EMBER_VISION_TRANSFORM_MODULE(RandomAffine);

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

#undef EMBER_V2_SAMPLE_MODULE_BODY

}  // namespace torch::vision::transforms::v2
