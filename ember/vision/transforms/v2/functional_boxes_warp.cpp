// The bounding-box kernels of the warps (rotate, affine, perspective,
// elastic): the four corners of each box go through the point transform the
// image kernel inverts, and the result is the box around them, clamped.
#include <algorithm>
#include <utility>

#include "ember/core/error.h"
#include "ember/ops/all_ops.h"
#include "ember/vision/transforms/v2/box_detail.h"
#include "ember/vision/transforms/v2/functional_boxes.h"

namespace torch::vision::transforms::v2::functional {

namespace {

struct Prepared {
  Tensor xyxy;  // [M, 4] floating
  std::vector<int64_t> shape;
  ScalarType dtype;
};

Prepared prepare(const Tensor& boxes, BoundingBoxFormat format) {
  const Tensor f = boxes.is_floating_point() ? boxes : boxes.to(kFloat);
  return {convert_bounding_box_format(f, format, BoundingBoxFormat::XYXY).reshape({-1, 4}), boxes.sizes().vec(),
          boxes.scalar_type()};
}

Tensor finish(const Prepared& p, const Tensor& xyxy, BoundingBoxFormat format, const CanvasSize& canvas) {
  const Tensor clamped = clamp_bounding_boxes(xyxy, BoundingBoxFormat::XYXY, canvas);
  return convert_bounding_box_format(clamped, BoundingBoxFormat::XYXY, format).reshape(p.shape).to(p.dtype);
}

// Corners [M, 4, 2] through the 2x3 matrix m.
Tensor apply_affine(const Tensor& corners, const std::vector<double>& m) {
  const Tensor pts = corners.reshape({-1, 2});
  const Tensor homog = cat({pts, ones({pts.size(0), 1}, pts.scalar_type())}, 1);
  const Tensor mt = tensor(m, pts.scalar_type()).reshape({2, 3}).t();
  return matmul(homog, mt).reshape({-1, 4, 2});
}

std::tuple<Tensor, CanvasSize> affine_with_expand(const Tensor& bounding_boxes, BoundingBoxFormat format,
                                                  const CanvasSize& canvas_size, double angle,
                                                  const std::vector<double>& translate, double scale,
                                                  const std::vector<double>& shear,
                                                  const std::optional<std::vector<double>>& center, bool expand,
                                                  const char* op) {
  detail::check_boxes(bounding_boxes, op);
  detail::check_canvas(canvas_size, op);
  EMBER_CHECK(translate.size() == 2, op, ": translate should be a sequence of length 2, got ", translate.size());
  EMBER_CHECK(scale > 0.0, op, ": scale should be positive, got ", scale);
  EMBER_CHECK(!center || center->size() == 2, op, ": center should be [x, y], got ", center->size(), " values");
  if (bounding_boxes.numel() == 0) return {bounding_boxes, canvas_size};
  const int64_t h = canvas_size[0], w = canvas_size[1];
  const std::vector<double> c = center ? *center : std::vector<double>{w * 0.5, h * 0.5};
  const std::vector<double> m = detail::affine_matrix(c, angle, translate, scale, shear, false);
  const Prepared p = prepare(bounding_boxes, format);
  Tensor out = detail::corners_to_boxes(apply_affine(detail::box_corners(p.xyxy), m));
  CanvasSize canvas = canvas_size;
  if (expand) {
    const ScalarType dt = p.xyxy.scalar_type();
    const Tensor frame = tensor(std::vector<double>{0.0, 0.0, 0.0, 1.0 * h, 1.0 * w, 1.0 * h, 1.0 * w, 0.0}, dt);
    const Tensor moved = apply_affine(frame.reshape({1, 4, 2}), m).reshape({4, 2});
    out = out - moved.amin({0}, true).repeat({1, 2});
    // The canvas rotate's expanded image gets: functional_tensor._compute_affine_output_size in
    // float32, on the matrix about the image centre as the image kernel builds it.
    const std::vector<double> inv = detail::affine_matrix({0.0, 0.0}, angle, translate, scale, shear, true);
    const Tensor pts =
        tensor({-0.5 * w, -0.5 * h, 1.0, -0.5 * w, 0.5 * h, 1.0, 0.5 * w, 0.5 * h, 1.0, 0.5 * w, -0.5 * h, 1.0}, kFloat)
            .view({4, 3});
    const Tensor new_pts = matmul(pts, tensor(inv, kFloat).view({2, 3}).t());
    const Tensor shift = tensor({w * 0.5, h * 0.5}, kFloat);
    const double tol = 1e-4;
    const Tensor cmax = ceil(((new_pts.amax({0}) + shift) / tol).trunc() * tol);
    const Tensor cmin = floor(((new_pts.amin({0}) + shift) / tol).trunc() * tol);
    const Tensor size = cmax - cmin;
    canvas = {static_cast<int64_t>(size[1].item<float>()), static_cast<int64_t>(size[0].item<float>())};
  }
  return {finish(p, out, format, canvas), canvas};
}

}  // namespace

std::tuple<Tensor, CanvasSize> rotate_bounding_boxes(const Tensor& bounding_boxes, BoundingBoxFormat format,
                                                     const CanvasSize& canvas_size, double angle, bool expand,
                                                     const std::optional<std::vector<double>>& center) {
  // As torchvision: expand ignores the centre (the expanded canvas is centred).
  const std::optional<std::vector<double>> c = expand ? std::nullopt : center;
  return affine_with_expand(bounding_boxes, format, canvas_size, -angle, {0.0, 0.0}, 1.0, {0.0, 0.0}, c, expand,
                            "rotate_bounding_boxes");
}

Tensor affine_bounding_boxes(const Tensor& bounding_boxes, BoundingBoxFormat format, const CanvasSize& canvas_size,
                             double angle, const std::vector<double>& translate, double scale, const Shear& shear,
                             const std::optional<std::vector<double>>& center) {
  const std::vector<double>& s = shear.values();
  EMBER_CHECK(s.size() == 1 || s.size() == 2,
              "affine_bounding_boxes: shear should be a single value or a sequence of two values, got ", s.size(),
              " values");
  const std::vector<double> sh = s.size() == 1 ? std::vector<double>{s[0], s[0]} : s;
  return std::get<0>(affine_with_expand(bounding_boxes, format, canvas_size, angle, translate, scale, sh, center, false,
                                        "affine_bounding_boxes"));
}

Tensor perspective_bounding_boxes(const Tensor& bounding_boxes, BoundingBoxFormat format, const CanvasSize& canvas_size,
                                  const std::vector<std::vector<int64_t>>& startpoints,
                                  const std::vector<std::vector<int64_t>>& endpoints) {
  detail::check_boxes(bounding_boxes, "perspective_bounding_boxes");
  detail::check_canvas(canvas_size, "perspective_bounding_boxes");
  const std::vector<double> c = detail::perspective_coeffs(startpoints, endpoints, "perspective_bounding_boxes");
  if (bounding_boxes.numel() == 0) return bounding_boxes;
  // The coefficients map output points to input points; boxes need the inverse homography.
  const double denom = c[0] * c[4] - c[1] * c[3];
  EMBER_CHECK(denom != 0.0, "perspective_bounding_boxes: the perspective transform cannot be inverted");
  const std::vector<double> inv = {
      (c[4] - c[5] * c[7]) / denom,         (-c[1] + c[2] * c[7]) / denom,        (c[1] * c[5] - c[2] * c[4]) / denom,
      (-c[3] + c[5] * c[6]) / denom,        (c[0] - c[2] * c[6]) / denom,         (-c[0] * c[5] + c[2] * c[3]) / denom,
      (-c[4] * c[6] + c[3] * c[7]) / denom, (-c[0] * c[7] + c[1] * c[6]) / denom,
  };
  const Prepared p = prepare(bounding_boxes, format);
  const ScalarType dt = p.xyxy.scalar_type();
  const Tensor theta1 = tensor(std::vector<double>{inv[0], inv[1], inv[2], inv[3], inv[4], inv[5]}, dt).view({2, 3});
  const Tensor theta2 = tensor(std::vector<double>{inv[6], inv[7], 1.0, inv[6], inv[7], 1.0}, dt).view({2, 3});
  const Tensor pts = detail::box_corners(p.xyxy).reshape({-1, 2});
  const Tensor homog = cat({pts, ones({pts.size(0), 1}, dt)}, 1);
  const Tensor moved = (matmul(homog, theta1.t()) / matmul(homog, theta2.t())).reshape({-1, 4, 2});
  return finish(p, detail::corners_to_boxes(moved), format, canvas_size);
}

Tensor elastic_bounding_boxes(const Tensor& bounding_boxes, BoundingBoxFormat format, const CanvasSize& canvas_size,
                              const Tensor& displacement) {
  detail::check_boxes(bounding_boxes, "elastic_bounding_boxes");
  detail::check_canvas(canvas_size, "elastic_bounding_boxes");
  const int64_t h = canvas_size[0], w = canvas_size[1];
  EMBER_CHECK(displacement.defined(), "elastic_bounding_boxes: displacement is undefined");
  EMBER_CHECK(displacement.dim() == 4 && displacement.size(0) == 1 && displacement.size(1) == h &&
                  displacement.size(2) == w && displacement.size(3) == 2,
              "elastic_bounding_boxes: displacement should be [1, ", h, ", ", w, ", 2], got ", displacement.sizes());
  if (bounding_boxes.numel() == 0) return bounding_boxes;
  EMBER_CHECK(h > 0 && w > 0, "elastic_bounding_boxes: cannot move boxes on an empty canvas (", h, ", ", w, ")");
  const Prepared p = prepare(bounding_boxes, format);
  const ScalarType dt = p.xyxy.scalar_type();
  // The identity grid (pixel centres in grid_sample's [-1, 1]) minus the displacement
  // approximates the inverse of the image's sampling grid.
  Tensor grid = empty({1, h, w, 2}, dt);
  grid.select(3, 0).copy_(linspace((-w + 1.0) / w, (w - 1.0) / w, w, dt));
  grid.select(3, 1).copy_(linspace((-h + 1.0) / h, (h - 1.0) / h, h, dt).unsqueeze(-1));
  const Tensor inv_grid = grid - displacement.to(dt);
  // Corners to pixel indices (ceil, as torchvision), kept inside the grid.
  const Tensor idx = detail::box_corners(p.xyxy).reshape({-1, 2}).ceil().to(kLong);
  const Tensor ix = idx.select(1, 0).clamp(0, std::max<int64_t>(w - 1, 0));
  const Tensor iy = idx.select(1, 1).clamp(0, std::max<int64_t>(h - 1, 0));
  const Tensor flat = inv_grid.reshape({h * w, 2}).index_select(0, iy * w + ix);
  const Tensor t_size = tensor(std::vector<double>{1.0 * w, 1.0 * h}, dt);
  const Tensor moved = ((flat + 1.0) * (t_size * 0.5) - 0.5).reshape({-1, 4, 2});
  return finish(p, detail::corners_to_boxes(moved), format, canvas_size);
}

}  // namespace torch::vision::transforms::v2::functional
