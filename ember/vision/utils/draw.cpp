#include "ember/vision/utils/draw.h"

#include <algorithm>
#include <array>
#include <cmath>

#include "ember/core/error.h"
#include "ember/ops/all_ops.h"

namespace torch::vision::utils {

namespace {

using RGB = std::array<int, 3>;

// torchvision's palette for unnamed objects: i * (2^25-1, 2^15-1, 2^21-1) mod 255.
std::vector<RGB> palette(int64_t n) {
  std::vector<RGB> out;
  const int64_t base[3] = {(1 << 25) - 1, (1 << 15) - 1, (1 << 21) - 1};
  for (int64_t i = 0; i < n; ++i)
    out.push_back({static_cast<int>(i * base[0] % 255), static_cast<int>(i * base[1] % 255),
                   static_cast<int>(i * base[2] % 255)});
  return out;
}

RGB checked_rgb(const char* op, const Color& c) {
  const RGB v = c.rgb();
  for (int x : v) EMBER_CHECK(x >= 0 && x <= 255, op, ": colour components must be in [0, 255], got ", x);
  return v;
}

// An HWC uint8 copy of a CHW image, gray expanded to RGB, to draw into.
Tensor hwc_rgb(const Tensor& image) {
  const Tensor rgb = image.size(0) == 1 ? image.expand({3, image.size(1), image.size(2)}) : image;
  return rgb.permute({1, 2, 0}).contiguous().clone();
}

// PIL's 8-bit blend of `ink` over `in` with coverage `alpha` (0..255).
uint8_t blend(int in, int ink, int alpha) {
  const int t = in * (255 - alpha) + ink * alpha + 128;
  return static_cast<uint8_t>(((t >> 8) + t) >> 8);
}

struct Canvas {
  uint8_t* p;
  int64_t h, w;
  void set(int64_t x, int64_t y, const RGB& c, int alpha = 255) {
    if (x < 0 || y < 0 || x >= w || y >= h) return;
    uint8_t* px = p + (y * w + x) * 3;
    for (int k = 0; k < 3; ++k) px[k] = alpha == 255 ? static_cast<uint8_t>(c[k]) : blend(px[k], c[k], alpha);
  }
};

// PIL's primitives (libImaging's Draw.c): a horizontal span inclusive of both
// ends, and a vertical line that stops one pixel short of its end.
void hline(Canvas& cv, int64_t x0, int64_t y, int64_t x1, const RGB& c, int alpha) {
  if (y < 0 || y >= cv.h || x1 < 0 || x0 >= cv.w) return;
  for (int64_t x = std::max<int64_t>(x0, 0); x <= std::min(x1, cv.w - 1); ++x) cv.set(x, y, c, alpha);
}

void vline(Canvas& cv, int64_t x, int64_t y0, int64_t y1, const RGB& c) {
  const int64_t step = y1 >= y0 ? 1 : -1, n = y1 >= y0 ? y1 - y0 : y0 - y1;
  for (int64_t i = 0, y = y0; i < n; ++i, y += step) cv.set(x, y, c);
}

// PIL's rectangle: the inclusive box filled (blended), then `width` rings of
// outline, whose sides run from y0 + width towards y1 - width + 1 (so a box
// thinner than its outline spills past its corners, as PIL's).
void rectangle(Canvas& cv, int64_t x0, int64_t y0, int64_t x1, int64_t y1, const RGB& outline,
               const std::optional<std::pair<RGB, int>>& fill, int64_t width) {
  if (fill)
    for (int64_t y = std::max<int64_t>(y0, 0); y <= std::min(y1, cv.h - 1); ++y)
      hline(cv, x0, y, x1, fill->first, fill->second);
  const int64_t w = std::max<int64_t>(width, 1);
  for (int64_t i = 0; i < w; ++i) {
    hline(cv, x0, y0 + i, x1, outline, 255);
    hline(cv, x0, y1 - i, x1, outline, 255);
    vline(cv, x1 - i, y0 + w, y1 - w + 1, outline);
    vline(cv, x0 + i, y0 + w, y1 - w + 1, outline);
  }
}

void check_image(const char* op, const Tensor& image, bool gray_ok) {
  EMBER_CHECK(image.defined() && image.dtype() == kUInt8, op, ": Tensor uint8 expected, got ",
              image.defined() ? image.dtype() : kUInt8);
  EMBER_CHECK(image.dim() == 3, op, ": Pass individual images, not batches (got shape ", image.sizes(), ")");
  if (gray_ok)
    EMBER_CHECK(image.size(0) == 1 || image.size(0) == 3, op, ": Only grayscale and RGB images are supported, got ",
                image.size(0), " channels");
  else
    EMBER_CHECK(image.size(0) == 3, op, ": Pass an RGB image. Other Image formats are not supported (got ",
                image.size(0), " channels)");
}

Tensor to_chw(const Tensor& hwc) { return hwc.permute({2, 0, 1}).contiguous(); }

}  // namespace

Tensor draw_bounding_boxes(const Tensor& image, const Tensor& boxes,
                           const std::optional<std::vector<std::string>>& labels,
                           const std::optional<std::vector<Color>>& colors, bool fill, int64_t width,
                           const std::optional<std::string>& font, std::optional<int64_t> font_size) {
  const char* op = "draw_bounding_boxes";
  check_image(op, image, true);
  EMBER_CHECK(boxes.defined() && boxes.dim() == 2 && boxes.size(1) == 4, op,
              ": boxes must be a Tensor[N, 4], got shape ", boxes.defined() ? boxes.sizes() : IntArrayRef{});
  const Tensor b = boxes.detach().to(kFloat64).contiguous();
  const double* bp = b.data_ptr<double>();
  const int64_t n = boxes.size(0);
  for (int64_t i = 0; i < n; ++i) {
    const double* r = bp + 4 * i;
    for (int k = 0; k < 4; ++k)
      EMBER_CHECK(std::isfinite(r[k]) && std::abs(r[k]) < 1e15, op, ": box ", i, " has a non-finite coordinate");
    EMBER_CHECK(r[0] <= r[2] && r[1] <= r[3], op,
                ": Boxes need to be in (xmin, ymin, xmax, ymax) format. Use torchvision.ops.box_convert to convert "
                "them (box ",
                i, ")");
  }
  if (n == 0) return image;
  EMBER_CHECK(!labels || static_cast<int64_t>(labels->size()) == n, op, ": Number of boxes (", n, ") and labels (",
              labels ? labels->size() : 0, ") mismatch. Please specify labels for each box.");
  // Rendering text needs a font rasteriser, which Ember does not link.
  EMBER_CHECK(!labels || std::all_of(labels->begin(), labels->end(), [](const std::string& s) { return s.empty(); }),
              op, ": drawing label text is not supported by Ember (no font rasteriser); pass labels = std::nullopt");
  (void)font;
  (void)font_size;
  EMBER_CHECK(width >= 0, op, ": width must not be negative, got ", width);
  std::vector<RGB> rgb;
  if (colors) {
    EMBER_CHECK(static_cast<int64_t>(colors->size()) >= n, op, ": Number of colors (", colors->size(),
                ") is less than number of boxes (", n, ").");
    for (const Color& c : *colors) rgb.push_back(checked_rgb(op, c));
  } else {
    rgb = palette(n);
  }
  Tensor canvas = hwc_rgb(image);
  Canvas cv{canvas.data_ptr<uint8_t>(), canvas.size(0), canvas.size(1)};
  for (int64_t i = 0; i < n; ++i) {
    const double* r = bp + 4 * i;
    const auto fill_color = fill ? std::optional<std::pair<RGB, int>>({rgb[i], 100}) : std::nullopt;
    rectangle(cv, static_cast<int64_t>(r[0]), static_cast<int64_t>(r[1]), static_cast<int64_t>(r[2]),
              static_cast<int64_t>(r[3]), rgb[i], fill_color, width);
  }
  return to_chw(canvas);
}

Tensor draw_bounding_boxes(const Tensor& image, const Tensor& boxes,
                           const std::optional<std::vector<std::string>>& labels, const Color& color, bool fill,
                           int64_t width, const std::optional<std::string>& font, std::optional<int64_t> font_size) {
  const int64_t n = boxes.defined() && boxes.dim() >= 1 ? boxes.size(0) : 0;
  return draw_bounding_boxes(image, boxes, labels, std::vector<Color>(static_cast<size_t>(n), color), fill, width, font,
                             font_size);
}

Tensor draw_segmentation_masks(const Tensor& image, const Tensor& masks, double alpha,
                               const std::optional<std::vector<Color>>& colors) {
  const char* op = "draw_segmentation_masks";
  check_image(op, image, false);
  EMBER_CHECK(masks.defined(), op, ": masks is undefined");
  const Tensor m = masks.dim() == 2 ? masks.unsqueeze(0) : masks;
  EMBER_CHECK(m.dim() == 3, op, ": masks must be of shape (H, W) or (batch_size, H, W), got ", masks.sizes());
  EMBER_CHECK(m.dtype() == kBool, op, ": The masks must be of dtype bool. Got ", m.dtype());
  EMBER_CHECK(m.size(1) == image.size(1) && m.size(2) == image.size(2), op,
              ": The image and the masks must have the same height and width, got ", image.sizes(), " and ",
              masks.sizes());
  const int64_t n = m.size(0);
  EMBER_CHECK(!colors || static_cast<int64_t>(colors->size()) >= n, op, ": There are more masks (", n,
              ") than colors (", colors ? colors->size() : 0, ")");
  if (n == 0) return image;
  std::vector<RGB> rgb;
  if (colors) {
    for (const Color& c : *colors) rgb.push_back(checked_rgb(op, c));
  } else {
    rgb = palette(n);
  }
  Tensor drawn = image.detach().clone();
  for (int64_t i = 0; i < n; ++i) {
    const Tensor color = tensor({rgb[i][0], rgb[i][1], rgb[i][2]}, kUInt8).view({3, 1, 1});
    drawn = where(m[i].unsqueeze(0), color, drawn);
  }
  // In float32, then truncated, as torchvision's arithmetic on a uint8 image.
  const Tensor out = image.to(kFloat32) * (1 - alpha) + drawn.to(kFloat32) * alpha;
  return out.to(kUInt8);
}

Tensor draw_bounding_boxes(const Tensor& image, const Tensor& boxes,
                           const std::optional<std::vector<std::string>>& labels, std::initializer_list<Color> colors,
                           bool fill, int64_t width, const std::optional<std::string>& font,
                           std::optional<int64_t> font_size) {
  return draw_bounding_boxes(image, boxes, labels, std::vector<Color>(colors), fill, width, font, font_size);
}

Tensor draw_segmentation_masks(const Tensor& image, const Tensor& masks, double alpha,
                               std::initializer_list<Color> colors) {
  return draw_segmentation_masks(image, masks, alpha, std::vector<Color>(colors));
}

Tensor draw_segmentation_masks(const Tensor& image, const Tensor& masks, double alpha, const Color& color) {
  const int64_t n = masks.defined() ? (masks.dim() == 2 ? 1 : masks.size(0)) : 0;
  return draw_segmentation_masks(image, masks, alpha, std::vector<Color>(static_cast<size_t>(n), color));
}

Tensor draw_keypoints(const Tensor& image, const Tensor& keypoints,
                      const std::vector<std::pair<int64_t, int64_t>>& connectivity, const std::optional<Color>& colors,
                      int64_t radius, int64_t width) {
  const char* op = "draw_keypoints";
  check_image(op, image, false);
  EMBER_CHECK(keypoints.defined() && keypoints.dim() == 3 && keypoints.size(2) == 2, op,
              ": keypoints must be of shape (num_instances, K, 2), got ",
              keypoints.defined() ? keypoints.sizes() : IntArrayRef{});
  EMBER_CHECK(radius >= 0 && width >= 0, op, ": radius and width must not be negative, got ", radius, " and ", width);
  const Tensor k = keypoints.detach().to(kFloat64).contiguous();
  const double* kp = k.data_ptr<double>();
  for (int64_t i = 0; i < k.numel(); ++i)
    EMBER_CHECK(std::isfinite(kp[i]) && std::abs(kp[i]) < 1e9, op, ": keypoint coordinate ", kp[i], " is not finite");
  const int64_t instances = k.size(0), K = k.size(1);
  for (const auto& [a, b] : connectivity)
    EMBER_CHECK(a >= 0 && a < K && b >= 0 && b < K, op, ": connection (", a, ", ", b, ") names a keypoint outside [0, ",
                K, ")");
  Tensor canvas = hwc_rgb(image);
  Canvas cv{canvas.data_ptr<uint8_t>(), canvas.size(0), canvas.size(1)};
  const auto pt = [&](int64_t inst, int64_t j, int c) { return static_cast<int64_t>(kp[(inst * K + j) * 2 + c]); };
  const std::optional<RGB> dot = colors ? std::optional<RGB>(checked_rgb(op, *colors)) : std::nullopt;
  const RGB white{255, 255, 255};
  for (int64_t inst = 0; inst < instances; ++inst) {
    if (dot)
      for (int64_t j = 0; j < K; ++j) {
        // A disc inscribed in the inclusive box [x - r, x + r] x [y - r, y + r].
        const int64_t cx = pt(inst, j, 0), cy = pt(inst, j, 1);
        const double rr = (static_cast<double>(radius) + 0.5) * (static_cast<double>(radius) + 0.5);
        for (int64_t y = std::max<int64_t>(cy - radius, 0); y <= std::min(cy + radius, cv.h - 1); ++y)
          for (int64_t x = std::max<int64_t>(cx - radius, 0); x <= std::min(cx + radius, cv.w - 1); ++x) {
            const double dx = static_cast<double>(x - cx), dy = static_cast<double>(y - cy);
            if (dx * dx + dy * dy <= rr) cv.set(x, y, *dot);
          }
      }
    for (const auto& [a, b] : connectivity) {
      // Pixels within width / 2 of the segment (a one-pixel line for width <= 1).
      const double x0 = static_cast<double>(pt(inst, a, 0)), y0 = static_cast<double>(pt(inst, a, 1));
      const double x1 = static_cast<double>(pt(inst, b, 0)), y1 = static_cast<double>(pt(inst, b, 1));
      const double half = std::max(static_cast<double>(width), 1.0) / 2.0;
      const int64_t lo_x = std::max<int64_t>(static_cast<int64_t>(std::floor(std::min(x0, x1) - half)), 0);
      const int64_t hi_x = std::min<int64_t>(static_cast<int64_t>(std::ceil(std::max(x0, x1) + half)), cv.w - 1);
      const int64_t lo_y = std::max<int64_t>(static_cast<int64_t>(std::floor(std::min(y0, y1) - half)), 0);
      const int64_t hi_y = std::min<int64_t>(static_cast<int64_t>(std::ceil(std::max(y0, y1) + half)), cv.h - 1);
      const double vx = x1 - x0, vy = y1 - y0, len2 = vx * vx + vy * vy;
      for (int64_t y = lo_y; y <= hi_y; ++y)
        for (int64_t x = lo_x; x <= hi_x; ++x) {
          const double px = static_cast<double>(x) - x0, py = static_cast<double>(y) - y0;
          const double t = len2 > 0 ? std::clamp((px * vx + py * vy) / len2, 0.0, 1.0) : 0.0;
          const double ex = px - t * vx, ey = py - t * vy;
          if (ex * ex + ey * ey <= half * half) cv.set(x, y, white);
        }
    }
  }
  return to_chw(canvas);
}

}  // namespace torch::vision::utils
