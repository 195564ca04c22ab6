// OpInfo entries for ember::vision::ops: the box geometry and losses are
// compositions of Ember's differentiable ops (every walk applies); roi_align,
// roi_pool, ps_roi_align, ps_roi_pool and deform_conv2d record a custom
// Function whose backward is a kernel. torchvision's backward kernels of
// these five are not differentiable (its autograd raises on double backward),
// so their entries set gradgrad = false, and forward_ad = false: the custom
// Functions define no jvp, as torchvision's define none. complete_box_iou and
// complete_box_iou_loss have no entries: like torchvision's they hold the
// alpha weight constant (no_grad), so their gradient is by design not the
// derivative finite differences see; tests/vision/ops_boxes_test.cpp checks
// it against torchvision's instead.
#include "autograd/opinfo.h"
#include "ember/vision/ops/box_losses.h"
#include "ember/vision/ops/boxes.h"
#include "ember/vision/ops/deform_conv.h"
#include "ember/vision/ops/focal_loss.h"
#include "ember/vision/ops/ps_roi_align.h"
#include "ember/vision/ops/ps_roi_pool.h"
#include "ember/vision/ops/roi_align.h"
#include "ember/vision/ops/roi_pool.h"

namespace torch::testing {
namespace {

namespace ops = vision::ops;
using Shapes = std::vector<std::vector<int64_t>>;

OpInfo op(const char* name, std::function<Tensor(const variable_list&)> f, Shapes shapes, double lo = 0,
          double hi = 1) {
  return single_output_op(name, std::move(f), std::move(shapes), lo, hi, 3501);
}

OpInfo kernel_op(const char* name, std::function<Tensor(const variable_list&)> f, Shapes shapes, double lo = -1,
                 double hi = 1) {
  OpInfo o = single_output_op(name, std::move(f), std::move(shapes), lo, hi, 3502);
  o.gradgrad = false;
  o.forward_ad = false;
  return o;
}

// Valid (x1, y1, x2, y2) boxes from a free Tensor[N, 4] in [0, 1): corners
// spread over [0, 4), sides in [1, 2).
Tensor boxes_of(const Tensor& x) {
  const Tensor xy = x.narrow(1, 0, 2) * 4;
  return cat({xy, xy + x.narrow(1, 2, 2) + 1}, 1);
}

// Fixed rois over a 2-image batch of 6 x 6 maps; they stay clear of the last
// row and column, where torchvision's ps_roi_pool backward disagrees with its
// forward (see ps_roi_pool.cpp).
Tensor rois() {
  return tensor({0.0, 0.6, 1.2, 3.7, 3.1, 1.0, 2.3, 0.4, 3.2, 2.9, 1.0, 1.1, 1.4, 2.0, 3.0}, kFloat64).view({3, 5});
}

RegisterOps reg({
    op("vision::ops::box_area", [](const variable_list& x) { return ops::box_area(boxes_of(x[0])); }, {{3, 4}}),
    op("vision::ops::box_convert(xywh, cxcywh)",
       [](const variable_list& x) { return ops::box_convert(x[0], "xywh", "cxcywh"); }, {{3, 4}}),
    op("vision::ops::box_convert(cxcywh, xyxy)",
       [](const variable_list& x) { return ops::box_convert(x[0], "cxcywh", "xyxy"); }, {{3, 4}}),
    op("vision::ops::box_iou", [](const variable_list& x) { return ops::box_iou(boxes_of(x[0]), boxes_of(x[1])); },
       {{3, 4}, {2, 4}}),
    op("vision::ops::generalized_box_iou",
       [](const variable_list& x) { return ops::generalized_box_iou(boxes_of(x[0]), boxes_of(x[1])); },
       {{3, 4}, {2, 4}}),
    op("vision::ops::distance_box_iou",
       [](const variable_list& x) { return ops::distance_box_iou(boxes_of(x[0]), boxes_of(x[1])); }, {{3, 4}, {2, 4}}),
    op("vision::ops::clip_boxes_to_image",
       [](const variable_list& x) {
         return ops::clip_boxes_to_image(x[0] * 6 - 1, {3, 4});
       },
       {{3, 4}}),
    op("vision::ops::generalized_box_iou_loss",
       [](const variable_list& x) { return ops::generalized_box_iou_loss(boxes_of(x[0]), boxes_of(x[1])); },
       {{3, 4}, {3, 4}}),
    op("vision::ops::distance_box_iou_loss(mean)",
       [](const variable_list& x) { return ops::distance_box_iou_loss(boxes_of(x[0]), boxes_of(x[1]), "mean"); },
       {{3, 4}, {3, 4}}),
    op("vision::ops::sigmoid_focal_loss",
       [](const variable_list& x) { return ops::sigmoid_focal_loss(x[0] * 4 - 2, x[1]); }, {{2, 3}, {2, 3}}),
    kernel_op("vision::ops::roi_align",
              [](const variable_list& x) {
                return ops::roi_align(x[0], rois(), {2, 3}, 1.0, -1, false);
              },
              {{2, 1, 6, 6}}),
    kernel_op("vision::ops::roi_align(aligned, sampling_ratio=2, scale 0.5)",
              [](const variable_list& x) { return ops::roi_align(x[0], rois(), 2, 0.5, 2, true); }, {{2, 1, 6, 6}}),
    kernel_op("vision::ops::roi_pool",
              [](const variable_list& x) {
                return ops::roi_pool(x[0], rois(), {2, 2});
              },
              {{2, 1, 6, 6}}),
    kernel_op("vision::ops::ps_roi_align",
              [](const variable_list& x) {
                return ops::ps_roi_align(x[0], rois(), {1, 2}, 1.0, 2);
              },
              {{2, 2, 6, 6}}),
    kernel_op("vision::ops::ps_roi_pool",
              [](const variable_list& x) {
                return ops::ps_roi_pool(x[0], rois(), {2, 1});
              },
              {{2, 2, 6, 6}}),
    kernel_op("vision::ops::deform_conv2d(mask, groups 2, offset groups 2)",
              [](const variable_list& x) { return ops::deform_conv2d(x[0], x[1], x[2], x[3], 1, 0, 1, x[4]); },
              {{1, 4, 3, 3}, {1, 16, 2, 2}, {2, 2, 2, 2}, {2}, {1, 8, 2, 2}}),
    kernel_op("vision::ops::deform_conv2d(stride 2, dilation 2)",
              [](const variable_list& x) { return ops::deform_conv2d(x[0], x[1] * 2, x[2], std::nullopt, 2, 1, 2); },
              {{1, 2, 5, 5}, {1, 8, 3, 3}, {2, 2, 2, 2}}),
});

}  // namespace
}  // namespace torch::testing
