#include "ember/vision/transforms/v2/box_detail.h"

#include <cmath>
#include <numbers>

#include "ember/core/error.h"
#include "ember/linalg/spectral.h"
#include "ember/ops/all_ops.h"

namespace torch::vision::transforms::v2::detail {

void check_boxes(const Tensor& boxes, std::string_view op) {
  EMBER_CHECK(boxes.defined(), op, ": bounding_boxes is undefined");
  EMBER_CHECK(boxes.dim() >= 1 && boxes.size(-1) == 4, op, ": expected bounding boxes of shape [..., 4], got ",
              boxes.sizes());
}

void check_canvas(const std::vector<int64_t>& canvas_size, std::string_view op) {
  EMBER_CHECK(canvas_size.size() == 2, op, ": canvas_size should be (height, width), got ", canvas_size.size(),
              " values");
  EMBER_CHECK(canvas_size[0] >= 0 && canvas_size[1] >= 0, op, ": canvas_size should be non-negative, got (",
              canvas_size[0], ", ", canvas_size[1], ")");
}

Tensor box_corners(const Tensor& xyxy) {
  const Tensor idx = tensor(std::vector<int64_t>{0, 1, 2, 1, 2, 3, 0, 3}, kLong);
  return xyxy.index_select(1, idx).reshape({-1, 4, 2});
}

Tensor corners_to_boxes(const Tensor& corners) { return cat({corners.amin({1}), corners.amax({1})}, 1); }

std::vector<double> affine_matrix(const std::vector<double>& center, double angle, const std::vector<double>& translate,
                                  double scale, const std::vector<double>& shear, bool inverted) {
  constexpr double deg = std::numbers::pi / 180.0;
  const double rot = angle * deg, sx = shear[0] * deg, sy = shear[1] * deg;
  const double cx = center[0], cy = center[1], tx = translate[0], ty = translate[1];
  // The rotation-shear matrix RSS = [[a, b], [c, d]] (scale applied below).
  const double a = std::cos(rot - sy) / std::cos(sy);
  const double b = -std::cos(rot - sy) * std::tan(sx) / std::cos(sy) - std::sin(rot);
  const double c = std::sin(rot - sy) / std::cos(sy);
  const double d = -std::sin(rot - sy) * std::tan(sx) / std::cos(sy) + std::cos(rot);
  std::vector<double> m;
  if (inverted) {
    m = {d, -b, 0.0, -c, a, 0.0};
    for (auto& v : m) v /= scale;
    m[2] += m[0] * (-cx - tx) + m[1] * (-cy - ty);
    m[5] += m[3] * (-cx - tx) + m[4] * (-cy - ty);
    m[2] += cx;
    m[5] += cy;
  } else {
    m = {a, b, 0.0, c, d, 0.0};
    for (auto& v : m) v *= scale;
    m[2] += m[0] * (-cx) + m[1] * (-cy);
    m[5] += m[3] * (-cx) + m[4] * (-cy);
    m[2] += cx + tx;
    m[5] += cy + ty;
  }
  return m;
}

std::vector<double> perspective_coeffs(const std::vector<std::vector<int64_t>>& startpoints,
                                       const std::vector<std::vector<int64_t>>& endpoints, std::string_view op) {
  EMBER_CHECK(startpoints.size() == 4 && endpoints.size() == 4, op,
              ": startpoints and endpoints should have four [x, y] points each, got ", startpoints.size(), " and ",
              endpoints.size());
  for (const auto* pts : {&startpoints, &endpoints})
    for (const auto& p : *pts)
      EMBER_CHECK(p.size() == 2, op, ": each point should be [x, y], got ", p.size(), " values");
  std::vector<float> a(64), bv(8);
  for (size_t i = 0; i < 4; ++i) {
    const double x1 = endpoints[i][0], y1 = endpoints[i][1], x2 = startpoints[i][0], y2 = startpoints[i][1];
    const double r0[8] = {x1, y1, 1, 0, 0, 0, -x2 * x1, -x2 * y1};
    const double r1[8] = {0, 0, 0, x1, y1, 1, -y2 * x1, -y2 * y1};
    for (int k = 0; k < 8; ++k) {
      a[16 * i + k] = static_cast<float>(r0[k]);
      a[16 * i + 8 + k] = static_cast<float>(r1[k]);
    }
    bv[2 * i] = static_cast<float>(x2);
    bv[2 * i + 1] = static_cast<float>(y2);
  }
  const Tensor sol =
      std::get<0>(linalg::lstsq(tensor(a, kFloat).view({8, 8}), tensor(bv, kFloat).view({8, 1}), std::nullopt, "gels"))
          .view({8})
          .to(kDouble);
  std::vector<double> c(8);
  for (int k = 0; k < 8; ++k) {
    c[k] = sol[k].item<double>();
    EMBER_CHECK(std::isfinite(c[k]), op, ": the points do not define a perspective transform");
  }
  return c;
}

}  // namespace torch::vision::transforms::v2::detail
