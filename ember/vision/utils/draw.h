#pragma once
// torchvision.utils drawing: draw_bounding_boxes, draw_segmentation_masks and
// draw_keypoints on uint8 [C, H, W] images, returning a new image. Boxes
// (outline and translucent fill) and masks reproduce torchvision's pixels;
// keypoint connections reproduce PIL's ImageDraw.line (Bresenham for width 1,
// its filled quadrilateral for wider lines); keypoint discs are Ember's, equal
// to PIL's ellipse at most radii (tests/vision/utils_draw_test.cpp). Box labels are rendered
// by FreeType from the TrueType/OpenType file `font` at `font_size` (default
// 10) pixels per em, in the box's colour at its top-left corner inside the
// outline, as PIL's ImageFont.truetype; with no font, DejaVuSans
// (fonts-dejavu-core) stands in for PIL's built-in bitmap font, which is not a
// file a C++ user has.
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "ember/core/tensor.h"
#include "ember/vision/utils/color.h"

namespace torch::vision::utils {

Tensor draw_bounding_boxes(const Tensor& image, const Tensor& boxes,
                           const std::optional<std::vector<std::string>>& labels = std::nullopt,
                           const std::optional<std::vector<Color>>& colors = std::nullopt, bool fill = false,
                           int64_t width = 1, const std::optional<std::string>& font = std::nullopt,
                           std::optional<int64_t> font_size = std::nullopt);
// Braced colour lists: draw_bounding_boxes(img, boxes, std::nullopt, {"red", "blue"}).
Tensor draw_bounding_boxes(const Tensor& image, const Tensor& boxes,
                           const std::optional<std::vector<std::string>>& labels, std::initializer_list<Color> colors,
                           bool fill = false, int64_t width = 1, const std::optional<std::string>& font = std::nullopt,
                           std::optional<int64_t> font_size = std::nullopt);
// One colour for every box.
Tensor draw_bounding_boxes(const Tensor& image, const Tensor& boxes,
                           const std::optional<std::vector<std::string>>& labels, const Color& color, bool fill = false,
                           int64_t width = 1, const std::optional<std::string>& font = std::nullopt,
                           std::optional<int64_t> font_size = std::nullopt);

// masks: bool Tensor[N, H, W] or [H, W]; each blended into the image with alpha.
Tensor draw_segmentation_masks(const Tensor& image, const Tensor& masks, double alpha = 0.8,
                               const std::optional<std::vector<Color>>& colors = std::nullopt);
Tensor draw_segmentation_masks(const Tensor& image, const Tensor& masks, double alpha, const Color& color);
Tensor draw_segmentation_masks(const Tensor& image, const Tensor& masks, double alpha,
                               std::initializer_list<Color> colors);

// keypoints: Tensor[num_instances, K, 2]; connectivity: pairs of keypoint
// indices joined by white lines of `width` (empty: none, as Python's None); keypoints are discs of `radius`
// in `colors` (none drawn without a colour, as torchvision's PIL call).
Tensor draw_keypoints(const Tensor& image, const Tensor& keypoints,
                      const std::vector<std::pair<int64_t, int64_t>>& connectivity = {},
                      const std::optional<Color>& colors = std::nullopt, int64_t radius = 2, int64_t width = 3);

}  // namespace torch::vision::utils
