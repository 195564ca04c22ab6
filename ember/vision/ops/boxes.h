#pragma once
// torchvision.ops.boxes: box geometry (area, format conversion, the IoU family),
// clipping and filtering, and non-maximum suppression. Boxes are Tensor[N, 4]
// in (x1, y1, x2, y2) unless a format says otherwise. The geometric functions
// compose Ember's differentiable ops, so gradients reach the boxes.
#include <cstdint>
#include <string>
#include <utility>

#include "ember/core/tensor.h"

namespace torch::vision::ops {

// Indices of the boxes kept, by decreasing score; a box is dropped when its IoU
// with a kept, higher-scored box exceeds iou_threshold.
Tensor nms(const Tensor& boxes, const Tensor& scores, double iou_threshold);

// nms within each category of idxs (boxes of different categories never suppress
// each other).
Tensor batched_nms(const Tensor& boxes, const Tensor& scores, const Tensor& idxs, double iou_threshold);

// Indices of the boxes whose sides are both at least min_size.
Tensor remove_small_boxes(const Tensor& boxes, double min_size);

// Boxes Tensor[..., 4] clamped to an image of size (height, width).
Tensor clip_boxes_to_image(const Tensor& boxes, std::pair<int64_t, int64_t> size);

// Converts between "xyxy", "xywh" and "cxcywh".
Tensor box_convert(const Tensor& boxes, const std::string& in_fmt, const std::string& out_fmt);

Tensor box_area(const Tensor& boxes);

// Pairwise Tensor[N, M] matrices of boxes1 Tensor[N, 4] against boxes2 Tensor[M, 4].
Tensor box_iou(const Tensor& boxes1, const Tensor& boxes2);
Tensor generalized_box_iou(const Tensor& boxes1, const Tensor& boxes2);
Tensor complete_box_iou(const Tensor& boxes1, const Tensor& boxes2, double eps = 1e-7);
Tensor distance_box_iou(const Tensor& boxes1, const Tensor& boxes2, double eps = 1e-7);

// The bounding boxes Tensor[N, 4] of masks Tensor[N, H, W] (nonzero = inside).
Tensor masks_to_boxes(const Tensor& masks);

}  // namespace torch::vision::ops
