#pragma once
// The tensor-only transform modules of torchvision.transforms:
// ConvertImageDtype, Normalize, RandomErasing and LinearTransformation.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <vector>

#include "ember/core/arg.h"
#include "ember/vision/transforms/transform_module.h"

namespace torch::vision::transforms {

struct ConvertImageDtypeOptions {
  ConvertImageDtypeOptions(ScalarType dtype) : dtype_(dtype) {}  // NOLINT
  TORCH_ARG(ScalarType, dtype);
};
class ConvertImageDtypeImpl : public nn::Cloneable<ConvertImageDtypeImpl> {
 public:
  explicit ConvertImageDtypeImpl(ConvertImageDtypeOptions options);
  void reset() override {}
  Tensor forward(Tensor image);
  ConvertImageDtypeOptions options;
};
EMBER_VISION_TRANSFORM_MODULE(ConvertImageDtype);

struct NormalizeOptions {
  NormalizeOptions(std::vector<double> mean, std::vector<double> std) : mean_(std::move(mean)), std_(std::move(std)) {}
  TORCH_ARG(std::vector<double>, mean);
  TORCH_ARG(std::vector<double>, std);
  TORCH_ARG(bool, inplace) = false;
};
class NormalizeImpl : public nn::Cloneable<NormalizeImpl> {
 public:
  explicit NormalizeImpl(NormalizeOptions options);
  NormalizeImpl(std::vector<double> mean, std::vector<double> std, bool inplace = false)
      : NormalizeImpl(NormalizeOptions(std::move(mean), std::move(std)).inplace(inplace)) {}
  void reset() override {}
  Tensor forward(Tensor tensor);
  NormalizeOptions options;
};
class Normalize : public nn::ModuleHolder<NormalizeImpl> {
 public:
  using nn::ModuleHolder<NormalizeImpl>::ModuleHolder;
  using nn::ModuleHolder<NormalizeImpl>::get;
  using Impl = NormalizeImpl;
  Normalize(const NormalizeOptions& options)  // NOLINT(google-explicit-constructor)
      : nn::ModuleHolder<NormalizeImpl>(std::make_shared<NormalizeImpl>(options)) {}
  // Normalize({0.485, 0.456, 0.406}, {0.229, 0.224, 0.225})
  Normalize(std::vector<double> mean, std::vector<double> std, bool inplace = false)
      : nn::ModuleHolder<NormalizeImpl>(std::make_shared<NormalizeImpl>(std::move(mean), std::move(std), inplace)) {}
};

// value: a number, one number per channel, or "random" (standard normal noise).
struct RandomErasingOptions {
  RandomErasingOptions(double p = 0.5) : p_(p) {}  // NOLINT
  TORCH_ARG(double, p);
  TORCH_ARG(std::vector<double>, scale) = {0.02, 0.33};
  TORCH_ARG(std::vector<double>, ratio) = {0.3, 3.3};
  TORCH_ARG(std::vector<double>, value) = {0.0};

 public:
  RandomErasingOptions& value(double v) {
    value_ = {v};
    random_ = false;
    return *this;
  }

 public:
  // value("random"); a template so that a braced list of numbers never reads as a string.
  template <typename S, typename = std::enable_if_t<std::is_convertible_v<const S&, std::string_view>>>
  RandomErasingOptions& value(const S& v) {
    set_value_string(std::string_view(v));
    return *this;
  }
  bool random_value() const { return random_; }
  TORCH_ARG(bool, inplace) = false;

 private:
  void set_value_string(std::string_view v);
  bool random_ = false;
};

class RandomErasingImpl : public nn::Cloneable<RandomErasingImpl> {
 public:
  explicit RandomErasingImpl(RandomErasingOptions options = {});
  void reset() override;
  Tensor forward(Tensor img);
  // (i, j, h, w, v): the erased box and its value (standard normal noise when value is nullopt);
  // when no box fits, (0, 0, H, W, img).
  static std::tuple<int64_t, int64_t, int64_t, int64_t, Tensor> get_params(
      const Tensor& img, const std::vector<double>& scale, const std::vector<double>& ratio,
      const std::optional<std::vector<double>>& value = std::nullopt);
  RandomErasingOptions options;
};
EMBER_VISION_TRANSFORM_MODULE(RandomErasing);

// Flattens [..., C, H, W], subtracts mean_vector, multiplies by the [D, D] matrix (D = C*H*W).
class LinearTransformationImpl : public nn::Cloneable<LinearTransformationImpl> {
 public:
  LinearTransformationImpl(Tensor transformation_matrix, Tensor mean_vector);
  void reset() override;
  Tensor forward(Tensor tensor);
  Tensor transformation_matrix, mean_vector;
};
TORCH_MODULE(LinearTransformation);

}  // namespace torch::vision::transforms
