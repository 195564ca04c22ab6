#pragma once
// transforms.v2.functional's bounding-box kernels: each moves boxes [N, 4] (or
// [4]) given in `format` on a canvas (height, width) as the matching image
// kernel moves pixels. Those that change the canvas return (boxes,
// new canvas_size). Boxes are clamped to the canvas where torchvision's v2
// clamps them (crop, pad, rotate, affine, perspective, elastic).
#include <cstdint>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "ember/core/tensor.h"
#include "ember/vision/transforms/optional_list.h"
#include "ember/vision/tv_tensors/bounding_boxes.h"

namespace torch::vision::transforms::v2::functional {

using ::torch::vision::transforms::IntList;
using ::torch::vision::transforms::OptionalInts;
using ::torch::vision::transforms::Shear;
using ::torch::vision::tv_tensors::BoundingBoxes;
using ::torch::vision::tv_tensors::BoundingBoxFormat;
using CanvasSize = std::vector<int64_t>;  // (height, width)

// ---- format and clamping ----
// A plain tensor needs old_format; BoundingBoxes carry it (old_format must then be nullopt).
Tensor convert_bounding_box_format(const Tensor& inpt, std::optional<BoundingBoxFormat> old_format = std::nullopt,
                                   std::optional<BoundingBoxFormat> new_format = std::nullopt, bool inplace = false);
BoundingBoxes convert_bounding_box_format(const BoundingBoxes& inpt,
                                          std::optional<BoundingBoxFormat> old_format = std::nullopt,
                                          std::optional<BoundingBoxFormat> new_format = std::nullopt,
                                          bool inplace = false);
// A plain tensor needs format and canvas_size; BoundingBoxes carry them.
Tensor clamp_bounding_boxes(const Tensor& inpt, std::optional<BoundingBoxFormat> format = std::nullopt,
                            std::optional<CanvasSize> canvas_size = std::nullopt);
BoundingBoxes clamp_bounding_boxes(const BoundingBoxes& inpt, std::optional<BoundingBoxFormat> format = std::nullopt,
                                   std::optional<CanvasSize> canvas_size = std::nullopt);

// ---- flips, resize, crops, pad ----
Tensor horizontal_flip_bounding_boxes(const Tensor& bounding_boxes, BoundingBoxFormat format,
                                      const CanvasSize& canvas_size);
Tensor vertical_flip_bounding_boxes(const Tensor& bounding_boxes, BoundingBoxFormat format,
                                    const CanvasSize& canvas_size);
// The output size resize gives an image of canvas_size (torchvision's _compute_resized_output_size).
CanvasSize compute_resized_output_size(const CanvasSize& canvas_size, const IntList& size,
                                       std::optional<int64_t> max_size = std::nullopt);
std::tuple<Tensor, CanvasSize> resize_bounding_boxes(const Tensor& bounding_boxes, const CanvasSize& canvas_size,
                                                     const IntList& size,
                                                     std::optional<int64_t> max_size = std::nullopt);
std::tuple<Tensor, CanvasSize> crop_bounding_boxes(const Tensor& bounding_boxes, BoundingBoxFormat format, int64_t top,
                                                   int64_t left, int64_t height, int64_t width);
std::tuple<Tensor, CanvasSize> center_crop_bounding_boxes(const Tensor& bounding_boxes, BoundingBoxFormat format,
                                                          const CanvasSize& canvas_size, const IntList& output_size);
std::tuple<Tensor, CanvasSize> resized_crop_bounding_boxes(const Tensor& bounding_boxes, BoundingBoxFormat format,
                                                           int64_t top, int64_t left, int64_t height, int64_t width,
                                                           const IntList& size);
// Boxes move with the content for every padding mode: the padded border (a
// constant, or mirrored/replicated pixels) gains no boxes.
std::tuple<Tensor, CanvasSize> pad_bounding_boxes(const Tensor& bounding_boxes, BoundingBoxFormat format,
                                                  const CanvasSize& canvas_size, const IntList& padding,
                                                  const std::string& padding_mode = "constant");

// ---- warps: the four corners of each box through the transform, boxed again ----
// center: [x, y] in pixels (nullopt: the canvas centre); with expand the canvas grows as rotate's image.
std::tuple<Tensor, CanvasSize> rotate_bounding_boxes(const Tensor& bounding_boxes, BoundingBoxFormat format,
                                                     const CanvasSize& canvas_size, double angle, bool expand = false,
                                                     const std::optional<std::vector<double>>& center = std::nullopt);
Tensor affine_bounding_boxes(const Tensor& bounding_boxes, BoundingBoxFormat format, const CanvasSize& canvas_size,
                             double angle, const std::vector<double>& translate, double scale, const Shear& shear,
                             const std::optional<std::vector<double>>& center = std::nullopt);
Tensor perspective_bounding_boxes(const Tensor& bounding_boxes, BoundingBoxFormat format, const CanvasSize& canvas_size,
                                  const std::vector<std::vector<int64_t>>& startpoints,
                                  const std::vector<std::vector<int64_t>>& endpoints);
// displacement: [1, H, W, 2] as elastic_transform's; each corner moves by the
// approximate inverse (identity grid - displacement) at its pixel.
Tensor elastic_bounding_boxes(const Tensor& bounding_boxes, BoundingBoxFormat format, const CanvasSize& canvas_size,
                              const Tensor& displacement);

}  // namespace torch::vision::transforms::v2::functional
