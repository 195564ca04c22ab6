// v2's automatic augmentation policies. Every draw is torchvision v2's, in its
// order: torch.randint(n, ()) for a policy, an op or a bin, torch.rand(()) <= p
// for a sub-policy, and torch.rand(()) <= 0.5 for a sign, drawn only for a
// signed op that has magnitudes.
#include "ember/vision/transforms/v2/auto_augment_modules.h"

#include <algorithm>

#include "ember/ops/all_ops.h"
#include "ember/ops/factory/distributions.h"
#include "ember/vision/transforms/random_draws.h"

namespace torch::vision::transforms::v2 {

namespace vd = ::torch::vision::transforms::detail;
using vd::AugmentSpaceKind;

namespace detail {

void check_auto_augment_sample(const Sample& sample, const char* op) {
  EMBER_CHECK(!sample.boxes, op, ": inputs of type BoundingBoxes are not supported by ", op, "()");
  EMBER_CHECK(!sample.masks, op, ": inputs of type Mask are not supported by ", op, "()");
  EMBER_CHECK(sample.image || sample.video, op, ": found no image in the sample");
  EMBER_CHECK(!(sample.image && sample.video), op,
              ": auto augment transformations are only properly defined for a single image or video, but found 2");
}

}  // namespace detail

namespace {

// The (height, width) of an image [..., C, H, W] or video.
std::pair<int64_t, int64_t> image_size(const Tensor& img, const char* op) {
  EMBER_CHECK(img.defined(), op, ": expected an image [..., C, H, W], got an undefined tensor");
  EMBER_CHECK(img.dim() >= 3, op, ": expected an image [..., C, H, W], got shape ", img.sizes());
  return {img.size(-2), img.size(-1)};
}

bool draw_negative() { return vd::rand_float() <= 0.5f; }

// op's magnitude at bin, negated on the sign draw; 0 (and no draw) for an op without magnitudes.
double signed_magnitude(const vd::AugmentOp& op, int64_t bin) {
  if (!op.magnitudes.defined()) return 0.0;
  const double magnitude = vd::augment_magnitude(op, bin);
  return op.is_signed && draw_negative() ? -magnitude : magnitude;
}

// _apply_image_or_video_transform: v1's kernels; v2's Solarize bins run 1 -> 0 and are
// scaled by the dtype's maximum (1 for float, 255 for uint8).
Tensor apply_op(const Tensor& img, const std::string& op, double magnitude, InterpolationMode interpolation,
                const OptionalFloats& fill) {
  if (op == "Solarize") magnitude *= img.is_floating_point() ? 1.0 : 255.0;
  return vd::apply_augment_op(img, op, magnitude, interpolation, vd::augment_channel_fill(fill, img));
}

}  // namespace

// ---- AutoAugment ----
AutoAugmentImpl::AutoAugmentImpl(AutoAugmentOptions options_) : options(std::move(options_)) { reset(); }
void AutoAugmentImpl::reset() { policies = vd::autoaugment_policies(options.policy()); }
void AutoAugmentImpl::pretty_print(std::ostream& stream) const {
  stream << "torch::vision::transforms::v2::AutoAugment(policy=" << vd::autoaugment_policy_name(options.policy())
         << ")";
}
Tensor AutoAugmentImpl::augment(const Tensor& image, bool /*is_video*/) {
  const auto [h, w] = image_size(image, kName);
  const vd::AugmentSpace space = vd::augment_space(AugmentSpaceKind::AUTO_AUGMENT, 10, h, w, 1.0);
  const auto& policy = policies[vd::randint_one(0, static_cast<int64_t>(policies.size()))];
  Tensor out = image;
  for (const auto* sub : {&policy.first, &policy.second}) {
    const auto& [name, p, bin] = *sub;
    if (!(vd::rand_float() <= static_cast<float>(p))) continue;
    const vd::AugmentOp& op = vd::find_augment_op(space, name);
    EMBER_CHECK(!op.magnitudes.defined() || bin.has_value(), kName, ": the policy gives ", name, " no magnitude");
    const double magnitude = signed_magnitude(op, bin.value_or(0));
    out = apply_op(out, name, magnitude, options.interpolation(), options.fill());
  }
  return out;
}

// ---- RandAugment ----
RandAugmentImpl::RandAugmentImpl(RandAugmentOptions options_) : options(std::move(options_)) { reset(); }
void RandAugmentImpl::reset() { transforms::RandAugmentImpl check(options); }
void RandAugmentImpl::pretty_print(std::ostream& stream) const {
  stream << "torch::vision::transforms::v2::RandAugment(num_ops=" << options.num_ops()
         << ", magnitude=" << options.magnitude() << ", num_magnitude_bins=" << options.num_magnitude_bins() << ")";
}
Tensor RandAugmentImpl::augment(const Tensor& image, bool /*is_video*/) {
  const auto [h, w] = image_size(image, kName);
  const vd::AugmentSpace space =
      vd::augment_space(AugmentSpaceKind::RAND_AUGMENT, options.num_magnitude_bins(), h, w, 1.0);
  Tensor out = image;
  for (int64_t k = 0; k < options.num_ops(); ++k) {
    const vd::AugmentOp& op = space[vd::randint_one(0, static_cast<int64_t>(space.size()))];
    const double magnitude = signed_magnitude(op, options.magnitude());
    out = apply_op(out, op.name, magnitude, options.interpolation(), options.fill());
  }
  return out;
}

// ---- TrivialAugmentWide ----
TrivialAugmentWideImpl::TrivialAugmentWideImpl(TrivialAugmentWideOptions options_) : options(std::move(options_)) {
  reset();
}
void TrivialAugmentWideImpl::reset() { vd::check_magnitude_bins(options.num_magnitude_bins(), kName); }
void TrivialAugmentWideImpl::pretty_print(std::ostream& stream) const {
  stream << "torch::vision::transforms::v2::TrivialAugmentWide(num_magnitude_bins=" << options.num_magnitude_bins()
         << ")";
}
Tensor TrivialAugmentWideImpl::augment(const Tensor& image, bool /*is_video*/) {
  const auto [h, w] = image_size(image, kName);
  const vd::AugmentSpace space =
      vd::augment_space(AugmentSpaceKind::TRIVIAL_AUGMENT_WIDE, options.num_magnitude_bins(), h, w, 1.0);
  const vd::AugmentOp& op = space[vd::randint_one(0, static_cast<int64_t>(space.size()))];
  const int64_t bin = op.magnitudes.defined() ? vd::randint_one(0, options.num_magnitude_bins()) : 0;
  const double magnitude = signed_magnitude(op, bin);
  return apply_op(image, op.name, magnitude, options.interpolation(), options.fill());
}

// ---- AugMix ----
AugMixImpl::AugMixImpl(AugMixOptions options_) : options(std::move(options_)) { reset(); }
void AugMixImpl::reset() { transforms::AugMixImpl check(options); }
void AugMixImpl::pretty_print(std::ostream& stream) const {
  stream << "torch::vision::transforms::v2::AugMix(severity=" << options.severity()
         << ", mixture_width=" << options.mixture_width() << ", chain_depth=" << options.chain_depth()
         << ", alpha=" << options.alpha() << ", all_ops=" << (options.all_ops() ? "True" : "False") << ")";
}
Tensor AugMixImpl::augment(const Tensor& image, bool is_video) {
  const auto [h, w] = image_size(image, kName);
  const vd::AugmentSpace space =
      vd::augment_space(options.all_ops() ? AugmentSpaceKind::AUGMIX : AugmentSpaceKind::AUGMIX_PARTIAL, 10, h, w, 1.0);
  // v2 pads an image to [1, C, H, W] (a video to [1, T, C, H, W]) and gives the leading
  // dimension, whatever it is, its own weights.
  const std::vector<int64_t> orig_dims = image.sizes().vec();
  const int64_t expected_ndim = is_video ? 5 : 4;
  std::vector<int64_t> batch_shape(static_cast<size_t>(std::max<int64_t>(expected_ndim - image.dim(), 0)), 1);
  batch_shape.insert(batch_shape.end(), orig_dims.begin(), orig_dims.end());
  const Tensor batch = image.reshape(batch_shape);
  const int64_t n = batch.size(0), width = options.mixture_width();
  std::vector<int64_t> weight_shape(static_cast<size_t>(batch.dim()), 1);
  weight_shape[0] = n;
  // Beta(alpha, alpha) as a two-column Dirichlet, then the chains' Dirichlet(alpha * width) weights,
  // drawn by the core's _sample_dirichlet on float32 concentrations as torchvision does.
  const Tensor m = _sample_dirichlet(full({n, 2}, options.alpha(), TensorOptions(kFloat)));
  const Tensor weights =
      _sample_dirichlet(full({n, width}, options.alpha(), TensorOptions(kFloat))) * m.select(1, 1).reshape({n, 1});
  Tensor mix = m.select(1, 0).reshape(weight_shape) * batch;
  for (int64_t i = 0; i < width; ++i) {
    Tensor aug = batch;
    const int64_t depth = options.chain_depth() > 0 ? options.chain_depth() : vd::randint_one(1, 4);
    for (int64_t d = 0; d < depth; ++d) {
      const vd::AugmentOp& op = space[vd::randint_one(0, static_cast<int64_t>(space.size()))];
      const int64_t bin = op.magnitudes.defined() ? vd::randint_one(0, options.severity()) : 0;
      const double magnitude = signed_magnitude(op, bin);
      aug = apply_op(aug, op.name, magnitude, options.interpolation(), options.fill());
    }
    mix = mix + weights.select(1, i).reshape(weight_shape) * aug;
  }
  return mix.reshape(orig_dims).to(image.scalar_type());
}

}  // namespace torch::vision::transforms::v2
