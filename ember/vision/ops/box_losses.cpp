#include "ember/vision/ops/box_losses.h"

#include <numbers>

#include "ember/autograd/grad_mode.h"
#include "ember/ops/all_ops.h"
#include "ember/vision/ops/box_util.h"

namespace torch::vision::ops {

namespace {

using detail::reduce_loss;
using detail::upcast_non_float;

struct Corners {
  Tensor x1, y1, x2, y2;
};

Corners corners(const char* op, const Tensor& boxes) {
  EMBER_CHECK(boxes.defined() && boxes.dim() >= 1 && boxes.size(-1) == 4, op,
              ": boxes must be a Tensor[N, 4] or Tensor[4], got shape ",
              boxes.defined() ? boxes.sizes() : IntArrayRef{});
  auto c = boxes.unbind(-1);
  return {c[0], c[1], c[2], c[3]};
}

// Intersection (zero where the boxes do not overlap) and union of matching boxes.
std::tuple<Tensor, Tensor> loss_inter_union(const Corners& a, const Corners& g) {
  const Tensor xk1 = a.x1.maximum(g.x1), yk1 = a.y1.maximum(g.y1);
  const Tensor xk2 = a.x2.minimum(g.x2), yk2 = a.y2.minimum(g.y2);
  const Tensor overlap = yk2.gt(yk1).logical_and(xk2.gt(xk1));
  const Tensor inter = where(overlap, (xk2 - xk1) * (yk2 - yk1), zeros_like(a.x1));
  const Tensor uni = (a.x2 - a.x1) * (a.y2 - a.y1) + (g.x2 - g.x1) * (g.y2 - g.y1) - inter;
  return {inter, uni};
}

struct Prepared {
  Corners a, g;
};

Prepared prepare(const char* op, const Tensor& boxes1, const Tensor& boxes2) {
  const Tensor b1 = upcast_non_float(boxes1), b2 = upcast_non_float(boxes2);
  EMBER_CHECK(b1.defined() && b2.defined() && b1.sizes() == b2.sizes(), op,
              ": boxes1 and boxes2 must have the same shape, got ", b1.defined() ? b1.sizes() : IntArrayRef{}, " and ",
              b2.defined() ? b2.sizes() : IntArrayRef{});
  return {corners(op, b1), corners(op, b2)};
}

std::tuple<Tensor, Tensor> diou_iou_loss(const Corners& a, const Corners& g, double eps) {
  const auto [inter, uni] = loss_inter_union(a, g);
  const Tensor iou = inter / (uni + eps);
  const Tensor xc1 = a.x1.minimum(g.x1), yc1 = a.y1.minimum(g.y1);
  const Tensor xc2 = a.x2.maximum(g.x2), yc2 = a.y2.maximum(g.y2);
  const Tensor diag = (xc2 - xc1).pow(2) + (yc2 - yc1).pow(2) + eps;
  const Tensor xp = (a.x2 + a.x1) / 2, yp = (a.y2 + a.y1) / 2;
  const Tensor xg = (g.x1 + g.x2) / 2, yg = (g.y1 + g.y2) / 2;
  const Tensor centers = (xp - xg).pow(2) + (yp - yg).pow(2);
  return {1 - iou + centers / diag, iou};
}

}  // namespace

Tensor generalized_box_iou_loss(const Tensor& boxes1, const Tensor& boxes2, const std::string& reduction, double eps) {
  const char* op = "generalized_box_iou_loss";
  const auto [a, g] = prepare(op, boxes1, boxes2);
  const auto [inter, uni] = loss_inter_union(a, g);
  const Tensor iou = inter / (uni + eps);
  const Tensor area_c = (a.x2.maximum(g.x2) - a.x1.minimum(g.x1)) * (a.y2.maximum(g.y2) - a.y1.minimum(g.y1));
  return reduce_loss(op, 1 - (iou - (area_c - uni) / (area_c + eps)), reduction);
}

Tensor distance_box_iou_loss(const Tensor& boxes1, const Tensor& boxes2, const std::string& reduction, double eps) {
  const char* op = "distance_box_iou_loss";
  const auto [a, g] = prepare(op, boxes1, boxes2);
  return reduce_loss(op, std::get<0>(diou_iou_loss(a, g, eps)), reduction);
}

Tensor complete_box_iou_loss(const Tensor& boxes1, const Tensor& boxes2, const std::string& reduction, double eps) {
  const char* op = "complete_box_iou_loss";
  const auto [a, g] = prepare(op, boxes1, boxes2);
  const auto [diou, iou] = diou_iou_loss(a, g, 1e-7);
  const double k = 4 / (std::numbers::pi * std::numbers::pi);
  const Tensor v = k * (((g.x2 - g.x1) / (g.y2 - g.y1)).atan() - ((a.x2 - a.x1) / (a.y2 - a.y1)).atan()).pow(2);
  const Tensor alpha = (v / (1 - iou + v + eps)).detach();  // a weight, as torchvision's no_grad block
  return reduce_loss(op, diou + alpha * v, reduction);
}

}  // namespace torch::vision::ops
