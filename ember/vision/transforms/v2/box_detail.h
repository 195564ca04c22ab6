#pragma once
// What the v2 box kernels' .cpp files share (not public API).
#include <string_view>
#include <vector>

#include "ember/core/tensor.h"

namespace torch::vision::transforms::v2::detail {

// Raises unless boxes is [..., 4].
void check_boxes(const Tensor& boxes, std::string_view op);
void check_canvas(const std::vector<int64_t>& canvas_size, std::string_view op);
// xyxy [M, 4] -> the corners [M, 4, 2]: (x1, y1), (x2, y1), (x2, y2), (x1, y2).
Tensor box_corners(const Tensor& xyxy);
// corners [M, 4, 2] -> their bounding boxes xyxy [M, 4].
Tensor corners_to_boxes(const Tensor& corners);
// functional._get_inverse_affine_matrix(center, angle, translate, scale, shear, inverted).
std::vector<double> affine_matrix(const std::vector<double>& center, double angle, const std::vector<double>& translate,
                                  double scale, const std::vector<double>& shear, bool inverted);
// functional._get_perspective_coeffs (least squares in float32, as torchvision).
std::vector<double> perspective_coeffs(const std::vector<std::vector<int64_t>>& startpoints,
                                       const std::vector<std::vector<int64_t>>& endpoints, std::string_view op);

}  // namespace torch::vision::transforms::v2::detail
