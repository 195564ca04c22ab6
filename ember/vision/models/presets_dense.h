#pragma once
// torchvision.transforms._presets for the dense-prediction weights: the
// inference preprocessing a detection, segmentation or optical-flow weights
// entry names (weights.transforms()).
//   ObjectDetection: convert to float in [0, 1].
//   SemanticSegmentation(resize_size): resize the shorter edge (unless
//     resize_size is nullopt), convert to float, normalise.
//   OpticalFlow: both frames to float, then mapped from [0, 1] to [-1, 1].
#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <tuple>
#include <vector>

#include "ember/core/arg.h"
#include "ember/core/tensor.h"
#include "ember/nn/cloneable.h"
#include "ember/vision/transforms/interpolation_mode.h"
#include "ember/vision/transforms/transform_module.h"

namespace torch::vision::transforms::_presets {

// ObjectDetection and OpticalFlow take no parameters; their options exist so
// every preset is built the same way (Weights keeps one of the four options).
struct ObjectDetectionOptions {};
struct OpticalFlowOptions {};

struct SemanticSegmentationOptions {
  /* implicit */ SemanticSegmentationOptions(std::optional<int64_t> resize_size)  // NOLINT
      : resize_size_(resize_size) {}
  TORCH_ARG(std::optional<int64_t>, resize_size);
  TORCH_ARG(std::vector<double>, mean) = std::vector<double>{0.485, 0.456, 0.406};
  TORCH_ARG(std::vector<double>, std) = std::vector<double>{0.229, 0.224, 0.225};
  TORCH_ARG(InterpolationMode, interpolation) = InterpolationMode::BILINEAR;
};

class ObjectDetectionImpl : public nn::Cloneable<ObjectDetectionImpl> {
 public:
  explicit ObjectDetectionImpl(const ObjectDetectionOptions& options_ = {}) : options(options_) {}
  void reset() override {}
  void pretty_print(std::ostream& stream) const override { stream << "ObjectDetection()"; }
  // img: [..., C, H, W], uint8 or float; returns float32 in [0, 1].
  Tensor forward(const Tensor& img);
  std::string describe() const;
  ObjectDetectionOptions options;
};
EMBER_VISION_TRANSFORM_MODULE(ObjectDetection);

class SemanticSegmentationImpl : public nn::Cloneable<SemanticSegmentationImpl> {
 public:
  explicit SemanticSegmentationImpl(const SemanticSegmentationOptions& options_);
  // SemanticSegmentation(520) / SemanticSegmentation(std::nullopt), as Python's resize_size=.
  explicit SemanticSegmentationImpl(std::optional<int64_t> resize_size)
      : SemanticSegmentationImpl(SemanticSegmentationOptions(resize_size)) {}
  void reset() override {}
  void pretty_print(std::ostream& stream) const override;
  // img: [..., C, H, W], uint8 or float in [0, 1]; returns float32.
  Tensor forward(const Tensor& img);
  std::string describe() const;
  SemanticSegmentationOptions options;
};
EMBER_VISION_TRANSFORM_MODULE(SemanticSegmentation);

class OpticalFlowImpl : public nn::Cloneable<OpticalFlowImpl> {
 public:
  explicit OpticalFlowImpl(const OpticalFlowOptions& options_ = {}) : options(options_) {}
  void reset() override {}
  void pretty_print(std::ostream& stream) const override { stream << "OpticalFlow()"; }
  // Two frames [..., 3, H, W], uint8 or float in [0, 1]; returns both as contiguous float32 in [-1, 1].
  std::tuple<Tensor, Tensor> forward(const Tensor& img1, const Tensor& img2);
  std::string describe() const;
  OpticalFlowOptions options;
};
EMBER_VISION_TRANSFORM_MODULE(OpticalFlow);

}  // namespace torch::vision::transforms::_presets
