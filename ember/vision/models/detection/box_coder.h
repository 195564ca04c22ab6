#pragma once
// torchvision.models.detection._utils.BoxCoder and BoxLinearCoder: the box
// parametrisations the detection heads regress. BoxCoder is R-CNN's
// (dx, dy, dw, dh) relative to a reference box, scaled by weights, with the
// log-size deltas clipped at bbox_xform_clip before exp; BoxLinearCoder is
// FCOS's distances from the box centre to the four edges.
#include <array>
#include <cmath>
#include <vector>

#include "ember/core/tensor.h"

namespace torch::vision::models::detection::_utils {

class BoxCoder {
 public:
  explicit BoxCoder(std::array<double, 4> weights, double bbox_xform_clip = std::log(1000.0 / 16));
  // One Tensor[N_i, 4] of targets per image: reference_boxes encoded against proposals.
  std::vector<Tensor> encode(const std::vector<Tensor>& reference_boxes, const std::vector<Tensor>& proposals) const;
  Tensor encode_single(const Tensor& reference_boxes, const Tensor& proposals) const;
  // rel_codes [sum N_i, 4 * K] against the concatenated boxes: [sum N_i, K, 4].
  Tensor decode(const Tensor& rel_codes, const std::vector<Tensor>& boxes) const;
  Tensor decode_single(const Tensor& rel_codes, const Tensor& boxes) const;

  std::array<double, 4> weights;
  double bbox_xform_clip;
};

// encode_boxes(reference_boxes, proposals, weights) of _utils, weights a Tensor[4].
Tensor encode_boxes(const Tensor& reference_boxes, const Tensor& proposals, const Tensor& weights);

class BoxLinearCoder {
 public:
  explicit BoxLinearCoder(bool normalize_by_size = true) : normalize_by_size(normalize_by_size) {}
  Tensor encode(const Tensor& reference_boxes, const Tensor& proposals) const;
  Tensor decode(const Tensor& rel_codes, const Tensor& boxes) const;

  bool normalize_by_size;
};

}  // namespace torch::vision::models::detection::_utils
