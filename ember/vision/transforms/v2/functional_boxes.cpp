// The bounding-box kernels that move boxes by a translation or a scaling
// (flips, resize, crops, pad), and format conversion and clamping.
#include <cmath>
#include <utility>

#include "ember/core/error.h"
#include "ember/ops/all_ops.h"
#include "ember/vision/transforms/v2/box_detail.h"
#include "ember/vision/transforms/v2/functional_boxes.h"

namespace torch::vision::transforms::v2::functional {

namespace {

// Column k of boxes [M, 4].
Tensor col(const Tensor& b, int64_t k) { return b.select(1, k); }

// Integer boxes divide with floor, as torchvision's conversions.
Tensor half(const Tensor& x) { return x.is_floating_point() ? x.div(2) : x.div(2, "floor"); }

Tensor to_xyxy(const Tensor& b, BoundingBoxFormat from) {
  if (from == BoundingBoxFormat::XYWH)
    return stack({col(b, 0), col(b, 1), col(b, 0) + col(b, 2), col(b, 1) + col(b, 3)}, 1);
  if (from == BoundingBoxFormat::CXCYWH) {
    // |(-w) / 2| floors towards the larger half for integer boxes, as torchvision's trick.
    const Tensor hw = b.index_select(1, tensor(std::vector<int64_t>{2, 3}, kLong));
    const Tensor h2 = (b.is_floating_point() ? hw.div(-2) : hw.div(-2, "floor")).abs();
    const Tensor x1 = col(b, 0) - col(h2, 0), y1 = col(b, 1) - col(h2, 1);
    return stack({x1, y1, x1 + col(b, 2), y1 + col(b, 3)}, 1);
  }
  return b;
}

Tensor from_xyxy(const Tensor& b, BoundingBoxFormat to) {
  const Tensor w = col(b, 2) - col(b, 0), h = col(b, 3) - col(b, 1);
  if (to == BoundingBoxFormat::XYWH) return stack({col(b, 0), col(b, 1), w, h}, 1);
  if (to == BoundingBoxFormat::CXCYWH) return stack({half(col(b, 0) * 2 + w), half(col(b, 1) * 2 + h), w, h}, 1);
  return b;
}

Tensor convert(const Tensor& boxes, BoundingBoxFormat from, BoundingBoxFormat to, bool inplace) {
  if (from == to) return inplace ? boxes : boxes.clone();
  const Tensor flat = boxes.reshape({-1, 4});
  Tensor out = from_xyxy(to_xyxy(flat, from), to).reshape(boxes.sizes());
  if (inplace) {
    boxes.copy_(out);
    return boxes;
  }
  return out;
}

Tensor clamp_boxes(const Tensor& boxes, BoundingBoxFormat format, const CanvasSize& canvas_size) {
  const ScalarType in_dtype = boxes.scalar_type();
  const Tensor f = boxes.is_floating_point() ? boxes : boxes.to(kFloat);
  Tensor xyxy = convert(f, format, BoundingBoxFormat::XYXY, false).reshape({-1, 4});
  const double w = static_cast<double>(canvas_size[1]), h = static_cast<double>(canvas_size[0]);
  xyxy = stack(
      {col(xyxy, 0).clamp(0.0, w), col(xyxy, 1).clamp(0.0, h), col(xyxy, 2).clamp(0.0, w), col(xyxy, 3).clamp(0.0, h)},
      1);
  return convert(xyxy, BoundingBoxFormat::XYXY, format, false).reshape(boxes.sizes()).to(in_dtype);
}

// boxes + [dx, dy, dx, dy] (XYXY) or + [dx, dy, 0, 0] (the other formats).
Tensor translate_boxes(const Tensor& boxes, BoundingBoxFormat format, int64_t dx, int64_t dy) {
  const bool both = format == BoundingBoxFormat::XYXY;
  const std::vector<double> shift = {1.0 * dx, 1.0 * dy, both ? 1.0 * dx : 0.0, both ? 1.0 * dy : 0.0};
  return (boxes + tensor(shift, boxes.is_floating_point() ? boxes.scalar_type() : kDouble)).to(boxes.scalar_type());
}

// pad's [left, top, right, bottom] from Python's 1-, 2- or 4-element padding.
std::vector<int64_t> parse_padding(const IntList& padding) {
  EMBER_CHECK(padding.size() == 1 || padding.size() == 2 || padding.size() == 4,
              "pad_bounding_boxes: padding must have 1, 2 or 4 elements, got ", padding.size());
  if (padding.size() == 1) return {padding[0], padding[0], padding[0], padding[0]};
  if (padding.size() == 2) return {padding[0], padding[1], padding[0], padding[1]};
  return {padding[0], padding[1], padding[2], padding[3]};
}

}  // namespace

Tensor convert_bounding_box_format(const Tensor& inpt, std::optional<BoundingBoxFormat> old_format,
                                   std::optional<BoundingBoxFormat> new_format, bool inplace) {
  detail::check_boxes(inpt, "convert_bounding_box_format");
  EMBER_CHECK(new_format.has_value(), "convert_bounding_box_format: new_format must be given");
  EMBER_CHECK(old_format.has_value(), "convert_bounding_box_format: old_format must be given for a plain tensor");
  return convert(inpt, *old_format, *new_format, inplace);
}

BoundingBoxes convert_bounding_box_format(const BoundingBoxes& inpt, std::optional<BoundingBoxFormat> old_format,
                                          std::optional<BoundingBoxFormat> new_format, bool inplace) {
  EMBER_CHECK(!old_format.has_value(),
              "convert_bounding_box_format: old_format must not be given for BoundingBoxes (they carry their format)");
  EMBER_CHECK(new_format.has_value(), "convert_bounding_box_format: new_format must be given");
  return BoundingBoxes(convert(inpt, inpt.format, *new_format, inplace), *new_format, inpt.canvas_size);
}

Tensor clamp_bounding_boxes(const Tensor& inpt, std::optional<BoundingBoxFormat> format,
                            std::optional<CanvasSize> canvas_size) {
  detail::check_boxes(inpt, "clamp_bounding_boxes");
  EMBER_CHECK(format.has_value() && canvas_size.has_value(),
              "clamp_bounding_boxes: format and canvas_size must be given for a plain tensor");
  detail::check_canvas(*canvas_size, "clamp_bounding_boxes");
  return clamp_boxes(inpt, *format, *canvas_size);
}

BoundingBoxes clamp_bounding_boxes(const BoundingBoxes& inpt, std::optional<BoundingBoxFormat> format,
                                   std::optional<CanvasSize> canvas_size) {
  EMBER_CHECK(!format.has_value() && !canvas_size.has_value(),
              "clamp_bounding_boxes: format and canvas_size must not be given for BoundingBoxes");
  return BoundingBoxes(clamp_boxes(inpt, inpt.format, inpt.canvas_size), inpt.format, inpt.canvas_size);
}

Tensor horizontal_flip_bounding_boxes(const Tensor& bounding_boxes, BoundingBoxFormat format,
                                      const CanvasSize& canvas_size) {
  detail::check_boxes(bounding_boxes, "horizontal_flip_bounding_boxes");
  detail::check_canvas(canvas_size, "horizontal_flip_bounding_boxes");
  const Tensor b = bounding_boxes.reshape({-1, 4});
  const int64_t w = canvas_size[1];
  Tensor out;
  if (format == BoundingBoxFormat::XYXY)
    out = stack({col(b, 2).neg() + w, col(b, 1), col(b, 0).neg() + w, col(b, 3)}, 1);
  else if (format == BoundingBoxFormat::XYWH)
    out = stack({(col(b, 0) + col(b, 2)).neg() + w, col(b, 1), col(b, 2), col(b, 3)}, 1);
  else
    out = stack({col(b, 0).neg() + w, col(b, 1), col(b, 2), col(b, 3)}, 1);
  return out.reshape(bounding_boxes.sizes());
}

Tensor vertical_flip_bounding_boxes(const Tensor& bounding_boxes, BoundingBoxFormat format,
                                    const CanvasSize& canvas_size) {
  detail::check_boxes(bounding_boxes, "vertical_flip_bounding_boxes");
  detail::check_canvas(canvas_size, "vertical_flip_bounding_boxes");
  const Tensor b = bounding_boxes.reshape({-1, 4});
  const int64_t h = canvas_size[0];
  Tensor out;
  if (format == BoundingBoxFormat::XYXY)
    out = stack({col(b, 0), col(b, 3).neg() + h, col(b, 2), col(b, 1).neg() + h}, 1);
  else if (format == BoundingBoxFormat::XYWH)
    out = stack({col(b, 0), (col(b, 1) + col(b, 3)).neg() + h, col(b, 2), col(b, 3)}, 1);
  else
    out = stack({col(b, 0), col(b, 1).neg() + h, col(b, 2), col(b, 3)}, 1);
  return out.reshape(bounding_boxes.sizes());
}

CanvasSize compute_resized_output_size(const CanvasSize& canvas_size, const IntList& size,
                                       std::optional<int64_t> max_size) {
  detail::check_canvas(canvas_size, "resize");
  EMBER_CHECK(size.size() == 1 || size.size() == 2, "resize: size must have 1 or 2 elements, got ", size.size());
  for (int64_t s : size) EMBER_CHECK(s > 0, "resize: size must be positive, got ", s);
  if (size.size() == 2) {
    EMBER_CHECK(!max_size.has_value(),
                "resize: max_size should only be passed if size specifies the length of the smaller edge");
    return {size[0], size[1]};
  }
  const int64_t h = canvas_size[0], w = canvas_size[1];
  EMBER_CHECK(h > 0 && w > 0, "resize: cannot resize an empty canvas (", h, ", ", w, ")");
  const int64_t shorter = std::min(h, w), longer = std::max(h, w);
  int64_t new_short = size[0];
  auto new_long =
      static_cast<int64_t>(static_cast<double>(new_short) * static_cast<double>(longer) / static_cast<double>(shorter));
  if (max_size) {
    EMBER_CHECK(*max_size > new_short, "resize: max_size = ", *max_size,
                " must be strictly greater than the requested size for the smaller edge size = ", new_short);
    if (new_long > *max_size) {
      new_short = static_cast<int64_t>(static_cast<double>(*max_size) * static_cast<double>(new_short) /
                                       static_cast<double>(new_long));
      new_long = *max_size;
    }
  }
  return w <= h ? CanvasSize{new_long, new_short} : CanvasSize{new_short, new_long};
}

std::tuple<Tensor, CanvasSize> resize_bounding_boxes(const Tensor& bounding_boxes, const CanvasSize& canvas_size,
                                                     const IntList& size, std::optional<int64_t> max_size) {
  detail::check_boxes(bounding_boxes, "resize_bounding_boxes");
  const CanvasSize out = compute_resized_output_size(canvas_size, size, max_size);
  if (out == canvas_size) return {bounding_boxes, canvas_size};
  const double wr = static_cast<double>(out[1]) / static_cast<double>(canvas_size[1]);
  const double hr = static_cast<double>(out[0]) / static_cast<double>(canvas_size[0]);
  // float32 ratios, as torchvision's torch.tensor([...]) (float64 boxes promote them exactly).
  const Tensor ratios = tensor(std::vector<double>{wr, hr, wr, hr}, kFloat);
  return {(bounding_boxes * ratios).to(bounding_boxes.scalar_type()), out};
}

std::tuple<Tensor, CanvasSize> crop_bounding_boxes(const Tensor& bounding_boxes, BoundingBoxFormat format, int64_t top,
                                                   int64_t left, int64_t height, int64_t width) {
  detail::check_boxes(bounding_boxes, "crop_bounding_boxes");
  EMBER_CHECK(height >= 0 && width >= 0, "crop_bounding_boxes: height and width must be non-negative, got ", height,
              " and ", width);
  const CanvasSize canvas = {height, width};
  return {clamp_boxes(translate_boxes(bounding_boxes, format, -left, -top), format, canvas), canvas};
}

std::tuple<Tensor, CanvasSize> center_crop_bounding_boxes(const Tensor& bounding_boxes, BoundingBoxFormat format,
                                                          const CanvasSize& canvas_size, const IntList& output_size) {
  detail::check_canvas(canvas_size, "center_crop_bounding_boxes");
  EMBER_CHECK(output_size.size() == 1 || output_size.size() == 2,
              "center_crop_bounding_boxes: output_size must have 1 or 2 elements, got ", output_size.size());
  const int64_t ch = output_size[0], cw = output_size.size() == 2 ? output_size[1] : output_size[0];
  // int(round((size - crop) / 2)) with Python's half-to-even round.
  const auto top = static_cast<int64_t>(std::nearbyint(static_cast<double>(canvas_size[0] - ch) / 2.0));
  const auto left = static_cast<int64_t>(std::nearbyint(static_cast<double>(canvas_size[1] - cw) / 2.0));
  return crop_bounding_boxes(bounding_boxes, format, top, left, ch, cw);
}

std::tuple<Tensor, CanvasSize> resized_crop_bounding_boxes(const Tensor& bounding_boxes, BoundingBoxFormat format,
                                                           int64_t top, int64_t left, int64_t height, int64_t width,
                                                           const IntList& size) {
  auto [cropped, canvas] = crop_bounding_boxes(bounding_boxes, format, top, left, height, width);
  return resize_bounding_boxes(cropped, canvas, size);
}

std::tuple<Tensor, CanvasSize> pad_bounding_boxes(const Tensor& bounding_boxes, BoundingBoxFormat format,
                                                  const CanvasSize& canvas_size, const IntList& padding,
                                                  const std::string& padding_mode) {
  detail::check_boxes(bounding_boxes, "pad_bounding_boxes");
  detail::check_canvas(canvas_size, "pad_bounding_boxes");
  EMBER_CHECK(
      padding_mode == "constant" || padding_mode == "edge" || padding_mode == "reflect" || padding_mode == "symmetric",
      "pad_bounding_boxes: padding_mode should be constant, edge, reflect or symmetric, got '", padding_mode, "'");
  const std::vector<int64_t> p = parse_padding(padding);  // left, top, right, bottom
  const CanvasSize canvas = {canvas_size[0] + p[1] + p[3], canvas_size[1] + p[0] + p[2]};
  EMBER_CHECK(canvas[0] >= 0 && canvas[1] >= 0, "pad_bounding_boxes: padding leaves a negative canvas (", canvas[0],
              ", ", canvas[1], ")");
  return {clamp_boxes(translate_boxes(bounding_boxes, format, p[0], p[1]), format, canvas), canvas};
}

}  // namespace torch::vision::transforms::v2::functional
