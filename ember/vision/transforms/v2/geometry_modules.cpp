#include "ember/vision/transforms/v2/geometry_modules.h"

#include <utility>

#include "ember/core/error.h"
#include "ember/ops/all_ops.h"
#include "ember/vision/transforms/random_draws.h"
#include "ember/vision/transforms/v2/functional.h"

namespace torch::vision::transforms::v2 {

namespace F = functional;
namespace v1 = ::torch::vision::transforms;
using ::torch::vision::transforms::detail::rand_float;
using ::torch::vision::transforms::detail::randint_one;

namespace {

// A stand-in image of the sample's size for v1's get_params, which read only its size.
Tensor size_probe(const std::vector<int64_t>& hw) { return empty({1, hw[0], hw[1]}, kByte); }

// Python's pad padding [left, top, right, bottom] from 1, 2 or 4 values.
std::vector<int64_t> ltrb(const std::vector<int64_t>& p, const char* op) {
  EMBER_CHECK(p.size() == 1 || p.size() == 2 || p.size() == 4, op, ": padding must have 1, 2 or 4 elements, got ",
              p.size());
  if (p.size() == 1) return {p[0], p[0], p[0], p[0]};
  if (p.size() == 2) return {p[0], p[1], p[0], p[1]};
  return p;
}

}  // namespace

// ---- flips ----
RandomHorizontalFlipImpl::RandomHorizontalFlipImpl(RandomHorizontalFlipOptions options_)
    : options(std::move(options_)) {
  reset();
}
void RandomHorizontalFlipImpl::reset() {
  EMBER_CHECK(options.p() >= 0.0 && options.p() <= 1.0, "RandomHorizontalFlip: p should be in [0, 1], got ",
              options.p());
}
Sample RandomHorizontalFlipImpl::forward(Sample sample) {
  if (rand_float() >= options.p()) return sample;
  return apply_spatial(std::move(sample), [](const auto& x) { return F::horizontal_flip(x); });
}

RandomVerticalFlipImpl::RandomVerticalFlipImpl(RandomVerticalFlipOptions options_) : options(std::move(options_)) {
  reset();
}
void RandomVerticalFlipImpl::reset() {
  EMBER_CHECK(options.p() >= 0.0 && options.p() <= 1.0, "RandomVerticalFlip: p should be in [0, 1], got ", options.p());
}
Sample RandomVerticalFlipImpl::forward(Sample sample) {
  if (rand_float() >= options.p()) return sample;
  return apply_spatial(std::move(sample), [](const auto& x) { return F::vertical_flip(x); });
}

// ---- Resize / CenterCrop / Pad ----
ResizeImpl::ResizeImpl(ResizeOptions options_) : options(std::move(options_)) { reset(); }
void ResizeImpl::reset() { v1::ResizeImpl check(options); }
Sample ResizeImpl::forward(Sample sample) {
  const bool aa = options.antialias().value_or(true);
  return apply_spatial(std::move(sample), [&](const auto& x) {
    return F::resize(x, options.size(), options.interpolation(), options.max_size(), aa);
  });
}

CenterCropImpl::CenterCropImpl(CenterCropOptions options_) : options(std::move(options_)) { reset(); }
void CenterCropImpl::reset() { v1::CenterCropImpl check(options); }
Sample CenterCropImpl::forward(Sample sample) {
  return apply_spatial(std::move(sample), [&](const auto& x) { return F::center_crop(x, options.size()); });
}

PadImpl::PadImpl(PadOptions options_) : options(std::move(options_)) { reset(); }
void PadImpl::reset() { v1::PadImpl check(options); }
Sample PadImpl::forward(Sample sample) {
  return apply_spatial(std::move(sample), [&](const auto& x) {
    return F::pad(x, options.padding(), detail::fill_for(x, options.fill()), options.padding_mode());
  });
}

// ---- RandomCrop ----
RandomCropImpl::RandomCropImpl(RandomCropOptions options_) : options(std::move(options_)) { reset(); }
void RandomCropImpl::reset() { v1::RandomCropImpl check(options); }
Sample RandomCropImpl::forward(Sample sample) {
  const std::vector<int64_t> hw = query_size(sample, "RandomCrop");
  int64_t ph = hw[0], pw = hw[1];
  std::vector<int64_t> pad = {0, 0, 0, 0};  // left, top, right, bottom
  if (options.padding()) {
    pad = ltrb(*options.padding(), "RandomCrop");
    ph += pad[1] + pad[3];
    pw += pad[0] + pad[2];
  }
  const std::vector<int64_t>& size = options.size();
  const int64_t ch = size.at(0), cw = size.size() > 1 ? size[1] : size[0];
  if (options.pad_if_needed()) {
    if (ph < ch) {
      const int64_t diff = ch - ph;
      pad[1] += diff;
      pad[3] += diff;
      ph += 2 * diff;
    }
    if (pw < cw) {
      const int64_t diff = cw - pw;
      pad[0] += diff;
      pad[2] += diff;
      pw += 2 * diff;
    }
  }
  EMBER_CHECK(ph >= ch && pw >= cw, "RandomCrop: required crop size (", ch, ", ", cw,
              ") is larger than the (padded) input size (", ph, ", ", pw, ")");
  const int64_t top = ph > ch ? randint_one(0, ph - ch + 1) : 0;
  const int64_t left = pw > cw ? randint_one(0, pw - cw + 1) : 0;
  if (pad != std::vector<int64_t>{0, 0, 0, 0}) {
    sample = apply_spatial(std::move(sample), [&](const auto& x) {
      return F::pad(x, pad, detail::fill_for(x, options.fill()), options.padding_mode());
    });
  }
  return apply_spatial(std::move(sample), [&](const auto& x) { return F::crop(x, top, left, ch, cw); });
}

// ---- RandomResizedCrop ----
RandomResizedCropImpl::RandomResizedCropImpl(RandomResizedCropOptions options_) : options(std::move(options_)) {
  reset();
}
void RandomResizedCropImpl::reset() { v1::RandomResizedCropImpl check(options); }
Sample RandomResizedCropImpl::forward(Sample sample) {
  const std::vector<int64_t> hw = query_size(sample, "RandomResizedCrop");
  const auto params = v1::RandomResizedCropImpl::get_params(size_probe(hw), options.scale(), options.ratio());
  const int64_t i = std::get<0>(params), j = std::get<1>(params), h = std::get<2>(params), w = std::get<3>(params);
  const bool aa = options.antialias().value_or(true);
  return apply_spatial(std::move(sample), [&](const auto& x) {
    return F::resized_crop(x, i, j, h, w, options.size(), options.interpolation(), aa);
  });
}

// ---- RandomRotation / RandomAffine / RandomPerspective / ElasticTransform ----
RandomRotationImpl::RandomRotationImpl(RandomRotationOptions options_) : options(std::move(options_)) { reset(); }
void RandomRotationImpl::reset() { degrees = v1::RandomRotationImpl(options).degrees; }
Sample RandomRotationImpl::forward(Sample sample) {
  query_size(sample, "RandomRotation");
  const double angle = v1::RandomRotationImpl::get_params(degrees);
  return apply_spatial(std::move(sample), [&](const auto& x) {
    return F::rotate(x, angle, options.interpolation(), options.expand(), options.center(),
                     detail::fill_for(x, options.fill()));
  });
}

RandomAffineImpl::RandomAffineImpl(RandomAffineOptions options_) : options(std::move(options_)) { reset(); }
void RandomAffineImpl::reset() {
  v1::RandomAffineImpl check(options);
  degrees = check.degrees;
  shears = check.shears;
}
Sample RandomAffineImpl::forward(Sample sample) {
  const std::vector<int64_t> hw = query_size(sample, "RandomAffine");
  const auto params =
      v1::RandomAffineImpl::get_params(degrees, options.translate(), options.scale(),
                                       shears ? OptionalFloats(*shears) : OptionalFloats(), {hw[1], hw[0]});
  const double angle = std::get<0>(params), scale = std::get<2>(params);
  const std::vector<double> t = {1.0 * std::get<1>(params)[0], 1.0 * std::get<1>(params)[1]};
  const std::vector<double>& shear = std::get<3>(params);
  return apply_spatial(std::move(sample), [&](const auto& x) {
    return F::affine(x, angle, t, scale, Shear(shear), options.interpolation(), detail::fill_for(x, options.fill()),
                     options.center());
  });
}

RandomPerspectiveImpl::RandomPerspectiveImpl(RandomPerspectiveOptions options_) : options(std::move(options_)) {
  reset();
}
void RandomPerspectiveImpl::reset() { v1::RandomPerspectiveImpl check(options); }
Sample RandomPerspectiveImpl::forward(Sample sample) {
  const std::vector<int64_t> hw = query_size(sample, "RandomPerspective");
  if (rand_float() >= options.p()) return sample;
  const auto [start, end] = v1::RandomPerspectiveImpl::get_params(hw[1], hw[0], options.distortion_scale());
  const F::Points& s0 = start;
  const F::Points& e0 = end;
  return apply_spatial(std::move(sample), [&](const auto& x) {
    return F::perspective(x, s0, e0, options.interpolation(), detail::fill_for(x, options.fill()));
  });
}

ElasticTransformImpl::ElasticTransformImpl(ElasticTransformOptions options_) : options(std::move(options_)) { reset(); }
void ElasticTransformImpl::reset() { v1::ElasticTransformImpl check(options); }
Sample ElasticTransformImpl::forward(Sample sample) {
  const std::vector<int64_t> hw = query_size(sample, "ElasticTransform");
  const Tensor displacement = v1::ElasticTransformImpl::get_params(options.alpha(), options.sigma(), hw);
  return apply_spatial(std::move(sample), [&](const auto& x) {
    return F::elastic(x, displacement, options.interpolation(), detail::fill_for(x, options.fill()));
  });
}

}  // namespace torch::vision::transforms::v2
