#pragma once
// The v2 transforms made for detection: RandomIoUCrop (SSD's crop),
// RandomZoomOut (SSD's zoom out), RandomShortestSize and ScaleJitter. Their
// parameters follow torchvision's v2 draws (torch.rand / torch.randint on
// Ember's generator, in torchvision's order).
#include <cstdint>
#include <optional>
#include <vector>

#include "ember/core/arg.h"
#include "ember/vision/transforms/interpolation_mode.h"
#include "ember/vision/transforms/v2/sample_module.h"

namespace torch::vision::transforms::v2 {

struct RandomIoUCropOptions {
  TORCH_ARG(double, min_scale) = 0.3;
  TORCH_ARG(double, max_scale) = 1.0;
  TORCH_ARG(double, min_aspect_ratio) = 0.5;
  TORCH_ARG(double, max_aspect_ratio) = 2.0;
  // The minimum IoUs to draw from; a value >= 1 means "leave the sample as is".
  // nullopt: [0.0, 0.1, 0.3, 0.5, 0.7, 0.9, 1.0].
  TORCH_ARG(std::optional<std::vector<double>>, sampler_options) = std::nullopt;
  TORCH_ARG(int64_t, trials) = 40;
};

// Needs boxes. Boxes whose centre falls outside the crop become [0, 0, 0, 0]
// (degenerate), for a later SanitizeBoundingBoxes to remove. Where torchvision
// would redraw forever (no option can succeed), the sample is returned as is
// after 1000 draws of an option.
class RandomIoUCropImpl : public detail::SampleModule<RandomIoUCropImpl> {
 public:
  explicit RandomIoUCropImpl(RandomIoUCropOptions options = {});
  void reset() override;
  using detail::SampleModule<RandomIoUCropImpl>::forward;
  Sample forward(Sample sample);
  RandomIoUCropOptions options;
  std::vector<double> sampler_options;
};
EMBER_VISION_TRANSFORM_MODULE(RandomIoUCrop);

struct RandomZoomOutOptions {
  // A number or one value per channel (images; masks get 0).
  TORCH_ARG(std::vector<double>, fill) = {0.0};
  TORCH_ARG(std::vector<double>, side_range) = {1.0, 4.0};
  TORCH_ARG(double, p) = 0.5;
};

// With probability p, places the sample on a canvas side_range times larger
// (at a random offset), by padding.
class RandomZoomOutImpl : public detail::SampleModule<RandomZoomOutImpl> {
 public:
  explicit RandomZoomOutImpl(RandomZoomOutOptions options = {});
  void reset() override;
  using detail::SampleModule<RandomZoomOutImpl>::forward;
  Sample forward(Sample sample);
  RandomZoomOutOptions options;
};
EMBER_VISION_TRANSFORM_MODULE(RandomZoomOut);

struct RandomShortestSizeOptions {
  RandomShortestSizeOptions(int64_t min_size) : min_size_({min_size}) {}                        // NOLINT
  RandomShortestSizeOptions(std::vector<int64_t> min_size) : min_size_(std::move(min_size)) {}  // NOLINT
  RandomShortestSizeOptions(std::initializer_list<int64_t> min_size) : min_size_(min_size) {}   // NOLINT
  TORCH_ARG(std::vector<int64_t>, min_size);
  TORCH_ARG(std::optional<int64_t>, max_size) = std::nullopt;
  TORCH_ARG(InterpolationMode, interpolation) = InterpolationMode::BILINEAR;
  TORCH_ARG(std::optional<bool>, antialias) = true;
};

// Resizes so the shorter side is one of min_size (drawn uniformly), the longer
// side at most max_size.
class RandomShortestSizeImpl : public detail::SampleModule<RandomShortestSizeImpl> {
 public:
  explicit RandomShortestSizeImpl(RandomShortestSizeOptions options);
  void reset() override;
  using detail::SampleModule<RandomShortestSizeImpl>::forward;
  Sample forward(Sample sample);
  RandomShortestSizeOptions options;
};
EMBER_VISION_TRANSFORM_MODULE(RandomShortestSize);

struct ScaleJitterOptions {
  // target_size: as torchvision's, target_size[1] bounds the height and target_size[0] the width.
  ScaleJitterOptions(std::vector<int64_t> target_size) : target_size_(std::move(target_size)) {}  // NOLINT
  ScaleJitterOptions(std::initializer_list<int64_t> target_size) : target_size_(target_size) {}   // NOLINT
  TORCH_ARG(std::vector<int64_t>, target_size);
  TORCH_ARG(std::vector<double>, scale_range) = {0.1, 2.0};
  TORCH_ARG(InterpolationMode, interpolation) = InterpolationMode::BILINEAR;
  TORCH_ARG(std::optional<bool>, antialias) = true;
};

// Large-scale jitter: resizes to fit target_size times a scale drawn from scale_range.
class ScaleJitterImpl : public detail::SampleModule<ScaleJitterImpl> {
 public:
  explicit ScaleJitterImpl(ScaleJitterOptions options);
  void reset() override;
  using detail::SampleModule<ScaleJitterImpl>::forward;
  Sample forward(Sample sample);
  ScaleJitterOptions options;
};
EMBER_VISION_TRANSFORM_MODULE(ScaleJitter);

}  // namespace torch::vision::transforms::v2
