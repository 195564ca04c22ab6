// AutoAugment, RandAugment, TrivialAugmentWide and AugMix: the augmentation
// spaces are torchvision's (float32 linspace bins, its posterize bins), and the
// draws follow its order, including RandAugment's sign draw that happens only
// for signed ops.
#include "ember/vision/transforms/autoaugment.h"

#include <cmath>
#include <numbers>

#include "ember/core/error.h"
#include "ember/ops/all_ops.h"
#include "ember/ops/factory/distributions.h"
#include "ember/vision/transforms/functional.h"
#include "ember/vision/transforms/random_draws.h"

namespace torch::vision::transforms {

namespace F = functional;
using detail::AugmentSpace;
using detail::AugmentSpaceKind;
using detail::randint_one;
using Op = detail::AugmentOp;
using Space = detail::AugmentSpace;

namespace {

Tensor lin(double start, double end, int64_t bins) { return linspace(start, end, bins, kFloat); }

// 8 - (arange(bins) / ((bins - 1) / div)).round().int(), shifted by top.
Tensor posterize_bins(int64_t top, double div, int64_t bins) {
  const Tensor idx = arange(bins, kLong);
  return top - (idx / (static_cast<double>(bins - 1) / div)).round().to(kInt);
}

void add_common_geometry(Space& s, int64_t bins, double shear, double tx, double ty, double rotate) {
  s.push_back({"ShearX", lin(0.0, shear, bins), true});
  s.push_back({"ShearY", lin(0.0, shear, bins), true});
  s.push_back({"TranslateX", lin(0.0, tx, bins), true});
  s.push_back({"TranslateY", lin(0.0, ty, bins), true});
  s.push_back({"Rotate", lin(0.0, rotate, bins), true});
}

void add_colour(Space& s, int64_t bins, double top) {
  for (const char* n : {"Brightness", "Color", "Contrast", "Sharpness"}) s.push_back({n, lin(0.0, top, bins), true});
}

// RandAugment's and AutoAugment's space (AutoAugment has no Identity but has Invert).
Space rand_augment_space(int64_t bins, int64_t h, int64_t w, bool autoaugment, double solarize_top) {
  Space s;
  if (!autoaugment) s.push_back({"Identity", Tensor(), false});
  add_common_geometry(s, bins, 0.3, 150.0 / 331.0 * static_cast<double>(w), 150.0 / 331.0 * static_cast<double>(h),
                      30.0);
  add_colour(s, bins, 0.9);
  s.push_back({"Posterize", posterize_bins(8, 4, bins), false});
  s.push_back({"Solarize", lin(solarize_top, 0.0, bins), false});
  s.push_back({"AutoContrast", Tensor(), false});
  s.push_back({"Equalize", Tensor(), false});
  if (autoaugment) s.push_back({"Invert", Tensor(), false});
  return s;
}

Space trivial_space(int64_t bins, double solarize_top) {
  Space s;
  s.push_back({"Identity", Tensor(), false});
  add_common_geometry(s, bins, 0.99, 32.0, 32.0, 135.0);
  add_colour(s, bins, 0.99);
  s.push_back({"Posterize", posterize_bins(8, 6, bins), false});
  s.push_back({"Solarize", lin(solarize_top, 0.0, bins), false});
  s.push_back({"AutoContrast", Tensor(), false});
  s.push_back({"Equalize", Tensor(), false});
  return s;
}

Space augmix_space(int64_t bins, int64_t h, int64_t w, bool all_ops, double solarize_top) {
  Space s;
  add_common_geometry(s, bins, 0.3, static_cast<double>(w) / 3.0, static_cast<double>(h) / 3.0, 30.0);
  s.push_back({"Posterize", posterize_bins(4, 4, bins), false});
  s.push_back({"Solarize", lin(solarize_top, 0.0, bins), false});
  s.push_back({"AutoContrast", Tensor(), false});
  s.push_back({"Equalize", Tensor(), false});
  if (all_ops) add_colour(s, bins, 0.9);
  return s;
}

}  // namespace

namespace detail {

AugmentSpace augment_space(AugmentSpaceKind kind, int64_t bins, int64_t height, int64_t width, double solarize_top) {
  switch (kind) {
    case AugmentSpaceKind::AUTO_AUGMENT:
      return rand_augment_space(bins, height, width, /*autoaugment=*/true, solarize_top);
    case AugmentSpaceKind::RAND_AUGMENT:
      return rand_augment_space(bins, height, width, /*autoaugment=*/false, solarize_top);
    case AugmentSpaceKind::TRIVIAL_AUGMENT_WIDE:
      return trivial_space(bins, solarize_top);
    case AugmentSpaceKind::AUGMIX_PARTIAL:
      return augmix_space(bins, height, width, /*all_ops=*/false, solarize_top);
    case AugmentSpaceKind::AUGMIX:
      return augmix_space(bins, height, width, /*all_ops=*/true, solarize_top);
  }
  EMBER_ERROR("AutoAugment: unknown augmentation space");
}

const Op& find_augment_op(const Space& s, const std::string& name) {
  for (const auto& op : s)
    if (op.name == name) return op;
  EMBER_ERROR("AutoAugment: the operator ", name, " is not in the augmentation space");
}

Tensor apply_augment_op(const Tensor& img, const std::string& op, double magnitude, InterpolationMode interpolation,
                        const std::optional<std::vector<double>>& fill) {
  constexpr double to_degrees = 180.0 / std::numbers::pi;
  const OptionalFloats f = fill;
  if (op == "ShearX")
    return F::affine(img, 0.0, {0, 0}, 1.0, std::vector<double>{std::atan(magnitude) * to_degrees, 0.0}, interpolation,
                     f, std::vector<int64_t>{0, 0});
  if (op == "ShearY")
    return F::affine(img, 0.0, {0, 0}, 1.0, std::vector<double>{0.0, std::atan(magnitude) * to_degrees}, interpolation,
                     f, std::vector<int64_t>{0, 0});
  if (op == "TranslateX")
    return F::affine(img, 0.0, {static_cast<int64_t>(magnitude), 0}, 1.0, std::vector<double>{0.0, 0.0}, interpolation,
                     f);
  if (op == "TranslateY")
    return F::affine(img, 0.0, {0, static_cast<int64_t>(magnitude)}, 1.0, std::vector<double>{0.0, 0.0}, interpolation,
                     f);
  if (op == "Rotate") return F::rotate(img, magnitude, interpolation, false, std::nullopt, f);
  if (op == "Brightness") return F::adjust_brightness(img, 1.0 + magnitude);
  if (op == "Color") return F::adjust_saturation(img, 1.0 + magnitude);
  if (op == "Contrast") return F::adjust_contrast(img, 1.0 + magnitude);
  if (op == "Sharpness") return F::adjust_sharpness(img, 1.0 + magnitude);
  if (op == "Posterize") return F::posterize(img, static_cast<int64_t>(magnitude));
  if (op == "Solarize") return F::solarize(img, magnitude);
  if (op == "AutoContrast") return F::autocontrast(img);
  if (op == "Equalize") return F::equalize(img);
  if (op == "Invert") return F::invert(img);
  if (op == "Identity") return img;
  EMBER_ERROR("AutoAugment: the provided operator ", op, " is not recognized");
}

std::optional<std::vector<double>> augment_channel_fill(const std::optional<std::vector<double>>& fill,
                                                        const Tensor& img) {
  if (fill && fill->size() == 1) return std::vector<double>(F::get_dimensions(img)[0], (*fill)[0]);
  return fill;
}

double augment_magnitude(const Op& op, int64_t bin) {
  if (!op.magnitudes.defined()) return 0.0;
  EMBER_CHECK(bin >= 0 && bin < op.magnitudes.numel(), "AutoAugment: magnitude bin ", bin, " is out of range [0, ",
              op.magnitudes.numel(), ")");
  return op.magnitudes[bin].item<double>();
}

const char* autoaugment_policy_name(AutoAugmentPolicy p) {
  switch (p) {
    case AutoAugmentPolicy::IMAGENET:
      return "imagenet";
    case AutoAugmentPolicy::CIFAR10:
      return "cifar10";
    case AutoAugmentPolicy::SVHN:
      return "svhn";
  }
  return "unknown";
}

std::vector<std::pair<AutoAugmentImpl::SubPolicy, AutoAugmentImpl::SubPolicy>> autoaugment_policies(
    AutoAugmentPolicy policy) {
  constexpr std::nullopt_t N = std::nullopt;
  switch (policy) {
    case AutoAugmentPolicy::IMAGENET:
      return {{{"Posterize", 0.4, 8}, {"Rotate", 0.6, 9}},  {{"Solarize", 0.6, 5}, {"AutoContrast", 0.6, N}},
              {{"Equalize", 0.8, N}, {"Equalize", 0.6, N}}, {{"Posterize", 0.6, 7}, {"Posterize", 0.6, 6}},
              {{"Equalize", 0.4, N}, {"Solarize", 0.2, 4}}, {{"Equalize", 0.4, N}, {"Rotate", 0.8, 8}},
              {{"Solarize", 0.6, 3}, {"Equalize", 0.6, N}}, {{"Posterize", 0.8, 5}, {"Equalize", 1.0, N}},
              {{"Rotate", 0.2, 3}, {"Solarize", 0.6, 8}},   {{"Equalize", 0.6, N}, {"Posterize", 0.4, 6}},
              {{"Rotate", 0.8, 8}, {"Color", 0.4, 0}},      {{"Rotate", 0.4, 9}, {"Equalize", 0.6, N}},
              {{"Equalize", 0.0, N}, {"Equalize", 0.8, N}}, {{"Invert", 0.6, N}, {"Equalize", 1.0, N}},
              {{"Color", 0.6, 4}, {"Contrast", 1.0, 8}},    {{"Rotate", 0.8, 8}, {"Color", 1.0, 2}},
              {{"Color", 0.8, 8}, {"Solarize", 0.8, 7}},    {{"Sharpness", 0.4, 7}, {"Invert", 0.6, N}},
              {{"ShearX", 0.6, 5}, {"Equalize", 1.0, N}},   {{"Color", 0.4, 0}, {"Equalize", 0.6, N}},
              {{"Equalize", 0.4, N}, {"Solarize", 0.2, 4}}, {{"Solarize", 0.6, 5}, {"AutoContrast", 0.6, N}},
              {{"Invert", 0.6, N}, {"Equalize", 1.0, N}},   {{"Color", 0.6, 4}, {"Contrast", 1.0, 8}},
              {{"Equalize", 0.8, N}, {"Equalize", 0.6, N}}};
    case AutoAugmentPolicy::CIFAR10:
      return {{{"Invert", 0.1, N}, {"Contrast", 0.2, 6}},        {{"Rotate", 0.7, 2}, {"TranslateX", 0.3, 9}},
              {{"Sharpness", 0.8, 1}, {"Sharpness", 0.9, 3}},    {{"ShearY", 0.5, 8}, {"TranslateY", 0.7, 9}},
              {{"AutoContrast", 0.5, N}, {"Equalize", 0.9, N}},  {{"ShearY", 0.2, 7}, {"Posterize", 0.3, 7}},
              {{"Color", 0.4, 3}, {"Brightness", 0.6, 7}},       {{"Sharpness", 0.3, 9}, {"Brightness", 0.7, 9}},
              {{"Equalize", 0.6, N}, {"Equalize", 0.5, N}},      {{"Contrast", 0.6, 7}, {"Sharpness", 0.6, 5}},
              {{"Color", 0.7, 7}, {"TranslateX", 0.5, 8}},       {{"Equalize", 0.3, N}, {"AutoContrast", 0.4, N}},
              {{"TranslateY", 0.4, 3}, {"Sharpness", 0.2, 6}},   {{"Brightness", 0.9, 6}, {"Color", 0.2, 8}},
              {{"Solarize", 0.5, 2}, {"Invert", 0.0, N}},        {{"Equalize", 0.2, N}, {"AutoContrast", 0.6, N}},
              {{"Equalize", 0.2, N}, {"Equalize", 0.6, N}},      {{"Color", 0.9, 9}, {"Equalize", 0.6, N}},
              {{"AutoContrast", 0.8, N}, {"Solarize", 0.2, 8}},  {{"Brightness", 0.1, 3}, {"Color", 0.7, 0}},
              {{"Solarize", 0.4, 5}, {"AutoContrast", 0.9, N}},  {{"TranslateY", 0.9, 9}, {"TranslateY", 0.7, 9}},
              {{"AutoContrast", 0.9, N}, {"Solarize", 0.8, 3}},  {{"Equalize", 0.8, N}, {"Invert", 0.1, N}},
              {{"TranslateY", 0.7, 9}, {"AutoContrast", 0.9, N}}};
    case AutoAugmentPolicy::SVHN:
      return {{{"ShearX", 0.9, 4}, {"Invert", 0.2, N}},       {{"ShearY", 0.9, 8}, {"Invert", 0.7, N}},
              {{"Equalize", 0.6, N}, {"Solarize", 0.6, 6}},   {{"Invert", 0.9, N}, {"Equalize", 0.6, N}},
              {{"Equalize", 0.6, N}, {"Rotate", 0.9, 3}},     {{"ShearX", 0.9, 4}, {"AutoContrast", 0.8, N}},
              {{"ShearY", 0.9, 8}, {"Invert", 0.4, N}},       {{"ShearY", 0.9, 5}, {"Solarize", 0.2, 6}},
              {{"Invert", 0.9, N}, {"AutoContrast", 0.8, N}}, {{"Equalize", 0.6, N}, {"Rotate", 0.9, 3}},
              {{"ShearX", 0.9, 4}, {"Solarize", 0.3, 3}},     {{"ShearY", 0.8, 8}, {"Invert", 0.7, N}},
              {{"Equalize", 0.9, N}, {"TranslateY", 0.6, 6}}, {{"Invert", 0.9, N}, {"Equalize", 0.6, N}},
              {{"Contrast", 0.3, 3}, {"Rotate", 0.8, 4}},     {{"Invert", 0.8, N}, {"TranslateY", 0.0, 2}},
              {{"ShearY", 0.7, 6}, {"Solarize", 0.4, 8}},     {{"Invert", 0.6, N}, {"Rotate", 0.8, 4}},
              {{"ShearY", 0.3, 7}, {"TranslateX", 0.9, 3}},   {{"ShearX", 0.1, 6}, {"Invert", 0.6, N}},
              {{"Solarize", 0.7, 2}, {"TranslateY", 0.6, 7}}, {{"ShearY", 0.8, 4}, {"Invert", 0.8, N}},
              {{"ShearX", 0.7, 9}, {"TranslateY", 0.8, 3}},   {{"ShearY", 0.8, 5}, {"AutoContrast", 0.7, N}},
              {{"ShearX", 0.7, 2}, {"Invert", 0.1, N}}};
  }
  EMBER_ERROR("AutoAugment: the provided policy is not recognized");
}

void check_magnitude_bins(int64_t bins, const char* op) {
  EMBER_CHECK(bins >= 2, op, ": num_magnitude_bins must be at least 2, got ", bins);
}

}  // namespace detail

using detail::apply_augment_op;
using detail::augment_magnitude;
using detail::find_augment_op;

namespace {
std::optional<std::vector<double>> channel_fill(const std::optional<std::vector<double>>& fill, const Tensor& img) {
  return detail::augment_channel_fill(fill, img);
}
}  // namespace

// ---- AutoAugment ----
AutoAugmentImpl::AutoAugmentImpl(AutoAugmentOptions options_) : options(std::move(options_)) { reset(); }
void AutoAugmentImpl::reset() { policies = detail::autoaugment_policies(options.policy()); }
void AutoAugmentImpl::pretty_print(std::ostream& stream) const {
  stream << "torch::vision::transforms::AutoAugment(policy=" << detail::autoaugment_policy_name(options.policy())
         << ")";
}
std::tuple<int64_t, Tensor, Tensor> AutoAugmentImpl::get_params(int64_t transform_num) {
  const int64_t policy_id = randint_one(0, transform_num);
  Tensor probs = rand({2});
  Tensor signs = randint(0, 2, {2});
  return {policy_id, probs, signs};
}
Tensor AutoAugmentImpl::forward(Tensor img) {
  const auto dims = F::get_dimensions(img);
  const auto fill = channel_fill(options.fill(), img);
  const auto [id, probs, signs] = get_params(static_cast<int64_t>(policies.size()));
  const Space space = detail::augment_space(AugmentSpaceKind::AUTO_AUGMENT, 10, dims[1], dims[2]);
  const auto& pair = policies[id];
  for (int i = 0; i < 2; ++i) {
    const auto& [name, p, bin] = i == 0 ? pair.first : pair.second;
    if (probs[i].item<float>() <= static_cast<float>(p)) {
      const Op& op = find_augment_op(space, name);
      double magnitude = bin ? augment_magnitude(op, *bin) : 0.0;
      if (op.is_signed && signs[i].item<int64_t>() == 0) magnitude *= -1.0;
      img = apply_augment_op(img, name, magnitude, options.interpolation(), fill);
    }
  }
  return img;
}

// ---- RandAugment ----
RandAugmentImpl::RandAugmentImpl(RandAugmentOptions options_) : options(std::move(options_)) { reset(); }
void RandAugmentImpl::reset() {
  detail::check_magnitude_bins(options.num_magnitude_bins(), "RandAugment");
  EMBER_CHECK(options.magnitude() >= 0 && options.magnitude() < options.num_magnitude_bins(),
              "RandAugment: magnitude must be in [0, num_magnitude_bins = ", options.num_magnitude_bins(), "), got ",
              options.magnitude());
  EMBER_CHECK(options.num_ops() >= 0, "RandAugment: num_ops must be non-negative, got ", options.num_ops());
}
Tensor RandAugmentImpl::forward(Tensor img) {
  const auto dims = F::get_dimensions(img);
  const auto fill = channel_fill(options.fill(), img);
  const Space space =
      detail::augment_space(AugmentSpaceKind::RAND_AUGMENT, options.num_magnitude_bins(), dims[1], dims[2]);
  for (int64_t k = 0; k < options.num_ops(); ++k) {
    const Op& op = space[randint_one(0, static_cast<int64_t>(space.size()))];
    double magnitude = augment_magnitude(op, options.magnitude());
    if (op.is_signed && randint_one(0, 2) != 0) magnitude *= -1.0;
    img = apply_augment_op(img, op.name, magnitude, options.interpolation(), fill);
  }
  return img;
}

// ---- TrivialAugmentWide ----
TrivialAugmentWideImpl::TrivialAugmentWideImpl(TrivialAugmentWideOptions options_) : options(std::move(options_)) {
  reset();
}
void TrivialAugmentWideImpl::reset() {
  detail::check_magnitude_bins(options.num_magnitude_bins(), "TrivialAugmentWide");
}
Tensor TrivialAugmentWideImpl::forward(Tensor img) {
  F::get_dimensions(img);
  const auto fill = channel_fill(options.fill(), img);
  const Space space = detail::augment_space(AugmentSpaceKind::TRIVIAL_AUGMENT_WIDE, options.num_magnitude_bins(), 0, 0);
  const Op& op = space[randint_one(0, static_cast<int64_t>(space.size()))];
  double magnitude = 0.0;
  if (op.magnitudes.defined()) magnitude = augment_magnitude(op, randint_one(0, op.magnitudes.numel()));
  if (op.is_signed && randint_one(0, 2) != 0) magnitude *= -1.0;
  return apply_augment_op(img, op.name, magnitude, options.interpolation(), fill);
}

// ---- AugMix ----
AugMixImpl::AugMixImpl(AugMixOptions options_) : options(std::move(options_)) { reset(); }
void AugMixImpl::reset() {
  EMBER_CHECK(options.severity() >= 1 && options.severity() <= 10, "AugMix: the severity must be between [1, 10], got ",
              options.severity());
  EMBER_CHECK(options.mixture_width() >= 1, "AugMix: mixture_width must be positive, got ", options.mixture_width());
  EMBER_CHECK(options.alpha() > 0 && std::isfinite(options.alpha()), "AugMix: alpha must be positive, got ",
              options.alpha());
}
Tensor AugMixImpl::forward(Tensor orig_img) {
  const auto dims = F::get_dimensions(orig_img);
  EMBER_CHECK(orig_img.dim() >= 3, "AugMix: expected an image [..., C, H, W], got ", orig_img.sizes());
  const auto fill = channel_fill(options.fill(), orig_img);
  const Space space = detail::augment_space(
      options.all_ops() ? AugmentSpaceKind::AUGMIX : AugmentSpaceKind::AUGMIX_PARTIAL, 10, dims[1], dims[2]);
  const std::vector<int64_t> orig_dims = orig_img.sizes().vec();
  const Tensor batch = orig_img.dim() < 4 ? orig_img.unsqueeze(0) : orig_img.reshape({-1, dims[0], dims[1], dims[2]});
  const int64_t n = batch.size(0);
  const int64_t width = options.mixture_width();
  // Per image: m ~ Dir(alpha, alpha), weights ~ Dir(alpha * width) * m[1], drawn by the core's
  // _sample_dirichlet on float32 concentrations as torchvision does, so a seed gives its weights.
  const Tensor m = _sample_dirichlet(full({n, 2}, options.alpha(), TensorOptions(kFloat)));
  const Tensor weights = _sample_dirichlet(full({n, width}, options.alpha(), TensorOptions(kFloat))) *
                         m.index({indexing::Slice(), 1}).view({n, 1});
  Tensor mix = m.index({indexing::Slice(), 0}).view({n, 1, 1, 1}) * batch;
  for (int64_t i = 0; i < width; ++i) {
    Tensor aug = batch;
    const int64_t depth = options.chain_depth() > 0 ? options.chain_depth() : randint_one(1, 4);
    for (int64_t d = 0; d < depth; ++d) {
      const Op& op = space[randint_one(0, static_cast<int64_t>(space.size()))];
      double magnitude = 0.0;
      if (op.magnitudes.defined()) magnitude = augment_magnitude(op, randint_one(0, options.severity()));
      if (op.is_signed && randint_one(0, 2) != 0) magnitude *= -1.0;
      aug = apply_augment_op(aug, op.name, magnitude, options.interpolation(), fill);
    }
    mix = mix + weights.index({indexing::Slice(), i}).view({n, 1, 1, 1}) * aug;
  }
  return mix.view(orig_dims).to(orig_img.scalar_type());
}

}  // namespace torch::vision::transforms
