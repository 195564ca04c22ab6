#include "ember/vision/models/detection/box_coder.h"

#include "ember/core/error.h"
#include "ember/ops/all_ops.h"

namespace torch::vision::models::detection::_utils {

namespace {

using indexing::Slice;

Tensor col(const Tensor& boxes, int64_t i) { return boxes.select(-1, i); }

void check_boxes(const Tensor& boxes, const char* what, const char* op) {
  EMBER_CHECK(boxes.dim() >= 1 && boxes.size(-1) == 4, op, ": expected ", what, " of shape [N, 4], got ",
              boxes.sizes());
  EMBER_CHECK(boxes.is_floating_point(), op, ": expected floating-point ", what, ", got ", boxes.scalar_type());
}

}  // namespace

BoxCoder::BoxCoder(std::array<double, 4> weights, double bbox_xform_clip)
    : weights(weights), bbox_xform_clip(bbox_xform_clip) {}

Tensor encode_boxes(const Tensor& reference_boxes, const Tensor& proposals, const Tensor& weights) {
  check_boxes(reference_boxes, "reference_boxes", "BoxCoder.encode");
  check_boxes(proposals, "proposals", "BoxCoder.encode");
  EMBER_CHECK(reference_boxes.size(0) == proposals.size(0), "BoxCoder.encode: ", reference_boxes.size(0),
              " reference boxes for ", proposals.size(0), " proposals");
  const auto p = [&](int64_t i) { return col(proposals, i).unsqueeze(1); };
  const auto r = [&](int64_t i) { return col(reference_boxes, i).unsqueeze(1); };
  const Tensor ex_widths = p(2) - p(0);
  const Tensor ex_heights = p(3) - p(1);
  const Tensor ex_ctr_x = p(0) + 0.5 * ex_widths;
  const Tensor ex_ctr_y = p(1) + 0.5 * ex_heights;
  const Tensor gt_widths = r(2) - r(0);
  const Tensor gt_heights = r(3) - r(1);
  const Tensor gt_ctr_x = r(0) + 0.5 * gt_widths;
  const Tensor gt_ctr_y = r(1) + 0.5 * gt_heights;
  const Tensor dx = weights[0] * (gt_ctr_x - ex_ctr_x) / ex_widths;
  const Tensor dy = weights[1] * (gt_ctr_y - ex_ctr_y) / ex_heights;
  const Tensor dw = weights[2] * log(gt_widths / ex_widths);
  const Tensor dh = weights[3] * log(gt_heights / ex_heights);
  return cat({dx, dy, dw, dh}, 1);
}

std::vector<Tensor> BoxCoder::encode(const std::vector<Tensor>& reference_boxes,
                                     const std::vector<Tensor>& proposals) const {
  EMBER_CHECK(reference_boxes.size() == proposals.size(), "BoxCoder.encode: ", reference_boxes.size(),
              " reference box lists for ", proposals.size(), " proposal lists");
  if (reference_boxes.empty()) return {};
  std::vector<int64_t> per_image;
  for (const Tensor& b : reference_boxes) per_image.push_back(b.size(0));
  return split(encode_single(cat(reference_boxes, 0), cat(proposals, 0)), per_image, 0);
}

Tensor BoxCoder::encode_single(const Tensor& reference_boxes, const Tensor& proposals) const {
  const Tensor w = tensor(std::vector<double>(weights.begin(), weights.end()), reference_boxes.options());
  return encode_boxes(reference_boxes, proposals, w);
}

Tensor BoxCoder::decode(const Tensor& rel_codes, const std::vector<Tensor>& boxes) const {
  EMBER_CHECK(!boxes.empty(), "BoxCoder.decode: no boxes");
  int64_t box_sum = 0;
  for (const Tensor& b : boxes) box_sum += b.size(0);
  Tensor codes = rel_codes;
  if (box_sum > 0) {
    EMBER_CHECK(rel_codes.numel() % box_sum == 0, "BoxCoder.decode: rel_codes of shape ", rel_codes.sizes(),
                " do not divide into ", box_sum, " boxes");
    codes = rel_codes.reshape({box_sum, -1});
  }
  Tensor pred = decode_single(codes, cat(boxes, 0));
  if (box_sum > 0) pred = pred.reshape({box_sum, -1, 4});
  return pred;
}

Tensor BoxCoder::decode_single(const Tensor& rel_codes, const Tensor& boxes_in) const {
  check_boxes(boxes_in, "boxes", "BoxCoder.decode");
  EMBER_CHECK(rel_codes.dim() == 2 && rel_codes.size(1) % 4 == 0 && rel_codes.size(0) == boxes_in.size(0),
              "BoxCoder.decode: expected rel_codes of shape [", boxes_in.size(0), ", 4 * K], got ", rel_codes.sizes());
  const Tensor boxes = boxes_in.to(rel_codes.scalar_type());
  const Tensor widths = col(boxes, 2) - col(boxes, 0);
  const Tensor heights = col(boxes, 3) - col(boxes, 1);
  const Tensor ctr_x = col(boxes, 0) + 0.5 * widths;
  const Tensor ctr_y = col(boxes, 1) + 0.5 * heights;
  const auto code = [&](int64_t start) { return rel_codes.index({Slice(), Slice(start, std::nullopt, 4)}); };
  const Tensor dx = code(0) / weights[0];
  const Tensor dy = code(1) / weights[1];
  const Tensor dw = clamp_max(code(2) / weights[2], bbox_xform_clip);
  const Tensor dh = clamp_max(code(3) / weights[3], bbox_xform_clip);
  const Tensor pred_ctr_x = dx * widths.unsqueeze(1) + ctr_x.unsqueeze(1);
  const Tensor pred_ctr_y = dy * heights.unsqueeze(1) + ctr_y.unsqueeze(1);
  const Tensor half_w = 0.5 * (exp(dw) * widths.unsqueeze(1));
  const Tensor half_h = 0.5 * (exp(dh) * heights.unsqueeze(1));
  return stack({pred_ctr_x - half_w, pred_ctr_y - half_h, pred_ctr_x + half_w, pred_ctr_y + half_h}, 2).flatten(1);
}

Tensor BoxLinearCoder::encode(const Tensor& reference_boxes, const Tensor& proposals) const {
  check_boxes(reference_boxes, "reference_boxes", "BoxLinearCoder.encode");
  check_boxes(proposals, "proposals", "BoxLinearCoder.encode");
  const Tensor ctr_x = 0.5 * (col(reference_boxes, 0) + col(reference_boxes, 2));
  const Tensor ctr_y = 0.5 * (col(reference_boxes, 1) + col(reference_boxes, 3));
  Tensor targets = stack(
      {ctr_x - col(proposals, 0), ctr_y - col(proposals, 1), col(proposals, 2) - ctr_x, col(proposals, 3) - ctr_y}, -1);
  if (normalize_by_size) {
    const Tensor w = col(reference_boxes, 2) - col(reference_boxes, 0);
    const Tensor h = col(reference_boxes, 3) - col(reference_boxes, 1);
    targets = targets / stack({w, h, w, h}, -1);
  }
  return targets;
}

Tensor BoxLinearCoder::decode(const Tensor& rel_codes_in, const Tensor& boxes_in) const {
  check_boxes(boxes_in, "boxes", "BoxLinearCoder.decode");
  EMBER_CHECK(rel_codes_in.sizes() == boxes_in.sizes(), "BoxLinearCoder.decode: rel_codes of shape ",
              rel_codes_in.sizes(), " for boxes of shape ", boxes_in.sizes());
  const Tensor boxes = boxes_in.to(rel_codes_in.scalar_type());
  const Tensor ctr_x = 0.5 * (col(boxes, 0) + col(boxes, 2));
  const Tensor ctr_y = 0.5 * (col(boxes, 1) + col(boxes, 3));
  Tensor rel_codes = rel_codes_in;
  if (normalize_by_size) {
    const Tensor w = col(boxes, 2) - col(boxes, 0);
    const Tensor h = col(boxes, 3) - col(boxes, 1);
    rel_codes = rel_codes * stack({w, h, w, h}, -1);
  }
  return stack(
      {ctr_x - col(rel_codes, 0), ctr_y - col(rel_codes, 1), ctr_x + col(rel_codes, 2), ctr_y + col(rel_codes, 3)}, -1);
}

}  // namespace torch::vision::models::detection::_utils
