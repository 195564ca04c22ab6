#pragma once
// torchvision.tv_tensors.Image, Video and Mask: tensors that carry what they
// are, so a v2 transform knows how to treat each (bilinear for images, nearest
// with fill 0 for masks). As in Python they are tensors (subclasses of
// Tensor): every tensor op applies, and its result is a plain Tensor again.
#include <utility>

#include "ember/core/tensor.h"

namespace torch::vision::tv_tensors {

// An image [..., C, H, W].
class Image : public Tensor {
 public:
  Image() = default;
  explicit Image(Tensor data) : Tensor(std::move(data)) {}
};

// A video [..., T, C, H, W].
class Video : public Tensor {
 public:
  Video() = default;
  explicit Video(Tensor data) : Tensor(std::move(data)) {}
};

// A segmentation or detection mask [..., H, W] (one [H, W] plane per object or a class map).
class Mask : public Tensor {
 public:
  Mask() = default;
  explicit Mask(Tensor data) : Tensor(std::move(data)) {}
};

}  // namespace torch::vision::tv_tensors
