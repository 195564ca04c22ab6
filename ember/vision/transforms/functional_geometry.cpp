// Resizing, padding, cropping and flipping (torchvision's functional.py and
// functional_tensor.py): the same interpolate / pad / slicing sequence, so
// uint8 results round exactly where torchvision's do.
#include <cmath>

#include "ember/core/error.h"
#include "ember/nn/functional/upsampling.h"
#include "ember/ops/all_ops.h"
#include "ember/vision/transforms/detail.h"
#include "ember/vision/transforms/functional.h"
#include "ember/vision/transforms/resample.h"

namespace torch::vision::transforms::functional {

using namespace ::torch::indexing;

std::vector<int64_t> get_dimensions(const Tensor& img) {
  detail::check_image(img, "get_dimensions");
  return {detail::num_channels(img), img.size(-2), img.size(-1)};
}

std::vector<int64_t> get_image_size(const Tensor& img) {
  detail::check_image(img, "get_image_size");
  return {img.size(-1), img.size(-2)};
}

int64_t get_image_num_channels(const Tensor& img) {
  detail::check_image(img, "get_image_num_channels");
  return detail::num_channels(img);
}

namespace {

// functional._compute_resized_output_size: [new_h, new_w].
std::vector<int64_t> resized_output_size(int64_t h, int64_t w, const IntList& size, std::optional<int64_t> max_size) {
  if (size.size() == 2) return {size[0], size[1]};
  const int64_t short_side = std::min(h, w), long_side = std::max(h, w);
  const int64_t requested = size[0];
  int64_t new_short = requested;
  auto new_long = static_cast<int64_t>(static_cast<double>(requested * long_side) / static_cast<double>(short_side));
  if (max_size) {
    EMBER_CHECK(*max_size > requested, "resize: max_size = ", *max_size,
                " must be strictly greater than the requested size for the smaller edge size = ", requested);
    if (new_long > *max_size) {
      new_short = static_cast<int64_t>(static_cast<double>(*max_size * new_short) / static_cast<double>(new_long));
      new_long = *max_size;
    }
  }
  return w <= h ? std::vector<int64_t>{new_long, new_short} : std::vector<int64_t>{new_short, new_long};
}

nn::functional::InterpolateFuncOptions::mode_t interpolate_mode(InterpolationMode mode) {
  switch (mode) {
    case InterpolationMode::NEAREST:
      return enumtype::kNearest();
    case InterpolationMode::NEAREST_EXACT:
      return enumtype::kNearestExact();
    case InterpolationMode::BILINEAR:
      return enumtype::kBilinear();
    case InterpolationMode::BICUBIC:
      return enumtype::kBicubic();
    default:
      break;
  }
  EMBER_ERROR("resize: interpolation mode '", interpolation_mode_name(mode),
              "' is unsupported with tensor input (supported: NEAREST, NEAREST_EXACT, BILINEAR, BICUBIC)");
}

// functional_tensor._pad_symmetric: mirror indices including the edge pixel.
Tensor pad_symmetric(Tensor img, std::vector<int64_t> p) {
  if (p[0] < 0 || p[1] < 0 || p[2] < 0 || p[3] < 0) {
    img = img.index({Ellipsis, Slice(std::max<int64_t>(-p[2], 0), img.size(-2) - std::max<int64_t>(-p[3], 0)),
                     Slice(std::max<int64_t>(-p[0], 0), img.size(-1) - std::max<int64_t>(-p[1], 0))});
    for (auto& v : p) v = std::max<int64_t>(v, 0);
  }
  auto indices = [](int64_t before, int64_t n, int64_t after) {
    EMBER_CHECK(before <= n && after <= n, "pad: symmetric padding (", before, ", ", after,
                ") is larger than the image dimension ", n);
    std::vector<int64_t> idx;
    idx.reserve(before + n + after);
    for (int64_t i = before - 1; i >= 0; --i) idx.push_back(i);
    for (int64_t i = 0; i < n; ++i) idx.push_back(i);
    for (int64_t i = 0; i < after; ++i) idx.push_back(n - 1 - i);
    return tensor(idx, kLong);
  };
  const Tensor xi = indices(p[0], img.size(-1), p[1]);
  const Tensor yi = indices(p[2], img.size(-2), p[3]);
  return img.index_select(-2, yi).index_select(-1, xi);
}

std::vector<int64_t> parse_padding(const IntList& padding) {
  EMBER_CHECK(padding.size() == 1 || padding.size() == 2 || padding.size() == 4,
              "pad: padding must be an int or a 1, 2, or 4 element sequence, not a ", padding.size(),
              " element sequence");
  if (padding.size() == 1) return {padding[0], padding[0], padding[0], padding[0]};
  if (padding.size() == 2) return {padding[0], padding[0], padding[1], padding[1]};
  return {padding[0], padding[2], padding[1], padding[3]};  // [left, right, top, bottom]
}

std::pair<int64_t, int64_t> crop_size(const IntList& size, const char* op) {
  EMBER_CHECK(size.size() == 1 || size.size() == 2, op, ": size must have 1 or 2 elements (h, w), got ", size.size());
  return size.size() == 1 ? std::pair{size[0], size[0]} : std::pair{size[0], size[1]};
}

}  // namespace

Tensor resize(const Tensor& img, const IntList& size, InterpolationMode interpolation, std::optional<int64_t> max_size,
              std::optional<bool> antialias) {
  detail::check_image(img, "resize");
  EMBER_CHECK(size.size() == 1 || size.size() == 2, "resize: size must be an int or a 1 or 2 element sequence, not a ",
              size.size(), " element sequence");
  EMBER_CHECK(!max_size || size.size() == 1,
              "resize: max_size should only be passed if size specifies the length of the smaller edge");
  for (int64_t s : size) EMBER_CHECK(s > 0, "resize: size must be positive, got ", IntArrayRef(size));
  const auto mode = interpolate_mode(interpolation);
  const int64_t h = img.size(-2), w = img.size(-1);
  EMBER_CHECK(h > 0 && w > 0, "resize: the image is empty (shape ", img.sizes(), ")");
  const std::vector<int64_t> out = resized_output_size(h, w, size, max_size);
  EMBER_CHECK(out[0] > 0 && out[1] > 0, "resize: the output size ", IntArrayRef(out), " is empty");
  if (out[0] == h && out[1] == w) return img;
  const bool aa = antialias.value_or(false);
  const bool linear = interpolation == InterpolationMode::BILINEAR || interpolation == InterpolationMode::BICUBIC;
  EMBER_CHECK(!aa || linear, "resize: antialias is supported for the BILINEAR and BICUBIC modes only, not ",
              interpolation_mode_name(interpolation));
  const detail::Batched b = detail::to_batched(img, kFloat, /*keep_float=*/true);
  Tensor y =
      linear && detail::can_resample_separably(b.x)
          ? detail::separable_resize(b.x, out[0], out[1], interpolation == InterpolationMode::BICUBIC, aa)
          : nn::functional::detail::interpolate(b.x, out, std::nullopt, mode,
                                                linear ? std::optional<bool>(false) : std::nullopt, std::nullopt, aa);
  if (interpolation == InterpolationMode::BICUBIC && b.dtype == kByte) y = y.clamp(0, 255);
  return b.restore(y);
}

Tensor pad(const Tensor& img, const IntList& padding, double fill, const std::string& padding_mode) {
  detail::check_image(img, "pad");
  const std::vector<int64_t> p = parse_padding(padding);
  EMBER_CHECK(
      padding_mode == "constant" || padding_mode == "edge" || padding_mode == "reflect" || padding_mode == "symmetric",
      "pad: padding_mode should be either constant, edge, reflect or symmetric, got '", padding_mode, "'");
  if (padding_mode == "symmetric") return pad_symmetric(img, p);
  if (padding_mode == "constant") {
    const detail::Batched b = detail::to_batched(img, img.scalar_type(), true);
    return b.restore(constant_pad_nd(b.x, p, fill));
  }
  // reflect and replicate work in float for integer images; the cast back truncates
  // (torchvision does not round here, and the values are copies anyway).
  const detail::Batched b = detail::to_batched(img, kFloat, true);
  Tensor y = ::torch::pad(b.x, p, padding_mode == "edge" ? "replicate" : "reflect");
  std::vector<int64_t> shape(b.shape);
  shape[shape.size() - 2] = y.size(-2);
  shape.back() = y.size(-1);
  return y.reshape(shape).to(b.dtype);
}

Tensor crop(const Tensor& img, int64_t top, int64_t left, int64_t height, int64_t width) {
  detail::check_image(img, "crop");
  EMBER_CHECK(height >= 0 && width >= 0, "crop: height and width must be non-negative, got ", height, " x ", width);
  const int64_t h = img.size(-2), w = img.size(-1);
  const int64_t right = left + width, bottom = top + height;
  if (left < 0 || top < 0 || right > w || bottom > h) {
    const std::vector<int64_t> ltrb = {std::max<int64_t>(-left + std::min<int64_t>(0, right), 0),
                                       std::max<int64_t>(-top + std::min<int64_t>(0, bottom), 0),
                                       std::max<int64_t>(right - std::max(w, left), 0),
                                       std::max<int64_t>(bottom - std::max(h, top), 0)};
    // Python slicing: a negative end counts from the back, ends past the size clamp.
    auto clamp_end = [](int64_t e, int64_t n) { return e < 0 ? std::max<int64_t>(e + n, 0) : std::min(e, n); };
    const int64_t y0 = std::min(std::max<int64_t>(top, 0), h), x0 = std::min(std::max<int64_t>(left, 0), w);
    const int64_t y1 = std::max(clamp_end(bottom, h), y0), x1 = std::max(clamp_end(right, w), x0);
    return pad(img.index({Ellipsis, Slice(y0, y1), Slice(x0, x1)}), ltrb, 0);
  }
  return img.index({Ellipsis, Slice(top, bottom), Slice(left, right)});
}

Tensor center_crop(const Tensor& img, const IntList& output_size) {
  detail::check_image(img, "center_crop");
  const auto [crop_h, crop_w] = crop_size(output_size, "center_crop");
  Tensor x = img;
  int64_t h = img.size(-2), w = img.size(-1);
  if (crop_w > w || crop_h > h) {
    const std::vector<int64_t> ltrb = {crop_w > w ? (crop_w - w) / 2 : 0, crop_h > h ? (crop_h - h) / 2 : 0,
                                       crop_w > w ? (crop_w - w + 1) / 2 : 0, crop_h > h ? (crop_h - h + 1) / 2 : 0};
    x = pad(x, ltrb, 0);
    h = x.size(-2);
    w = x.size(-1);
    if (crop_w == w && crop_h == h) return x;
  }
  // Python's round() rounds half to even, as nearbyint does.
  const auto top = static_cast<int64_t>(std::nearbyint(static_cast<double>(h - crop_h) / 2.0));
  const auto left = static_cast<int64_t>(std::nearbyint(static_cast<double>(w - crop_w) / 2.0));
  return crop(x, top, left, crop_h, crop_w);
}

Tensor resized_crop(const Tensor& img, int64_t top, int64_t left, int64_t height, int64_t width, const IntList& size,
                    InterpolationMode interpolation, std::optional<bool> antialias) {
  return resize(crop(img, top, left, height, width), size, interpolation, std::nullopt, antialias);
}

std::tuple<Tensor, Tensor, Tensor, Tensor, Tensor> five_crop(const Tensor& img, const IntList& size) {
  detail::check_image(img, "five_crop");
  const auto [ch, cw] = crop_size(size, "five_crop");
  const int64_t h = img.size(-2), w = img.size(-1);
  EMBER_CHECK(cw <= w && ch <= h, "five_crop: requested crop size (", ch, ", ", cw, ") is bigger than input size (", h,
              ", ", w, ")");
  return {crop(img, 0, 0, ch, cw), crop(img, 0, w - cw, ch, cw), crop(img, h - ch, 0, ch, cw),
          crop(img, h - ch, w - cw, ch, cw), center_crop(img, {ch, cw})};
}

std::vector<Tensor> ten_crop(const Tensor& img, const IntList& size, bool vertical_flip) {
  auto [a, b, c, d, e] = five_crop(img, size);
  auto [f, g, h, i, j] = five_crop(vertical_flip ? vflip(img) : hflip(img), size);
  return {a, b, c, d, e, f, g, h, i, j};
}

Tensor hflip(const Tensor& img) {
  detail::check_image(img, "hflip");
  return img.flip({-1});
}

Tensor vflip(const Tensor& img) {
  detail::check_image(img, "vflip");
  return img.flip({-2});
}

}  // namespace torch::vision::transforms::functional
