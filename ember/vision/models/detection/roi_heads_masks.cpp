// Mask R-CNN's helpers of torchvision.models.detection.roi_heads: targets
// projected onto the proposals with roi_align, the per-label mask loss and
// inference, and the pasting of the M x M masks into the image.
#include <algorithm>

#include "ember/core/error.h"
#include "ember/nn/functional/upsampling.h"
#include "ember/ops/all_ops.h"
#include "ember/vision/models/detection/roi_heads.h"
#include "ember/vision/ops/roi_align.h"

namespace torch::vision::models::detection::roi_heads {

namespace {
using indexing::Slice;
}  // namespace

Tensor project_masks_on_boxes(const Tensor& gt_masks, const Tensor& boxes, const Tensor& matched_idxs, int64_t M) {
  EMBER_CHECK(gt_masks.dim() == 3, "maskrcnn_loss: expected target masks of shape [N, H, W], got ", gt_masks.sizes());
  const Tensor rois = cat({matched_idxs.to(boxes.scalar_type()).unsqueeze(1), boxes}, 1);
  return ops::roi_align(gt_masks.unsqueeze(1).to(rois.scalar_type()), rois, {M, M}, 1.0).select(1, 0);
}

Tensor maskrcnn_loss(const Tensor& mask_logits, const std::vector<Tensor>& proposals,
                     const std::vector<Tensor>& gt_masks, const std::vector<Tensor>& gt_labels,
                     const std::vector<Tensor>& mask_matched_idxs) {
  EMBER_CHECK(mask_logits.dim() == 4, "maskrcnn_loss: expected mask logits [K, C, M, M], got ", mask_logits.sizes());
  const int64_t M = mask_logits.size(-1);
  std::vector<Tensor> labels, targets;
  for (size_t i = 0; i < proposals.size(); ++i) {
    EMBER_CHECK(gt_masks[i].size(0) == gt_labels[i].size(0), "maskrcnn_loss: ", gt_masks[i].size(0), " masks for ",
                gt_labels[i].size(0), " labels in image ", i);
    labels.push_back(gt_labels[i].index({mask_matched_idxs[i]}));
    targets.push_back(project_masks_on_boxes(gt_masks[i], proposals[i], mask_matched_idxs[i], M));
  }
  const Tensor l = cat(labels, 0), t = cat(targets, 0);
  if (t.numel() == 0) return mask_logits.sum() * 0;
  return binary_cross_entropy_with_logits(mask_logits.index({arange(l.size(0), TensorOptions().dtype(kLong)), l}), t);
}

std::vector<Tensor> maskrcnn_inference(const Tensor& x, const std::vector<Tensor>& labels) {
  const Tensor mask_prob = sigmoid(x);
  const Tensor l = cat(labels, 0);
  std::vector<int64_t> per_image;
  for (const Tensor& t : labels) per_image.push_back(t.size(0));
  const Tensor picked = mask_prob.index({arange(x.size(0), TensorOptions().dtype(kLong)), l}).unsqueeze(1);
  return split(picked, per_image, 0);
}

Tensor expand_boxes(const Tensor& boxes, double scale) {
  const Tensor w_half = (boxes.select(1, 2) - boxes.select(1, 0)) * 0.5 * scale;
  const Tensor h_half = (boxes.select(1, 3) - boxes.select(1, 1)) * 0.5 * scale;
  const Tensor x_c = (boxes.select(1, 2) + boxes.select(1, 0)) * 0.5;
  const Tensor y_c = (boxes.select(1, 3) + boxes.select(1, 1)) * 0.5;
  return stack({x_c - w_half, y_c - h_half, x_c + w_half, y_c + h_half}, 1);
}

std::tuple<Tensor, double> expand_masks(const Tensor& mask, int64_t padding) {
  const int64_t M = mask.size(-1);
  EMBER_CHECK(M > 0, "expand_masks: empty masks of shape ", mask.sizes());
  const double scale = static_cast<double>(M + 2 * padding) / static_cast<double>(M);
  return {pad(mask, {padding, padding, padding, padding}), scale};
}

Tensor paste_mask_in_image(const Tensor& mask, const Tensor& box, int64_t im_h, int64_t im_w) {
  const Tensor b = box.to(kLong).contiguous();
  const int64_t bx0 = b[0].item<int64_t>(), by0 = b[1].item<int64_t>();
  const int64_t bx1 = b[2].item<int64_t>(), by1 = b[3].item<int64_t>();
  const int64_t w = std::max<int64_t>(bx1 - bx0 + 1, 1);
  const int64_t h = std::max<int64_t>(by1 - by0 + 1, 1);
  // The boxes were clipped to the image before expansion; anything far larger is not a detection.
  EMBER_CHECK(w <= 4 * (im_w + 2) + 16 && h <= 4 * (im_h + 2) + 16, "paste_masks_in_image: box ", b.sizes(),
              " of size ", w, "x", h, " far exceeds the image ", im_h, "x", im_w);
  namespace F = nn::functional;
  const Tensor m =
      F::interpolate(
          mask.expand({1, 1, -1, -1}),
          F::InterpolateFuncOptions().size(std::vector<int64_t>{h, w}).mode(enumtype::kBilinear()).align_corners(false))
          .select(0, 0)
          .select(0, 0);
  Tensor im_mask = zeros({im_h, im_w}, m.options());
  const int64_t x_0 = std::max<int64_t>(bx0, 0), x_1 = std::min<int64_t>(bx1 + 1, im_w);
  const int64_t y_0 = std::max<int64_t>(by0, 0), y_1 = std::min<int64_t>(by1 + 1, im_h);
  if (x_1 > x_0 && y_1 > y_0)
    im_mask.index({Slice(y_0, y_1), Slice(x_0, x_1)})
        .copy_(m.index({Slice(y_0 - by0, y_1 - by0), Slice(x_0 - bx0, x_1 - bx0)}));
  return im_mask;
}

Tensor paste_masks_in_image(const Tensor& masks_in, const Tensor& boxes_in, ImageSize img_shape, int64_t padding) {
  EMBER_CHECK(masks_in.dim() == 4 && masks_in.size(1) == 1, "paste_masks_in_image: expected masks [K, 1, M, M], got ",
              masks_in.sizes());
  EMBER_CHECK(boxes_in.dim() == 2 && boxes_in.size(1) == 4 && boxes_in.size(0) == masks_in.size(0),
              "paste_masks_in_image: ", boxes_in.sizes(), " boxes for ", masks_in.size(0), " masks");
  const auto [im_h, im_w] = img_shape;
  auto [masks, scale] = expand_masks(masks_in, padding);
  const Tensor boxes = expand_boxes(boxes_in, scale).to(kLong);
  std::vector<Tensor> res;
  for (int64_t i = 0; i < masks.size(0); ++i) res.push_back(paste_mask_in_image(masks[i][0], boxes[i], im_h, im_w));
  if (res.empty()) return empty({0, 1, im_h, im_w}, masks.options());
  return stack(res, 0).unsqueeze(1);
}

}  // namespace torch::vision::models::detection::roi_heads
