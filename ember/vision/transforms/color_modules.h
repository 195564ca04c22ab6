#pragma once
// The photometric transform modules of torchvision.transforms: ColorJitter,
// Grayscale, RandomGrayscale, GaussianBlur, RandomInvert, RandomPosterize,
// RandomSolarize, RandomAdjustSharpness, RandomAutocontrast and
// RandomEqualize, drawing from Ember's default generator in torchvision's order.
#include <cstdint>
#include <optional>
#include <ostream>
#include <tuple>
#include <vector>

#include "ember/core/arg.h"
#include "ember/vision/transforms/optional_list.h"
#include "ember/vision/transforms/transform_module.h"

namespace torch::vision::transforms {

// ---- ColorJitter ----
// Each factor is a number v (brightness, contrast, saturation: [max(0, 1 - v), 1 + v];
// hue: [-v, v]) or a range {min, max}.
struct ColorJitterOptions {
  TORCH_ARG(std::vector<double>, brightness) = {0.0};
  TORCH_ARG(std::vector<double>, contrast) = {0.0};
  TORCH_ARG(std::vector<double>, saturation) = {0.0};
  TORCH_ARG(std::vector<double>, hue) = {0.0};

 public:
  ColorJitterOptions& brightness(double v) { return set(brightness_, v); }
  ColorJitterOptions& contrast(double v) { return set(contrast_, v); }
  ColorJitterOptions& saturation(double v) { return set(saturation_, v); }
  ColorJitterOptions& hue(double v) { return set(hue_, v); }

 private:
  ColorJitterOptions& set(std::vector<double>& field, double v) {
    field = {v};
    return *this;
  }
};

class ColorJitterImpl : public nn::Cloneable<ColorJitterImpl> {
 public:
  explicit ColorJitterImpl(ColorJitterOptions options = {});
  ColorJitterImpl(double brightness, double contrast = 0, double saturation = 0, double hue = 0);
  void reset() override;
  void pretty_print(std::ostream& stream) const override;
  Tensor forward(Tensor img);
  // (order of the four adjustments, brightness, contrast, saturation, hue factors).
  static std::tuple<Tensor, std::optional<double>, std::optional<double>, std::optional<double>, std::optional<double>>
  get_params(const OptionalFloats& brightness, const OptionalFloats& contrast, const OptionalFloats& saturation,
             const OptionalFloats& hue);
  // The checked ranges (nullopt where the adjustment is the identity).
  std::optional<std::vector<double>> brightness, contrast, saturation, hue;
  ColorJitterOptions options;
};
EMBER_VISION_TRANSFORM_MODULE(ColorJitter);

// ---- Grayscale / RandomGrayscale ----
struct GrayscaleOptions {
  GrayscaleOptions(int64_t num_output_channels = 1) : num_output_channels_(num_output_channels) {}  // NOLINT
  TORCH_ARG(int64_t, num_output_channels);
};
class GrayscaleImpl : public nn::Cloneable<GrayscaleImpl> {
 public:
  explicit GrayscaleImpl(GrayscaleOptions options = {});
  void reset() override;
  Tensor forward(Tensor img);
  GrayscaleOptions options;
};
EMBER_VISION_TRANSFORM_MODULE(Grayscale);

struct RandomGrayscaleOptions {
  RandomGrayscaleOptions(double p = 0.1) : p_(p) {}  // NOLINT
  TORCH_ARG(double, p);
};
class RandomGrayscaleImpl : public nn::Cloneable<RandomGrayscaleImpl> {
 public:
  explicit RandomGrayscaleImpl(RandomGrayscaleOptions options = {});
  void reset() override {}
  Tensor forward(Tensor img);
  RandomGrayscaleOptions options;
};
EMBER_VISION_TRANSFORM_MODULE(RandomGrayscale);

// ---- GaussianBlur ----
// kernel_size k or {kx, ky}; sigma s (fixed) or a {min, max} range sampled per call.
struct GaussianBlurOptions {
  GaussianBlurOptions(int64_t kernel_size) : kernel_size_({kernel_size, kernel_size}) {}           // NOLINT
  GaussianBlurOptions(std::vector<int64_t> kernel_size) : kernel_size_(std::move(kernel_size)) {}  // NOLINT
  GaussianBlurOptions(std::initializer_list<int64_t> kernel_size) : kernel_size_(kernel_size) {}   // NOLINT
  TORCH_ARG(std::vector<int64_t>, kernel_size);
  TORCH_ARG(std::vector<double>, sigma) = {0.1, 2.0};

 public:
  GaussianBlurOptions& sigma(double s) {
    sigma_ = {s};
    return *this;
  }
};
class GaussianBlurImpl : public nn::Cloneable<GaussianBlurImpl> {
 public:
  explicit GaussianBlurImpl(GaussianBlurOptions options);
  void reset() override;
  Tensor forward(Tensor img);
  static double get_params(double sigma_min, double sigma_max);
  std::vector<double> sigma;  // [min, max]
  GaussianBlurOptions options;
};
EMBER_VISION_TRANSFORM_MODULE(GaussianBlur);

// ---- the p-gated single adjustments ----
struct RandomInvertOptions {
  RandomInvertOptions(double p = 0.5) : p_(p) {}  // NOLINT
  TORCH_ARG(double, p);
};
using RandomAutocontrastOptions = RandomInvertOptions;
using RandomEqualizeOptions = RandomInvertOptions;

#define EMBER_VISION_P_TRANSFORM(Name)                  \
  class Name##Impl : public nn::Cloneable<Name##Impl> { \
   public:                                              \
    explicit Name##Impl(Name##Options options = {});    \
    void reset() override;                              \
    Tensor forward(Tensor img);                         \
    Name##Options options;                              \
  };                                                    \
  EMBER_VISION_TRANSFORM_MODULE(Name)

EMBER_VISION_P_TRANSFORM(RandomInvert);
EMBER_VISION_P_TRANSFORM(RandomAutocontrast);
EMBER_VISION_P_TRANSFORM(RandomEqualize);
#undef EMBER_VISION_P_TRANSFORM

struct RandomPosterizeOptions {
  RandomPosterizeOptions(int64_t bits) : bits_(bits) {}  // NOLINT
  TORCH_ARG(int64_t, bits);
  TORCH_ARG(double, p) = 0.5;
};
class RandomPosterizeImpl : public nn::Cloneable<RandomPosterizeImpl> {
 public:
  explicit RandomPosterizeImpl(RandomPosterizeOptions options);
  RandomPosterizeImpl(int64_t bits, double p) : RandomPosterizeImpl(RandomPosterizeOptions(bits).p(p)) {}
  void reset() override;
  Tensor forward(Tensor img);
  RandomPosterizeOptions options;
};
EMBER_VISION_TRANSFORM_MODULE(RandomPosterize);

struct RandomSolarizeOptions {
  RandomSolarizeOptions(double threshold) : threshold_(threshold) {}  // NOLINT
  TORCH_ARG(double, threshold);
  TORCH_ARG(double, p) = 0.5;
};
class RandomSolarizeImpl : public nn::Cloneable<RandomSolarizeImpl> {
 public:
  explicit RandomSolarizeImpl(RandomSolarizeOptions options);
  RandomSolarizeImpl(double threshold, double p) : RandomSolarizeImpl(RandomSolarizeOptions(threshold).p(p)) {}
  void reset() override;
  Tensor forward(Tensor img);
  RandomSolarizeOptions options;
};
EMBER_VISION_TRANSFORM_MODULE(RandomSolarize);

struct RandomAdjustSharpnessOptions {
  RandomAdjustSharpnessOptions(double sharpness_factor) : sharpness_factor_(sharpness_factor) {}  // NOLINT
  TORCH_ARG(double, sharpness_factor);
  TORCH_ARG(double, p) = 0.5;
};
class RandomAdjustSharpnessImpl : public nn::Cloneable<RandomAdjustSharpnessImpl> {
 public:
  explicit RandomAdjustSharpnessImpl(RandomAdjustSharpnessOptions options);
  RandomAdjustSharpnessImpl(double sharpness_factor, double p)
      : RandomAdjustSharpnessImpl(RandomAdjustSharpnessOptions(sharpness_factor).p(p)) {}
  void reset() override;
  Tensor forward(Tensor img);
  RandomAdjustSharpnessOptions options;
};
EMBER_VISION_TRANSFORM_MODULE(RandomAdjustSharpness);

}  // namespace torch::vision::transforms
