#pragma once
// The v2 containers, box-metadata, dtype and colour transforms: Compose,
// ConvertBoundingBoxFormat, ClampBoundingBoxes, SanitizeBoundingBoxes,
// ToDtype, Normalize and ColorJitter (the last two on images and videos only,
// through v1's kernels).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ember/core/arg.h"
#include "ember/vision/transforms/color_modules.h"
#include "ember/vision/transforms/v2/sample_module.h"

namespace torch::vision::transforms::v2 {

class ComposeImpl : public detail::SampleModule<ComposeImpl> {
 public:
  explicit ComposeImpl(std::vector<SampleTransform> transforms);
  void reset() override {}
  using detail::SampleModule<ComposeImpl>::forward;
  Sample forward(Sample sample);
  std::vector<SampleTransform> transforms;
};

// Compose({RandomIoUCrop(), RandomHorizontalFlip(), SanitizeBoundingBoxes()})
class Compose : public nn::ModuleHolder<ComposeImpl> {
 public:
  // No forwarding constructor: a braced list of transforms must mean the list.
  Compose(std::nullptr_t) : nn::ModuleHolder<ComposeImpl>(nullptr) {}                             // NOLINT
  Compose(std::shared_ptr<ComposeImpl> impl) : nn::ModuleHolder<ComposeImpl>(std::move(impl)) {}  // NOLINT
  using nn::ModuleHolder<ComposeImpl>::get;
  using Impl = ComposeImpl;
  Compose(std::vector<SampleTransform> transforms)  // NOLINT(google-explicit-constructor)
      : nn::ModuleHolder<ComposeImpl>(std::make_shared<ComposeImpl>(std::move(transforms))) {}
};

struct ConvertBoundingBoxFormatOptions {
  ConvertBoundingBoxFormatOptions(tv_tensors::BoundingBoxFormat format) : format_(format) {}  // NOLINT
  ConvertBoundingBoxFormatOptions(const std::string& format)                                  // NOLINT
      : format_(tv_tensors::bounding_box_format(format)) {}
  ConvertBoundingBoxFormatOptions(const char* format)  // NOLINT
      : format_(tv_tensors::bounding_box_format(format)) {}
  TORCH_ARG(tv_tensors::BoundingBoxFormat, format);
};

class ConvertBoundingBoxFormatImpl : public detail::SampleModule<ConvertBoundingBoxFormatImpl> {
 public:
  explicit ConvertBoundingBoxFormatImpl(ConvertBoundingBoxFormatOptions options);
  void reset() override {}
  using detail::SampleModule<ConvertBoundingBoxFormatImpl>::forward;
  Sample forward(Sample sample);
  tv_tensors::BoundingBoxes forward(tv_tensors::BoundingBoxes boxes);
  ConvertBoundingBoxFormatOptions options;
};
EMBER_VISION_TRANSFORM_MODULE(ConvertBoundingBoxFormat);

struct ClampBoundingBoxesOptions {};

class ClampBoundingBoxesImpl : public detail::SampleModule<ClampBoundingBoxesImpl> {
 public:
  explicit ClampBoundingBoxesImpl(ClampBoundingBoxesOptions options = {});
  void reset() override {}
  using detail::SampleModule<ClampBoundingBoxesImpl>::forward;
  Sample forward(Sample sample);
  tv_tensors::BoundingBoxes forward(tv_tensors::BoundingBoxes boxes);
  ClampBoundingBoxesOptions options;
};
EMBER_VISION_TRANSFORM_MODULE(ClampBoundingBoxes);

struct SanitizeBoundingBoxesOptions {
  TORCH_ARG(double, min_size) = 1.0;
  // "default": the sample's labels are filtered with the boxes; nullopt: labels are left alone.
  TORCH_ARG(std::optional<std::string>, labels_getter) = std::string("default");
};

// Removes boxes narrower or shorter than min_size or outside the canvas, and
// the labels and masks ([N, H, W], one per box) that go with them.
class SanitizeBoundingBoxesImpl : public detail::SampleModule<SanitizeBoundingBoxesImpl> {
 public:
  explicit SanitizeBoundingBoxesImpl(SanitizeBoundingBoxesOptions options = {});
  void reset() override;
  using detail::SampleModule<SanitizeBoundingBoxesImpl>::forward;
  Sample forward(Sample sample);
  SanitizeBoundingBoxesOptions options;
};
EMBER_VISION_TRANSFORM_MODULE(SanitizeBoundingBoxes);

struct ToDtypeOptions {
  ToDtypeOptions(ScalarType dtype) : dtype_(dtype) {}  // NOLINT
  TORCH_ARG(ScalarType, dtype);
  TORCH_ARG(bool, scale) = false;
};

// Converts images and videos (v2's rule for a single dtype); boxes, masks and labels pass.
class ToDtypeImpl : public detail::SampleModule<ToDtypeImpl> {
 public:
  explicit ToDtypeImpl(ToDtypeOptions options);
  void reset() override {}
  using detail::SampleModule<ToDtypeImpl>::forward;
  Sample forward(Sample sample);
  ToDtypeOptions options;
};
EMBER_VISION_TRANSFORM_MODULE(ToDtype);

struct NormalizeOptions {
  NormalizeOptions(std::vector<double> mean, std::vector<double> std) : mean_(std::move(mean)), std_(std::move(std)) {}
  TORCH_ARG(std::vector<double>, mean);
  TORCH_ARG(std::vector<double>, std);
  TORCH_ARG(bool, inplace) = false;
};

class NormalizeImpl : public detail::SampleModule<NormalizeImpl> {
 public:
  explicit NormalizeImpl(NormalizeOptions options);
  void reset() override {}
  using detail::SampleModule<NormalizeImpl>::forward;
  Sample forward(Sample sample);
  NormalizeOptions options;
};
EMBER_VISION_TRANSFORM_MODULE(Normalize);

using ::torch::vision::transforms::ColorJitterOptions;

// v1's ColorJitter on the image and the video (one draw per sample).
class ColorJitterImpl : public detail::SampleModule<ColorJitterImpl> {
 public:
  explicit ColorJitterImpl(ColorJitterOptions options = {});
  void reset() override;
  using detail::SampleModule<ColorJitterImpl>::forward;
  Sample forward(Sample sample);
  ColorJitterOptions options;
  std::optional<std::vector<double>> brightness, contrast, saturation, hue;
};
EMBER_VISION_TRANSFORM_MODULE(ColorJitter);

}  // namespace torch::vision::transforms::v2
