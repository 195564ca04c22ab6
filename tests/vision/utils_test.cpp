// ember::vision::utils: make_grid and the drawing helpers against torchvision
// 0.14 (tools/golden/gen_vision_ops_utils.py): boxes and masks pixel for
// pixel, keypoints (Ember's own rasteriser) nearly so, flow_to_image; and bad input.
#include <gtest/gtest.h>

#include "common/golden.h"
#include "common/test_util.h"
#include "ember/torch.h"
#include "ember/vision/utils.h"

namespace vision_utils_test {

namespace utils = ember::vision::utils;
using ember::Tensor;
using ember::testing::Golden;

const Golden& golden() {
  static const Golden g("vision_ops_utils.golden");
  return g;
}

TEST(VisionUtils, MakeGridMatchesTorchvision) {
  const Golden& g = golden();
  const Tensor x = g["grid.x"];
  EXPECT_TENSOR_CLOSE(utils::make_grid(x), g["grid.default"]);
  EXPECT_TENSOR_CLOSE(utils::make_grid(x, 2, 1, false, std::nullopt, false, 0.5), g["grid.nrow2_pad1"]);
  EXPECT_TENSOR_CLOSE(utils::make_grid(x, 3, 2, true), g["grid.normalize"]);
  EXPECT_TENSOR_CLOSE(utils::make_grid(x, 8, 2, true, std::make_tuple(-1.0, 1.0)), g["grid.normalize_range"]);
  EXPECT_TENSOR_CLOSE(utils::make_grid(x, 8, 2, true, std::nullopt, true), g["grid.scale_each"]);
  EXPECT_TENSOR_CLOSE(utils::make_grid(g["grid.gray.x"], 2), g["grid.gray"]);
  EXPECT_TENSOR_CLOSE(utils::make_grid(x[0]), g["grid.single"]);
  EXPECT_TENSOR_CLOSE(utils::make_grid(x.unbind(0)), g["grid.default"]);
  // The input is left alone by normalize.
  EXPECT_TENSOR_EQ(x, g["grid.x"]);
}

TEST(VisionUtils, DrawBoundingBoxesMatchesTorchvision) {
  const Golden& g = golden();
  const Tensor img = g["draw.image"], boxes = g["draw.boxes"];
  EXPECT_TENSOR_EQ(utils::draw_bounding_boxes(img, boxes), g["boxes.default"]);
  EXPECT_TENSOR_EQ(utils::draw_bounding_boxes(
                       img, boxes, std::nullopt,
                       std::vector<utils::Color>{"red", std::make_tuple(0, 255, 0), "#0000ff", "gold"}, false, 2),
                   g["boxes.colors_width2"]);
  EXPECT_TENSOR_EQ(
      utils::draw_bounding_boxes(img, boxes, std::nullopt, {"red", {0, 255, 0}, "#0000ff", "gold"}, false, 2),
      g["boxes.colors_width2"]);
  EXPECT_TENSOR_EQ(utils::draw_bounding_boxes(img, boxes, std::nullopt, "orange", true, 1), g["boxes.fill"]);
  EXPECT_TENSOR_EQ(utils::draw_bounding_boxes(img, boxes, std::nullopt, std::nullopt, true, 3),
                   g["boxes.fill_palette"]);
  EXPECT_TENSOR_EQ(utils::draw_bounding_boxes(img.narrow(0, 0, 1), boxes, std::nullopt, utils::Color("white")),
                   g["boxes.gray"]);
  EXPECT_TENSOR_EQ(utils::draw_bounding_boxes(img, ember::zeros({0, 4})), img);
}

TEST(VisionUtils, DrawSegmentationMasksMatchesTorchvision) {
  const Golden& g = golden();
  const Tensor img = g["draw.image"], masks = g["masks.masks"];
  EXPECT_TENSOR_EQ(utils::draw_segmentation_masks(img, masks), g["masks.default"]);
  EXPECT_TENSOR_EQ(utils::draw_segmentation_masks(
                       img, masks, 0.35, std::vector<utils::Color>{"teal", std::make_tuple(10, 20, 30), "#abc"}),
                   g["masks.colors"]);
  EXPECT_TENSOR_EQ(utils::draw_segmentation_masks(img, masks[0], 1.0, "red"), g["masks.single"]);
  EXPECT_TENSOR_EQ(utils::draw_segmentation_masks(img, masks, 0.35, {"teal", {10, 20, 30}, "#abc"}), g["masks.colors"]);
}

// Ember rasterises discs and thick lines itself, so edge pixels may differ
// from PIL's (its wide lines are polygons): most drawn pixels must coincide.
TEST(VisionUtils, DrawKeypointsNearTorchvision) {
  const Golden& g = golden();
  const Tensor img = g["draw.image"], kpts = g["keypoints.kpts"];
  const auto differing = [&](const Tensor& a, const Tensor& b) { return a.ne(b).any(0).sum().item<int64_t>(); };
  const Tensor dots = utils::draw_keypoints(img, kpts, {}, "red", 2);
  const int64_t drawn_dots = img.ne(g["keypoints.dots"]).any(0).sum().item<int64_t>();
  EXPECT_LE(differing(dots, g["keypoints.dots"]), drawn_dots / 5);
  const Tensor lines = utils::draw_keypoints(img, kpts, {{0, 1}, {1, 2}}, utils::Color("blue"), 1, 3);
  const int64_t drawn_lines = img.ne(g["keypoints.lines"]).any(0).sum().item<int64_t>();
  EXPECT_LE(differing(lines, g["keypoints.lines"]), drawn_lines / 2);
  // No colour: no discs, as torchvision's (PIL draws an ellipse of no fill and zero width).
  EXPECT_TENSOR_EQ(utils::draw_keypoints(img, kpts), img);
}

TEST(VisionUtils, FlowToImageMatchesTorchvision) {
  const Golden& g = golden();
  EXPECT_TENSOR_EQ(utils::flow_to_image(g["flow.x"][1]), g["flow.single"]);
  EXPECT_TENSOR_EQ(utils::flow_to_image(g["flow.x"]), g["flow.y"]);
  EXPECT_EMBER_ERROR(utils::flow_to_image(ember::zeros({2, 4, 4}, ember::kFloat64)), "flow_to_image", "dtype");
  EXPECT_EMBER_ERROR(utils::flow_to_image(ember::zeros({3, 4, 4})), "flow_to_image", "shape");
}

TEST(VisionUtils, BadInputRaises) {
  const Tensor img = ember::zeros({3, 8, 8}, ember::kUInt8);
  const Tensor box = ember::tensor({1.0f, 1.0f, 4.0f, 4.0f}).view({1, 4});
  EXPECT_EMBER_ERROR(utils::draw_bounding_boxes(img.to(ember::kFloat32), box), "draw_bounding_boxes", "uint8");
  EXPECT_EMBER_ERROR(utils::draw_bounding_boxes(img.unsqueeze(0), box), "draw_bounding_boxes", "batches");
  EXPECT_EMBER_ERROR(utils::draw_bounding_boxes(ember::zeros({2, 8, 8}, ember::kUInt8), box), "draw_bounding_boxes",
                     "grayscale and RGB");
  EXPECT_EMBER_ERROR(utils::draw_bounding_boxes(img, ember::tensor({4.0f, 1.0f, 1.0f, 4.0f}).view({1, 4})),
                     "draw_bounding_boxes", "(xmin, ymin, xmax, ymax)");
  EXPECT_EMBER_ERROR(utils::draw_bounding_boxes(img, box, std::vector<std::string>{"a", "b"}), "draw_bounding_boxes",
                     "labels (2)");
  EXPECT_EMBER_ERROR(utils::draw_bounding_boxes(img, box, std::vector<std::string>{"cat"}, std::nullopt, false, 1,
                                                "/nonexistent/font.ttf"),
                     "draw_bounding_boxes", "cannot open font", "/nonexistent/font.ttf");
  EXPECT_EMBER_ERROR(utils::draw_bounding_boxes(img, box, std::nullopt, utils::Color("not-a-colour")), "Color",
                     "not-a-colour");
  EXPECT_EMBER_ERROR(utils::draw_bounding_boxes(img, box, std::nullopt, std::vector<utils::Color>{}),
                     "draw_bounding_boxes", "Number of colors (0)");
  EXPECT_EMBER_ERROR(utils::draw_segmentation_masks(img, ember::ones({8, 8})), "draw_segmentation_masks", "bool");
  EXPECT_EMBER_ERROR(utils::draw_segmentation_masks(img, ember::ones({1, 7, 8}, ember::kBool)),
                     "draw_segmentation_masks", "same height and width");
  EXPECT_EMBER_ERROR(utils::draw_segmentation_masks(img.narrow(0, 0, 1), ember::ones({8, 8}, ember::kBool)),
                     "draw_segmentation_masks", "RGB");
  EXPECT_EMBER_ERROR(utils::draw_keypoints(img, ember::zeros({2, 2})), "draw_keypoints", "num_instances");
  EXPECT_EMBER_ERROR(utils::draw_keypoints(img, ember::zeros({1, 2, 2}), {{0, 5}}), "draw_keypoints", "(0, 5)");
  EXPECT_EMBER_ERROR(utils::make_grid(ember::zeros({1, 1, 1, 1, 1})), "make_grid", "4-D");
  EXPECT_EMBER_ERROR(utils::make_grid(std::vector<Tensor>{}), "make_grid", "empty");
}

}  // namespace vision_utils_test
