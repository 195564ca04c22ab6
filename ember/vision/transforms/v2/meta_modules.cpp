#include "ember/vision/transforms/v2/meta_modules.h"

#include <utility>

#include "ember/core/error.h"
#include "ember/ops/all_ops.h"
#include "ember/vision/transforms/v2/functional.h"

namespace torch::vision::transforms::v2 {

namespace F = functional;
namespace v1 = ::torch::vision::transforms;
using tv_tensors::BoundingBoxes;
using tv_tensors::BoundingBoxFormat;

// ---- Compose ----
ComposeImpl::ComposeImpl(std::vector<SampleTransform> transforms_) : transforms(std::move(transforms_)) {
  for (const auto& t : transforms) EMBER_CHECK(static_cast<bool>(t), "Compose: a transform is empty");
}
Sample ComposeImpl::forward(Sample sample) {
  for (const auto& t : transforms) sample = t(std::move(sample));
  return sample;
}

// ---- ConvertBoundingBoxFormat / ClampBoundingBoxes ----
ConvertBoundingBoxFormatImpl::ConvertBoundingBoxFormatImpl(ConvertBoundingBoxFormatOptions options_)
    : options(options_) {}
BoundingBoxes ConvertBoundingBoxFormatImpl::forward(BoundingBoxes boxes) {
  return F::convert_bounding_box_format(boxes, std::nullopt, options.format());
}
Sample ConvertBoundingBoxFormatImpl::forward(Sample sample) {
  if (sample.boxes) sample.boxes = forward(*sample.boxes);
  return sample;
}

ClampBoundingBoxesImpl::ClampBoundingBoxesImpl(ClampBoundingBoxesOptions options_) : options(options_) {}
BoundingBoxes ClampBoundingBoxesImpl::forward(BoundingBoxes boxes) { return F::clamp_bounding_boxes(boxes); }
Sample ClampBoundingBoxesImpl::forward(Sample sample) {
  if (sample.boxes) sample.boxes = forward(*sample.boxes);
  return sample;
}

// ---- SanitizeBoundingBoxes ----
SanitizeBoundingBoxesImpl::SanitizeBoundingBoxesImpl(SanitizeBoundingBoxesOptions options_)
    : options(std::move(options_)) {
  reset();
}
void SanitizeBoundingBoxesImpl::reset() {
  EMBER_CHECK(options.min_size() >= 1.0, "SanitizeBoundingBoxes: min_size must be >= 1, got ", options.min_size());
  EMBER_CHECK(!options.labels_getter() || *options.labels_getter() == "default",
              "SanitizeBoundingBoxes: labels_getter should be \"default\" or nullopt, got '",
              options.labels_getter().value_or(""), "'");
}
Sample SanitizeBoundingBoxesImpl::forward(Sample sample) {
  EMBER_CHECK(sample.boxes.has_value(), "SanitizeBoundingBoxes: the sample must contain bounding boxes");
  const BoundingBoxes& in = *sample.boxes;
  EMBER_CHECK(in.dim() == 2, "SanitizeBoundingBoxes: expected boxes of shape [N, 4], got ", in.sizes());
  const Tensor b = F::convert_bounding_box_format(Tensor(in), in.format, BoundingBoxFormat::XYXY);
  const Tensor x1 = b.select(1, 0), y1 = b.select(1, 1), x2 = b.select(1, 2), y2 = b.select(1, 3);
  const double h = static_cast<double>(in.canvas_size[0]), w = static_cast<double>(in.canvas_size[1]);
  Tensor valid = (x2 - x1).ge(options.min_size()).logical_and((y2 - y1).ge(options.min_size()));
  valid = valid.logical_and(b.ge(0).all(1));
  valid = valid.logical_and(x1.le(w)).logical_and(x2.le(w)).logical_and(y1.le(h)).logical_and(y2.le(h));
  const int64_t n = in.size(0);
  if (options.labels_getter() && sample.labels) {
    EMBER_CHECK(sample.labels->dim() >= 1 && sample.labels->size(0) == n, "SanitizeBoundingBoxes: ", n,
                " boxes but labels of shape ", sample.labels->sizes());
    sample.labels = sample.labels->index({valid});
  }
  if (sample.masks && sample.masks->dim() >= 3 && sample.masks->size(0) == n)
    sample.masks = tv_tensors::Mask(sample.masks->index({valid}));
  sample.boxes = tv_tensors::wrap(in.index({valid}), in);
  return sample;
}

// ---- ToDtype / Normalize ----
ToDtypeImpl::ToDtypeImpl(ToDtypeOptions options_) : options(options_) {}
Sample ToDtypeImpl::forward(Sample sample) {
  return apply_pixels(std::move(sample),
                      [&](const Tensor& x) { return F::to_dtype(x, options.dtype(), options.scale()); });
}

NormalizeImpl::NormalizeImpl(NormalizeOptions options_) : options(std::move(options_)) {}
Sample NormalizeImpl::forward(Sample sample) {
  return apply_pixels(std::move(sample), [&](const Tensor& x) {
    return F::normalize(x, options.mean(), options.std(), options.inplace());
  });
}

// ---- ColorJitter ----
ColorJitterImpl::ColorJitterImpl(ColorJitterOptions options_) : options(std::move(options_)) { reset(); }
void ColorJitterImpl::reset() {
  v1::ColorJitterImpl check(options);
  brightness = check.brightness;
  contrast = check.contrast;
  saturation = check.saturation;
  hue = check.hue;
}
Sample ColorJitterImpl::forward(Sample sample) {
  auto to_opt = [](const std::optional<std::vector<double>>& v) { return v ? OptionalFloats(*v) : OptionalFloats(); };
  const auto params =
      v1::ColorJitterImpl::get_params(to_opt(brightness), to_opt(contrast), to_opt(saturation), to_opt(hue));
  const Tensor& order = std::get<0>(params);
  const std::optional<double> b = std::get<1>(params), c = std::get<2>(params), s = std::get<3>(params),
                              h = std::get<4>(params);
  return apply_pixels(std::move(sample), [&](Tensor img) {
    for (int64_t k = 0; k < 4; ++k) {
      const int64_t fn = order[k].item<int64_t>();
      if (fn == 0 && b) img = F::adjust_brightness(img, *b);
      if (fn == 1 && c) img = F::adjust_contrast(img, *c);
      if (fn == 2 && s) img = F::adjust_saturation(img, *s);
      if (fn == 3 && h) img = F::adjust_hue(img, *h);
    }
    return img;
  });
}

}  // namespace torch::vision::transforms::v2
