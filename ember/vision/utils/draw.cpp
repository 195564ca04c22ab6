#include "ember/vision/utils/draw.h"

#include <algorithm>
#include <array>
#include <cmath>

#include "ember/core/error.h"
#include "ember/ops/all_ops.h"
#include "ember/vision/utils/text_render.h"

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

// PIL's draw.text at (x, y): the ink blended through the text's coverage mask.
void text(Canvas& cv, int64_t x, int64_t y, const detail::TextMask& mask, const RGB& ink) {
  for (int64_t r = 0; r < mask.height; ++r)
    for (int64_t c = 0; c < mask.width; ++c) {
      const uint8_t a = mask.coverage[static_cast<size_t>(r * mask.width + c)];
      if (a != 0) cv.set(x + mask.left + c, y + mask.top + r, ink, a);
    }
}

// PIL's one-pixel line: Bresenham from (x0, y0), max(|dx|, |dy|) pixels, the end point left out.
void bresenham(Canvas& cv, int64_t x0, int64_t y0, int64_t x1, int64_t y1, const RGB& c) {
  int64_t dx = x1 - x0, dy = y1 - y0;
  const int64_t xs = dx < 0 ? -1 : 1, ys = dy < 0 ? -1 : 1;
  dx = std::abs(dx), dy = std::abs(dy);
  const bool x_major = dx > dy;
  const int64_t n = x_major ? dx : dy;
  // The error term of the minor axis, stepped once per major-axis pixel.
  const int64_t major = x_major ? dx : dy, minor = x_major ? dy : dx;
  int64_t e = 2 * minor - major;
  for (int64_t i = 0; i < n; ++i) {
    cv.set(x0, y0, c);
    if (minor != 0 && e >= 0) {
      (x_major ? y0 : x0) += x_major ? ys : xs;
      e -= 2 * major;
    }
    e += 2 * minor;
    (x_major ? x0 : y0) += x_major ? xs : ys;
  }
}

// PIL's rounding of a polygon's span ends: half away from zero at the start,
// half towards zero at the end (in float, as libImaging).
int64_t round_up(double f) {
  return static_cast<int64_t>(f >= 0.0 ? std::floor(f + 0.5F) : -std::floor(std::fabs(f) + 0.5F));
}
int64_t round_down(double f) {
  return static_cast<int64_t>(f >= 0.0 ? std::ceil(f - 0.5F) : -std::ceil(std::fabs(f) - 0.5F));
}

// One polygon edge for the scanline filler; dx is float, as in libImaging.
struct Edge {
  int64_t x0, y0, xmin, xmax, ymin, ymax;
  float dx;
};

Edge make_edge(int64_t x0, int64_t y0, int64_t x1, int64_t y1) {
  Edge e{x0, y0, std::min(x0, x1), std::max(x0, x1), std::min(y0, y1), std::max(y0, y1), 0.0f};
  if (y0 != y1) e.dx = static_cast<float>(x1 - x0) / static_cast<float>(y1 - y0);
  return e;
}

// PIL's filled polygon: horizontal edges drawn as spans; every other row from the top vertex to
// the bottom one filled between sorted pairs of edge crossings, an edge's bottom row counted
// twice except on the last row.
void fill_polygon(Canvas& cv, const std::vector<Edge>& edges, const RGB& c) {
  int64_t ymin = cv.h - 1, ymax = 0;
  std::vector<const Edge*> table;
  for (const Edge& e : edges) {
    ymin = std::min(ymin, e.ymin), ymax = std::max(ymax, e.ymax);
    if (e.ymin == e.ymax)
      hline(cv, e.xmin, e.ymin, e.xmax, c, 255);
    else
      table.push_back(&e);
  }
  ymin = std::max<int64_t>(ymin, 0), ymax = std::min(ymax, cv.h);
  std::vector<float> xx;
  for (int64_t y = ymin; y <= ymax; ++y) {
    xx.clear();
    for (const Edge* e : table) {
      if (y >= e->ymin && y <= e->ymax) xx.push_back(static_cast<float>(y - e->y0) * e->dx + static_cast<float>(e->x0));
      if (y == e->ymax && y < ymax && !xx.empty()) xx.push_back(xx.back());
    }
    std::sort(xx.begin(), xx.end());
    for (size_t i = 1; i < xx.size(); i += 2) hline(cv, round_up(xx[i - 1]), y, round_down(xx[i]), c, 255);
  }
}

// PIL's wide line: the quadrilateral around the segment whose half-widths are (width - 1) / 2
// rounded down on one side and up on the other, filled.
void wide_segment(Canvas& cv, int64_t x0, int64_t y0, int64_t x1, int64_t y1, int64_t width, const RGB& c) {
  const int64_t dx = x1 - x0, dy = y1 - y0;
  if (dx == 0 && dy == 0) {
    cv.set(x0, y0, c);
    return;
  }
  const double length = std::hypot(static_cast<double>(dx), static_cast<double>(dy));
  const double half = static_cast<double>(width - 1) / 2.0;
  const double ratio_max = static_cast<double>(round_up(half)) / length;
  const double ratio_min = static_cast<double>(round_down(half)) / length;
  const int64_t dxmin = round_down(ratio_min * static_cast<double>(dy));
  const int64_t dxmax = round_down(ratio_max * static_cast<double>(dy));
  const int64_t dymin = round_down(ratio_min * static_cast<double>(dx));
  const int64_t dymax = round_down(ratio_max * static_cast<double>(dx));
  const int64_t v[4][2] = {
      {x0 - dxmin, y0 + dymax}, {x1 - dxmin, y1 + dymax}, {x1 + dxmax, y1 - dymin}, {x0 + dxmax, y0 - dymin}};
  std::vector<Edge> edges;
  for (int k = 0; k < 4; ++k) edges.push_back(make_edge(v[k][0], v[k][1], v[(k + 1) % 4][0], v[(k + 1) % 4][1]));
  fill_polygon(cv, edges, c);
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
  EMBER_CHECK(width >= 0, op, ": width must not be negative, got ", width);
  // Labels are rendered by FreeType (Note [Label text]); without a font, DejaVuSans stands in
  // for PIL's built-in bitmap font, at font_size or torchvision's 10.
  std::optional<detail::FontRenderer> renderer;
  if (labels && std::any_of(labels->begin(), labels->end(), [](const std::string& s) { return !s.empty(); }))
    renderer.emplace(font.value_or(detail::kDefaultFontPath), font_size.value_or(10), op);
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
    if (renderer && !(*labels)[i].empty()) {
      const int64_t margin = width + 1;
      text(cv, static_cast<int64_t>(r[0]) + margin, static_cast<int64_t>(r[1]) + margin, renderer->render((*labels)[i]),
           rgb[i]);
    }
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
  // Without colors torchvision draws no discs, only the connections.
  const bool discs = colors.has_value() && radius > 0;  // PIL's ellipse of a zero-size box draws nothing
  const RGB dot = colors ? checked_rgb(op, *colors) : RGB{};
  const RGB white{255, 255, 255};
  for (int64_t inst = 0; inst < instances; ++inst) {
    if (discs)
      for (int64_t j = 0; j < K; ++j) {
        // A disc inscribed in the inclusive box [x - r, x + r] x [y - r, y + r]: the pixels
        // whose squared distance is at most (r + 1/2)^2 - 1/2, which picks PIL's ellipse
        // pixels at every radius tested but 6.
        const int64_t cx = pt(inst, j, 0), cy = pt(inst, j, 1);
        const double rr = (static_cast<double>(radius) + 0.5) * (static_cast<double>(radius) + 0.5) - 0.5;
        for (int64_t y = std::max<int64_t>(cy - radius, 0); y <= std::min(cy + radius, cv.h - 1); ++y)
          for (int64_t x = std::max<int64_t>(cx - radius, 0); x <= std::min(cx + radius, cv.w - 1); ++x) {
            const double dx = static_cast<double>(x - cx), dy = static_cast<double>(y - cy);
            if (dx * dx + dy * dy <= rr) cv.set(x, y, dot);
          }
      }
    for (const auto& [a, b] : connectivity) {
      const int64_t x0 = pt(inst, a, 0), y0 = pt(inst, a, 1), x1 = pt(inst, b, 0), y1 = pt(inst, b, 1);
      if (width <= 1) {
        bresenham(cv, x0, y0, x1, y1, white);
        cv.set(x1, y1, white);  // PIL's draw_lines ends a one-pixel line with its last point
      } else
        wide_segment(cv, x0, y0, x1, y1, width, white);
    }
  }
  return to_chw(canvas);
}

}  // namespace torch::vision::utils
