#include "ember/vision/tv_tensors/bounding_boxes.h"

#include <algorithm>
#include <cctype>
#include <utility>

#include "ember/core/error.h"

namespace torch::vision::tv_tensors {

namespace {

void check_boxes(const Tensor& data, const std::vector<int64_t>& canvas_size) {
  EMBER_CHECK(data.defined(), "BoundingBoxes: data is undefined");
  EMBER_CHECK((data.dim() == 1 || data.dim() == 2) && data.size(-1) == 4,
              "BoundingBoxes: expected data of shape [N, 4] or [4], got ", data.sizes());
  EMBER_CHECK(canvas_size.size() == 2, "BoundingBoxes: canvas_size should be (height, width), got ", canvas_size.size(),
              " values");
  EMBER_CHECK(canvas_size[0] >= 0 && canvas_size[1] >= 0, "BoundingBoxes: canvas_size should be non-negative, got (",
              canvas_size[0], ", ", canvas_size[1], ")");
}

}  // namespace

BoundingBoxFormat bounding_box_format(const std::string& name) {
  std::string upper = name;
  std::transform(upper.begin(), upper.end(), upper.begin(), [](unsigned char c) { return std::toupper(c); });
  if (upper == "XYXY") return BoundingBoxFormat::XYXY;
  if (upper == "XYWH") return BoundingBoxFormat::XYWH;
  if (upper == "CXCYWH") return BoundingBoxFormat::CXCYWH;
  EMBER_ERROR("BoundingBoxFormat: unknown format '", name, "' (expected XYXY, XYWH or CXCYWH)");
}

std::string bounding_box_format_name(BoundingBoxFormat format) {
  switch (format) {
    case BoundingBoxFormat::XYXY:
      return "XYXY";
    case BoundingBoxFormat::XYWH:
      return "XYWH";
    case BoundingBoxFormat::CXCYWH:
      return "CXCYWH";
  }
  return "XYXY";
}

BoundingBoxes::BoundingBoxes(Tensor data, BoundingBoxFormat format, std::vector<int64_t> canvas_size)
    : Tensor(std::move(data)), format(format), canvas_size(std::move(canvas_size)) {
  check_boxes(*this, this->canvas_size);
}

BoundingBoxes::BoundingBoxes(Tensor data, const std::string& format, std::vector<int64_t> canvas_size)
    : BoundingBoxes(std::move(data), bounding_box_format(format), std::move(canvas_size)) {}

BoundingBoxes wrap(Tensor wrappee, const BoundingBoxes& like, std::optional<BoundingBoxFormat> format,
                   std::optional<std::vector<int64_t>> canvas_size) {
  return BoundingBoxes(std::move(wrappee), format.value_or(like.format), canvas_size.value_or(like.canvas_size));
}

}  // namespace torch::vision::tv_tensors
