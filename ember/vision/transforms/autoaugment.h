#pragma once
// Automatic augmentation policies (torchvision.transforms.autoaugment):
// AutoAugment (ImageNet, CIFAR10 and SVHN policies), RandAugment,
// TrivialAugmentWide and AugMix. Images are expected as uint8 (as in
// torchvision; Solarize's thresholds are on the 0..255 scale).
#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <tuple>
#include <vector>

#include "ember/core/arg.h"
#include "ember/vision/transforms/interpolation_mode.h"
#include "ember/vision/transforms/optional_list.h"
#include "ember/vision/transforms/transform_module.h"

namespace torch::vision::transforms {

enum class AutoAugmentPolicy { IMAGENET, CIFAR10, SVHN };

// The fill option shared by the policies: nullopt (no fill), a number for every
// channel, or one value per channel.
#define EMBER_VISION_FILL_ARG(Options)            \
  TORCH_ARG(OptionalFloats, fill) = std::nullopt; \
                                                  \
 public:                                          \
  Options& fill(double value) {                   \
    fill_ = std::vector<double>{value};           \
    return *this;                                 \
  }

struct AutoAugmentOptions {
  AutoAugmentOptions(AutoAugmentPolicy policy = AutoAugmentPolicy::IMAGENET) : policy_(policy) {}  // NOLINT
  TORCH_ARG(AutoAugmentPolicy, policy);
  TORCH_ARG(InterpolationMode, interpolation) = InterpolationMode::NEAREST;
  EMBER_VISION_FILL_ARG(AutoAugmentOptions)
};

class AutoAugmentImpl : public nn::Cloneable<AutoAugmentImpl> {
 public:
  explicit AutoAugmentImpl(AutoAugmentOptions options = {});
  void reset() override;
  void pretty_print(std::ostream& stream) const override;
  Tensor forward(Tensor img);
  // (policy index, the two sub-policies' probabilities, their signs).
  static std::tuple<int64_t, Tensor, Tensor> get_params(int64_t transform_num);
  // One sub-policy: (op name, probability, magnitude bin or nullopt).
  using SubPolicy = std::tuple<std::string, double, std::optional<int64_t>>;
  std::vector<std::pair<SubPolicy, SubPolicy>> policies;
  AutoAugmentOptions options;
};
EMBER_VISION_TRANSFORM_MODULE(AutoAugment);

struct RandAugmentOptions {
  TORCH_ARG(int64_t, num_ops) = 2;
  TORCH_ARG(int64_t, magnitude) = 9;
  TORCH_ARG(int64_t, num_magnitude_bins) = 31;
  TORCH_ARG(InterpolationMode, interpolation) = InterpolationMode::NEAREST;
  EMBER_VISION_FILL_ARG(RandAugmentOptions)
};

class RandAugmentImpl : public nn::Cloneable<RandAugmentImpl> {
 public:
  explicit RandAugmentImpl(RandAugmentOptions options = {});
  void reset() override;
  Tensor forward(Tensor img);
  RandAugmentOptions options;
};
EMBER_VISION_TRANSFORM_MODULE(RandAugment);

struct TrivialAugmentWideOptions {
  TORCH_ARG(int64_t, num_magnitude_bins) = 31;
  TORCH_ARG(InterpolationMode, interpolation) = InterpolationMode::NEAREST;
  EMBER_VISION_FILL_ARG(TrivialAugmentWideOptions)
};

class TrivialAugmentWideImpl : public nn::Cloneable<TrivialAugmentWideImpl> {
 public:
  explicit TrivialAugmentWideImpl(TrivialAugmentWideOptions options = {});
  void reset() override;
  Tensor forward(Tensor img);
  TrivialAugmentWideOptions options;
};
EMBER_VISION_TRANSFORM_MODULE(TrivialAugmentWide);

struct AugMixOptions {
  TORCH_ARG(int64_t, severity) = 3;
  TORCH_ARG(int64_t, mixture_width) = 3;
  TORCH_ARG(int64_t, chain_depth) = -1;
  TORCH_ARG(double, alpha) = 1.0;
  TORCH_ARG(bool, all_ops) = true;
  TORCH_ARG(InterpolationMode, interpolation) = InterpolationMode::BILINEAR;
  EMBER_VISION_FILL_ARG(AugMixOptions)
};

// AugMix replays torchvision's draws under torch::manual_seed (its weights from the core's
// _sample_dirichlet, its ops from randint as torchvision).
class AugMixImpl : public nn::Cloneable<AugMixImpl> {
 public:
  explicit AugMixImpl(AugMixOptions options = {});
  void reset() override;
  Tensor forward(Tensor orig_img);
  AugMixOptions options;
};
EMBER_VISION_TRANSFORM_MODULE(AugMix);

#undef EMBER_VISION_FILL_ARG

// The augmentation spaces, policies and op kernels v1's modules and v2's
// (transforms/v2/auto_augment_modules.h) share: one place per fact.
namespace detail {

// One op of an augmentation space; magnitudes undefined: the op takes none.
struct AugmentOp {
  std::string name;
  Tensor magnitudes;
  bool is_signed;
};
using AugmentSpace = std::vector<AugmentOp>;

enum class AugmentSpaceKind { AUTO_AUGMENT, RAND_AUGMENT, TRIVIAL_AUGMENT_WIDE, AUGMIX_PARTIAL, AUGMIX };

// The space of `kind` in torchvision's key order (the order RandAugment & co. draw from), with
// `bins` float32 linspace bins for an image of height x width. solarize_top is the first
// Solarize bin: 255 in v1 (uint8 thresholds), 1 in v2 (scaled by the dtype's maximum).
AugmentSpace augment_space(AugmentSpaceKind kind, int64_t bins, int64_t height, int64_t width,
                           double solarize_top = 255.0);
const AugmentOp& find_augment_op(const AugmentSpace& space, const std::string& name);
// float(op.magnitudes[bin]), 0 for an op without magnitudes; raises for a bin out of range.
double augment_magnitude(const AugmentOp& op, int64_t bin);
std::vector<std::pair<AutoAugmentImpl::SubPolicy, AutoAugmentImpl::SubPolicy>> autoaugment_policies(
    AutoAugmentPolicy policy);
const char* autoaugment_policy_name(AutoAugmentPolicy policy);
// autoaugment._apply_op on an image [..., C, H, W].
Tensor apply_augment_op(const Tensor& img, const std::string& op, double magnitude, InterpolationMode interpolation,
                        const std::optional<std::vector<double>>& fill);
// A single fill value repeated for every channel of img (torchvision's fill setup).
std::optional<std::vector<double>> augment_channel_fill(const std::optional<std::vector<double>>& fill,
                                                        const Tensor& img);
void check_magnitude_bins(int64_t bins, const char* op);

}  // namespace detail

// torchvision.transforms.autoaugment.<name> spells the same classes.
namespace autoaugment {
using transforms::AugMix;
using transforms::AugMixOptions;
using transforms::AutoAugment;
using transforms::AutoAugmentOptions;
using transforms::AutoAugmentPolicy;
using transforms::RandAugment;
using transforms::RandAugmentOptions;
using transforms::TrivialAugmentWide;
using transforms::TrivialAugmentWideOptions;
}  // namespace autoaugment

}  // namespace torch::vision::transforms
