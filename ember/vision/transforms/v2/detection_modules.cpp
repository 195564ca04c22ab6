#include "ember/vision/transforms/v2/detection_modules.h"

#include <algorithm>
#include <utility>

#include "ember/core/error.h"
#include "ember/ops/all_ops.h"
#include "ember/vision/ops/boxes.h"
#include "ember/vision/transforms/random_draws.h"
#include "ember/vision/transforms/v2/functional.h"

namespace torch::vision::transforms::v2 {

namespace F = functional;
using ::torch::vision::transforms::detail::rand_float;
using ::torch::vision::transforms::detail::randint_one;
using tv_tensors::BoundingBoxFormat;

// ---- RandomIoUCrop ----
RandomIoUCropImpl::RandomIoUCropImpl(RandomIoUCropOptions options_) : options(std::move(options_)) { reset(); }
void RandomIoUCropImpl::reset() {
  sampler_options = options.sampler_options().value_or(std::vector<double>{0.0, 0.1, 0.3, 0.5, 0.7, 0.9, 1.0});
  EMBER_CHECK(!sampler_options.empty(), "RandomIoUCrop: sampler_options must not be empty");
  EMBER_CHECK(options.min_scale() > 0 && options.min_scale() <= options.max_scale(),
              "RandomIoUCrop: need 0 < min_scale <= max_scale, got ", options.min_scale(), " and ",
              options.max_scale());
  EMBER_CHECK(options.min_aspect_ratio() <= options.max_aspect_ratio(),
              "RandomIoUCrop: min_aspect_ratio must not exceed max_aspect_ratio, got ", options.min_aspect_ratio(),
              " and ", options.max_aspect_ratio());
  EMBER_CHECK(options.trials() >= 0, "RandomIoUCrop: trials must be non-negative, got ", options.trials());
}

Sample RandomIoUCropImpl::forward(Sample sample) {
  EMBER_CHECK(sample.boxes.has_value(), "RandomIoUCrop: the sample must contain bounding boxes");
  const std::vector<int64_t> hw = query_size(sample, "RandomIoUCrop");
  const int64_t orig_h = hw[0], orig_w = hw[1];
  const Tensor xyxy =
      F::convert_bounding_box_format(Tensor(*sample.boxes), sample.boxes->format, BoundingBoxFormat::XYXY)
          .reshape({-1, 4})
          .to(kFloat);
  const Tensor cx = (xyxy.select(1, 0) + xyxy.select(1, 2)) * 0.5;
  const Tensor cy = (xyxy.select(1, 1) + xyxy.select(1, 3)) * 0.5;
  for (int attempt = 0; attempt < 1000; ++attempt) {
    const double min_iou = sampler_options[randint_one(0, static_cast<int64_t>(sampler_options.size()))];
    if (min_iou >= 1.0) return sample;
    for (int64_t t = 0; t < options.trials(); ++t) {
      // float32 draws and arithmetic, as torch.rand(2) in torchvision.
      const Tensor r = options.min_scale() + (options.max_scale() - options.min_scale()) * rand({2});
      const auto new_w = static_cast<int64_t>((static_cast<float>(orig_w) * r[0]).item<float>());
      const auto new_h = static_cast<int64_t>((static_cast<float>(orig_h) * r[1]).item<float>());
      if (new_h == 0) continue;
      const double aspect = static_cast<double>(new_w) / static_cast<double>(new_h);
      if (!(options.min_aspect_ratio() <= aspect && aspect <= options.max_aspect_ratio())) continue;
      const Tensor r2 = rand({2});
      const auto left = static_cast<int64_t>((static_cast<float>(orig_w - new_w) * r2[0]).item<float>());
      const auto top = static_cast<int64_t>((static_cast<float>(orig_h - new_h) * r2[1]).item<float>());
      const int64_t right = left + new_w, bottom = top + new_h;
      if (left == right || top == bottom) continue;
      const Tensor within = (cx > left).logical_and(cx < right).logical_and(cy > top).logical_and(cy < bottom);
      if (!within.any().item<bool>()) continue;
      const Tensor crop_box = tensor(std::vector<double>{1.0 * left, 1.0 * top, 1.0 * right, 1.0 * bottom}, kFloat);
      const Tensor ious = ops::box_iou(xyxy.index({within}), crop_box.view({1, 4}));
      if (ious.max().item<double>() < min_iou) continue;
      Sample out = apply_spatial(std::move(sample), [&](const auto& x) { return F::crop(x, top, left, new_h, new_w); });
      // Boxes whose centre left the crop become degenerate.
      const Tensor keep = within.view({-1, 1}).to(out.boxes->scalar_type());
      const Tensor marked = (out.boxes->reshape({-1, 4}) * keep).reshape(out.boxes->sizes());
      out.boxes = tv_tensors::wrap(marked, *out.boxes);
      return out;
    }
  }
  return sample;
}

// ---- RandomZoomOut ----
RandomZoomOutImpl::RandomZoomOutImpl(RandomZoomOutOptions options_) : options(std::move(options_)) { reset(); }
void RandomZoomOutImpl::reset() {
  const std::vector<double>& s = options.side_range();
  EMBER_CHECK(s.size() == 2, "RandomZoomOut: side_range should have two values, got ", s.size());
  EMBER_CHECK(s[0] >= 1.0 && s[0] <= s[1], "RandomZoomOut: invalid side range provided (", s[0], ", ", s[1], ")");
  EMBER_CHECK(options.p() >= 0.0 && options.p() <= 1.0, "RandomZoomOut: p should be in [0, 1], got ", options.p());
}
Sample RandomZoomOutImpl::forward(Sample sample) {
  const std::vector<int64_t> hw = query_size(sample, "RandomZoomOut");
  if (rand_float() >= options.p()) return sample;
  const int64_t orig_h = hw[0], orig_w = hw[1];
  const std::vector<double>& s = options.side_range();
  const float r = static_cast<float>(s[0]) + rand_float() * static_cast<float>(s[1] - s[0]);
  const auto canvas_w = static_cast<int64_t>(static_cast<float>(orig_w) * r);
  const auto canvas_h = static_cast<int64_t>(static_cast<float>(orig_h) * r);
  const Tensor r2 = rand({2});
  const auto left = static_cast<int64_t>((static_cast<float>(canvas_w - orig_w) * r2[0]).item<float>());
  const auto top = static_cast<int64_t>((static_cast<float>(canvas_h - orig_h) * r2[1]).item<float>());
  const int64_t right = canvas_w - (left + orig_w), bottom = canvas_h - (top + orig_h);
  const std::vector<int64_t> padding = {left, top, right, bottom};
  return apply_spatial(std::move(sample),
                       [&](const auto& x) { return F::pad(x, padding, detail::fill_for(x, options.fill())); });
}

// ---- RandomShortestSize ----
RandomShortestSizeImpl::RandomShortestSizeImpl(RandomShortestSizeOptions options_) : options(std::move(options_)) {
  reset();
}
void RandomShortestSizeImpl::reset() {
  EMBER_CHECK(!options.min_size().empty(), "RandomShortestSize: min_size must not be empty");
  for (int64_t s : options.min_size()) EMBER_CHECK(s > 0, "RandomShortestSize: min_size must be positive, got ", s);
}
Sample RandomShortestSizeImpl::forward(Sample sample) {
  const std::vector<int64_t> hw = query_size(sample, "RandomShortestSize");
  const std::vector<int64_t>& sizes = options.min_size();
  const int64_t min_size = sizes[randint_one(0, static_cast<int64_t>(sizes.size()))];
  double r = static_cast<double>(min_size) / static_cast<double>(std::min(hw[0], hw[1]));
  if (options.max_size())
    r = std::min(r, static_cast<double>(*options.max_size()) / static_cast<double>(std::max(hw[0], hw[1])));
  const std::vector<int64_t> size = {static_cast<int64_t>(static_cast<double>(hw[0]) * r),
                                     static_cast<int64_t>(static_cast<double>(hw[1]) * r)};
  return apply_spatial(std::move(sample), [&](const auto& x) {
    return F::resize(x, size, options.interpolation(), std::nullopt, options.antialias());
  });
}

// ---- ScaleJitter ----
ScaleJitterImpl::ScaleJitterImpl(ScaleJitterOptions options_) : options(std::move(options_)) { reset(); }
void ScaleJitterImpl::reset() {
  EMBER_CHECK(options.target_size().size() == 2, "ScaleJitter: target_size should be (height, width), got ",
              options.target_size().size(), " values");
  EMBER_CHECK(options.scale_range().size() == 2, "ScaleJitter: scale_range should have two values, got ",
              options.scale_range().size());
}
Sample ScaleJitterImpl::forward(Sample sample) {
  const std::vector<int64_t> hw = query_size(sample, "ScaleJitter");
  const std::vector<double>& sr = options.scale_range();
  const float scale = static_cast<float>(sr[0]) + rand_float() * static_cast<float>(sr[1] - sr[0]);
  const double fit = std::min(static_cast<double>(options.target_size()[1]) / static_cast<double>(hw[0]),
                              static_cast<double>(options.target_size()[0]) / static_cast<double>(hw[1]));
  // A Python float times a float32 tensor: float32.
  const float r = static_cast<float>(fit) * scale;
  const std::vector<int64_t> size = {static_cast<int64_t>(static_cast<float>(hw[0]) * r),
                                     static_cast<int64_t>(static_cast<float>(hw[1]) * r)};
  EMBER_CHECK(size[0] > 0 && size[1] > 0, "ScaleJitter: the jittered size (", size[0], ", ", size[1], ") is empty");
  return apply_spatial(std::move(sample), [&](const auto& x) {
    return F::resize(x, size, options.interpolation(), std::nullopt, options.antialias());
  });
}

}  // namespace torch::vision::transforms::v2
