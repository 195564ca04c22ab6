// Keypoint R-CNN's helpers of torchvision.models.detection.roi_heads: the
// keypoint targets as heatmap indices, the cross-entropy loss over the
// valid ones, and the decoding of heatmaps (bicubic upsampling to the box,
// argmax) into keypoints and scores.
#include <cmath>

#include "ember/core/error.h"
#include "ember/nn/functional/upsampling.h"
#include "ember/ops/all_ops.h"
#include "ember/vision/models/detection/roi_heads.h"

namespace torch::vision::models::detection::roi_heads {

std::tuple<Tensor, Tensor> keypoints_to_heatmap(const Tensor& keypoints, const Tensor& rois, int64_t heatmap_size) {
  EMBER_CHECK(keypoints.dim() == 3 && keypoints.size(2) == 3 && keypoints.size(0) == rois.size(0),
              "keypoints_to_heatmap: keypoints of shape ", keypoints.sizes(), " for ", rois.size(0), " rois");
  const Tensor offset_x = rois.select(1, 0).unsqueeze(1), offset_y = rois.select(1, 1).unsqueeze(1);
  const Tensor scale_x = (static_cast<double>(heatmap_size) / (rois.select(1, 2) - rois.select(1, 0))).unsqueeze(1);
  const Tensor scale_y = (static_cast<double>(heatmap_size) / (rois.select(1, 3) - rois.select(1, 1))).unsqueeze(1);
  const Tensor kx = keypoints.select(2, 0), ky = keypoints.select(2, 1);
  const Tensor x_boundary = kx == rois.select(1, 2).unsqueeze(1);
  const Tensor y_boundary = ky == rois.select(1, 3).unsqueeze(1);
  Tensor x = ((kx - offset_x) * scale_x).floor().to(kLong);
  Tensor y = ((ky - offset_y) * scale_y).floor().to(kLong);
  x.masked_fill_(x_boundary, heatmap_size - 1);
  y.masked_fill_(y_boundary, heatmap_size - 1);
  const Tensor valid_loc = (x >= 0) & (y >= 0) & (x < heatmap_size) & (y < heatmap_size);
  const Tensor valid = (valid_loc & (keypoints.select(2, 2) > 0)).to(kLong);
  const Tensor lin_ind = y * heatmap_size + x;
  return {lin_ind * valid, valid};
}

std::tuple<Tensor, Tensor> heatmaps_to_keypoints(const Tensor& maps, const Tensor& rois) {
  EMBER_CHECK(maps.dim() == 4 && rois.dim() == 2 && rois.size(0) == maps.size(0),
              "heatmaps_to_keypoints: maps of shape ", maps.sizes(), " for rois of shape ", rois.sizes());
  const Tensor offset_x = rois.select(1, 0), offset_y = rois.select(1, 1);
  const Tensor widths = (rois.select(1, 2) - rois.select(1, 0)).clamp_min(1);
  const Tensor heights = (rois.select(1, 3) - rois.select(1, 1)).clamp_min(1);
  const Tensor widths_ceil = widths.ceil(), heights_ceil = heights.ceil();
  const int64_t num_keypoints = maps.size(1);
  Tensor xy_preds = zeros({rois.size(0), 3, num_keypoints}, TensorOptions().dtype(kFloat));
  Tensor end_scores = zeros({rois.size(0), num_keypoints}, TensorOptions().dtype(kFloat));
  namespace F = nn::functional;
  for (int64_t i = 0; i < rois.size(0); ++i) {
    const double wc = widths_ceil[i].item<double>(), hc = heights_ceil[i].item<double>();
    EMBER_CHECK(std::isfinite(wc) && std::isfinite(hc) && wc <= 1 << 16 && hc <= 1 << 16, "heatmaps_to_keypoints: roi ",
                i, " of size ", wc, "x", hc, " is not a detection box");
    const auto roi_w = static_cast<int64_t>(wc), roi_h = static_cast<int64_t>(hc);
    const Tensor width_correction = widths[i] / static_cast<double>(roi_w);
    const Tensor height_correction = heights[i] / static_cast<double>(roi_h);
    const Tensor roi_map = F::interpolate(maps[i].unsqueeze(1), F::InterpolateFuncOptions()
                                                                    .size(std::vector<int64_t>{roi_h, roi_w})
                                                                    .mode(enumtype::kBicubic())
                                                                    .align_corners(false))
                               .select(1, 0);
    const int64_t w = roi_map.size(2);
    const Tensor pos = roi_map.reshape({num_keypoints, -1}).argmax(1);
    const Tensor x_int = remainder(pos, w);
    const Tensor y_int = floor_divide(pos - x_int, w);
    const Tensor x = (x_int.to(kFloat) + 0.5) * width_correction;
    const Tensor y = (y_int.to(kFloat) + 0.5) * height_correction;
    xy_preds[i][0].copy_(x + offset_x[i]);
    xy_preds[i][1].copy_(y + offset_y[i]);
    xy_preds[i][2].fill_(1);
    end_scores[i].copy_(roi_map.index({arange(num_keypoints, TensorOptions().dtype(kLong)), y_int, x_int}));
  }
  return {xy_preds.permute({0, 2, 1}), end_scores};
}

Tensor keypointrcnn_loss(const Tensor& keypoint_logits, const std::vector<Tensor>& proposals,
                         const std::vector<Tensor>& gt_keypoints, const std::vector<Tensor>& keypoint_matched_idxs) {
  EMBER_CHECK(keypoint_logits.dim() == 4, "keypointrcnn_loss: expected keypoint logits [N, K, H, W], got ",
              keypoint_logits.sizes());
  const int64_t n = keypoint_logits.size(0), k = keypoint_logits.size(1), h = keypoint_logits.size(2),
                w = keypoint_logits.size(3);
  EMBER_CHECK(h == w,
              "keypointrcnn_loss: keypoint_logits height and width (last two elements of shape) should be "
              "equal. Instead got H = ",
              h, " and W = ", w);
  std::vector<Tensor> heatmaps, valid;
  for (size_t i = 0; i < proposals.size(); ++i) {
    auto [hm, v] = keypoints_to_heatmap(gt_keypoints[i].index({keypoint_matched_idxs[i]}), proposals[i], h);
    heatmaps.push_back(hm.reshape({-1}));
    valid.push_back(v.reshape({-1}));
  }
  const Tensor targets = cat(heatmaps, 0);
  const Tensor valid_idx = nonzero(cat(valid, 0)).select(1, 0);
  if (targets.numel() == 0 || valid_idx.numel() == 0) return keypoint_logits.sum() * 0;
  return cross_entropy_loss(keypoint_logits.reshape({n * k, h * w}).index({valid_idx}), targets.index({valid_idx}));
}

std::tuple<std::vector<Tensor>, std::vector<Tensor>> keypointrcnn_inference(const Tensor& x,
                                                                            const std::vector<Tensor>& boxes) {
  std::vector<int64_t> per_image;
  for (const Tensor& b : boxes) per_image.push_back(b.size(0));
  const std::vector<Tensor> parts = split(x, per_image, 0);
  std::vector<Tensor> probs, scores;
  for (size_t i = 0; i < parts.size(); ++i) {
    auto [p, s] = heatmaps_to_keypoints(parts[i], boxes[i]);
    probs.push_back(p);
    scores.push_back(s);
  }
  return {std::move(probs), std::move(scores)};
}

}  // namespace torch::vision::models::detection::roi_heads
