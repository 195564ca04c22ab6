// Upsampling as matrix products.
// Note [Upsampling by interpolation matrices]
// Nearest, linear and cubic interpolation are separable and linear in the
// input, so along each spatial dim they are a fixed (out, in) matrix A whose
// rows hold the interpolation weights PyTorch uses (same source-index and
// coefficient formulas as ATen's UpSample.h). The op is then
// y = A_h @ x @ A_w^T, and matmul's own gradients give first and higher
// derivatives. grad_fn names are therefore matmul's, not
// UpsampleBilinear2DBackward0. The cost is O(in * out) per row instead of
// O(out), which is fine at the sizes upsampling sees in small models.
// 3-d inputs apply the depth matrix to (N, C, D, OH * OW) after the other two.
// Antialiased resampling (Note [Antialiased interpolation]) is one more way to
// fill the same matrices.
#include "ember/ops/nn/upsample.h"
#include "ember/core/record_scope.h"

#include "ember/ops/nn/interpolate.h"

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <string>
#include <vector>

#include "ember/autograd/formula_node.h"
#include "ember/autograd/forward_ad.h"
#include "ember/autograd/grad_mode.h"
#include "ember/autograd/node.h"
#include "ember/core/checked_arith.h"
#include "ember/core/dispatch.h"
#include "ember/core/error.h"
#include "ember/core/parallel.h"
#include "ember/core/shape.h"
#include "ember/core/tensor.h"
#include "ember/ops/all_ops.h"
#include "ember/vmap/rules_nn.h"
#include "ember/vmap/vmap.h"

namespace torch {

namespace {

enum class Mode { kNearest, kNearestExact, kLinear, kCubic, kLinearAA, kCubicAA };

// ATen's area_pixel_compute_scale.
double pixel_scale(int64_t in, int64_t out, bool align_corners, std::optional<double> scale) {
  if (align_corners) return out > 1 ? double(in - 1) / double(out - 1) : 0.0;
  return scale && *scale > 0 ? 1.0 / *scale : double(in) / double(out);
}

double cubic1(double x, double a) { return ((a + 2) * x - (a + 3)) * x * x + 1; }
double cubic2(double x, double a) { return ((a * x - 5 * a) * x + 8 * a) * x - 4 * a; }

// Note [Antialiased interpolation]
// PyTorch's _upsample_{bilinear,bicubic}2d_aa (the PIL-style resampling of
// interpolate(antialias=True)): output i is centred at scale * (i + 0.5) in the
// input, the filter (triangle, or Keys cubic with a = -0.5 as in PIL) is
// stretched by the downscale factor, so every input pixel under its support
// contributes, and the weights are normalised to sum to 1. When upsampling
// (scale < 1) the support is the plain filter's. align_corners only changes the
// scale, (in - 1) / (out - 1), not the centres.
double aa_filter(double x, bool cubic) {
  x = std::abs(x);
  if (!cubic) return x < 1 ? 1 - x : 0;
  constexpr double a = -0.5;
  if (x < 1) return ((a + 2) * x - (a + 3)) * x * x + 1;
  if (x < 2) return (((x - 5) * x + 8) * x - 4) * a;
  return 0;
}

void fill_aa_weights(double* a, int64_t in, int64_t out, bool cubic, double scale) {
  const double interp_size = cubic ? 4 : 2;
  const double support = scale >= 1 ? interp_size * 0.5 * scale : interp_size * 0.5;
  const double invscale = scale >= 1 ? 1 / scale : 1;
  for (int64_t o = 0; o < out; ++o) {
    const double center = scale * (o + 0.5);
    // Truncation toward zero, as ATen's static_cast<int64_t>.
    const int64_t lo = std::max<int64_t>(static_cast<int64_t>(center - support + 0.5), 0);
    const int64_t hi = std::min<int64_t>(static_cast<int64_t>(center + support + 0.5), in);
    double* row = a + o * in;
    double total = 0;
    for (int64_t j = lo; j < hi; ++j) total += row[j] = aa_filter((j - center + 0.5) * invscale, cubic);
    if (total != 0)
      for (int64_t j = lo; j < hi; ++j) row[j] /= total;
  }
}

Tensor interpolation_matrix(int64_t in, int64_t out, Mode mode, bool align_corners, std::optional<double> scale,
                            ScalarType dtype) {
  Tensor m = zeros({out, in}, TensorOptions(kDouble));
  double* a = m.data_ptr<double>();
  if (mode == Mode::kLinearAA || mode == Mode::kCubicAA) {
    fill_aa_weights(a, in, out, mode == Mode::kCubicAA, pixel_scale(in, out, align_corners, scale));
  } else if (mode == Mode::kNearest || mode == Mode::kNearestExact) {
    // ATen's nearest_idx / nearest_neighbor_exact_compute_source_index compute the scale in float.
    const float s = scale && *scale > 0 ? float(1.0 / *scale) : float(in) / float(out);
    for (int64_t o = 0; o < out; ++o) {
      int64_t i = o;
      if (mode == Mode::kNearestExact)
        i = std::min(static_cast<int64_t>(std::floor((float(o) + 0.5f) * s)), in - 1);
      else if (out == 2 * in)
        i = o >> 1;
      else if (out != in)
        i = std::min(static_cast<int64_t>(std::floor(float(o) * s)), in - 1);
      a[o * in + i] = 1;
    }
  } else {
    const double s = pixel_scale(in, out, align_corners, scale);
    for (int64_t o = 0; o < out; ++o) {
      double real = align_corners ? s * o : s * (o + 0.5) - 0.5;
      if (mode == Mode::kLinear) {
        if (real < 0) real = 0;
        const int64_t i0 = static_cast<int64_t>(real);
        const int64_t i1 = i0 + (i0 < in - 1 ? 1 : 0);
        const double l1 = real - i0;
        a[o * in + i0] += 1 - l1;
        a[o * in + i1] += l1;
      } else {
        const int64_t i = static_cast<int64_t>(std::floor(real));
        const double t = real - i, A = -0.75;
        const double c[4] = {cubic2(t + 1, A), cubic1(t, A), cubic1(1 - t, A), cubic2(2 - t, A)};
        for (int64_t k = 0; k < 4; ++k) a[o * in + std::clamp<int64_t>(i - 1 + k, 0, in - 1)] += c[k];
      }
    }
  }
  return m.to(dtype);
}

void check(const char* op, const Tensor& input, int64_t nd, IntArrayRef output_size) {
  EMBER_CHECK(static_cast<int64_t>(output_size.size()) == nd, op, ": it is expected output_size equals to ", nd,
              ", but got size ", output_size.size());
  EMBER_CHECK(input.dim() == nd + 2, op, ": ", nd + 2, "D data tensor expected but got a tensor with sizes ",
              shape_str(input.sizes()));
  for (int64_t i = 0; i < nd; ++i)
    EMBER_CHECK(input.size(2 + i) > 0 && output_size[i] > 0, op,
                ": input and output sizes should be greater than 0, but got input ", shape_str(input.sizes()),
                " and output_size ", output_size);
  EMBER_CHECK(input.is_floating_point(), op, ": expected a floating-point input, but got ", input.scalar_type());
}

// scales: one optional scale factor per spatial dim (D, H, W order).
Tensor upsample(const char* op, int64_t nd, const Tensor& input, IntArrayRef output_size, Mode mode, bool align_corners,
                std::initializer_list<std::optional<double>> scales) {
  EMBER_VMAP_FOLD_N(input, nd + 2, false, op, v, upsample(op, nd, v, output_size, mode, align_corners, scales));
  EMBER_RECORD_OP(op, input);
  check(op, input, nd, output_size);
  const std::vector<std::optional<double>> sc(scales);
  const ScalarType dt = input.scalar_type();
  auto matrix = [&](int64_t d) {
    return interpolation_matrix(input.size(2 + d), output_size[d], mode, align_corners, sc[d], dt);
  };
  Tensor y = input.matmul(matrix(nd - 1).t());
  if (nd >= 2) y = matrix(nd - 2).matmul(y);
  if (nd == 3) {
    // Depth: (N, C, D, OH * OW) with the depth matrix on the left; y is contiguous here.
    const int64_t n = y.size(0), c = y.size(1), oh = y.size(3), ow = y.size(4);
    y = matrix(0).matmul(y.reshape({n, c, input.size(2), oh * ow})).view({n, c, output_size[0], oh, ow});
  }
  return y;
}

}  // namespace

Tensor upsample_nearest1d(const Tensor& input, IntArrayRef output_size, std::optional<double> scales) {
  return upsample("upsample_nearest1d", 1, input, output_size, Mode::kNearest, false, {scales});
}
Tensor upsample_nearest2d(const Tensor& input, IntArrayRef output_size, std::optional<double> scales_h,
                          std::optional<double> scales_w) {
  return upsample("upsample_nearest2d", 2, input, output_size, Mode::kNearest, false, {scales_h, scales_w});
}
Tensor upsample_nearest3d(const Tensor& input, IntArrayRef output_size, std::optional<double> scales_d,
                          std::optional<double> scales_h, std::optional<double> scales_w) {
  return upsample("upsample_nearest3d", 3, input, output_size, Mode::kNearest, false, {scales_d, scales_h, scales_w});
}
Tensor _upsample_nearest_exact1d(const Tensor& input, IntArrayRef output_size, std::optional<double> scales) {
  return upsample("_upsample_nearest_exact1d", 1, input, output_size, Mode::kNearestExact, false, {scales});
}
Tensor _upsample_nearest_exact2d(const Tensor& input, IntArrayRef output_size, std::optional<double> scales_h,
                                 std::optional<double> scales_w) {
  return upsample("_upsample_nearest_exact2d", 2, input, output_size, Mode::kNearestExact, false, {scales_h, scales_w});
}
Tensor _upsample_nearest_exact3d(const Tensor& input, IntArrayRef output_size, std::optional<double> scales_d,
                                 std::optional<double> scales_h, std::optional<double> scales_w) {
  return upsample("_upsample_nearest_exact3d", 3, input, output_size, Mode::kNearestExact, false,
                  {scales_d, scales_h, scales_w});
}
Tensor upsample_linear1d(const Tensor& input, IntArrayRef output_size, bool align_corners,
                         std::optional<double> scales) {
  return upsample("upsample_linear1d", 1, input, output_size, Mode::kLinear, align_corners, {scales});
}
Tensor upsample_bilinear2d(const Tensor& input, IntArrayRef output_size, bool align_corners,
                           std::optional<double> scales_h, std::optional<double> scales_w) {
  return upsample("upsample_bilinear2d", 2, input, output_size, Mode::kLinear, align_corners, {scales_h, scales_w});
}
Tensor upsample_bicubic2d(const Tensor& input, IntArrayRef output_size, bool align_corners,
                          std::optional<double> scales_h, std::optional<double> scales_w) {
  return upsample("upsample_bicubic2d", 2, input, output_size, Mode::kCubic, align_corners, {scales_h, scales_w});
}
Tensor _upsample_bilinear2d_aa(const Tensor& input, IntArrayRef output_size, bool align_corners,
                               std::optional<double> scales_h, std::optional<double> scales_w) {
  return upsample("_upsample_bilinear2d_aa", 2, input, output_size, Mode::kLinearAA, align_corners,
                  {scales_h, scales_w});
}
Tensor _upsample_bicubic2d_aa(const Tensor& input, IntArrayRef output_size, bool align_corners,
                              std::optional<double> scales_h, std::optional<double> scales_w) {
  return upsample("_upsample_bicubic2d_aa", 2, input, output_size, Mode::kCubicAA, align_corners, {scales_h, scales_w});
}
Tensor upsample_trilinear3d(const Tensor& input, IntArrayRef output_size, bool align_corners,
                            std::optional<double> scales_d, std::optional<double> scales_h,
                            std::optional<double> scales_w) {
  return upsample("upsample_trilinear3d", 3, input, output_size, Mode::kLinear, align_corners,
                  {scales_d, scales_h, scales_w});
}

Tensor pixel_shuffle(const Tensor& self, int64_t r) {
  // Composite (reshape / permute), so the view rules take a batched input.
  EMBER_RECORD_COMPOSITE_OP("pixel_shuffle", self);
  const char* op = "pixel_shuffle";
  EMBER_CHECK(self.dim() >= 3, op, ": expected input to have at least 3 dimensions, but got input of size ",
              shape_str(self.sizes()));
  EMBER_CHECK(r > 0, op, ": expected upscale_factor to be greater than 0, but got ", r);
  const int64_t c = self.size(-3), h = self.size(-2), w = self.size(-1);
  const int64_t rr = checked_mul(r, r, op, "square of upscale_factor");
  EMBER_CHECK(c % rr == 0, op,
              ": expected its input's 'channel' dimension to be divisible by the square of upscale_factor, but "
              "input.size(-3)=",
              c, " is not divisible by ", rr);
  DimVector lead(self.sizes().slice(0, self.dim() - 3));
  const int64_t L = static_cast<int64_t>(lead.size());
  DimVector split = lead, perm, merged = lead;
  for (int64_t v : {c / rr, r, r, h, w}) split.push_back(v);
  for (int64_t i = 0; i < L; ++i) perm.push_back(i);
  for (int64_t v : {0, 3, 1, 4, 2}) perm.push_back(L + v);
  for (int64_t v : {c / rr, checked_mul(h, r, op, "output height"), checked_mul(w, r, op, "output width")})
    merged.push_back(v);
  return self.reshape(split).permute(perm).reshape(merged);
}

Tensor channel_shuffle(const Tensor& self, int64_t groups) {
  EMBER_CHECK(self.defined(), "channel_shuffle: expected a defined tensor");
  EMBER_CHECK(self.dim() > 2, "channel_shuffle expects input with > 2 dims, but got input with sizes ",
              shape_str(self.sizes()));
  EMBER_CHECK(groups > 0,
              "channel_shuffle: Number of groups to divide channels in must be positive. Value of groups:", groups);
  const int64_t c = self.size(1);
  EMBER_CHECK(c % groups == 0, "channel_shuffle: Number of channels must be divisible by groups. Got ", c,
              " channels and ", groups, " groups.");
  EMBER_RECORD_COMPOSITE_OP("channel_shuffle", self);
  DimVector split{self.size(0), groups, c / groups};
  for (int64_t d = 2; d < self.dim(); ++d) split.push_back(self.size(d));
  return self.reshape(split).transpose(1, 2).reshape(self.sizes());
}

Tensor pixel_unshuffle(const Tensor& self, int64_t r) {
  EMBER_RECORD_COMPOSITE_OP("pixel_unshuffle", self);
  const char* op = "pixel_unshuffle";
  EMBER_CHECK(self.dim() >= 3, op, ": expected input to have at least 3 dimensions, but got input of size ",
              shape_str(self.sizes()));
  EMBER_CHECK(r > 0, op, ": expected downscale_factor to be greater than 0, but got ", r);
  const int64_t c = self.size(-3), h = self.size(-2), w = self.size(-1);
  EMBER_CHECK(h % r == 0 && w % r == 0, op, ": expected height and width of input (", h, ", ", w,
              ") to be divisible by downscale_factor ", r);
  DimVector lead(self.sizes().slice(0, self.dim() - 3));
  const int64_t L = static_cast<int64_t>(lead.size());
  DimVector split = lead, perm, merged = lead;
  for (int64_t v : {c, h / r, r, w / r, r}) split.push_back(v);
  for (int64_t i = 0; i < L; ++i) perm.push_back(i);
  for (int64_t v : {0, 2, 4, 1, 3}) perm.push_back(L + v);
  for (int64_t v :
       {checked_mul(c, checked_mul(r, r, op, "square of downscale_factor"), op, "output channels"), h / r, w / r})
    merged.push_back(v);
  return self.reshape(split).permute(perm).reshape(merged);
}

}  // namespace torch
