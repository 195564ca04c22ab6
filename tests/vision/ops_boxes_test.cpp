// ember::vision::ops box geometry, NMS, box losses and sigmoid_focal_loss:
// outputs and gradients against torchvision 0.14's
// (tools/golden/gen_vision_ops_torchvision.py), and bad input.
#include <gtest/gtest.h>

#include "common/golden.h"
#include "common/test_util.h"
#include "ember/torch.h"
#include "ember/vision/ops/box_losses.h"
#include "ember/vision/ops/boxes.h"
#include "ember/vision/ops/focal_loss.h"

namespace vision_ops_boxes_test {

namespace ops = ember::vision::ops;
using ember::Tensor;
using ember::testing::Golden;
using Inputs = std::vector<Tensor>;

const Golden& golden() {
  static const Golden g("vision_ops_torchvision.golden");
  return g;
}

void check(const std::string& name, int n, const std::function<Tensor(const Inputs&)>& f) {
  ember::testing::expect_golden_case(golden(), name, n, f);
}

TEST(VisionOpsBoxes, GeometryMatchesTorchvision) {
  check("box_area", 1, [](const Inputs& x) { return ops::box_area(x[0]); });
  check("box_iou", 2, [](const Inputs& x) { return ops::box_iou(x[0], x[1]); });
  check("generalized_box_iou", 2, [](const Inputs& x) { return ops::generalized_box_iou(x[0], x[1]); });
  check("complete_box_iou", 2, [](const Inputs& x) { return ops::complete_box_iou(x[0], x[1]); });
  check("distance_box_iou", 2, [](const Inputs& x) { return ops::distance_box_iou(x[0], x[1]); });
  check("complete_box_iou_eps", 2, [](const Inputs& x) { return ops::complete_box_iou(x[0], x[1], 0.5); });
  for (const char* in : {"xyxy", "xywh", "cxcywh"})
    for (const char* out : {"xyxy", "xywh", "cxcywh"})
      check(std::string("box_convert_") + in + "_" + out, 1,
            [&](const Inputs& x) { return ops::box_convert(x[0], in, out); });
  check("clip_boxes_to_image", 1, [](const Inputs& x) { return ops::clip_boxes_to_image(x[0], {12, 20}); });
  check("clip_boxes_to_image_3d", 1, [](const Inputs& x) { return ops::clip_boxes_to_image(x[0], {12, 20}); });
}

TEST(VisionOpsBoxes, IntegerBoxesUpcast) {
  const Golden& g = golden();
  EXPECT_TENSOR_CLOSE(ops::box_iou(g["box_iou_int.x0"], g["box_iou_int.x1"]), g["box_iou_int.y"]);
  EXPECT_TENSOR_EQ(ops::box_area(g["box_iou_int.x0"]), g["box_area_int.y"]);
}

TEST(VisionOpsBoxes, LossesMatchTorchvision) {
  for (const char* red : {"none", "mean", "sum"}) {
    const std::string r = red;
    check("generalized_box_iou_loss_" + r, 2,
          [&](const Inputs& x) { return ops::generalized_box_iou_loss(x[0], x[1], r); });
    check("distance_box_iou_loss_" + r, 2, [&](const Inputs& x) { return ops::distance_box_iou_loss(x[0], x[1], r); });
    check("complete_box_iou_loss_" + r, 2, [&](const Inputs& x) { return ops::complete_box_iou_loss(x[0], x[1], r); });
    check("sigmoid_focal_loss_" + r, 2,
          [&](const Inputs& x) { return ops::sigmoid_focal_loss(x[0], x[1], 0.25, 2, r); });
  }
  check("generalized_box_iou_loss_eps", 2,
        [](const Inputs& x) { return ops::generalized_box_iou_loss(x[0], x[1], "none", 0.25); });
  check("distance_box_iou_loss_eps", 2,
        [](const Inputs& x) { return ops::distance_box_iou_loss(x[0], x[1], "none", 0.25); });
  check("complete_box_iou_loss_eps", 2,
        [](const Inputs& x) { return ops::complete_box_iou_loss(x[0], x[1], "none", 0.25); });
  check("generalized_box_iou_loss_1d", 2, [](const Inputs& x) { return ops::generalized_box_iou_loss(x[0], x[1]); });
  check("distance_box_iou_loss_1d", 2, [](const Inputs& x) { return ops::distance_box_iou_loss(x[0], x[1]); });
  check("complete_box_iou_loss_1d", 2, [](const Inputs& x) { return ops::complete_box_iou_loss(x[0], x[1]); });
  check("sigmoid_focal_loss_noalpha", 2, [](const Inputs& x) { return ops::sigmoid_focal_loss(x[0], x[1], -1, 1.5); });
}

TEST(VisionOpsBoxes, NmsMatchesTorchvision) {
  const Golden& g = golden();
  for (const char* dt : {"f32", "f64"}) {
    const std::string p = std::string("nms_") + dt;
    for (const char* thr : {"0.2", "0.5", "0.8"})
      EXPECT_TENSOR_EQ(ops::nms(g[p + ".boxes"], g[p + ".scores"], std::stod(thr)), g[p + ".keep_" + thr]);
  }
  EXPECT_TENSOR_EQ(ops::nms(g["nms_ties.boxes"], g["nms_ties.scores"], 0.5), g["nms_ties.keep"]);
  for (const char* size : {"small", "large"}) {
    const std::string p = std::string("batched_nms_") + size;
    EXPECT_TENSOR_EQ(ops::batched_nms(g[p + ".boxes"], g[p + ".scores"], g[p + ".idxs"], 0.4), g[p + ".keep"]);
  }
  EXPECT_TENSOR_EQ(ops::remove_small_boxes(g["remove_small_boxes.boxes"], 2.5), g["remove_small_boxes.keep"]);
  EXPECT_TENSOR_EQ(ops::masks_to_boxes(g["masks_to_boxes.masks"]), g["masks_to_boxes.boxes"]);
}

TEST(VisionOpsBoxes, EmptyInputs) {
  const Tensor none = ember::zeros({0, 4});
  EXPECT_EQ(ops::nms(none, ember::zeros({0}), 0.5).numel(), 0);
  EXPECT_EQ(ops::nms(none, ember::zeros({0}), 0.5).dtype(), ember::kInt64);
  EXPECT_EQ(ops::batched_nms(none, ember::zeros({0}), ember::zeros({0}, ember::kInt64), 0.5).numel(), 0);
  EXPECT_EQ(ops::box_iou(none, ember::ones({3, 4})).sizes(), (std::vector<int64_t>{0, 3}));
  EXPECT_EQ(ops::masks_to_boxes(ember::zeros({0, 5, 5})).sizes(), (std::vector<int64_t>{0, 4}));
}

TEST(VisionOpsBoxes, BadInputRaises) {
  const Tensor b = ember::ones({3, 4}), s = ember::ones({3});
  EXPECT_EMBER_ERROR(ops::nms(ember::ones({3, 5}), s, 0.5), "nms", "[3, 5]");
  EXPECT_EMBER_ERROR(ops::nms(b, ember::ones({2}), 0.5), "nms", "3", "2");
  EXPECT_EMBER_ERROR(ops::nms(b.to(ember::kInt64), s.to(ember::kInt64), 0.5), "nms", "int64");
  EXPECT_EMBER_ERROR(ops::batched_nms(b, s, ember::zeros({2}, ember::kInt64), 0.5), "batched_nms", "idxs");
  EXPECT_EMBER_ERROR(ops::box_iou(b, ember::ones({2, 3})), "box_iou", "boxes2");
  EXPECT_EMBER_ERROR(ops::box_convert(b, "xyxy", "yxyx"), "box_convert", "yxyx");
  EXPECT_EMBER_ERROR(ops::box_area(ember::ones({4})), "box_area", "[4]");
  EXPECT_EMBER_ERROR(ops::masks_to_boxes(ember::ones({4, 4})), "masks_to_boxes", "[4, 4]");
  EXPECT_EMBER_ERROR(ops::masks_to_boxes(ember::zeros({1, 4, 4})), "masks_to_boxes", "empty");
  EXPECT_EMBER_ERROR(ops::generalized_box_iou_loss(b, ember::ones({2, 4})), "generalized_box_iou_loss", "shape");
  EXPECT_EMBER_ERROR(ops::distance_box_iou_loss(b, b, "avg"), "distance_box_iou_loss", "avg");
  EXPECT_EMBER_ERROR(ops::sigmoid_focal_loss(s, ember::ones({2})), "sigmoid_focal_loss", "shape");
  EXPECT_EMBER_ERROR(ops::clip_boxes_to_image(ember::ones({2, 3}), {4, 4}), "clip_boxes_to_image", "[2, 3]");
}

}  // namespace vision_ops_boxes_test
