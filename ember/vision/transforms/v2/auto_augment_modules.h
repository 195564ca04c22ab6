#pragma once
// torchvision.transforms.v2's AutoAugment, RandAugment, TrivialAugmentWide and
// AugMix. The policies, augmentation spaces and op kernels are v1's
// (transforms/autoaugment.h); what v2 changes is the draw order (one
// torch.rand(()) per sub-policy and per sign, drawn only when used), Solarize's
// threshold scaled by the dtype's maximum (so float images work), and the
// input: one image or video. As torchvision, a Sample holding bounding boxes or
// masks raises (the policies do not say how to move them), labels pass through.
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "ember/core/error.h"
#include "ember/vision/transforms/autoaugment.h"
#include "ember/vision/transforms/v2/sample_module.h"

namespace torch::vision::transforms::v2 {

using ::torch::vision::transforms::AugMixOptions;
using ::torch::vision::transforms::AutoAugmentOptions;
using ::torch::vision::transforms::AutoAugmentPolicy;
using ::torch::vision::transforms::RandAugmentOptions;
using ::torch::vision::transforms::TrivialAugmentWideOptions;

namespace detail {

// Raises, naming `op`, unless the sample holds exactly one image or video and no boxes or masks.
void check_auto_augment_sample(const Sample& sample, const char* op);

// The base of the four: a Sample, a lone tensor (an image) or a Video go to
// Derived::augment(image_or_video, is_video); boxes and masks raise.
template <typename Derived>
class AutoAugmentBase : public nn::Cloneable<Derived> {
 public:
  Tensor forward(Tensor image) { return derived().augment(image, /*is_video=*/false); }
  tv_tensors::Video forward(tv_tensors::Video video) {
    return tv_tensors::Video(derived().augment(video, /*is_video=*/true));
  }
  Tensor forward(const tv_tensors::Mask& /*mask*/) { unsupported("Mask"); }
  Tensor forward(const tv_tensors::BoundingBoxes& /*boxes*/) { unsupported("BoundingBoxes"); }
  Sample forward(Sample sample) {
    check_auto_augment_sample(sample, Derived::kName);
    if (sample.image)
      sample.image = tv_tensors::Image(derived().augment(*sample.image, /*is_video=*/false));
    else
      sample.video = tv_tensors::Video(derived().augment(*sample.video, /*is_video=*/true));
    return sample;
  }

 private:
  Derived& derived() { return *static_cast<Derived*>(this); }
  [[noreturn]] static void unsupported(const char* type) {
    EMBER_ERROR(Derived::kName, ": inputs of type ", type, " are not supported by ", Derived::kName, "()");
  }
};

}  // namespace detail

#define EMBER_V2_AUTO_AUGMENT_BODY(Name)                                      \
 public:                                                                      \
  static constexpr const char* kName = #Name;                                 \
  explicit Name##Impl(Name##Options options = {});                            \
  void reset() override;                                                      \
  void pretty_print(std::ostream& stream) const override;                     \
  using detail::AutoAugmentBase<Name##Impl>::forward;                         \
  /* The transform of one image [..., C, H, W] or video [..., T, C, H, W]. */ \
  Tensor augment(const Tensor& image_or_video, bool is_video);                \
  Name##Options options

class AutoAugmentImpl : public detail::AutoAugmentBase<AutoAugmentImpl> {
  EMBER_V2_AUTO_AUGMENT_BODY(AutoAugment);
  std::vector<std::pair<transforms::AutoAugmentImpl::SubPolicy, transforms::AutoAugmentImpl::SubPolicy>> policies;
};
EMBER_VISION_TRANSFORM_MODULE(AutoAugment);

class RandAugmentImpl : public detail::AutoAugmentBase<RandAugmentImpl> {
  EMBER_V2_AUTO_AUGMENT_BODY(RandAugment);
};
EMBER_VISION_TRANSFORM_MODULE(RandAugment);

class TrivialAugmentWideImpl : public detail::AutoAugmentBase<TrivialAugmentWideImpl> {
  EMBER_V2_AUTO_AUGMENT_BODY(TrivialAugmentWide);
};
EMBER_VISION_TRANSFORM_MODULE(TrivialAugmentWide);

// AugMix mixes in float32 and returns the input's dtype; a video's leading
// dimension (an image's, for a batch [N, C, H, W]) gets its own weights.
class AugMixImpl : public detail::AutoAugmentBase<AugMixImpl> {
  EMBER_V2_AUTO_AUGMENT_BODY(AugMix);
};
EMBER_VISION_TRANSFORM_MODULE(AugMix);

#undef EMBER_V2_AUTO_AUGMENT_BODY

}  // namespace torch::vision::transforms::v2
