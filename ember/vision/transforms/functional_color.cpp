// Colour adjustments (torchvision's functional_tensor): blends with a
// degenerate image clamp to the dtype's range and cast back by truncation,
// exactly as torchvision does, so uint8 results equal its own.
#include <array>
#include <cmath>

#include "ember/core/error.h"
#include "ember/core/parallel.h"
#include "ember/ops/all_ops.h"
#include "ember/vision/transforms/detail.h"
#include "ember/vision/transforms/functional.h"

namespace torch::vision::transforms::functional {

using namespace ::torch::indexing;

namespace {

double bound_of(const Tensor& img) { return img.is_floating_point() ? 1.0 : 255.0; }

// functional_tensor._blend
Tensor blend(const Tensor& img1, const Tensor& img2, double ratio) {
  return (ratio * img1 + (1.0 - ratio) * img2).clamp(0, bound_of(img1)).to(img1.scalar_type());
}

void check_factor(double f, const char* op, const char* name) {
  EMBER_CHECK(f >= 0 && std::isfinite(f), op, ": ", name, " (", f, ") is not non-negative");
}

// functional_tensor._rgb2hsv on float images.
Tensor rgb2hsv(const Tensor& img) {
  const auto rgb = img.unbind(-3);
  const Tensor &r = rgb[0], &g = rgb[1], &b = rgb[2];
  const Tensor maxc = img.amax({-3}), minc = img.amin({-3});
  const Tensor eqc = maxc == minc;
  const Tensor cr = maxc - minc;
  const Tensor one = ones_like(maxc);
  const Tensor s = cr / where(eqc, one, maxc);
  const Tensor div = where(eqc, one, cr);
  const Tensor rc = (maxc - r) / div, gc = (maxc - g) / div, bc = (maxc - b) / div;
  const ScalarType dt = img.scalar_type();
  const Tensor hr = (maxc == r).to(dt) * (bc - gc);
  const Tensor hg = ((maxc == g) & (maxc != r)).to(dt) * (2.0 + rc - bc);
  const Tensor hb = ((maxc != g) & (maxc != r)).to(dt) * (4.0 + gc - rc);
  const Tensor h = fmod((hr + hg + hb) / 6.0 + 1.0, 1.0);
  return stack({h, s, maxc}, -3);
}

// functional_tensor._hsv2rgb: torchvision picks each output channel among six
// candidates with a one-hot einsum; gathering the chosen one gives the same values.
Tensor hsv2rgb(const Tensor& img) {
  const auto hsv = img.unbind(-3);
  const Tensor &h = hsv[0], &s = hsv[1], &v = hsv[2];
  const Tensor i = floor(h * 6.0);
  const Tensor f = h * 6.0 - i;
  const Tensor p = (v * (1.0 - s)).clamp(0.0, 1.0);
  const Tensor q = (v * (1.0 - s * f)).clamp(0.0, 1.0);
  const Tensor t = (v * (1.0 - s * (1.0 - f))).clamp(0.0, 1.0);
  const Tensor idx = remainder(i.to(kInt), 6).to(kLong).unsqueeze(-3);
  const Tensor red = stack({v, q, p, p, t, v}, -3).gather(-3, idx);
  const Tensor green = stack({t, v, v, q, p, p}, -3).gather(-3, idx);
  const Tensor blue = stack({p, p, t, v, v, q}, -3).gather(-3, idx);
  return cat({red, green, blue}, -3);
}

// functional_tensor._blurred_degenerate_image: a 3x3 smoothing of the interior.
Tensor blurred_degenerate(const Tensor& img) {
  const ScalarType dt = img.is_floating_point() ? img.scalar_type() : kFloat;
  Tensor kernel = ones({3, 3}, dt);
  kernel.index_put_({1, 1}, 5.0);
  kernel = kernel / kernel.sum();
  const int64_t c = img.size(-3);
  const detail::Batched b = detail::to_batched(img, dt, false);
  const Tensor k = kernel.expand({c, 1, 3, 3});
  const Tensor tmp = b.restore(conv2d(b.x, k, {}, 1, 0, 1, c));
  Tensor result = img.clone();
  result.index_put_({Ellipsis, Slice(1, -1), Slice(1, -1)}, tmp);
  return result;
}

// functional_tensor._scale_channel on one contiguous uint8 plane of n pixels.
void equalize_plane(const uint8_t* in, uint8_t* out, int64_t n) {
  std::array<int64_t, 256> hist{};
  for (int64_t k = 0; k < n; ++k) ++hist[in[k]];
  // step: the pixel count without the last non-empty bin, over 255.
  int64_t last = 255;
  while (last > 0 && hist[last] == 0) --last;
  int64_t total = 0;
  for (int64_t v = 0; v < last; ++v) total += hist[v];
  const int64_t step = total / 255;
  if (step == 0) {
    std::copy(in, in + n, out);
    return;
  }
  std::array<uint8_t, 256> lut{};
  int64_t cum = 0;
  for (int v = 0; v < 256; ++v) {
    // lut[v] = (cumsum[v - 1] + step // 2) // step, lut[0] = 0 (the shifted pad), clamped to 255.
    const int64_t val = v == 0 ? 0 : (cum + step / 2) / step;
    lut[v] = static_cast<uint8_t>(std::min<int64_t>(val, 255));
    cum += hist[v];
  }
  for (int64_t k = 0; k < n; ++k) out[k] = lut[in[k]];
}

}  // namespace

Tensor rgb_to_grayscale(const Tensor& img, int64_t num_output_channels) {
  detail::check_ndim(img, 3, "rgb_to_grayscale");
  detail::check_channels(img, {1, 3}, "rgb_to_grayscale");
  EMBER_CHECK(num_output_channels == 1 || num_output_channels == 3,
              "rgb_to_grayscale: num_output_channels should be either 1 or 3, got ", num_output_channels);
  Tensor l;
  if (img.size(-3) == 3) {
    const auto rgb = img.unbind(-3);
    l = (0.2989 * rgb[0] + 0.587 * rgb[1] + 0.114 * rgb[2]).to(img.scalar_type()).unsqueeze(-3);
  } else {
    l = img.clone();
  }
  return num_output_channels == 3 ? l.expand(img.sizes()) : l;
}

Tensor adjust_brightness(const Tensor& img, double brightness_factor) {
  check_factor(brightness_factor, "adjust_brightness", "brightness_factor");
  detail::check_image(img, "adjust_brightness");
  detail::check_channels(img, {1, 3}, "adjust_brightness");
  return blend(img, zeros_like(img), brightness_factor);
}

Tensor adjust_contrast(const Tensor& img, double contrast_factor) {
  check_factor(contrast_factor, "adjust_contrast", "contrast_factor");
  detail::check_image(img, "adjust_contrast");
  detail::check_channels(img, {1, 3}, "adjust_contrast");
  const ScalarType dt = img.is_floating_point() ? img.scalar_type() : kFloat;
  const Tensor gray = detail::num_channels(img) == 3 ? rgb_to_grayscale(img) : img;
  const Tensor mean = gray.to(dt).mean({-3, -2, -1}, /*keepdim=*/true);
  return blend(img, mean, contrast_factor);
}

Tensor adjust_saturation(const Tensor& img, double saturation_factor) {
  check_factor(saturation_factor, "adjust_saturation", "saturation_factor");
  detail::check_image(img, "adjust_saturation");
  detail::check_channels(img, {1, 3}, "adjust_saturation");
  if (detail::num_channels(img) == 1) return img;
  return blend(img, rgb_to_grayscale(img), saturation_factor);
}

Tensor adjust_hue(const Tensor& img, double hue_factor) {
  EMBER_CHECK(hue_factor >= -0.5 && hue_factor <= 0.5, "adjust_hue: hue_factor (", hue_factor,
              ") is not in [-0.5, 0.5]");
  detail::check_image(img, "adjust_hue");
  detail::check_channels(img, {1, 3}, "adjust_hue");
  if (detail::num_channels(img) == 1) return img;
  const ScalarType orig = img.scalar_type();
  EMBER_CHECK(orig == kByte || img.is_floating_point(), "adjust_hue: expected a uint8 or floating image, got ", orig);
  Tensor x = orig == kByte ? img.to(kFloat) / 255.0 : img;
  const auto hsv = rgb2hsv(x).unbind(-3);
  const Tensor h = remainder(hsv[0] + hue_factor, 1.0);
  x = hsv2rgb(stack({h, hsv[1], hsv[2]}, -3));
  return orig == kByte ? (x * 255.0).to(orig) : x;
}

Tensor adjust_gamma(const Tensor& img, double gamma, double gain) {
  detail::check_image(img, "adjust_gamma");
  detail::check_channels(img, {1, 3}, "adjust_gamma");
  EMBER_CHECK(gamma >= 0, "adjust_gamma: gamma should be a non-negative real number, got ", gamma);
  Tensor r = img.is_floating_point() ? img : convert_image_dtype(img, kFloat);
  r = (gain * r.pow(gamma)).clamp(0, 1);
  return convert_image_dtype(r, img.scalar_type());
}

Tensor adjust_sharpness(const Tensor& img, double sharpness_factor) {
  check_factor(sharpness_factor, "adjust_sharpness", "sharpness_factor");
  detail::check_ndim(img, 3, "adjust_sharpness");
  detail::check_channels(img, {1, 3}, "adjust_sharpness");
  if (img.size(-1) <= 2 || img.size(-2) <= 2) return img;
  return blend(img, blurred_degenerate(img), sharpness_factor);
}

Tensor posterize(const Tensor& img, int64_t bits) {
  EMBER_CHECK(bits >= 0 && bits <= 8, "posterize: the number of bits should be between 0 and 8, got ", bits);
  detail::check_ndim(img, 3, "posterize");
  EMBER_CHECK(img.scalar_type() == kByte, "posterize: only uint8 image tensors are supported, but found ",
              img.scalar_type());
  detail::check_channels(img, {1, 3}, "posterize");
  // -(2 ** (8 - bits)) as a uint8 mask: the top `bits` bits.
  const int64_t mask = (256 - (int64_t{1} << (8 - bits))) & 0xFF;
  return bitwise_and(img, Scalar(mask));
}

Tensor invert(const Tensor& img) {
  detail::check_ndim(img, 3, "invert");
  detail::check_channels(img, {1, 3}, "invert");
  return full({}, bound_of(img), img.scalar_type()) - img;
}

Tensor solarize(const Tensor& img, double threshold) {
  detail::check_ndim(img, 3, "solarize");
  detail::check_channels(img, {1, 3}, "solarize");
  EMBER_CHECK(threshold <= bound_of(img), "solarize: threshold (", threshold,
              ") should be less than the bound of the image (", bound_of(img), ")");
  return where(img >= threshold, invert(img), img);
}

Tensor autocontrast(const Tensor& img) {
  detail::check_ndim(img, 3, "autocontrast");
  detail::check_channels(img, {1, 3}, "autocontrast");
  const double bound = bound_of(img);
  const ScalarType dt = img.is_floating_point() ? img.scalar_type() : kFloat;
  Tensor minimum = img.amin({-2, -1}, true).to(dt);
  const Tensor maximum = img.amax({-2, -1}, true).to(dt);
  Tensor scale = bound / (maximum - minimum);
  const Tensor degenerate = isfinite(scale).logical_not();
  minimum = where(degenerate, zeros_like(minimum), minimum);
  scale = where(degenerate, ones_like(scale), scale);
  return ((img - minimum) * scale).clamp(0, bound).to(img.scalar_type());
}

Tensor equalize(const Tensor& img) {
  detail::check_ndim(img, 3, "equalize");
  EMBER_CHECK(img.scalar_type() == kByte, "equalize: only uint8 image tensors are supported, but found ",
              img.scalar_type());
  detail::check_channels(img, {1, 3}, "equalize");
  const Tensor in = img.contiguous();
  Tensor out = empty(in.sizes(), kByte);
  const int64_t plane = in.size(-1) * in.size(-2);
  const int64_t planes = plane == 0 ? 0 : in.numel() / plane;
  const uint8_t* src = in.data_ptr<uint8_t>();
  uint8_t* dst = out.data_ptr<uint8_t>();
  parallel_for(0, planes, 1, [&](int64_t b, int64_t e) {
    for (int64_t k = b; k < e; ++k) equalize_plane(src + k * plane, dst + k * plane, plane);
  });
  return out;
}

}  // namespace torch::vision::transforms::functional
