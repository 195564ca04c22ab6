// transforms::v2 modules: seeded image outputs equal torchvision 0.14's v1 modules (v2 draws
// the same parameters; tools/golden/gen_vision_transforms_v2.py), boxes follow the sample's
// masks through every module, and the detection transforms keep their invariants.
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
namespace v2 = torch::vision::transforms::v2;
namespace tvt = torch::vision::tv_tensors;
using torch::testing::Golden;
using torch::vision::transforms::InterpolationMode;
using tvt::BoundingBoxes;
using tvt::BoundingBoxFormat;

const Golden& gold() {
  static const Golden g("vision_transforms_v2.golden");
  return g;
}

v2::Sample detection_sample(BoundingBoxFormat fmt = BoundingBoxFormat::XYXY, const std::string& name = "xyxy") {
  v2::Sample s;
  s.image = tvt::Image(gold()["in.image"]);
  s.boxes = BoundingBoxes(vision::ops::box_convert(gold()["in.boxes"], "xyxy", name), fmt, {24, 32});
  s.masks = tvt::Mask(gold()["in.masks"]);
  s.labels = tensor({1, 2, 3, 4}, kLong);
  return s;
}

// Each surviving mask lies inside its box (within tol) and the box is no larger than tol beyond it.
void expect_boxes_fit_masks(const v2::Sample& s, double tol) {
  ASSERT_TRUE(s.boxes && s.masks);
  const Tensor xyxy = vision::ops::box_convert(Tensor(*s.boxes).to(kFloat),
                                               s.boxes->format == BoundingBoxFormat::XYXY   ? "xyxy"
                                               : s.boxes->format == BoundingBoxFormat::XYWH ? "xywh"
                                                                                            : "cxcywh",
                                               "xyxy");
  EXPECT_EQ(s.boxes->canvas_size, (std::vector<int64_t>{s.masks->size(-2), s.masks->size(-1)}));
  for (int64_t i = 0; i < s.masks->size(0); ++i) {
    const Tensor m = (*s.masks)[i];
    if (!m.ne(0).any().item<bool>()) continue;
    const Tensor mb = vision::ops::masks_to_boxes(m.unsqueeze(0))[0];
    EXPECT_LE(xyxy[i][0].item<float>(), mb[0].item<float>() + tol) << i;
    EXPECT_LE(xyxy[i][1].item<float>(), mb[1].item<float>() + tol) << i;
    EXPECT_GE(xyxy[i][2].item<float>(), mb[2].item<float>() + 1 - tol) << i;
    EXPECT_GE(xyxy[i][3].item<float>(), mb[3].item<float>() + 1 - tol) << i;
  }
}

TEST(VisionTransformsV2Modules, SeededImagesEqualV1Modules) {
  const std::vector<std::pair<std::string, v2::SampleTransform>> mods = {
      {"hflip", v2::RandomHorizontalFlip(1.0)},
      {"rotation", v2::RandomRotation(v2::RandomRotationOptions({-40, 40}).interpolation(InterpolationMode::NEAREST))},
      {"affine",
       v2::RandomAffine(v2::RandomAffineOptions(25).translate({0.1, 0.2}).scale({0.8, 1.2}).shear({-10, 10, -5, 5}))},
      {"perspective",
       v2::RandomPerspective(v2::RandomPerspectiveOptions(0.4).p(1.0).interpolation(InterpolationMode::NEAREST))},
      {"resized_crop", v2::RandomResizedCrop(v2::RandomResizedCropOptions({20, 24}).antialias(true))},
      {"color_jitter",
       v2::ColorJitter(v2::ColorJitterOptions().brightness(0.4).contrast(0.4).saturation(0.4).hue(0.1))},
  };
  for (const auto& [name, t] : mods) {
    SCOPED_TRACE(name);
    manual_seed(7);
    const v2::Sample out = t(detection_sample());
    // uint8 resizes may differ by one from torchvision where a rounding tie flips (as v1).
    EXPECT_TENSOR_CLOSE_TOL(*out.image, gold()["mod." + name + ".image"], 0, name == "resized_crop" ? 1 : 0);
    EXPECT_TENSOR_EQ(*out.labels, tensor({1, 2, 3, 4}, kLong));
    // Boxes moved with the masks (the warps' boxes enclose the masks).
    expect_boxes_fit_masks(out, name == "resized_crop" ? 1.0 : 0.5);
  }
}

TEST(VisionTransformsV2Modules, PlainTensorIsAnImage) {
  manual_seed(7);
  v2::RandomHorizontalFlip flip(1.0);
  EXPECT_TENSOR_EQ(flip(gold()["in.image"]), gold()["mod.hflip.image"]);
}

TEST(VisionTransformsV2Modules, ComposePipelineKeepsSampleConsistent) {
  for (const auto& [fmt, name] :
       std::vector<std::pair<BoundingBoxFormat, std::string>>{{BoundingBoxFormat::XYXY, "xyxy"},
                                                              {BoundingBoxFormat::XYWH, "xywh"},
                                                              {BoundingBoxFormat::CXCYWH, "cxcywh"}}) {
    SCOPED_TRACE(name);
    manual_seed(3);
    v2::Compose pipeline({v2::RandomZoomOut(v2::RandomZoomOutOptions().p(1.0).side_range({1.0, 2.0})),
                          v2::RandomIoUCrop(), v2::RandomHorizontalFlip(), v2::Resize({40, 48}),
                          v2::ClampBoundingBoxes(), v2::SanitizeBoundingBoxes(),
                          v2::ToDtype(v2::ToDtypeOptions(kFloat).scale(true))});
    for (int k = 0; k < 3; ++k) {
      const v2::Sample out = pipeline(detection_sample(fmt, name));
      EXPECT_EQ(out.image->scalar_type(), kFloat);
      EXPECT_EQ(out.image->sizes(), IntArrayRef({3, 40, 48}));
      EXPECT_EQ(out.boxes->canvas_size, (std::vector<int64_t>{40, 48}));
      EXPECT_EQ(out.boxes->format, fmt);
      EXPECT_EQ(out.labels->size(0), out.boxes->size(0));
      EXPECT_EQ(out.masks->size(0), out.boxes->size(0));
      expect_boxes_fit_masks(out, 1.0);
    }
  }
}

TEST(VisionTransformsV2Modules, RandomZoomOutPlacesTheSampleOnALargerCanvas) {
  manual_seed(1);
  v2::RandomZoomOut zoom(v2::RandomZoomOutOptions().p(1.0).fill({9.0}).side_range({2.0, 3.0}));
  const v2::Sample in = detection_sample();
  const v2::Sample out = zoom(in);
  const int64_t h = out.image->size(-2), w = out.image->size(-1);
  EXPECT_GE(h, 48);
  EXPECT_GE(w, 64);
  // Find the offset from the first box and check the image is there, unchanged.
  const Tensor shift = (Tensor(*out.boxes) - Tensor(*in.boxes))[0];
  const int64_t left = shift[0].item<float>(), top = shift[1].item<float>();
  using namespace torch::indexing;
  EXPECT_TENSOR_EQ(out.image->index({Slice(), Slice(top, top + 24), Slice(left, left + 32)}), *in.image);
  EXPECT_EQ(out.masks->sum().item<int64_t>(), in.masks->sum().item<int64_t>());
  expect_boxes_fit_masks(out, 0.01);
}

TEST(VisionTransformsV2Modules, RandomIoUCropKeepsBoxesWhoseCentresItKeeps) {
  manual_seed(5);
  v2::RandomIoUCrop crop(v2::RandomIoUCropOptions().sampler_options(std::vector<double>{0.3}));
  for (int k = 0; k < 5; ++k) {
    const v2::Sample out = crop(detection_sample());
    const Tensor b = *out.boxes;
    EXPECT_LE(out.image->size(-2), 24);
    EXPECT_LE(out.image->size(-1), 32);
    // Every box is either inside the crop (clamped) or zeroed.
    EXPECT_TRUE(b.ge(0).all().item<bool>());
    EXPECT_TRUE(b.select(1, 2).le(out.image->size(-1)).all().item<bool>());
    const Tensor kept = b.abs().sum(1).gt(0);
    EXPECT_TRUE(kept.any().item<bool>());
    const v2::Sample clean = v2::SanitizeBoundingBoxes()(out);
    EXPECT_EQ(clean.boxes->size(0), kept.sum().item<int64_t>());
  }
  // An option >= 1 leaves the sample as it is.
  v2::RandomIoUCrop keep(v2::RandomIoUCropOptions().sampler_options(std::vector<double>{1.0}));
  EXPECT_TENSOR_EQ(*keep(detection_sample()).image, gold()["in.image"]);
  EXPECT_EMBER_ERROR(crop(v2::Sample{tvt::Image(zeros({3, 4, 4}))}), "RandomIoUCrop", "bounding boxes");
}

TEST(VisionTransformsV2Modules, SanitizeBoundingBoxesRemovesDegenerateBoxesLabelsAndMasks) {
  v2::Sample s;
  s.boxes = BoundingBoxes(tensor({0.0,  0.0, 5.0,  5.0,   // kept
                                  2.0,  2.0, 2.5,  8.0,   // too narrow
                                  -1.0, 0.0, 4.0,  4.0,   // negative
                                  3.0,  3.0, 11.0, 6.0,   // beyond the width 10
                                  1.0,  1.0, 3.0,  3.0},  // kept
                                 kFloat)
                              .view({5, 4}),
                          BoundingBoxFormat::XYXY, {8, 10});
  s.labels = tensor({10, 11, 12, 13, 14}, kLong);
  s.masks = tvt::Mask(arange(5).view({5, 1, 1}).expand({5, 8, 10}).contiguous());
  const v2::Sample out = v2::SanitizeBoundingBoxes()(s);
  EXPECT_TENSOR_EQ(*out.labels, tensor({10, 14}, kLong));
  EXPECT_TENSOR_EQ(Tensor(*out.boxes), tensor({0.0, 0.0, 5.0, 5.0, 1.0, 1.0, 3.0, 3.0}, kFloat).view({2, 4}));
  EXPECT_TENSOR_EQ(out.masks->select(1, 0).select(1, 0), tensor({0, 4}, kLong));
  // min_size 3 also drops the 2x2 box; labels_getter nullopt leaves labels alone.
  const v2::Sample out3 =
      v2::SanitizeBoundingBoxes(v2::SanitizeBoundingBoxesOptions().min_size(3).labels_getter(std::nullopt))(s);
  EXPECT_EQ(out3.boxes->size(0), 1);
  EXPECT_EQ(out3.labels->size(0), 5);
  EXPECT_EMBER_ERROR(v2::SanitizeBoundingBoxes(v2::SanitizeBoundingBoxesOptions().min_size(0.5)), "min_size", "0.5");
}

TEST(VisionTransformsV2Modules, ResizeFamiliesSetTheSize) {
  manual_seed(0);
  v2::RandomShortestSize rss(v2::RandomShortestSizeOptions({12, 16}).max_size(30));
  for (int k = 0; k < 4; ++k) {
    const v2::Sample out = rss(detection_sample());
    const int64_t h = out.image->size(-2), w = out.image->size(-1);
    EXPECT_TRUE(std::min(h, w) == 12 || std::min(h, w) == 16 || std::max(h, w) == 30) << h << "x" << w;
    EXPECT_LE(std::max(h, w), 30);
    EXPECT_EQ(out.boxes->canvas_size, (std::vector<int64_t>{h, w}));
    expect_boxes_fit_masks(out, 1.0);
  }
  v2::ScaleJitter jitter(v2::ScaleJitterOptions({32, 24}).scale_range({0.5, 1.5}));
  const v2::Sample out = jitter(detection_sample());
  EXPECT_EQ(out.boxes->canvas_size, (std::vector<int64_t>{out.image->size(-2), out.image->size(-1)}));
  expect_boxes_fit_masks(out, 1.0);
}

TEST(VisionTransformsV2Modules, PixelTransformsTouchOnlyImagesAndVideos) {
  namespace F1 = torch::vision::transforms::functional;
  v2::Sample in = detection_sample();
  in.video = tvt::Video(gold()["in.image"].unsqueeze(0).repeat({2, 1, 1, 1}));
  const v2::Sample inv = v2::RandomInvert(1.0)(in);
  EXPECT_TENSOR_EQ(*inv.image, F1::invert(gold()["in.image"]));
  EXPECT_TENSOR_EQ(*inv.video, F1::invert(*in.video));
  EXPECT_TENSOR_EQ(Tensor(*inv.boxes), Tensor(*in.boxes));
  EXPECT_TENSOR_EQ(*inv.masks, *in.masks);
  const v2::Sample blur = v2::GaussianBlur(v2::GaussianBlurOptions({3, 5}).sigma(1.0))(in);
  EXPECT_TENSOR_EQ(*blur.image, F1::gaussian_blur(gold()["in.image"], {3, 5}, {1.0, 1.0}));
  EXPECT_TENSOR_EQ(*blur.masks, *in.masks);
  EXPECT_EQ(v2::Grayscale()(in).image->size(0), 1);
}

TEST(VisionTransformsV2Modules, RandomPhotometricDistort) {
  namespace F1 = torch::vision::transforms::functional;
  v2::Sample in = detection_sample();
  in.image = tvt::Image(gold()["in.fimage"]);
  // p = 0: nothing applies.
  EXPECT_TENSOR_EQ(*v2::RandomPhotometricDistort(v2::RandomPhotometricDistortOptions().p(0.0))(in).image,
                   gold()["in.fimage"]);
  // p = 1 with only brightness away from the identity: brightness, then a channel permutation.
  v2::RandomPhotometricDistort d(v2::RandomPhotometricDistortOptions()
                                     .brightness({1.5, 1.5})
                                     .contrast({1.0, 1.0})
                                     .saturation({1.0, 1.0})
                                     .hue({0.0, 0.0})
                                     .p(1.0));
  manual_seed(2);
  const v2::Sample out = d(in);
  const Tensor expected = F1::adjust_brightness(gold()["in.fimage"], 1.5);
  const Tensor got_sums = std::get<0>(out.image->sum({1, 2}).sort());
  EXPECT_TENSOR_CLOSE_TOL(got_sums, std::get<0>(expected.sum({1, 2}).sort()), 1e-4, 1e-3);
  EXPECT_TENSOR_EQ(Tensor(*out.boxes), Tensor(*in.boxes));
  EXPECT_EMBER_ERROR(v2::RandomPhotometricDistort(v2::RandomPhotometricDistortOptions().hue({0.0, 0.7})),
                     "RandomPhotometricDistort", "hue");
}

TEST(VisionTransformsV2Modules, MetadataTransforms) {
  v2::ConvertBoundingBoxFormat to_cxcywh("CXCYWH");
  const v2::Sample s = to_cxcywh(detection_sample());
  EXPECT_EQ(s.boxes->format, BoundingBoxFormat::CXCYWH);
  EXPECT_TENSOR_CLOSE(Tensor(*s.boxes), vision::ops::box_convert(gold()["in.boxes"], "xyxy", "cxcywh"));
  EXPECT_TENSOR_EQ(*s.image, gold()["in.image"]);
  const BoundingBoxes clamped =
      v2::ClampBoundingBoxes()(BoundingBoxes(tensor({-3.0, 2.0, 50.0, 9.0}, kFloat).view({1, 4}), "xyxy", {8, 20}));
  EXPECT_TENSOR_EQ(Tensor(clamped), tensor({0.0, 2.0, 20.0, 8.0}, kFloat).view({1, 4}));
  // Sizes that disagree raise naming the transform.
  v2::Sample bad = detection_sample();
  bad.masks = tvt::Mask(zeros({4, 5, 5}, kByte));
  EXPECT_EMBER_ERROR(v2::RandomResizedCrop(10)(bad), "RandomResizedCrop", "disagree");
  // Python's spellings: sizes and angles as braced lists or numbers.
  EXPECT_EQ(v2::Resize({12, 10})(detection_sample()).image->sizes(), IntArrayRef({3, 12, 10}));
  EXPECT_EQ(v2::CenterCrop({8, 6})(detection_sample()).boxes->canvas_size, (std::vector<int64_t>{8, 6}));
  EXPECT_EQ(v2::Pad({1, 2})(detection_sample()).masks->sizes(), IntArrayRef({4, 28, 34}));
  EXPECT_EQ(v2::RandomRotation({-10, 10})->degrees, (std::vector<double>{-10, 10}));
  EXPECT_EQ(v2::RandomAffine(15)->degrees, (std::vector<double>{-15, 15}));
  EXPECT_EQ(std::get<4>(v2::FiveCrop(8)(gold()["in.image"])).sizes(), IntArrayRef({3, 8, 8}));
}

}  // namespace
