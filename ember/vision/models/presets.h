#pragma once
// torchvision.transforms._presets.ImageClassification: the inference
// preprocessing a classification weights entry names (weights.transforms()):
// resize the shorter edge, centre-crop, convert to float in [0, 1], normalise.
#include <cstdint>
#include <ostream>
#include <vector>

#include "ember/core/arg.h"
#include "ember/core/tensor.h"
#include "ember/nn/cloneable.h"
#include "ember/vision/transforms/interpolation_mode.h"
#include "ember/vision/transforms/transform_module.h"

namespace torch::vision::transforms::_presets {

struct ImageClassificationOptions {
  /* implicit */ ImageClassificationOptions(int64_t crop_size) : crop_size_(crop_size) {}  // NOLINT
  TORCH_ARG(int64_t, crop_size);
  TORCH_ARG(int64_t, resize_size) = 256;
  TORCH_ARG(std::vector<double>, mean) = std::vector<double>{0.485, 0.456, 0.406};
  TORCH_ARG(std::vector<double>, std) = std::vector<double>{0.229, 0.224, 0.225};
  TORCH_ARG(InterpolationMode, interpolation) = InterpolationMode::BILINEAR;
};

class ImageClassificationImpl : public nn::Cloneable<ImageClassificationImpl> {
 public:
  explicit ImageClassificationImpl(const ImageClassificationOptions& options_);
  void reset() override {}
  void pretty_print(std::ostream& stream) const override;
  // img: [..., C, H, W], uint8 or float in [0, 1]; returns float32.
  Tensor forward(const Tensor& img);
  // What Python's describe() says the transform accepts and does.
  std::string describe() const;
  ImageClassificationOptions options;
};
EMBER_VISION_TRANSFORM_MODULE(ImageClassification);

}  // namespace torch::vision::transforms::_presets
