// RAFT's all-pairs correlation pyramid and its neighbourhood lookup.
#include <cmath>

#include "ember/core/error.h"
#include "ember/ops/all_ops.h"
#include "ember/vision/models/optical_flow/_utils.h"
#include "ember/vision/models/optical_flow/raft.h"

namespace torch::vision::models::optical_flow {

CorrBlockImpl::CorrBlockImpl(int64_t num_levels_, int64_t radius_) : num_levels(num_levels_), radius(radius_) {
  reset();
}

void CorrBlockImpl::reset() {
  EMBER_CHECK(num_levels > 0 && radius >= 0, "CorrBlock: num_levels must be positive and radius non-negative, got ",
              num_levels, " and ", radius);
  out_channels = num_levels * (2 * radius + 1) * (2 * radius + 1);
  corr_pyramid.clear();
}

void CorrBlockImpl::pretty_print(std::ostream& stream) const {
  stream << "CorrBlock(num_levels=" << num_levels << ", radius=" << radius << ")";
}

Tensor CorrBlockImpl::_compute_corr_volume(const Tensor& fmap1, const Tensor& fmap2) {
  const int64_t b = fmap1.size(0), c = fmap1.size(1), h = fmap1.size(2), w = fmap1.size(3);
  const Tensor f1 = fmap1.reshape({b, c, h * w});
  const Tensor f2 = fmap2.reshape({b, c, h * w});
  const Tensor corr = matmul(f1.transpose(1, 2), f2).view({b, h, w, 1, h, w});
  return corr / std::sqrt(static_cast<double>(c));
}

void CorrBlockImpl::build_pyramid(const Tensor& fmap1, const Tensor& fmap2) {
  EMBER_CHECK(fmap1.defined() && fmap2.defined() && fmap1.dim() == 4 && fmap1.sizes() == fmap2.sizes(),
              "CorrBlock: Input feature maps should have the same 4-D shape, instead got ",
              fmap1.defined() ? fmap1.sizes() : IntArrayRef{},
              " (fmap1.shape) != ", fmap2.defined() ? fmap2.sizes() : IntArrayRef{}, " (fmap2.shape)");
  const int64_t b = fmap1.size(0), h = fmap1.size(2), w = fmap1.size(3);
  Tensor volume = _compute_corr_volume(fmap1, fmap2).reshape({b * h * w, 1, h, w});
  corr_pyramid.clear();
  corr_pyramid.push_back(volume);
  for (int64_t i = 1; i < num_levels; ++i) {
    volume = avg_pool2d(volume, {2, 2}, {2, 2});
    corr_pyramid.push_back(volume);
  }
}

Tensor CorrBlockImpl::index_pyramid(const Tensor& centroids_coords) {
  EMBER_CHECK(!corr_pyramid.empty(), "CorrBlock: index_pyramid called before build_pyramid");
  EMBER_CHECK(centroids_coords.defined() && centroids_coords.dim() == 4 && centroids_coords.size(1) == 2,
              "CorrBlock: expected centroids_coords of shape (N, 2, h, w), got ",
              centroids_coords.defined() ? centroids_coords.sizes() : IntArrayRef{});
  const int64_t side = 2 * radius + 1;
  const int64_t b = centroids_coords.size(0), h = centroids_coords.size(2), w = centroids_coords.size(3);
  EMBER_CHECK(b * h * w == corr_pyramid[0].size(0), "CorrBlock: centroids_coords ", centroids_coords.sizes(),
              " do not match the pyramid built for ", corr_pyramid[0].size(0), " positions");
  const Tensor d = linspace(-static_cast<double>(radius), static_cast<double>(radius), side, kFloat);
  const auto grids = meshgrid({d, d}, "ij");
  const Tensor delta = stack({grids[0], grids[1]}, -1).to(centroids_coords.device()).view({1, side, side, 2});
  Tensor centroids = centroids_coords.permute({0, 2, 3, 1}).reshape({b * h * w, 1, 1, 2});
  std::vector<Tensor> indexed;
  indexed.reserve(corr_pyramid.size());
  for (const Tensor& volume : corr_pyramid) {
    const Tensor sampling = centroids + delta;
    indexed.push_back(_utils::grid_sample(volume, sampling, "bilinear", true).view({b, h, w, -1}));
    centroids = centroids / 2.0;
  }
  return cat(indexed, -1).permute({0, 3, 1, 2}).contiguous();
}

}  // namespace torch::vision::models::optical_flow
