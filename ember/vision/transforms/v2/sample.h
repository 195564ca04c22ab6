#pragma once
// What a v2 transform transforms: torchvision passes any nest of tv_tensors
// (typically `(image, {"boxes": ..., "masks": ..., "labels": ...})`) and
// dispatches on each leaf's type. C++ has no such untyped nest, so a detection
// or segmentation sample is one struct with a named optional slot per kind;
// each transform draws its random parameters once per Sample and applies them
// to every slot present, labels passing through (SanitizeBoundingBoxes filters
// them with the boxes).
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "ember/core/tensor.h"
#include "ember/vision/tv_tensors/bounding_boxes.h"
#include "ember/vision/tv_tensors/tensor_types.h"

namespace torch::vision::transforms::v2 {

struct Sample {
  std::optional<tv_tensors::Image> image;
  std::optional<tv_tensors::Video> video;
  std::optional<tv_tensors::BoundingBoxes> boxes;
  std::optional<tv_tensors::Mask> masks;
  std::optional<Tensor> labels;
};

// Any v2 transform as a callable (module holders included), as Compose holds them.
using SampleTransform = std::function<Sample(Sample)>;

// The (height, width) every spatial member agrees on (torchvision's query_size);
// raises when they disagree or the sample has none.
std::vector<int64_t> query_size(const Sample& sample, const char* op);

// Applies fn (overloaded on Image, Video, Mask and BoundingBoxes, as the
// v2::functional dispatchers) to every spatial member present.
template <typename Fn>
Sample apply_spatial(Sample sample, Fn&& fn) {
  if (sample.image) sample.image = fn(*sample.image);
  if (sample.video) sample.video = fn(*sample.video);
  if (sample.masks) sample.masks = fn(*sample.masks);
  if (sample.boxes) sample.boxes = fn(*sample.boxes);
  return sample;
}

// Applies fn (Tensor -> Tensor) to the image and video only (colour transforms).
template <typename Fn>
Sample apply_pixels(Sample sample, Fn&& fn) {
  if (sample.image) sample.image = tv_tensors::Image(fn(Tensor(*sample.image)));
  if (sample.video) sample.video = tv_tensors::Video(fn(Tensor(*sample.video)));
  return sample;
}

}  // namespace torch::vision::transforms::v2
