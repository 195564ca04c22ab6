// affine_grid_generator and grid_sampler (see ops/nn/grid_sample.h), written as
// compositions: the corner values come from one gather per corner, their
// weights from the grid by arithmetic, and out-of-range corners are dropped by
// `where`, so autograd differentiates both input and grid through these ops.
#include "ember/ops/nn/grid_sample.h"

#include <vector>

#include "ember/core/record_scope.h"
#include "ember/core/shape.h"
#include "ember/ops/elementwise/binary.h"
#include "ember/ops/elementwise/operators.h"
#include "ember/ops/elementwise/unary.h"
#include "ember/ops/factory/factory.h"
#include "ember/ops/index/indexing.h"
#include "ember/ops/matmul/matmul.h"
#include "ember/ops/shape/shape_ops.h"
#include "ember/ops/shape/view.h"
#include "ember/vmap/batched_tensor.h"

namespace torch {

namespace {

// [-1, 1] (or [-1, 1] at the corner pixels' centres, with align_corners)
// sampled at `steps` points; one point is 0 (PyTorch's linspace_from_neg_one).
Tensor grid_axis(int64_t steps, bool align_corners, const TensorOptions& options) {
  if (steps <= 1) return zeros({steps}, options);
  Tensor r = linspace(-1, 1, steps, options);
  return align_corners ? r : r * (static_cast<double>(steps - 1) / static_cast<double>(steps));
}

// A grid coordinate in [-1, 1] as a position in pixels along a dim of `size`.
Tensor unnormalize(const Tensor& c, int64_t size, bool align_corners) {
  if (align_corners) return (c + 1) * (0.5 * static_cast<double>(size - 1));
  return ((c + 1) * static_cast<double>(size) - 1) * 0.5;
}

// x folded into [low, high] by mirroring, the bounds given doubled (PyTorch's
// reflect_coordinates): the distance from low folds over the span, odd folds
// mirrored. abs and fmod carry the derivative's sign flips.
Tensor reflect(const Tensor& x, int64_t twice_low, int64_t twice_high) {
  if (twice_low == twice_high) return zeros_like(x);
  const double low = static_cast<double>(twice_low) / 2, span = static_cast<double>(twice_high - twice_low) / 2;
  const Tensor d = (x - low).abs();
  const Tensor extra = fmod(d, span);
  const Tensor even = remainder((d / span).floor(), 2) == 0;
  return where(even, extra + low, (span - extra) + low);
}

Tensor source_position(const Tensor& c, int64_t size, GridSamplePadding padding, bool align_corners) {
  Tensor x = unnormalize(c, size, align_corners);
  if (padding == GridSamplePadding::Border) return x.clamp(0, size - 1);
  if (padding == GridSamplePadding::Reflection)
    return (align_corners ? reflect(x, 0, 2 * (size - 1)) : reflect(x, -1, 2 * size - 1)).clamp(0, size - 1);
  return x;
}

// Integer pixel positions from floating ones, clamped just outside the input
// first (a far or NaN grid point is out of range either way, and casting it
// unclamped would overflow).
Tensor to_index(const Tensor& p, int64_t size) {
  return p.nan_to_num(-2.0).clamp(-2, static_cast<double>(size + 1)).to(kLong);
}

struct Sampler {
  Tensor flat;                 // input as [N, C, prod(spatial)]
  std::vector<int64_t> sizes;  // input's spatial sizes (D, H, W order)
  DimVector out_shape;         // [N, C, grid's spatial dims...]

  // The input's values at integer positions idx (one [N, out...] tensor per
  // spatial dim), and whether each position is inside the input.
  std::pair<Tensor, Tensor> at(const std::vector<Tensor>& idx) const {
    Tensor inside, linear;
    for (size_t d = 0; d < sizes.size(); ++d) {
      const Tensor ok = logical_and(idx[d] >= 0, idx[d] < sizes[d]);
      inside = inside.defined() ? logical_and(inside, ok) : ok;
      const Tensor i = idx[d].clamp(0, sizes[d] - 1);
      linear = linear.defined() ? linear * sizes[d] + i : i;
    }
    int64_t points = 1;
    for (size_t d = 2; d < out_shape.size(); ++d) points *= out_shape[d];
    const int64_t n = out_shape[0], c = out_shape[1];
    const Tensor index = linear.reshape({n, 1, points}).expand({n, c, points});
    return {flat.gather(2, index).reshape(out_shape), inside.unsqueeze(1)};
  }
};

void check_grid_sampler(const Tensor& input, const Tensor& grid, int64_t mode, int64_t padding) {
  const char* op = "grid_sampler()";
  EMBER_CHECK(input.defined() && grid.defined(), op, ": expected defined tensors");
  EMBER_CHECK((input.dim() == 4 || input.dim() == 5) && grid.dim() == input.dim(), op,
              ": expected 4D or 5D input and grid with same number of dimensions, but got input with sizes ",
              shape_str(input.sizes()), " and grid with sizes ", shape_str(grid.sizes()));
  EMBER_CHECK(input.size(0) == grid.size(0), op,
              ": expected grid and input to have same batch size, but got input with sizes ", shape_str(input.sizes()),
              " and grid with sizes ", shape_str(grid.sizes()));
  EMBER_CHECK(grid.size(-1) == input.dim() - 2, op, ": expected grid to have size ", input.dim() - 2,
              " in last dimension, but got grid with sizes ", shape_str(grid.sizes()));
  for (int64_t d = 2; d < input.dim(); ++d)
    EMBER_CHECK(input.size(d) > 0, op, ": expected input to have non-empty spatial dimensions, but input has sizes ",
                shape_str(input.sizes()), " with dimension ", d, " being empty");
  EMBER_CHECK(input.is_floating_point() && input.scalar_type() == grid.scalar_type(), op,
              ": expected input and grid to have the same floating dtype, but input has ", input.dtype(),
              " and grid has ", grid.dtype());
  EMBER_CHECK(mode == 0 || mode == 1, op, ": interpolation mode ", mode,
              " is not supported (0 bilinear and 1 nearest are; Ember has no bicubic grid sampling)");
  EMBER_CHECK(padding >= 0 && padding <= 2, op, ": padding mode ", padding,
              " is not one of 0 (zeros), 1 (border), 2 (reflection)");
}

}  // namespace

Tensor affine_grid_generator(const Tensor& theta, IntArrayRef size, bool align_corners) {
  EMBER_CHECK(theta.defined(), "affine_grid: expected a defined theta");
  // LibTorch's checks and messages, in its order.
  EMBER_CHECK(size.size() == 4 || size.size() == 5,
              "affine_grid: affine_grid only supports 4D and 5D sizes, for 2D and 3D affine transforms, respectively. "
              "Got size ",
              shape_str(size), ".");
  for (int64_t s : size)
    EMBER_CHECK(s > 0, "affine_grid: Expected non-zero, positive output size. Got ", shape_str(size));
  EMBER_CHECK(theta.is_floating_point(), "affine_grid: Expected theta to have floating point type, but got ",
              theta.dtype());
  const bool two_d = size.size() == 4;
  const int64_t rows = two_d ? 2 : 3;
  EMBER_CHECK(theta.dim() == 3 && theta.size(1) == rows && theta.size(2) == rows + 1,
              "affine_grid: Expected a batch of ", rows, "D affine matrices of shape Nx", rows, "x", rows + 1,
              " for size ", shape_str(size), ". Got ", shape_str(theta.sizes()), ".");
  EMBER_CHECK(theta.size(0) == size[0], "affine_grid: theta holds ", theta.size(0), " matrices for a size ",
              shape_str(size), " of batch ", size[0]);
  EMBER_RECORD_COMPOSITE_OP("affine_grid_generator", theta);
  const TensorOptions o = TensorOptions(theta.scalar_type());
  // The base grid [spatial..., rows + 1]: (x, y[, z], 1) at every output point.
  DimVector spatial;
  for (size_t d = 2; d < size.size(); ++d) spatial.push_back(size[d]);
  std::vector<Tensor> coords;
  const int64_t k = static_cast<int64_t>(spatial.size());
  for (int64_t i = 0; i < k; ++i) {  // x runs along the last dim, y the one before, ...
    const int64_t d = k - 1 - i;
    DimVector view(static_cast<size_t>(k), 1);
    view[static_cast<size_t>(d)] = spatial[static_cast<size_t>(d)];
    coords.push_back(grid_axis(spatial[static_cast<size_t>(d)], align_corners, o).view(view).expand(spatial));
  }
  coords.push_back(ones(spatial, o));
  const Tensor base = stack(coords, -1).reshape({1, -1, rows + 1});
  DimVector out{size[0]};
  for (int64_t s : spatial) out.push_back(s);
  out.push_back(rows);
  return matmul(base, theta.transpose(1, 2)).view(out);
}

Tensor grid_sampler(const Tensor& input, const Tensor& grid, int64_t interpolation_mode, int64_t padding_mode,
                    bool align_corners) {
  check_grid_sampler(input, grid, interpolation_mode, padding_mode);
  EMBER_RECORD_COMPOSITE_OP(input.dim() == 4 ? "grid_sampler_2d" : "grid_sampler_3d", input, grid);
  const auto padding = static_cast<GridSamplePadding>(padding_mode);
  const int64_t k = input.dim() - 2;
  Sampler s;
  s.flat = input.reshape({input.size(0), input.size(1), -1});
  s.out_shape = DimVector{input.size(0), input.size(1)};
  for (int64_t d = 0; d < k; ++d) {
    s.sizes.push_back(input.size(2 + d));
    s.out_shape.push_back(grid.size(1 + d));
  }
  // Spatial dim d (D, H, W order) is addressed by grid coordinate k - 1 - d (x is W).
  std::vector<Tensor> pos;
  for (int64_t d = 0; d < k; ++d)
    pos.push_back(source_position(grid.select(-1, k - 1 - d), s.sizes[static_cast<size_t>(d)], padding, align_corners));
  const Tensor zero = zeros({}, TensorOptions(input.scalar_type()));
  if (interpolation_mode == static_cast<int64_t>(GridSampleMode::Nearest)) {
    std::vector<Tensor> idx;
    for (int64_t d = 0; d < k; ++d) idx.push_back(to_index(pos[d].round(), s.sizes[static_cast<size_t>(d)]));
    auto [v, inside] = s.at(idx);
    return where(inside, v, zero);
  }
  // Bilinear (trilinear for 5-D): 2^k corners, each weighted by the product of
  // its distances' complements along every dim.
  std::vector<Tensor> low, frac;
  for (int64_t d = 0; d < k; ++d) {
    const Tensor f = pos[d].floor();
    low.push_back(to_index(f, s.sizes[static_cast<size_t>(d)]));
    frac.push_back(pos[d] - f);
  }
  Tensor out;
  for (int64_t corner = 0; corner < (int64_t{1} << k); ++corner) {
    std::vector<Tensor> idx;
    Tensor w;
    for (int64_t d = 0; d < k; ++d) {
      const bool high = ((corner >> d) & 1) != 0;
      idx.push_back(high ? low[d] + 1 : low[d]);
      const Tensor wd = high ? frac[d] : 1 - frac[d];
      w = w.defined() ? w * wd : wd;
    }
    auto [v, inside] = s.at(idx);
    const Tensor term = where(inside, v * w.unsqueeze(1), zero);
    out = out.defined() ? out + term : term;
  }
  return out;
}

}  // namespace torch
