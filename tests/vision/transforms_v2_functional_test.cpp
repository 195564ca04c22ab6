// transforms::v2::functional against torchvision 0.14 (tools/golden/gen_vision_transforms_v2.py):
// images and masks equal v1's outputs; boxes, in every format, equal the boxes of the
// transformed box masks (flips, crops, pads, resizes) or the corners moved by torchvision's
// affine matrix / homography (warps), whose masks they must contain.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "common/golden.h"
#include "common/test_util.h"
#include "ember/torch.h"
#include "ember/vision/ops/boxes.h"
#include "ember/vision/transforms/v2.h"

namespace {

using namespace torch;
namespace F = torch::vision::transforms::v2::functional;
namespace tvt = torch::vision::tv_tensors;
using torch::testing::Golden;
using torch::vision::transforms::InterpolationMode;
using tvt::BoundingBoxes;
using tvt::BoundingBoxFormat;

const Golden& gold() {
  static const Golden g("vision_transforms_v2.golden");
  return g;
}

const std::vector<std::pair<BoundingBoxFormat, std::string>> kFormats = {
    {BoundingBoxFormat::XYXY, "xyxy"}, {BoundingBoxFormat::XYWH, "xywh"}, {BoundingBoxFormat::CXCYWH, "cxcywh"}};

const std::vector<int64_t> kCanvas = {24, 32};

BoundingBoxes in_boxes(BoundingBoxFormat f, const std::string& name) {
  return BoundingBoxes(vision::ops::box_convert(gold()["in.boxes"], "xyxy", name), f, kCanvas);
}
Tensor to_xyxy(const BoundingBoxes& b, const std::string& name) {
  return vision::ops::box_convert(Tensor(b).to(kFloat), name, "xyxy");
}

// Boxes of surviving masks equal the mask route within atol; others are degenerate.
void expect_mask_route(const Tensor& xyxy, const std::string& c, double atol) {
  const Tensor mb = gold()[c + ".mask_boxes"], valid = gold()[c + ".mask_valid"];
  for (int64_t i = 0; i < mb.size(0); ++i) {
    if (valid[i].item<int64_t>()) {
      EXPECT_TENSOR_CLOSE_TOL(xyxy[i], mb[i], 0, atol);
    } else {
      const Tensor b = xyxy[i];
      EXPECT_TRUE((b[2] - b[0]).item<float>() <= 0 || (b[3] - b[1]).item<float>() <= 0) << c << " box " << i;
    }
  }
}

// Every mask pixel lies inside its warped box (within tol pixels).
void expect_contains_masks(const Tensor& xyxy, const std::string& c, double tol) {
  const Tensor mb = gold()[c + ".mask_boxes"], valid = gold()[c + ".mask_valid"];
  for (int64_t i = 0; i < mb.size(0); ++i) {
    if (!valid[i].item<int64_t>()) continue;
    EXPECT_LE(xyxy[i][0].item<float>(), mb[i][0].item<float>() + tol) << c << " box " << i;
    EXPECT_LE(xyxy[i][1].item<float>(), mb[i][1].item<float>() + tol) << c << " box " << i;
    EXPECT_GE(xyxy[i][2].item<float>(), mb[i][2].item<float>() - tol) << c << " box " << i;
    EXPECT_GE(xyxy[i][3].item<float>(), mb[i][3].item<float>() - tol) << c << " box " << i;
  }
}

struct Case {
  std::string name;
  std::function<tvt::Image(const tvt::Image&)> image;
  std::function<tvt::Mask(const tvt::Mask&)> mask;
  std::function<BoundingBoxes(const BoundingBoxes&)> boxes;
  std::vector<int64_t> canvas;
  double box_atol = 0;  // for the mask route
  bool fimage = false;
};

#define EMBER_V2_CASE(name, call, canvas, atol, fimage)                                      \
  Case {                                                                                     \
    name, [](const tvt::Image& x) { return call; }, [](const tvt::Mask& x) { return call; }, \
        [](const BoundingBoxes& x) { return call; }, canvas, atol, fimage                    \
  }

std::vector<Case> simple_cases() {
  return {
      EMBER_V2_CASE("hflip", F::horizontal_flip(x), kCanvas, 0, true),
      EMBER_V2_CASE("vflip", F::vflip(x), kCanvas, 0, false),
      EMBER_V2_CASE("resize_up", F::resize(x, {48, 64}), (std::vector<int64_t>{48, 64}), 0, false),
      EMBER_V2_CASE("resize_down", F::resize(x, {12, 16}), (std::vector<int64_t>{12, 16}), 1.0, true),
      EMBER_V2_CASE("resize_short", F::resize(x, {16}, InterpolationMode::BILINEAR, 20), (std::vector<int64_t>{15, 20}),
                    1.0, false),
      EMBER_V2_CASE("crop", F::crop(x, 2, 4, 18, 20), (std::vector<int64_t>{18, 20}), 0, false),
      EMBER_V2_CASE("crop_out", F::crop(x, -3, -2, 20, 30), (std::vector<int64_t>{20, 30}), 0, false),
      EMBER_V2_CASE("center_crop", F::center_crop(x, {16, 20}), (std::vector<int64_t>{16, 20}), 0, false),
      EMBER_V2_CASE("resized_crop", F::resized_crop(x, 2, 4, 18, 20, {36, 40}), (std::vector<int64_t>{36, 40}), 0,
                    false),
      EMBER_V2_CASE("pad_constant", F::pad(x, {3, 5, 2, 1}), (std::vector<int64_t>{30, 37}), 0, false),
  };
}

TEST(VisionTransformsV2Functional, ImagesAndMasksEqualV1) {
  const tvt::Image img(gold()["in.image"]);
  const tvt::Image fimg(gold()["in.fimage"]);
  const tvt::Mask mask(gold()["in.masks"]);
  for (const Case& c : simple_cases()) {
    SCOPED_TRACE(c.name);
    // uint8 resizes may differ by one where v1's float rounding ties flip (docs/vision_transforms.md).
    EXPECT_TENSOR_CLOSE_TOL(c.image(img), gold()[c.name + ".image"], 0, c.name.rfind("resize", 0) == 0 ? 1 : 0);
    if (c.fimage) EXPECT_TENSOR_CLOSE_TOL(c.image(fimg), gold()[c.name + ".fimage"], 1e-5, 1e-6);
    const tvt::Mask m = c.mask(mask);
    EXPECT_TENSOR_EQ(m, gold()[c.name + ".mask"]);
    EXPECT_EQ(F::get_size(m), c.canvas);
  }
}

TEST(VisionTransformsV2Functional, BoxesFollowTheirMasksInEveryFormat) {
  for (const Case& c : simple_cases()) {
    for (const auto& [fmt, name] : kFormats) {
      SCOPED_TRACE(c.name + " " + name);
      const BoundingBoxes out = c.boxes(in_boxes(fmt, name));
      EXPECT_EQ(out.format, fmt);
      EXPECT_EQ(out.canvas_size, c.canvas);
      expect_mask_route(to_xyxy(out, name), c.name, c.box_atol + 1e-4);
    }
  }
}

TEST(VisionTransformsV2Functional, PadModes) {
  const tvt::Mask mask(gold()["in.masks"]);
  const tvt::Image img(gold()["in.image"]);
  const BoundingBoxes boxes = in_boxes(BoundingBoxFormat::XYXY, "xyxy");
  const BoundingBoxes constant = F::pad(boxes, {3, 5, 2, 1});
  for (const std::string mode : {"edge", "reflect", "symmetric"}) {
    SCOPED_TRACE(mode);
    EXPECT_TENSOR_EQ(F::pad(img, {3, 5, 2, 1}, std::nullopt, mode), gold()["pad_" + mode + ".image"]);
    EXPECT_TENSOR_EQ(F::pad(mask, {3, 5, 2, 1}, std::nullopt, mode), gold()["pad_" + mode + ".mask_mode"]);
    // The content moves as in constant mode: so do the boxes.
    EXPECT_TENSOR_EQ(F::pad(boxes, {3, 5, 2, 1}, std::nullopt, mode), constant);
  }
}

struct Warp {
  std::string name;
  std::function<tvt::Image(const tvt::Image&)> image;
  std::function<tvt::Mask(const tvt::Mask&)> mask;
  std::function<BoundingBoxes(const BoundingBoxes&)> boxes;
};

#define EMBER_V2_WARP(name, call)                                                            \
  Warp {                                                                                     \
    name, [](const tvt::Image& x) { return call; }, [](const tvt::Mask& x) { return call; }, \
        [](const BoundingBoxes& x) { return call; }                                          \
  }

std::vector<Warp> warps() {
  using IM = InterpolationMode;
  return {
      EMBER_V2_WARP("rotate30", F::rotate(x, 30.0, IM::NEAREST, false, std::nullopt, {0.0})),
      EMBER_V2_WARP("rotate30_expand", F::rotate(x, 30.0, IM::NEAREST, true, std::nullopt, {0.0})),
      EMBER_V2_WARP("rotate_m45_center", F::rotate(x, -45.0, IM::NEAREST, false, {10, 8}, {0.0})),
      EMBER_V2_WARP("rotate90_expand", F::rotate(x, 90.0, IM::NEAREST, true, std::nullopt, {0.0})),
      EMBER_V2_WARP("affine", F::affine(x, 15.0, {3, -2}, 1.2, {10.0, 5.0}, IM::NEAREST, {0.0})),
      EMBER_V2_WARP("affine_center", F::affine(x, -20.0, {-4, 1}, 0.8, {0.0, 0.0}, IM::NEAREST, {0.0}, {6, 9})),
      EMBER_V2_WARP("perspective", F::perspective(x, {{0, 0}, {31, 0}, {31, 23}, {0, 23}},
                                                  {{3, 2}, {28, 1}, {30, 22}, {1, 20}}, IM::NEAREST, {0.0})),
  };
}

TEST(VisionTransformsV2Functional, WarpedBoxesAreTheirMovedCorners) {
  const tvt::Image img(gold()["in.image"]);
  const tvt::Mask mask(gold()["in.masks"]);
  for (const Warp& w : warps()) {
    SCOPED_TRACE(w.name);
    const Tensor out_img = w.image(img);
    EXPECT_TENSOR_EQ(out_img, gold()[w.name + ".image"]);
    EXPECT_TENSOR_EQ(w.mask(mask), gold()[w.name + ".mask"]);
    const std::string canvas_key = w.name + ".canvas";
    const std::vector<int64_t> canvas = {out_img.size(-2), out_img.size(-1)};
    if (gold().has(canvas_key)) {
      EXPECT_EQ(canvas[0], gold()[canvas_key][0].item<int64_t>());
      EXPECT_EQ(canvas[1], gold()[canvas_key][1].item<int64_t>());
    }
    for (const auto& [fmt, name] : kFormats) {
      SCOPED_TRACE(name);
      const BoundingBoxes out = w.boxes(in_boxes(fmt, name));
      EXPECT_EQ(out.canvas_size, canvas);
      const Tensor xyxy = to_xyxy(out, name);
      EXPECT_TENSOR_CLOSE_TOL(xyxy, gold()[w.name + ".corners"], 0, 2e-3);
      expect_contains_masks(xyxy, w.name, 1.0);
    }
  }
}

TEST(VisionTransformsV2Functional, ElasticMovesMasksAndBoxesTogether) {
  const Tensor disp = gold()["in.disp"];
  using IM = InterpolationMode;
  EXPECT_TENSOR_EQ(F::elastic(tvt::Image(gold()["in.image"]), disp, IM::NEAREST, {0.0}), gold()["elastic.image"]);
  EXPECT_TENSOR_EQ(F::elastic(tvt::Mask(gold()["in.masks"]), disp), gold()["elastic.mask"]);
  const Tensor shift = gold()["in.disp_shift"];
  EXPECT_TENSOR_EQ(F::elastic(tvt::Mask(gold()["in.masks"]), shift), gold()["elastic_shift.mask"]);
  for (const auto& [fmt, name] : kFormats) {
    SCOPED_TRACE(name);
    // A rigid shift: the approximate inverse grid (identity - displacement) is exact; corners on
    // the last column or row read the grid there (within a pixel).
    const BoundingBoxes out = F::elastic(in_boxes(fmt, name), shift);
    expect_mask_route(to_xyxy(out, name), "elastic_shift", 1.0 + 1e-4);
    EXPECT_EQ(F::elastic(in_boxes(fmt, name), disp).sizes(), IntArrayRef({4, 4}));
  }
}

TEST(VisionTransformsV2Functional, ConvertAndClamp) {
  const Tensor xyxy = tensor({-2.0, 3.0, 12.0, 30.0, 5.0, 5.0, 9.0, 8.0}, kFloat).view({2, 4});
  for (const auto& [fmt, name] : kFormats) {
    const Tensor in = vision::ops::box_convert(xyxy, "xyxy", name);
    EXPECT_TENSOR_CLOSE(F::convert_bounding_box_format(in, fmt, BoundingBoxFormat::XYXY), xyxy);
    EXPECT_TENSOR_CLOSE(F::convert_bounding_box_format(xyxy, BoundingBoxFormat::XYXY, fmt), in);
    const BoundingBoxes clamped = F::clamp_bounding_boxes(BoundingBoxes(in, fmt, {20, 10}));
    EXPECT_TENSOR_CLOSE(vision::ops::box_convert(clamped, name, "xyxy"),
                        tensor({0.0, 3.0, 10.0, 20.0, 5.0, 5.0, 9.0, 8.0}, kFloat).view({2, 4}));
  }
  // Integer boxes: torchvision's halves floor one way (cx = (2 x1 + w) // 2) and round up the other (x1 = cx - ceil(w /
  // 2)).
  const Tensor ib = tensor({1, 2, 6, 9}, kLong).view({1, 4});
  const Tensor c = F::convert_bounding_box_format(ib, BoundingBoxFormat::XYXY, BoundingBoxFormat::CXCYWH);
  EXPECT_TENSOR_EQ(c, tensor({3, 5, 5, 7}, kLong).view({1, 4}));
  EXPECT_TENSOR_EQ(F::convert_bounding_box_format(c, BoundingBoxFormat::CXCYWH, BoundingBoxFormat::XYXY),
                   tensor({0, 1, 5, 8}, kLong).view({1, 4}));
  const BoundingBoxes b(ib, "XYWH", {5, 5});
  EXPECT_EQ(F::convert_bounding_box_format(b, std::nullopt, BoundingBoxFormat::XYXY).format, BoundingBoxFormat::XYXY);
}

// Integer boxes keep their dtype (scaled ones truncate, as torchvision's .to(dtype)); a single
// box [4] keeps its shape; bool masks stay bool.
TEST(VisionTransformsV2Functional, DtypesAndShapesArePreserved) {
  const BoundingBoxes ib(tensor({2, 3, 12, 10}, kLong).view({1, 4}), BoundingBoxFormat::XYXY, {24, 32});
  const BoundingBoxes flipped = F::horizontal_flip(ib);
  EXPECT_EQ(flipped.scalar_type(), kLong);
  EXPECT_TENSOR_EQ(Tensor(flipped), tensor({20, 3, 30, 10}, kLong).view({1, 4}));
  const BoundingBoxes small =
      F::resize(BoundingBoxes(tensor({3, 5, 9, 11}, kLong).view({1, 4}), "xyxy", {24, 32}), {12, 16});
  EXPECT_TENSOR_EQ(Tensor(small), tensor({1, 2, 4, 5}, kLong).view({1, 4}));
  const BoundingBoxes rotated = F::rotate(ib, 90.0, InterpolationMode::NEAREST, true);
  EXPECT_EQ(rotated.scalar_type(), kLong);
  EXPECT_EQ(rotated.canvas_size, (std::vector<int64_t>{32, 24}));
  const BoundingBoxes one(tensor({1.0, 2.0, 5.0, 6.0}, kFloat), BoundingBoxFormat::XYWH, {10, 10});
  const BoundingBoxes cropped = F::crop(one, 1, 1, 5, 5);
  EXPECT_EQ(cropped.sizes(), IntArrayRef({4}));
  EXPECT_TENSOR_EQ(Tensor(cropped), tensor({0.0, 1.0, 5.0, 4.0}, kFloat));
  const tvt::Mask bm(gold()["in.masks"].to(kBool));
  const tvt::Mask out = F::rotate(bm, 30.0);
  EXPECT_EQ(out.scalar_type(), kBool);
  EXPECT_TENSOR_EQ(out, gold()["rotate30.mask"].to(kBool));
  EXPECT_TENSOR_EQ(F::resize(tvt::Mask(bm[0]), {12, 16}), gold()["resize_down.mask"][0].to(kBool));
  // A lone tensor is an image: the dispatcher on Tensor is the image kernel.
  EXPECT_TENSOR_EQ(F::vflip(gold()["in.image"]), gold()["vflip.image"]);
}

TEST(VisionTransformsV2Functional, BadInputRaises) {
  EXPECT_EMBER_ERROR(BoundingBoxes(zeros({3, 5}), BoundingBoxFormat::XYXY, {4, 4}), "BoundingBoxes", "[3, 5]");
  EXPECT_EMBER_ERROR(BoundingBoxes(zeros({3, 4}), "XYZW", {4, 4}), "BoundingBoxFormat", "XYZW");
  EXPECT_EMBER_ERROR(BoundingBoxes(zeros({3, 4}), "xyxy", {4}), "canvas_size");
  EXPECT_EMBER_ERROR(F::horizontal_flip_bounding_boxes(zeros({2, 3}), BoundingBoxFormat::XYXY, {4, 4}),
                     "horizontal_flip_bounding_boxes", "[2, 3]");
  EXPECT_EMBER_ERROR(F::convert_bounding_box_format(zeros({1, 4}), std::nullopt, BoundingBoxFormat::XYXY),
                     "convert_bounding_box_format", "old_format");
  EXPECT_EMBER_ERROR(F::resize(BoundingBoxes(zeros({1, 4}), "xyxy", {4, 4}), {2, 2}, InterpolationMode::BILINEAR, 5),
                     "max_size");
  EXPECT_EMBER_ERROR(F::pad_bounding_boxes(zeros({1, 4}), BoundingBoxFormat::XYXY, {4, 4}, {1, 2, 3}),
                     "pad_bounding_boxes", "3");
  EXPECT_EMBER_ERROR(F::elastic(BoundingBoxes(zeros({1, 4}), "xyxy", {4, 4}), zeros({1, 3, 3, 2})),
                     "elastic_bounding_boxes", "displacement");
  EXPECT_EMBER_ERROR(F::affine(tvt::Image(zeros({3, 4, 4})), 0.0, {0.5, 0.0}, 1.0, 0.0), "affine_image", "0.5");
  EXPECT_EMBER_ERROR(F::crop_mask(zeros({4}), 0, 0, 1, 1), "crop_mask");
  EXPECT_EMBER_ERROR(F::perspective_bounding_boxes(zeros({1, 4}), BoundingBoxFormat::XYXY, {4, 4}, {{0, 0}}, {{0, 0}}),
                     "perspective_bounding_boxes", "four");
}

}  // namespace
