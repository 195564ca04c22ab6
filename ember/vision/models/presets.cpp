#include "ember/vision/models/presets.h"

#include "ember/core/error.h"
#include "ember/vision/transforms/functional.h"

namespace torch::vision::transforms::_presets {

ImageClassificationImpl::ImageClassificationImpl(const ImageClassificationOptions& options_) : options(options_) {
  EMBER_CHECK(options.crop_size() > 0 && options.resize_size() > 0,
              "ImageClassification: crop_size and resize_size must be positive, got ", options.crop_size(), " and ",
              options.resize_size());
  EMBER_CHECK(options.mean().size() == options.std().size(),
              "ImageClassification: mean and std must have the same length, got ", options.mean().size(), " and ",
              options.std().size());
}

void ImageClassificationImpl::pretty_print(std::ostream& stream) const {
  stream << "ImageClassification(crop_size=[" << options.crop_size() << "], resize_size=[" << options.resize_size()
         << "], interpolation=" << interpolation_mode_name(options.interpolation()) << ")";
}

Tensor ImageClassificationImpl::forward(const Tensor& img) {
  EMBER_CHECK(img.defined() && img.dim() >= 3, "ImageClassification: expected an image [..., C, H, W], got shape ",
              img.defined() ? img.sizes() : IntArrayRef{});
  Tensor out = functional::resize(img, {options.resize_size()}, options.interpolation());
  out = functional::center_crop(out, {options.crop_size()});
  out = functional::convert_image_dtype(out, kFloat);
  return functional::normalize(out, options.mean(), options.std());
}

std::string ImageClassificationImpl::describe() const {
  return "Accepts batched (B, C, H, W) and single (C, H, W) image tensors. The images are resized to resize_size=[" +
         std::to_string(options.resize_size()) +
         "] using interpolation=" + std::string(interpolation_mode_name(options.interpolation())) +
         ", followed by a central crop of crop_size=[" + std::to_string(options.crop_size()) +
         "]. Finally the values are first rescaled to [0.0, 1.0] and then normalized using the mean and std.";
}

}  // namespace torch::vision::transforms::_presets
