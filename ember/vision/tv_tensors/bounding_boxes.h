#pragma once
// torchvision.tv_tensors.BoundingBoxes and BoundingBoxFormat: boxes [N, 4]
// (or [4]) with their coordinate format and the (height, width) of the canvas
// they live on, which the v2 geometric transforms need to move them.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ember/core/tensor.h"

namespace torch::vision::tv_tensors {

enum class BoundingBoxFormat { XYXY, XYWH, CXCYWH };

// "XYXY" / "xyxy" (any case) -> BoundingBoxFormat::XYXY, as Python's BoundingBoxFormat[...] lookup.
BoundingBoxFormat bounding_box_format(const std::string& name);
// "XYXY", "XYWH" or "CXCYWH".
std::string bounding_box_format_name(BoundingBoxFormat format);

class BoundingBoxes : public Tensor {
 public:
  BoundingBoxes() = default;
  // canvas_size is (height, width). data must be [N, 4] or [4].
  BoundingBoxes(Tensor data, BoundingBoxFormat format, std::vector<int64_t> canvas_size);
  BoundingBoxes(Tensor data, const std::string& format, std::vector<int64_t> canvas_size);

  BoundingBoxFormat format = BoundingBoxFormat::XYXY;
  std::vector<int64_t> canvas_size;  // (height, width)
};

// tv_tensors.wrap(wrappee, like=boxes, format=..., canvas_size=...): new data, like's metadata
// unless overridden.
BoundingBoxes wrap(Tensor wrappee, const BoundingBoxes& like, std::optional<BoundingBoxFormat> format = std::nullopt,
                   std::optional<std::vector<int64_t>> canvas_size = std::nullopt);

}  // namespace torch::vision::tv_tensors
