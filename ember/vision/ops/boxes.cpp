#include "ember/vision/ops/boxes.h"

#include <algorithm>
#include <numbers>
#include <vector>

#include "ember/autograd/grad_mode.h"
#include "ember/core/error.h"
#include "ember/ops/all_ops.h"
#include "ember/vision/ops/box_util.h"

namespace torch::vision::ops {

namespace {

using detail::check_boxes;
using detail::upcast;

// Greedy suppression over boxes already laid out in decreasing-score order
// (coords holds x1, y1, x2, y2 per row), so the inner loop walks memory
// linearly. Returns the kept positions in that order.
template <typename T>
std::vector<int64_t> nms_sorted(const T* coords, int64_t n, T threshold) {
  std::vector<T> area(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    const T* b = coords + 4 * i;
    area[i] = (b[2] - b[0]) * (b[3] - b[1]);
  }
  std::vector<uint8_t> suppressed(static_cast<size_t>(n), 0);
  std::vector<int64_t> keep;
  for (int64_t i = 0; i < n; ++i) {
    if (suppressed[i]) continue;
    keep.push_back(i);
    const T ix1 = coords[4 * i], iy1 = coords[4 * i + 1], ix2 = coords[4 * i + 2], iy2 = coords[4 * i + 3];
    const T iarea = area[i];
    for (int64_t j = i + 1; j < n; ++j) {
      if (suppressed[j]) continue;
      const T* b = coords + 4 * j;
      const T w = std::max(T(0), std::min(ix2, b[2]) - std::max(ix1, b[0]));
      const T h = std::max(T(0), std::min(iy2, b[3]) - std::max(iy1, b[1]));
      const T inter = w * h;
      if (inter / (iarea + area[j] - inter) > threshold) suppressed[j] = 1;
    }
  }
  return keep;
}

template <typename T>
Tensor nms_impl(const Tensor& boxes, const Tensor& scores, double iou_threshold) {
  const Tensor order = std::get<1>(scores.sort(/*stable=*/true, 0, /*descending=*/true)).contiguous();
  const Tensor sorted = boxes.index_select(0, order).contiguous();
  const std::vector<int64_t> keep = nms_sorted<T>(sorted.data_ptr<T>(), sorted.size(0), static_cast<T>(iou_threshold));
  Tensor out = empty({static_cast<int64_t>(keep.size())}, kInt64);
  int64_t* op = out.data_ptr<int64_t>();
  const int64_t* ord = order.data_ptr<int64_t>();
  for (size_t k = 0; k < keep.size(); ++k) op[k] = ord[keep[k]];
  return out;
}

Tensor corner(const Tensor& b, int64_t start) { return b.narrow(-1, start, 2); }

std::tuple<Tensor, Tensor> inter_union(const Tensor& boxes1, const Tensor& boxes2) {
  const Tensor area1 = box_area(boxes1), area2 = box_area(boxes2);
  const Tensor lt = corner(boxes1, 0).unsqueeze(1).maximum(corner(boxes2, 0));
  const Tensor rb = corner(boxes1, 2).unsqueeze(1).minimum(corner(boxes2, 2));
  const Tensor wh = upcast(rb - lt).clamp_min(0);
  const Tensor inter = wh.select(2, 0) * wh.select(2, 1);
  return {inter, area1.unsqueeze(1) + area2 - inter};
}

// The enclosing box's width and height for every pair.
Tensor enclosing_wh(const Tensor& boxes1, const Tensor& boxes2) {
  const Tensor lti = corner(boxes1, 0).unsqueeze(1).minimum(corner(boxes2, 0));
  const Tensor rbi = corner(boxes1, 2).unsqueeze(1).maximum(corner(boxes2, 2));
  return upcast(rbi - lti).clamp_min(0);
}

std::tuple<Tensor, Tensor> diou_iou(const Tensor& boxes1, const Tensor& boxes2, double eps) {
  const Tensor iou = box_iou(boxes1, boxes2);
  const Tensor whi = enclosing_wh(boxes1, boxes2);
  const Tensor diag = whi.select(2, 0).pow(2) + whi.select(2, 1).pow(2) + eps;
  const Tensor xp = (boxes1.select(1, 0) + boxes1.select(1, 2)) / 2;
  const Tensor yp = (boxes1.select(1, 1) + boxes1.select(1, 3)) / 2;
  const Tensor xg = (boxes2.select(1, 0) + boxes2.select(1, 2)) / 2;
  const Tensor yg = (boxes2.select(1, 1) + boxes2.select(1, 3)) / 2;
  const Tensor centers =
      upcast(xp.unsqueeze(1) - xg.unsqueeze(0)).pow(2) + upcast(yp.unsqueeze(1) - yg.unsqueeze(0)).pow(2);
  return {iou - centers / diag, iou};
}

void check_pair(const char* op, const Tensor& boxes1, const Tensor& boxes2) {
  check_boxes(op, "boxes1", boxes1);
  check_boxes(op, "boxes2", boxes2);
}

}  // namespace

Tensor nms(const Tensor& boxes, const Tensor& scores, double iou_threshold) {
  check_boxes("nms", "boxes", boxes);
  EMBER_CHECK(scores.defined() && scores.dim() == 1, "nms: scores must be a Tensor[N], got shape ",
              scores.defined() ? scores.sizes() : IntArrayRef{});
  EMBER_CHECK(boxes.size(0) == scores.size(0), "nms: boxes and scores must have the same number of elements, got ",
              boxes.size(0), " and ", scores.size(0));
  EMBER_CHECK(boxes.dtype() == scores.dtype(), "nms: boxes and scores must have the same dtype, got ", boxes.dtype(),
              " and ", scores.dtype());
  if (boxes.numel() == 0) return empty({0}, kInt64);
  const NoGradGuard no_grad;
  const Tensor b = boxes.detach(), s = scores.detach();
  if (boxes.dtype() == kFloat32) return nms_impl<float>(b, s, iou_threshold);
  EMBER_CHECK(boxes.dtype() == kFloat64, "nms: expected float32 or float64 boxes, got ", boxes.dtype());
  return nms_impl<double>(b, s, iou_threshold);
}

Tensor batched_nms(const Tensor& boxes, const Tensor& scores, const Tensor& idxs, double iou_threshold) {
  check_boxes("batched_nms", "boxes", boxes);
  EMBER_CHECK(idxs.defined() && idxs.dim() == 1 && idxs.size(0) == boxes.size(0),
              "batched_nms: idxs must be a Tensor[N] with N = ", boxes.size(0), ", got shape ",
              idxs.defined() ? idxs.sizes() : IntArrayRef{});
  if (boxes.numel() == 0) return empty({0}, kInt64);
  const NoGradGuard no_grad;
  if (boxes.numel() > 4000) {
    // Per category, as torchvision's CPU path for large inputs.
    EMBER_CHECK(scores.defined() && scores.dim() == 1 && scores.size(0) == boxes.size(0),
                "batched_nms: scores must be a Tensor[N] with N = ", boxes.size(0));
    Tensor keep_mask = zeros({scores.size(0)}, kBool);
    const Tensor classes = std::get<0>(unique(idxs));
    for (const Tensor& c : classes.unbind(0)) {
      const Tensor curr = idxs.eq(c).nonzero().select(1, 0);
      const Tensor kept = nms(boxes.index_select(0, curr), scores.index_select(0, curr), iou_threshold);
      keep_mask.index_fill_(0, curr.index_select(0, kept), true);
    }
    const Tensor keep = keep_mask.nonzero().select(1, 0);
    const Tensor order = std::get<1>(scores.index_select(0, keep).sort(/*stable=*/true, 0, /*descending=*/true));
    return keep.index_select(0, order);
  }
  // Offsets every category into its own coordinate range, so one nms does it.
  const Tensor b = boxes.detach();
  const Tensor offsets = idxs.to(b.dtype()) * (b.max() + 1);
  return nms(b + offsets.unsqueeze(1), scores, iou_threshold);
}

Tensor remove_small_boxes(const Tensor& boxes, double min_size) {
  check_boxes("remove_small_boxes", "boxes", boxes);
  const Tensor ws = boxes.select(1, 2) - boxes.select(1, 0), hs = boxes.select(1, 3) - boxes.select(1, 1);
  return ws.ge(min_size).logical_and(hs.ge(min_size)).nonzero().select(1, 0);
}

Tensor clip_boxes_to_image(const Tensor& boxes, std::pair<int64_t, int64_t> size) {
  EMBER_CHECK(boxes.defined() && boxes.dim() >= 1 && boxes.size(-1) % 2 == 0,
              "clip_boxes_to_image: boxes must be a Tensor[..., 4], got shape ",
              boxes.defined() ? boxes.sizes() : IntArrayRef{});
  const auto [height, width] = size;
  const Tensor x = boxes.slice(-1, 0, std::nullopt, 2).clamp(Scalar(0), Scalar(width));
  const Tensor y = boxes.slice(-1, 1, std::nullopt, 2).clamp(Scalar(0), Scalar(height));
  return stack({x, y}, boxes.dim()).reshape(boxes.sizes());
}

Tensor box_convert(const Tensor& boxes, const std::string& in_fmt, const std::string& out_fmt) {
  const auto allowed = [](const std::string& f) { return f == "xyxy" || f == "xywh" || f == "cxcywh"; };
  EMBER_CHECK(allowed(in_fmt) && allowed(out_fmt),
              "box_convert: Unsupported Bounding Box Conversions for given in_fmt and out_fmt (got '", in_fmt,
              "' and '", out_fmt, "'; expected 'xyxy', 'xywh' or 'cxcywh')");
  EMBER_CHECK(boxes.defined() && boxes.dim() >= 1 && boxes.size(-1) == 4,
              "box_convert: boxes must be a Tensor[..., 4], got shape ",
              boxes.defined() ? boxes.sizes() : IntArrayRef{});
  if (in_fmt == out_fmt) return boxes.clone();
  Tensor xyxy = boxes;
  if (in_fmt == "xywh") {
    const auto c = boxes.unbind(-1);
    xyxy = stack({c[0], c[1], c[0] + c[2], c[1] + c[3]}, -1);
  } else if (in_fmt == "cxcywh") {
    const auto c = boxes.unbind(-1);
    xyxy = stack({c[0] - 0.5 * c[2], c[1] - 0.5 * c[3], c[0] + 0.5 * c[2], c[1] + 0.5 * c[3]}, -1);
  }
  if (out_fmt == "xyxy") return xyxy;
  const auto c = xyxy.unbind(-1);
  if (out_fmt == "xywh") return stack({c[0], c[1], c[2] - c[0], c[3] - c[1]}, -1);
  return stack({(c[0] + c[2]) / 2, (c[1] + c[3]) / 2, c[2] - c[0], c[3] - c[1]}, -1);
}

Tensor box_area(const Tensor& boxes) {
  check_boxes("box_area", "boxes", boxes);
  const Tensor b = upcast(boxes);
  return (b.select(1, 2) - b.select(1, 0)) * (b.select(1, 3) - b.select(1, 1));
}

Tensor box_iou(const Tensor& boxes1, const Tensor& boxes2) {
  check_pair("box_iou", boxes1, boxes2);
  const auto [inter, uni] = inter_union(boxes1, boxes2);
  return inter / uni;
}

Tensor generalized_box_iou(const Tensor& boxes1, const Tensor& boxes2) {
  check_pair("generalized_box_iou", boxes1, boxes2);
  const auto [inter, uni] = inter_union(boxes1, boxes2);
  const Tensor whi = enclosing_wh(boxes1, boxes2);
  const Tensor areai = whi.select(2, 0) * whi.select(2, 1);
  return inter / uni - (areai - uni) / areai;
}

Tensor complete_box_iou(const Tensor& boxes1, const Tensor& boxes2, double eps) {
  check_pair("complete_box_iou", boxes1, boxes2);
  const Tensor b1 = upcast(boxes1), b2 = upcast(boxes2);
  const auto [diou, iou] = diou_iou(b1, b2, eps);
  const Tensor w_pred = (b1.select(1, 2) - b1.select(1, 0)).unsqueeze(1);
  const Tensor h_pred = (b1.select(1, 3) - b1.select(1, 1)).unsqueeze(1);
  const Tensor w_gt = b2.select(1, 2) - b2.select(1, 0), h_gt = b2.select(1, 3) - b2.select(1, 1);
  const double k = 4 / (std::numbers::pi * std::numbers::pi);
  const Tensor v = k * ((w_pred / h_pred).atan() - (w_gt / h_gt).atan()).pow(2);
  // alpha is a weight, not a path for gradients (torchvision's no_grad block).
  const Tensor alpha = (v / (1 - iou + v + eps)).detach();
  return diou - alpha * v;
}

Tensor distance_box_iou(const Tensor& boxes1, const Tensor& boxes2, double eps) {
  check_pair("distance_box_iou", boxes1, boxes2);
  return std::get<0>(diou_iou(upcast(boxes1), upcast(boxes2), eps));
}

Tensor masks_to_boxes(const Tensor& masks) {
  EMBER_CHECK(masks.defined() && masks.dim() == 3, "masks_to_boxes: masks must be a Tensor[N, H, W], got shape ",
              masks.defined() ? masks.sizes() : IntArrayRef{});
  if (masks.numel() == 0) return zeros({0, 4}, kFloat32);
  const int64_t n = masks.size(0), h = masks.size(1), w = masks.size(2);
  const Tensor nz = masks.detach().ne(0).contiguous();
  const bool* p = nz.data_ptr<bool>();
  Tensor out = zeros({n, 4}, kFloat32);
  float* o = out.data_ptr<float>();
  for (int64_t i = 0; i < n; ++i) {
    int64_t x0 = w, y0 = h, x1 = -1, y1 = -1;
    const bool* m = p + i * h * w;
    for (int64_t y = 0; y < h; ++y)
      for (int64_t x = 0; x < w; ++x)
        if (m[y * w + x]) {
          x0 = std::min(x0, x), x1 = std::max(x1, x);
          y0 = std::min(y0, y), y1 = std::max(y1, y);
        }
    // torch.min of an empty selection raises in torchvision.
    EMBER_CHECK(x1 >= 0, "masks_to_boxes: mask ", i, " is empty (it has no nonzero pixel)");
    o[4 * i] = static_cast<float>(x0), o[4 * i + 1] = static_cast<float>(y0);
    o[4 * i + 2] = static_cast<float>(x1), o[4 * i + 3] = static_cast<float>(y1);
  }
  return out;
}

}  // namespace torch::vision::ops
