#pragma once
// The geometric transform modules of torchvision.transforms (nn.Modules in
// Python, LibTorch-style holders here): Resize, CenterCrop, Pad, RandomCrop,
// RandomResizedCrop, FiveCrop, TenCrop, RandomHorizontalFlip,
// RandomVerticalFlip, RandomPerspective, RandomRotation, RandomAffine and
// ElasticTransform. Random parameters are drawn from Ember's default generator
// in torchvision's order, so torch::manual_seed(s) gives torchvision's result.
#include <cstdint>
#include <initializer_list>
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

// ---- Resize ----
// ResizeOptions(256) resizes the shorter edge; ResizeOptions({224, 224}) sets [h, w].
struct ResizeOptions {
  ResizeOptions(int64_t size) : size_({size}) {}                        // NOLINT
  ResizeOptions(std::vector<int64_t> size) : size_(std::move(size)) {}  // NOLINT
  ResizeOptions(std::initializer_list<int64_t> size) : size_(size) {}   // NOLINT
  TORCH_ARG(std::vector<int64_t>, size);
  TORCH_ARG(InterpolationMode, interpolation) = InterpolationMode::BILINEAR;
  TORCH_ARG(std::optional<int64_t>, max_size) = std::nullopt;
  TORCH_ARG(std::optional<bool>, antialias) = std::nullopt;
};

class ResizeImpl : public nn::Cloneable<ResizeImpl> {
 public:
  explicit ResizeImpl(ResizeOptions options);
  void reset() override;
  void pretty_print(std::ostream& stream) const override;
  Tensor forward(Tensor img);
  ResizeOptions options;
};
EMBER_VISION_TRANSFORM_MODULE(Resize);

// ---- CenterCrop ----
struct CenterCropOptions {
  CenterCropOptions(int64_t size) : size_({size, size}) {}                  // NOLINT
  CenterCropOptions(std::vector<int64_t> size) : size_(std::move(size)) {}  // NOLINT
  CenterCropOptions(std::initializer_list<int64_t> size) : size_(size) {}   // NOLINT
  TORCH_ARG(std::vector<int64_t>, size);
};

class CenterCropImpl : public nn::Cloneable<CenterCropImpl> {
 public:
  explicit CenterCropImpl(CenterCropOptions options);
  void reset() override;
  Tensor forward(Tensor img);
  CenterCropOptions options;
};
EMBER_VISION_TRANSFORM_MODULE(CenterCrop);

// ---- Pad ----
struct PadOptions {
  PadOptions(int64_t padding) : padding_({padding}) {}                        // NOLINT
  PadOptions(std::vector<int64_t> padding) : padding_(std::move(padding)) {}  // NOLINT
  PadOptions(std::initializer_list<int64_t> padding) : padding_(padding) {}   // NOLINT
  TORCH_ARG(std::vector<int64_t>, padding);
  TORCH_ARG(double, fill) = 0;
  TORCH_ARG(std::string, padding_mode) = "constant";
};

class PadImpl : public nn::Cloneable<PadImpl> {
 public:
  explicit PadImpl(PadOptions options);
  void reset() override;
  Tensor forward(Tensor img);
  PadOptions options;
};
EMBER_VISION_TRANSFORM_MODULE(Pad);

// ---- RandomCrop ----
struct RandomCropOptions {
  RandomCropOptions(int64_t size) : size_({size, size}) {}                  // NOLINT
  RandomCropOptions(std::vector<int64_t> size) : size_(std::move(size)) {}  // NOLINT
  RandomCropOptions(std::initializer_list<int64_t> size) : size_(size) {}   // NOLINT
  TORCH_ARG(std::vector<int64_t>, size);
  TORCH_ARG(OptionalInts, padding) = std::nullopt;
  TORCH_ARG(bool, pad_if_needed) = false;
  TORCH_ARG(double, fill) = 0;
  TORCH_ARG(std::string, padding_mode) = "constant";
};

class RandomCropImpl : public nn::Cloneable<RandomCropImpl> {
 public:
  explicit RandomCropImpl(RandomCropOptions options);
  void reset() override;
  Tensor forward(Tensor img);
  // (i, j, h, w) of a random crop of output_size [h, w].
  static std::tuple<int64_t, int64_t, int64_t, int64_t> get_params(const Tensor& img,
                                                                   const std::vector<int64_t>& output_size);
  RandomCropOptions options;
};
EMBER_VISION_TRANSFORM_MODULE(RandomCrop);

// ---- RandomResizedCrop ----
struct RandomResizedCropOptions {
  RandomResizedCropOptions(int64_t size) : size_({size, size}) {}                  // NOLINT
  RandomResizedCropOptions(std::vector<int64_t> size) : size_(std::move(size)) {}  // NOLINT
  RandomResizedCropOptions(std::initializer_list<int64_t> size) : size_(size) {}   // NOLINT
  TORCH_ARG(std::vector<int64_t>, size);
  TORCH_ARG(std::vector<double>, scale) = {0.08, 1.0};
  TORCH_ARG(std::vector<double>, ratio) = {3.0 / 4.0, 4.0 / 3.0};
  TORCH_ARG(InterpolationMode, interpolation) = InterpolationMode::BILINEAR;
  TORCH_ARG(std::optional<bool>, antialias) = std::nullopt;
};

class RandomResizedCropImpl : public nn::Cloneable<RandomResizedCropImpl> {
 public:
  explicit RandomResizedCropImpl(RandomResizedCropOptions options);
  void reset() override;
  Tensor forward(Tensor img);
  // (i, j, h, w) of a crop with random area fraction in scale and aspect ratio in ratio.
  static std::tuple<int64_t, int64_t, int64_t, int64_t> get_params(const Tensor& img, const std::vector<double>& scale,
                                                                   const std::vector<double>& ratio);
  RandomResizedCropOptions options;
};
EMBER_VISION_TRANSFORM_MODULE(RandomResizedCrop);

// ---- FiveCrop / TenCrop ----
struct FiveCropOptions {
  FiveCropOptions(int64_t size) : size_({size, size}) {}                  // NOLINT
  FiveCropOptions(std::vector<int64_t> size) : size_(std::move(size)) {}  // NOLINT
  FiveCropOptions(std::initializer_list<int64_t> size) : size_(size) {}   // NOLINT
  TORCH_ARG(std::vector<int64_t>, size);
};

class FiveCropImpl : public nn::Cloneable<FiveCropImpl> {
 public:
  explicit FiveCropImpl(FiveCropOptions options);
  void reset() override;
  std::tuple<Tensor, Tensor, Tensor, Tensor, Tensor> forward(Tensor img);
  FiveCropOptions options;
};
EMBER_VISION_TRANSFORM_MODULE(FiveCrop);

struct TenCropOptions {
  TenCropOptions(int64_t size) : size_({size, size}) {}                  // NOLINT
  TenCropOptions(std::vector<int64_t> size) : size_(std::move(size)) {}  // NOLINT
  TenCropOptions(std::initializer_list<int64_t> size) : size_(size) {}   // NOLINT
  TORCH_ARG(std::vector<int64_t>, size);
  TORCH_ARG(bool, vertical_flip) = false;
};

class TenCropImpl : public nn::Cloneable<TenCropImpl> {
 public:
  explicit TenCropImpl(TenCropOptions options);
  void reset() override;
  std::vector<Tensor> forward(Tensor img);
  TenCropOptions options;
};
EMBER_VISION_TRANSFORM_MODULE(TenCrop);

// ---- flips ----
struct RandomHorizontalFlipOptions {
  RandomHorizontalFlipOptions(double p = 0.5) : p_(p) {}  // NOLINT
  TORCH_ARG(double, p);
};
class RandomHorizontalFlipImpl : public nn::Cloneable<RandomHorizontalFlipImpl> {
 public:
  explicit RandomHorizontalFlipImpl(RandomHorizontalFlipOptions options = {});
  void reset() override {}
  Tensor forward(Tensor img);
  RandomHorizontalFlipOptions options;
};
EMBER_VISION_TRANSFORM_MODULE(RandomHorizontalFlip);

using RandomVerticalFlipOptions = RandomHorizontalFlipOptions;
class RandomVerticalFlipImpl : public nn::Cloneable<RandomVerticalFlipImpl> {
 public:
  explicit RandomVerticalFlipImpl(RandomVerticalFlipOptions options = {});
  void reset() override {}
  Tensor forward(Tensor img);
  RandomVerticalFlipOptions options;
};
EMBER_VISION_TRANSFORM_MODULE(RandomVerticalFlip);

// ---- RandomPerspective ----
struct RandomPerspectiveOptions {
  RandomPerspectiveOptions(double distortion_scale = 0.5) : distortion_scale_(distortion_scale) {}  // NOLINT
  TORCH_ARG(double, distortion_scale);
  TORCH_ARG(double, p) = 0.5;
  TORCH_ARG(InterpolationMode, interpolation) = InterpolationMode::BILINEAR;
  // A number (one value for every channel) or one value per channel.
  TORCH_ARG(std::vector<double>, fill) = {0.0};

 public:
  RandomPerspectiveOptions& fill(double value) {
    fill_ = {value};
    return *this;
  }
};

class RandomPerspectiveImpl : public nn::Cloneable<RandomPerspectiveImpl> {
 public:
  explicit RandomPerspectiveImpl(RandomPerspectiveOptions options = {});
  void reset() override;
  Tensor forward(Tensor img);
  // (startpoints, endpoints): the image corners and their random displacements.
  static std::tuple<std::vector<std::vector<int64_t>>, std::vector<std::vector<int64_t>>> get_params(
      int64_t width, int64_t height, double distortion_scale);
  RandomPerspectiveOptions options;
};
EMBER_VISION_TRANSFORM_MODULE(RandomPerspective);

// ---- RandomRotation ----
// degrees: d for (-d, d), or {min, max}.
struct RandomRotationOptions {
  RandomRotationOptions(double degrees) : degrees_({degrees}) {}                        // NOLINT
  RandomRotationOptions(std::vector<double> degrees) : degrees_(std::move(degrees)) {}  // NOLINT
  RandomRotationOptions(std::initializer_list<double> degrees) : degrees_(degrees) {}   // NOLINT
  TORCH_ARG(std::vector<double>, degrees);
  TORCH_ARG(InterpolationMode, interpolation) = InterpolationMode::NEAREST;
  TORCH_ARG(bool, expand) = false;
  TORCH_ARG(OptionalInts, center) = std::nullopt;
  TORCH_ARG(std::vector<double>, fill) = {0.0};

 public:
  RandomRotationOptions& fill(double value) {
    fill_ = {value};
    return *this;
  }
};

class RandomRotationImpl : public nn::Cloneable<RandomRotationImpl> {
 public:
  explicit RandomRotationImpl(RandomRotationOptions options);
  void reset() override;
  Tensor forward(Tensor img);
  static double get_params(const std::vector<double>& degrees);
  std::vector<double> degrees;  // [min, max]
  RandomRotationOptions options;
};
EMBER_VISION_TRANSFORM_MODULE(RandomRotation);

// ---- RandomAffine ----
struct RandomAffineOptions {
  RandomAffineOptions(double degrees) : degrees_({degrees}) {}                        // NOLINT
  RandomAffineOptions(std::vector<double> degrees) : degrees_(std::move(degrees)) {}  // NOLINT
  RandomAffineOptions(std::initializer_list<double> degrees) : degrees_(degrees) {}   // NOLINT
  TORCH_ARG(std::vector<double>, degrees);
  // Fractions of the width and height: [a, b].
  TORCH_ARG(OptionalFloats, translate) = std::nullopt;
  TORCH_ARG(OptionalFloats, scale) = std::nullopt;
  // A number s for (-s, s) in x, or [min, max] in x, or [xmin, xmax, ymin, ymax].
  TORCH_ARG(OptionalFloats, shear) = std::nullopt;

 public:
  RandomAffineOptions& shear(double value) {
    shear_ = std::vector<double>{value};
    return *this;
  }
  TORCH_ARG(InterpolationMode, interpolation) = InterpolationMode::NEAREST;
  TORCH_ARG(std::vector<double>, fill) = {0.0};

 public:
  RandomAffineOptions& fill(double value) {
    fill_ = {value};
    return *this;
  }
  TORCH_ARG(OptionalInts, center) = std::nullopt;
};

class RandomAffineImpl : public nn::Cloneable<RandomAffineImpl> {
 public:
  explicit RandomAffineImpl(RandomAffineOptions options);
  void reset() override;
  Tensor forward(Tensor img);
  // (angle, (tx, ty), scale, (shear_x, shear_y)); img_size is [width, height].
  static std::tuple<double, std::vector<int64_t>, double, std::vector<double>> get_params(
      const std::vector<double>& degrees, const OptionalFloats& translate, const OptionalFloats& scale_ranges,
      const OptionalFloats& shears, const std::vector<int64_t>& img_size);
  std::vector<double> degrees;                // [min, max]
  std::optional<std::vector<double>> shears;  // [xmin, xmax] or [xmin, xmax, ymin, ymax]
  RandomAffineOptions options;
};
EMBER_VISION_TRANSFORM_MODULE(RandomAffine);

// ---- ElasticTransform ----
struct ElasticTransformOptions {
  ElasticTransformOptions(double alpha = 50.0) : alpha_({alpha, alpha}) {}  // NOLINT
  TORCH_ARG(std::vector<double>, alpha);

 public:
  ElasticTransformOptions& alpha(double value) {
    alpha_ = {value, value};
    return *this;
  }
  TORCH_ARG(std::vector<double>, sigma) = {5.0, 5.0};

 public:
  ElasticTransformOptions& sigma(double value) {
    sigma_ = {value, value};
    return *this;
  }
  TORCH_ARG(InterpolationMode, interpolation) = InterpolationMode::BILINEAR;
  TORCH_ARG(double, fill) = 0;
};

class ElasticTransformImpl : public nn::Cloneable<ElasticTransformImpl> {
 public:
  explicit ElasticTransformImpl(ElasticTransformOptions options = {});
  void reset() override;
  Tensor forward(Tensor img);
  // A [1, H, W, 2] displacement field for size [H, W].
  static Tensor get_params(const std::vector<double>& alpha, const std::vector<double>& sigma,
                           const std::vector<int64_t>& size);
  ElasticTransformOptions options;
};
EMBER_VISION_TRANSFORM_MODULE(ElasticTransform);

}  // namespace torch::vision::transforms
