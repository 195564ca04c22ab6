#include "ember/vision/models/optical_flow/_utils.h"

#include "ember/core/error.h"
#include "ember/nn/functional/fold.h"
#include "ember/nn/functional/upsampling.h"
#include "ember/nn/functional/vision.h"
#include "ember/ops/all_ops.h"

namespace torch::vision::models::optical_flow::_utils {

Tensor grid_sample(const Tensor& img, const Tensor& absolute_grid, const std::string& mode,
                   std::optional<bool> align_corners) {
  EMBER_CHECK(img.defined() && img.dim() == 4, "grid_sample: expected a 4-D image, got shape ",
              img.defined() ? img.sizes() : IntArrayRef{});
  EMBER_CHECK(absolute_grid.defined() && absolute_grid.dim() == 4 && absolute_grid.size(-1) == 2,
              "grid_sample: expected an [N, H, W, 2] grid, got shape ",
              absolute_grid.defined() ? absolute_grid.sizes() : IntArrayRef{});
  const int64_t h = img.size(-2), w = img.size(-1);
  Tensor xgrid = absolute_grid.narrow(-1, 0, 1);
  Tensor ygrid = absolute_grid.narrow(-1, 1, 1);
  // A 1-wide image would divide by zero; torchvision leaves that to PyTorch (inf/nan).
  xgrid = xgrid * 2.0 / static_cast<double>(w - 1) - 1.0;
  if (h > 1) ygrid = ygrid * 2.0 / static_cast<double>(h - 1) - 1.0;
  const Tensor normalized = cat({xgrid, ygrid}, -1);
  namespace F = nn::functional;
  F::GridSampleFuncOptions opts;
  if (mode == "bilinear") {
    opts.mode(kBilinear);
  } else if (mode == "nearest") {
    opts.mode(kNearest);
  } else {
    EMBER_CHECK(false, "grid_sample: mode must be 'bilinear' or 'nearest', got '", mode, "'");
  }
  opts.align_corners(align_corners);
  return F::grid_sample(img, normalized, opts);
}

Tensor make_coords_grid(int64_t batch_size, int64_t h, int64_t w, const std::string& device) {
  EMBER_CHECK(batch_size >= 0 && h >= 0 && w >= 0, "make_coords_grid: sizes must not be negative, got ", batch_size,
              ", ", h, ", ", w);
  const auto grids = meshgrid({arange(h, kLong), arange(w, kLong)}, "ij");
  const Tensor coords = stack({grids[1], grids[0]}, 0).to(kFloat);
  return coords.unsqueeze(0).repeat({batch_size, 1, 1, 1}).to(Device(device));
}

Tensor upsample_flow(const Tensor& flow, const std::optional<Tensor>& up_mask, int64_t factor) {
  EMBER_CHECK(flow.defined() && flow.dim() == 4, "upsample_flow: expected an [N, C, h, w] flow, got shape ",
              flow.defined() ? flow.sizes() : IntArrayRef{});
  EMBER_CHECK(factor > 0, "upsample_flow: factor must be positive, got ", factor);
  const int64_t n = flow.size(0), c = flow.size(1), h = flow.size(2), w = flow.size(3);
  const int64_t new_h = h * factor, new_w = w * factor;
  namespace F = nn::functional;
  const double f = static_cast<double>(factor);
  if (!up_mask) {
    return F::interpolate(flow, F::InterpolateFuncOptions()
                                    .size(std::vector<int64_t>{new_h, new_w})
                                    .mode(kBilinear)
                                    .align_corners(true)) *
           f;
  }
  EMBER_CHECK(up_mask->dim() == 4 && up_mask->size(0) == n && up_mask->size(1) == 9 * factor * factor &&
                  up_mask->size(2) == h && up_mask->size(3) == w,
              "upsample_flow: expected an up_mask of shape [", n, ", ", 9 * factor * factor, ", ", h, ", ", w,
              "], got ", up_mask->sizes());
  Tensor mask = softmax(up_mask->view({n, 1, 9, factor, factor, h, w}), 2);
  Tensor up = F::unfold(flow * f, F::UnfoldFuncOptions(3).padding(1)).view({n, c, 9, 1, 1, h, w});
  up = (mask * up).sum(2);
  return up.permute({0, 1, 4, 2, 5, 3}).reshape({n, c, new_h, new_w});
}

}  // namespace torch::vision::models::optical_flow::_utils
