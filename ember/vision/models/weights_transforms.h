#pragma once
// What weights.transforms() returns: the preset the weights were trained
// with (ImageClassification, ObjectDetection, SemanticSegmentation or
// OpticalFlow, presets.h / presets_dense.h), behind one module type so every
// Weights value answers transforms() alike. Python's weights.transforms is a
// partial of the preset class; here the options say which one it is.
#include <ostream>
#include <string>
#include <tuple>
#include <variant>

#include "ember/core/tensor.h"
#include "ember/nn/cloneable.h"
#include "ember/nn/pimpl.h"
#include "ember/vision/models/presets.h"
#include "ember/vision/models/presets_dense.h"

namespace torch::vision::transforms::_presets {

using PresetOptions =
    std::variant<ImageClassificationOptions, ObjectDetectionOptions, SemanticSegmentationOptions, OpticalFlowOptions>;

class WeightsTransformsImpl : public nn::Cloneable<WeightsTransformsImpl> {
 public:
  explicit WeightsTransformsImpl(PresetOptions options_);
  void reset() override {}
  void pretty_print(std::ostream& stream) const override;
  // The one-image presets: preprocess(img). OpticalFlow raises (it takes two frames).
  Tensor forward(const Tensor& img);
  // OpticalFlow: preprocess(img1, img2); the one-image presets raise.
  std::tuple<Tensor, Tensor> forward(const Tensor& img1, const Tensor& img2);
  std::string describe() const;
  // The preset class's name: "ImageClassification", "ObjectDetection", ...
  std::string preset_name() const;
  PresetOptions options;
};
TORCH_MODULE(WeightsTransforms);

}  // namespace torch::vision::transforms::_presets
