#include "ember/vision/models/presets_dense.h"

#include <sstream>

#include "ember/core/error.h"
#include "ember/vision/transforms/functional.h"

namespace torch::vision::transforms::_presets {

namespace {

void check_image(const char* preset, const Tensor& img, const char* which = "an image") {
  EMBER_CHECK(img.defined() && img.dim() >= 3, preset, ": expected ", which, " [..., C, H, W], got shape ",
              img.defined() ? img.sizes() : IntArrayRef{});
}

std::string list(const std::vector<double>& v) {
  std::ostringstream s;
  s << "[";
  for (size_t i = 0; i < v.size(); ++i) s << (i ? ", " : "") << v[i];
  s << "]";
  return s.str();
}

}  // namespace

Tensor ObjectDetectionImpl::forward(const Tensor& img) {
  check_image("ObjectDetection", img);
  return functional::convert_image_dtype(img, kFloat);
}

std::string ObjectDetectionImpl::describe() const {
  return "Accepts batched (B, C, H, W) and single (C, H, W) image tensors. The images are rescaled to [0.0, 1.0].";
}

SemanticSegmentationImpl::SemanticSegmentationImpl(const SemanticSegmentationOptions& options_) : options(options_) {
  EMBER_CHECK(!options.resize_size() || *options.resize_size() > 0,
              "SemanticSegmentation: resize_size must be positive, got ", options.resize_size().value_or(0));
  EMBER_CHECK(options.mean().size() == options.std().size(),
              "SemanticSegmentation: mean and std must have the same length, got ", options.mean().size(), " and ",
              options.std().size());
}

void SemanticSegmentationImpl::pretty_print(std::ostream& stream) const {
  stream << "SemanticSegmentation(resize_size=";
  if (options.resize_size()) {
    stream << "[" << *options.resize_size() << "]";
  } else {
    stream << "None";
  }
  stream << ", mean=" << list(options.mean()) << ", std=" << list(options.std())
         << ", interpolation=" << interpolation_mode_name(options.interpolation()) << ")";
}

Tensor SemanticSegmentationImpl::forward(const Tensor& img) {
  check_image("SemanticSegmentation", img);
  Tensor out = img;
  if (options.resize_size()) out = functional::resize(out, {*options.resize_size()}, options.interpolation());
  out = functional::convert_image_dtype(out, kFloat);
  return functional::normalize(out, options.mean(), options.std());
}

std::string SemanticSegmentationImpl::describe() const {
  const std::string size = options.resize_size() ? "[" + std::to_string(*options.resize_size()) + "]" : "None";
  return "Accepts batched (B, C, H, W) and single (C, H, W) image tensors. The images are resized to resize_size=" +
         size + " using interpolation=" + std::string(interpolation_mode_name(options.interpolation())) +
         ". Finally the values are first rescaled to [0.0, 1.0] and then normalized using mean=" +
         list(options.mean()) + " and std=" + list(options.std()) + ".";
}

std::tuple<Tensor, Tensor> OpticalFlowImpl::forward(const Tensor& img1, const Tensor& img2) {
  check_image("OpticalFlow", img1, "img1 as an image");
  check_image("OpticalFlow", img2, "img2 as an image");
  // [0, 1] to [-1, 1].
  const std::vector<double> half{0.5, 0.5, 0.5};
  Tensor a = functional::normalize(functional::convert_image_dtype(img1, kFloat), half, half);
  Tensor b = functional::normalize(functional::convert_image_dtype(img2, kFloat), half, half);
  return {a.contiguous(), b.contiguous()};
}

std::string OpticalFlowImpl::describe() const {
  return "Accepts batched (B, C, H, W) and single (C, H, W) image tensors. The images are rescaled to [-1.0, 1.0].";
}

}  // namespace torch::vision::transforms::_presets
