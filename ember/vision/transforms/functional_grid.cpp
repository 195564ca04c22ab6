// rotate, affine, perspective and elastic_transform: torchvision builds a
// sampling grid in the image's float dtype (float32 for integer images) and
// resamples with grid_sample; the fill value enters through an extra all-ones
// channel that grid_sample carries along as the "inside the image" weight.
#include <cmath>
#include <numbers>

#include "ember/core/error.h"
#include "ember/linalg/spectral.h"
#include "ember/ops/all_ops.h"
#include "ember/vision/transforms/detail.h"
#include "ember/vision/transforms/functional.h"

namespace torch::vision::transforms::functional {

using namespace ::torch::indexing;

namespace {

int64_t grid_mode(InterpolationMode mode, const char* op) {
  if (mode == InterpolationMode::BILINEAR) return 0;
  if (mode == InterpolationMode::NEAREST) return 1;
  EMBER_ERROR(op, ": interpolation mode '", interpolation_mode_name(mode),
              "' is unsupported with tensor input (supported: NEAREST, BILINEAR)");
}

void check_fill(const Tensor& img, const OptionalFloats& fill, const char* op) {
  if (!fill) return;
  const int64_t c = detail::num_channels(img);
  EMBER_CHECK(fill->size() <= 1 || static_cast<int64_t>(fill->size()) == c, op,
              ": the number of elements in 'fill' cannot broadcast to match the number of channels of the image (",
              fill->size(), " != ", c, ")");
}

ScalarType grid_dtype(const Tensor& img) { return isFloatingType(img.scalar_type()) ? img.scalar_type() : kFloat; }

// torch.linspace's values in float32 (torchvision leaves the dtype to the default).
Tensor linspace_f32(double start, double end, int64_t steps) { return linspace(start, end, steps, kFloat); }

// functional_tensor._apply_grid_transform.
Tensor apply_grid_transform(const Tensor& img, Tensor grid, int64_t mode, const OptionalFloats& fill) {
  const detail::Batched b = detail::to_batched(img, grid.scalar_type(), false);
  Tensor x = b.x;
  const int64_t n = x.size(0);
  if (n > 1) grid = grid.expand({n, grid.size(1), grid.size(2), grid.size(3)});
  if (fill) x = cat({x, ones({n, 1, x.size(2), x.size(3)}, x.scalar_type())}, 1);
  Tensor y = grid_sampler(x, grid, mode, /*padding zeros*/ 0, /*align_corners*/ false);
  if (fill) {
    Tensor mask = y.index({Slice(), Slice(-1, None)});
    y = y.index({Slice(), Slice(None, -1)});
    mask = mask.expand_as(y);
    const std::vector<double>& f = fill->empty() ? std::vector<double>{0.0} : *fill;
    const Tensor fill_img = tensor(f, y.scalar_type()).view({1, static_cast<int64_t>(f.size()), 1, 1}).expand_as(y);
    if (mode == 1)
      y = where(mask < 0.5, fill_img, y);
    else
      y = y * mask + (1.0 - mask) * fill_img;
  }
  return b.restore(y);
}

// functional_tensor._gen_affine_grid: output pixel centres mapped through theta,
// normalised to grid_sample's [-1, 1].
Tensor gen_affine_grid(const Tensor& theta, int64_t w, int64_t h, int64_t ow, int64_t oh) {
  const double d = 0.5;
  Tensor base = empty({1, oh, ow, 3}, theta.scalar_type());
  base.index({Ellipsis, 0}).copy_(linspace_f32(-ow * 0.5 + d, ow * 0.5 + d - 1, ow));
  base.index({Ellipsis, 1}).copy_(linspace_f32(-oh * 0.5 + d, oh * 0.5 + d - 1, oh).unsqueeze(-1));
  base.index({Ellipsis, 2}).fill_(1);
  const Tensor rescaled = theta.transpose(1, 2) / tensor({0.5 * w, 0.5 * h}, theta.scalar_type());
  return base.view({1, oh * ow, 3}).bmm(rescaled).view({1, oh, ow, 2});
}

// functional._get_inverse_affine_matrix (inverted = true).
std::vector<double> inverse_affine_matrix(const std::vector<double>& center, double angle,
                                          const std::vector<double>& translate, double scale,
                                          const std::vector<double>& shear) {
  // Python's math.radians multiplies by pi / 180; keep its rounding.
  constexpr double deg = std::numbers::pi / 180.0;
  const double rot = angle * deg, sx = shear[0] * deg, sy = shear[1] * deg;
  const double cx = center[0], cy = center[1], tx = translate[0], ty = translate[1];
  const double a = std::cos(rot - sy) / std::cos(sy);
  const double b = -std::cos(rot - sy) * std::tan(sx) / std::cos(sy) - std::sin(rot);
  const double c = std::sin(rot - sy) / std::cos(sy);
  const double dd = -std::sin(rot - sy) * std::tan(sx) / std::cos(sy) + std::cos(rot);
  std::vector<double> m = {dd, -b, 0.0, -c, a, 0.0};
  for (auto& v : m) v /= scale;
  m[2] += m[0] * (-cx - tx) + m[1] * (-cy - ty);
  m[5] += m[3] * (-cx - tx) + m[4] * (-cy - ty);
  m[2] += cx;
  m[5] += cy;
  return m;
}

// functional_tensor._compute_affine_output_size, in float32 as torchvision computes it.
std::pair<int64_t, int64_t> affine_output_size(const std::vector<double>& matrix, int64_t w, int64_t h) {
  const Tensor pts =
      tensor({-0.5 * w, -0.5 * h, 1.0, -0.5 * w, 0.5 * h, 1.0, 0.5 * w, 0.5 * h, 1.0, 0.5 * w, -0.5 * h, 1.0}, kFloat)
          .view({4, 3});
  const Tensor theta = tensor(matrix, kFloat).view({2, 3});
  const Tensor new_pts = matmul(pts, theta.t());
  const Tensor shift = tensor({w * 0.5, h * 0.5}, kFloat);
  const Tensor min_vals = std::get<0>(new_pts.min(0)) + shift;
  const Tensor max_vals = std::get<0>(new_pts.max(0)) + shift;
  const double tol = 1e-4;
  const Tensor cmax = ceil((max_vals / tol).trunc() * tol);
  const Tensor cmin = floor((min_vals / tol).trunc() * tol);
  const Tensor size = cmax - cmin;
  return {static_cast<int64_t>(size[0].item<float>()), static_cast<int64_t>(size[1].item<float>())};
}

std::vector<double> center_offset(const Tensor& img, const OptionalInts& center, const char* op) {
  if (!center) return {0.0, 0.0};
  EMBER_CHECK(center->size() == 2, op, ": center should be a sequence of two values [x, y], got ", center->size(),
              " values");
  return {1.0 * ((*center)[0] - img.size(-1) * 0.5), 1.0 * ((*center)[1] - img.size(-2) * 0.5)};
}

}  // namespace

Tensor rotate(const Tensor& img, double angle, InterpolationMode interpolation, bool expand, const OptionalInts& center,
              const OptionalFloats& fill) {
  detail::check_image(img, "rotate");
  const int64_t mode = grid_mode(interpolation, "rotate");
  check_fill(img, fill, "rotate");
  const std::vector<double> matrix =
      inverse_affine_matrix(center_offset(img, center, "rotate"), -angle, {0.0, 0.0}, 1.0, {0.0, 0.0});
  const int64_t w = img.size(-1), h = img.size(-2);
  auto [ow, oh] = expand ? affine_output_size(matrix, w, h) : std::pair{w, h};
  const Tensor theta = tensor(matrix, grid_dtype(img)).reshape({1, 2, 3});
  return apply_grid_transform(img, gen_affine_grid(theta, w, h, ow, oh), mode, fill);
}

Tensor affine(const Tensor& img, double angle, const std::vector<int64_t>& translate, double scale,
              const Shear& shear_in, InterpolationMode interpolation, const OptionalFloats& fill,
              const OptionalInts& center) {
  detail::check_image(img, "affine");
  EMBER_CHECK(translate.size() == 2, "affine: translate should be a sequence of length 2, got ", translate.size());
  EMBER_CHECK(scale > 0.0, "affine: scale should be positive, got ", scale);
  const std::vector<double>& shear = shear_in.values();
  EMBER_CHECK(shear.size() == 1 || shear.size() == 2,
              "affine: shear should be a single value or a sequence of two values, got ", shear.size(), " values");
  const int64_t mode = grid_mode(interpolation, "affine");
  check_fill(img, fill, "affine");
  const std::vector<double> sh = shear.size() == 1 ? std::vector<double>{shear[0], shear[0]} : shear;
  const std::vector<double> tr = {1.0 * translate[0], 1.0 * translate[1]};
  const std::vector<double> matrix = inverse_affine_matrix(center_offset(img, center, "affine"), angle, tr, scale, sh);
  const Tensor theta = tensor(matrix, grid_dtype(img)).reshape({1, 2, 3});
  const int64_t w = img.size(-1), h = img.size(-2);
  return apply_grid_transform(img, gen_affine_grid(theta, w, h, w, h), mode, fill);
}

Tensor perspective(const Tensor& img, const std::vector<std::vector<int64_t>>& startpoints,
                   const std::vector<std::vector<int64_t>>& endpoints, InterpolationMode interpolation,
                   const OptionalFloats& fill) {
  detail::check_image(img, "perspective");
  EMBER_CHECK(startpoints.size() == 4 && endpoints.size() == 4,
              "perspective: startpoints and endpoints should have four [x, y] points each, got ", startpoints.size(),
              " and ", endpoints.size());
  for (const auto* pts : {&startpoints, &endpoints})
    for (const auto& p : *pts)
      EMBER_CHECK(p.size() == 2, "perspective: each point should be [x, y], got ", p.size(), " values");
  const int64_t mode = grid_mode(interpolation, "perspective");
  check_fill(img, fill, "perspective");
  // functional._get_perspective_coeffs: the 8 homography coefficients by least squares in float32.
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
  for (int k = 0; k < 8; ++k) c[k] = sol[k].item<double>();
  for (double v : c) EMBER_CHECK(std::isfinite(v), "perspective: the points do not define a perspective transform");
  // functional_tensor._perspective_grid.
  const ScalarType dt = grid_dtype(img);
  const int64_t ow = img.size(-1), oh = img.size(-2);
  const Tensor theta1 = tensor({c[0], c[1], c[2], c[3], c[4], c[5]}, dt).view({1, 2, 3});
  const Tensor theta2 = tensor({c[6], c[7], 1.0, c[6], c[7], 1.0}, dt).view({1, 2, 3});
  Tensor base = empty({1, oh, ow, 3}, dt);
  base.index({Ellipsis, 0}).copy_(linspace_f32(0.5, ow * 1.0 + 0.5 - 1.0, ow));
  base.index({Ellipsis, 1}).copy_(linspace_f32(0.5, oh * 1.0 + 0.5 - 1.0, oh).unsqueeze(-1));
  base.index({Ellipsis, 2}).fill_(1);
  const Tensor flat = base.view({1, oh * ow, 3});
  const Tensor g1 = flat.bmm(theta1.transpose(1, 2) / tensor({0.5 * ow, 0.5 * oh}, dt));
  const Tensor g2 = flat.bmm(theta2.transpose(1, 2));
  const Tensor grid = (g1 / g2 - 1.0).view({1, oh, ow, 2});
  return apply_grid_transform(img, grid, mode, fill);
}

Tensor elastic_transform(const Tensor& img, const Tensor& displacement, InterpolationMode interpolation,
                         const OptionalFloats& fill) {
  detail::check_image(img, "elastic_transform");
  EMBER_CHECK(displacement.defined(), "elastic_transform: displacement is undefined");
  const int64_t h = img.size(-2), w = img.size(-1);
  EMBER_CHECK(displacement.dim() == 4 && displacement.size(0) == 1 && displacement.size(1) == h &&
                  displacement.size(2) == w && displacement.size(3) == 2,
              "elastic_transform: displacement shape should be [1, ", h, ", ", w, ", 2], but given ",
              displacement.sizes());
  EMBER_CHECK(isFloatingType(displacement.scalar_type()), "elastic_transform: displacement must be floating, got ",
              displacement.scalar_type());
  const int64_t mode = grid_mode(interpolation, "elastic_transform");
  check_fill(img, fill, "elastic_transform");
  // functional_tensor._create_identity_grid, in float32.
  const Tensor gy = linspace_f32((-h + 1) / static_cast<double>(h), (h - 1) / static_cast<double>(h), h);
  const Tensor gx = linspace_f32((-w + 1) / static_cast<double>(w), (w - 1) / static_cast<double>(w), w);
  const Tensor identity = stack({gx.view({1, w}).expand({h, w}), gy.view({h, 1}).expand({h, w})}, -1).unsqueeze(0);
  return apply_grid_transform(img, identity + displacement, mode, fill);
}

}  // namespace torch::vision::transforms::functional
