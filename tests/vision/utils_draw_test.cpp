// Box label text (FreeType) and keypoint connections against torchvision 0.14's PIL rendering
// of the same TrueType fonts and lines (tools/golden/gen_vision_draw.py).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "common/golden.h"
#include "common/test_util.h"
#include "ember/ops/all_ops.h"
#include "ember/vision/utils/draw.h"

namespace torch::vision::utils {
namespace {

using ::torch::testing::Golden;

const Golden& golden() {
  static const Golden g("vision_draw.golden");
  return g;
}

const std::string kSans = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";
const std::string kSerif = "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf";

// How far our rendering is from PIL's: pixels (any channel) differing by more than `atol`,
// and the mean absolute difference over the pixels either rendering changed.
struct Distance {
  int64_t differing = 0, drawn = 0;
  double mean_abs = 0;
};
Distance distance(const Tensor& got, const Tensor& want, const Tensor& base, int64_t atol) {
  const Tensor diff = (got.to(kInt32) - want.to(kInt32)).abs();
  const Tensor drawn = (want.ne(base) | got.ne(base)).any(0);
  Distance d;
  d.differing = diff.gt(atol).any(0).sum().item<int64_t>();
  d.drawn = drawn.sum().item<int64_t>();
  d.mean_abs = d.drawn == 0 ? 0.0 : diff.amax(0).masked_select(drawn).to(kDouble).mean().item<double>();
  return d;
}

// Note: PIL shapes with HarfBuzz (GPOS kerning, hinted advances) and Ember with FreeType's
// own kerning, so a glyph may sit one pixel apart; the glyph shapes are FreeType's in both.
// A one-pixel shift of an antialiased stroke changes its edge pixels by up to the full ink
// contrast, so the bound is on how many pixels differ by more than 64 (a quarter of full
// coverage): at most 12.5 % of the text's pixels, and the mean difference over them under 24
// (measured: 11 % and 18.7 for "Wave" at 16 px, whose W-a-v-e pairs HarfBuzz kerns from GPOS;
// 0 for the texts without kerned pairs, which must equal torchvision's output exactly).
void expect_text_close(const std::string& key, const Tensor& got, const Tensor& base) {
  SCOPED_TRACE(key);
  const Tensor& want = golden()[key];
  ASSERT_EQ(got.sizes(), want.sizes());
  const Distance d = distance(got, want, base, 64);
  ::testing::Test::RecordProperty(key + ".differing", static_cast<int>(d.differing));
  EXPECT_LE(d.differing, d.drawn / 8) << d.differing << " of " << d.drawn << " drawn pixels";
  EXPECT_LT(d.mean_abs, 24.0) << "mean |ours - PIL| over the drawn pixels";
}

TEST(VisionUtilsDraw, LabelsMatchPilTrueType) {
  const Tensor image = golden()["in.image"], boxes = golden()["in.boxes"];
  using Labels = std::vector<std::string>;
  // The text is what differs from the same boxes drawn without labels (the boxes alone are
  // pixel-exact, utils_test.cpp).
  auto both = [&](const std::string& key, const Tensor& img, const std::optional<std::vector<Color>>& colors, bool fill,
                  int64_t width, const std::string& font, std::optional<int64_t> size, const Labels& labels) {
    const Tensor base = draw_bounding_boxes(img, boxes, std::nullopt, colors, fill, width);
    expect_text_close(key, draw_bounding_boxes(img, boxes, labels, colors, fill, width, font, size), base);
  };
  both("labels.default_size", image, std::vector<Color>{"red", "yellow"}, false, 1, kSans, std::nullopt,
       {"cat", "Dog 2"});
  both("labels.size16_width2", image, std::vector<Color>{Color(0, 255, 0), "white"}, false, 2, kSans, 16,
       {"Wave", "jqy"});
  both("labels.serif_fill", image, std::nullopt, true, 1, kSerif, 13, {"AVA", "fill"});
  // A gray image comes back RGB, as torchvision's.
  both("labels.gray_image", image.slice(0, 0, 1), std::vector<Color>{"blue", "blue"}, false, 1, kSans, 12,
       {"gray", "x"});
  // Text without kerned pairs: torchvision's pixels exactly (FreeType's glyphs, PIL's placement
  // and blend); "AVA" (kerned) exactly as PIL's own FreeType-kerning layout (Layout.BASIC) draws it.
  EXPECT_TENSOR_EQ(draw_bounding_boxes(image, boxes, Labels{"cat", "Dog 2"}, {"red", "yellow"}, false, 1, kSans),
                   golden()["labels.default_size"]);
  EXPECT_TENSOR_EQ(
      draw_bounding_boxes(image.slice(0, 0, 1), boxes, Labels{"gray", "x"}, Color("blue"), false, 1, kSans, 12),
      golden()["labels.gray_image"]);
  EXPECT_TENSOR_EQ(draw_bounding_boxes(image, boxes, Labels{"AVA", "fill"}, std::nullopt, true, 1, kSerif, 13),
                   golden()["labels_basic.serif_fill"]);
}

TEST(VisionUtilsDraw, LabelSitsInTheBoxCornerInItsColour) {
  const Tensor image = zeros({3, 40, 60}, kUInt8);
  const Tensor box = tensor({{10.0f, 8.0f, 55.0f, 35.0f}});
  const Tensor plain = draw_bounding_boxes(image, box, std::nullopt, Color(255, 128, 0), false, 2);
  const Tensor labelled =
      draw_bounding_boxes(image, box, std::vector<std::string>{"Hi"}, Color(255, 128, 0), false, 2, kSans, 14);
  const Tensor changed = labelled.ne(plain).any(0);
  ASSERT_GT(changed.sum().item<int64_t>(), 20);
  const Tensor ys = changed.any(1).nonzero().flatten(), xs = changed.any(0).nonzero().flatten();
  // Inside the outline, starting at the margin width + 1 from the box's corner.
  EXPECT_GE(xs.min().item<int64_t>(), 10 + 3);
  EXPECT_GE(ys.min().item<int64_t>(), 8 + 3);
  EXPECT_LE(xs.max().item<int64_t>(), 10 + 3 + 20);
  EXPECT_LE(ys.max().item<int64_t>(), 8 + 3 + 17);
  // Fully covered pixels carry the box's colour; partly covered ones are blends towards it.
  const Tensor px = labelled.permute({1, 2, 0}).reshape({-1, 3}).index({changed.flatten()});
  EXPECT_TRUE(px.eq(tensor({255, 128, 0}, kUInt8)).all(1).any().item<bool>());
  EXPECT_TRUE(px.select(1, 0).ge(px.select(1, 1)).all().item<bool>());
  EXPECT_EQ(px.select(1, 2).max().item<int64_t>(), 0);
  // Without a font, DejaVuSans stands in for PIL's bitmap font.
  EXPECT_TENSOR_EQ(
      draw_bounding_boxes(image, box, std::vector<std::string>{"Hi"}, Color(255, 128, 0), false, 2, std::nullopt, 14),
      labelled);
  // Empty labels draw nothing.
  EXPECT_TENSOR_EQ(draw_bounding_boxes(image, box, std::vector<std::string>{""}, Color(255, 128, 0), false, 2), plain);
}

TEST(VisionUtilsDraw, LabelBadInputRaises) {
  const Tensor image = zeros({3, 20, 20}, kUInt8);
  const Tensor box = tensor({{1.0f, 1.0f, 10.0f, 10.0f}});
  const std::vector<std::string> label{"a"};
  EXPECT_EMBER_ERROR(draw_bounding_boxes(image, box, label, std::nullopt, false, 1, "/nonexistent.ttf"),
                     "draw_bounding_boxes", "cannot open font", "/nonexistent.ttf");
  // A file that is not a font.
  const std::string not_font = std::string(EMBER_GOLDEN_DIR) + "/vision_draw.golden";
  EXPECT_EMBER_ERROR(draw_bounding_boxes(image, box, label, std::nullopt, false, 1, not_font), "draw_bounding_boxes",
                     "cannot open font");
  EXPECT_EMBER_ERROR(draw_bounding_boxes(image, box, label, std::nullopt, false, 1, kSans, 0), "draw_bounding_boxes",
                     "font_size", "0");
  EXPECT_EMBER_ERROR(draw_bounding_boxes(image, box, std::vector<std::string>{"\xff"}, std::nullopt, false, 1, kSans),
                     "draw_bounding_boxes", "UTF-8");
  EXPECT_EMBER_ERROR(draw_bounding_boxes(image, box, std::vector<std::string>{"\xc3"}, std::nullopt, false, 1, kSans),
                     "draw_bounding_boxes", "UTF-8");
  // Non-ASCII text renders (U+00E9, U+4E2D has no DejaVu glyph and draws the .notdef box).
  EXPECT_NO_THROW(draw_bounding_boxes(image, box, std::vector<std::string>{"caf\xc3\xa9 \xe4\xb8\xad"}, std::nullopt,
                                      false, 1, kSans));
}

// PIL's ImageDraw.line: Bresenham plus the end point for width 1, the filled quadrilateral
// around the segment otherwise; both are reproduced, so the pixels equal torchvision's.
// Keypoint discs are PIL's ellipses at most radii (below).
TEST(VisionUtilsDraw, KeypointConnectionsEqualPil) {
  const Tensor image = golden()["in.kimage"], kpts = golden()["in.keypoints"];
  const std::vector<std::pair<int64_t, int64_t>> connect = {{0, 1}, {1, 2}, {2, 3}, {3, 0}, {0, 4}, {4, 2}};
  for (int64_t width : {1, 2, 3, 5}) {
    SCOPED_TRACE(width);
    const Tensor got = draw_keypoints(image, kpts, connect, std::nullopt, 2, width);
    const Distance d = distance(got, golden()["keypoints.width" + std::to_string(width)], image, 0);
    EXPECT_EQ(d.differing, 0) << d.differing << " of " << d.drawn;
  }
  const Tensor dots = draw_keypoints(image, kpts, connect, Color("red"), 3, 2);
  const Distance d = distance(dots, golden()["keypoints.dots_r3"], image, 0);
  EXPECT_EQ(d.differing, 0) << d.differing << " of " << d.drawn;
  // Ember's discs (the pixels within r + 0.5 of the centre, less a half-pixel margin) are PIL's
  // ellipses for these radii; at radius 6 PIL's Bresenham ellipse steps differently on 4 % of them.
  for (int64_t radius : {0, 1, 2, 4, 5, 6, 7, 8, 10, 12, 15}) {
    SCOPED_TRACE(radius);
    const Tensor got = draw_keypoints(image, kpts, {}, Color(10, 200, 30), radius);
    const Distance e = distance(got, golden()["keypoints.dots_only_r" + std::to_string(radius)], image, 0);
    EXPECT_LE(e.differing, radius == 6 ? e.drawn / 20 : 0) << e.differing << " of " << e.drawn;
  }
}

}  // namespace
}  // namespace torch::vision::utils
