// F::interpolate: PyTorch 1.13's argument rules, then one of the upsample ops
// (ops/nn/upsample.h) or adaptive average pooling for "area".
#include "ember/nn/functional/upsampling.h"

#include <cmath>
#include <string>

#include "ember/core/checked_arith.h"
#include "ember/ops/nn/interpolate.h"
#include "ember/ops/nn/pool.h"
#include "ember/ops/nn/upsample.h"

namespace torch::nn::functional {

namespace {
constexpr const char* kOp = "interpolate";

const char* mode_name(const InterpolateFuncOptions::mode_t& mode) {
  static const char* const kNames[] = {"nearest",   "linear", "bilinear",     "bicubic",
                                       "trilinear", "area",   "nearest-exact"};
  return kNames[mode.index()];
}

std::string shape_list(const std::vector<int64_t>& v) { return shape_str(IntArrayRef(v)); }
}  // namespace

namespace detail {

Tensor interpolate(const Tensor& input, const std::optional<std::vector<int64_t>>& size,
                   const std::optional<std::vector<double>>& scale_factor, const InterpolateFuncOptions::mode_t& mode,
                   std::optional<bool> align_corners, std::optional<bool> recompute_scale_factor, bool antialias) {
  const std::string name = mode_name(mode);
  const bool interpolating = name == "linear" || name == "bilinear" || name == "bicubic" || name == "trilinear";
  EMBER_CHECK(interpolating || !align_corners.has_value(), kOp,
              ": align_corners option can only be set with the interpolating modes: linear | bilinear | bicubic | "
              "trilinear");
  const bool ac = align_corners.value_or(false);
  const int64_t dim = input.dim() - 2;
  EMBER_CHECK(dim >= 1 && dim <= 3, kOp, ": only 3D, 4D and 5D input tensors are supported (got ", input.dim(),
              "D) for the modes: nearest | linear | bilinear | bicubic | trilinear | area | nearest-exact (got ", name,
              ")");
  EMBER_CHECK(!(size && scale_factor), kOp, ": only one of size or scale_factor should be defined");
  EMBER_CHECK(size || scale_factor, kOp, ": either size or scale_factor should be defined");
  const std::vector<int64_t> spatial(input.sizes().begin() + 2, input.sizes().end());

  // Output size and the scale factors handed to the op (PyTorch passes them only when
  // the output size came from scale_factor and recompute_scale_factor is not set).
  std::vector<int64_t> out(dim);
  std::vector<std::optional<double>> scales(dim);
  if (size) {
    EMBER_CHECK(static_cast<int64_t>(size->size()) == dim, kOp,
                ": input and output must have the same number of spatial dimensions, but got input with spatial "
                "dimensions of ",
                shape_list(spatial), " and output size of ", shape_list(*size),
                ". Please provide input tensor in (N, C, d1, d2, ...,dK) format and output size in (o1, o2, ...,oK) "
                "format.");
    EMBER_CHECK(!recompute_scale_factor.value_or(false), kOp,
                ": recompute_scale_factor is not meaningful with an explicit size.");
    out = *size;
  } else {
    EMBER_CHECK(static_cast<int64_t>(scale_factor->size()) == dim, kOp,
                ": input and scale_factor must have the same number of spatial dimensions, but got input with "
                "spatial dimensions of ",
                shape_list(spatial), " and scale_factor of length ", scale_factor->size(), ".");
    // "area" always works from an explicit size, as PyTorch.
    const bool recompute = recompute_scale_factor.value_or(false) || name == "area";
    for (int64_t i = 0; i < dim; ++i) {
      out[i] = checked_double_to_size(std::floor(static_cast<double>(spatial[i]) * (*scale_factor)[i]), kOp,
                                      "output size from scale_factor");
      if (!recompute) scales[i] = (*scale_factor)[i];
    }
  }
  EMBER_CHECK(!antialias || ((name == "bilinear" || name == "bicubic") && dim == 2), kOp,
              ": Anti-alias option is only supported for bilinear and bicubic modes (got mode ", name, " with a ",
              input.dim(), "D input)");

  auto needs = [&](int64_t want) {
    EMBER_CHECK(dim == want, kOp, ": got ", input.dim(), "D input, but ", name, " mode needs ", want + 2, "D input");
  };
  if (name == "nearest") {
    if (dim == 1) return upsample_nearest1d(input, out, scales[0]);
    if (dim == 2) return upsample_nearest2d(input, out, scales[0], scales[1]);
    return upsample_nearest3d(input, out, scales[0], scales[1], scales[2]);
  }
  if (name == "nearest-exact") {
    if (dim == 1) return _upsample_nearest_exact1d(input, out, scales[0]);
    if (dim == 2) return _upsample_nearest_exact2d(input, out, scales[0], scales[1]);
    return _upsample_nearest_exact3d(input, out, scales[0], scales[1], scales[2]);
  }
  if (name == "area") {
    if (dim == 1) return adaptive_avg_pool1d(input, out);
    if (dim == 2) return adaptive_avg_pool2d(input, out);
    return adaptive_avg_pool3d(input, out);
  }
  if (name == "linear") {
    needs(1);
    return upsample_linear1d(input, out, ac, scales[0]);
  }
  if (name == "bilinear") {
    needs(2);
    if (antialias) return _upsample_bilinear2d_aa(input, out, ac, scales[0], scales[1]);
    return upsample_bilinear2d(input, out, ac, scales[0], scales[1]);
  }
  if (name == "bicubic") {
    needs(2);
    if (antialias) return _upsample_bicubic2d_aa(input, out, ac, scales[0], scales[1]);
    return upsample_bicubic2d(input, out, ac, scales[0], scales[1]);
  }
  needs(3);
  return upsample_trilinear3d(input, out, ac, scales[0], scales[1], scales[2]);
}

}  // namespace detail

Tensor interpolate(const Tensor& input, const InterpolateFuncOptions& options) {
  return detail::interpolate(input, options.size(), options.scale_factor(), options.mode(), options.align_corners(),
                             options.recompute_scale_factor(), options.antialias());
}

}  // namespace torch::nn::functional
