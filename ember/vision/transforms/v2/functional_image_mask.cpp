// The v2 image kernels (v1's, with v2's defaults) and the mask kernels (the
// image kernels with NEAREST interpolation on [N, H, W], bool kept bool).
#include <cmath>
#include <utility>

#include "ember/core/error.h"
#include "ember/ops/all_ops.h"
#include "ember/vision/transforms/v2/functional.h"

namespace torch::vision::transforms::v2::functional {

namespace F1 = ::torch::vision::transforms::functional;

namespace {

// Runs an image kernel on a mask viewed as [N, H, W].
template <typename Fn>
Tensor on_mask(const Tensor& mask, const char* op, Fn&& fn) {
  EMBER_CHECK(mask.defined(), op, ": mask is undefined");
  EMBER_CHECK(mask.dim() >= 2, op, ": expected a mask of shape [..., H, W], got ", mask.sizes());
  Tensor m = mask.dim() < 3 ? mask.unsqueeze(0) : mask;
  const bool is_bool = m.scalar_type() == kBool;
  if (is_bool) m = m.to(kByte);
  Tensor out = fn(m);
  if (is_bool) out = out.ne(0);
  return mask.dim() < 3 ? out.squeeze(0) : out;
}

std::vector<int64_t> whole_pixels(const std::vector<double>& translate, const char* op) {
  EMBER_CHECK(translate.size() == 2, op, ": translate should be a sequence of length 2, got ", translate.size());
  std::vector<int64_t> out;
  for (double t : translate) {
    EMBER_CHECK(std::isfinite(t) && t == std::floor(t), op,
                ": translate must hold whole pixels for images and masks, got ", t);
    out.push_back(static_cast<int64_t>(t));
  }
  return out;
}

}  // namespace

CanvasSize get_size(const Tensor& inpt) {
  EMBER_CHECK(inpt.defined(), "get_size: input is undefined");
  EMBER_CHECK(inpt.dim() >= 2, "get_size: expected a tensor of shape [..., H, W], got ", inpt.sizes());
  return {inpt.size(-2), inpt.size(-1)};
}
CanvasSize get_size(const BoundingBoxes& inpt) { return inpt.canvas_size; }

// ---- masks ----
Tensor horizontal_flip_mask(const Tensor& mask) {
  return on_mask(mask, "horizontal_flip_mask", [](const Tensor& m) { return F1::hflip(m); });
}
Tensor vertical_flip_mask(const Tensor& mask) {
  return on_mask(mask, "vertical_flip_mask", [](const Tensor& m) { return F1::vflip(m); });
}
Tensor resize_mask(const Tensor& mask, const IntList& size, std::optional<int64_t> max_size) {
  return on_mask(mask, "resize_mask",
                 [&](const Tensor& m) { return F1::resize(m, size, InterpolationMode::NEAREST, max_size, false); });
}
Tensor crop_mask(const Tensor& mask, int64_t top, int64_t left, int64_t height, int64_t width) {
  return on_mask(mask, "crop_mask", [&](const Tensor& m) { return F1::crop(m, top, left, height, width); });
}
Tensor center_crop_mask(const Tensor& mask, const IntList& output_size) {
  return on_mask(mask, "center_crop_mask", [&](const Tensor& m) { return F1::center_crop(m, output_size); });
}
Tensor resized_crop_mask(const Tensor& mask, int64_t top, int64_t left, int64_t height, int64_t width,
                         const IntList& size) {
  return on_mask(mask, "resized_crop_mask", [&](const Tensor& m) {
    return F1::resized_crop(m, top, left, height, width, size, InterpolationMode::NEAREST, false);
  });
}
Tensor pad_mask(const Tensor& mask, const IntList& padding, double fill, const std::string& padding_mode) {
  return on_mask(mask, "pad_mask", [&](const Tensor& m) { return F1::pad(m, padding, fill, padding_mode); });
}
Tensor rotate_mask(const Tensor& mask, double angle, bool expand, const OptionalInts& center, double fill) {
  return on_mask(mask, "rotate_mask", [&](const Tensor& m) {
    return F1::rotate(m, angle, InterpolationMode::NEAREST, expand, center, OptionalFloats(fill));
  });
}
Tensor affine_mask(const Tensor& mask, double angle, const std::vector<double>& translate, double scale,
                   const Shear& shear, double fill, const OptionalInts& center) {
  const std::vector<int64_t> t = whole_pixels(translate, "affine_mask");
  return on_mask(mask, "affine_mask", [&](const Tensor& m) {
    return F1::affine(m, angle, t, scale, shear, InterpolationMode::NEAREST, OptionalFloats(fill), center);
  });
}
Tensor perspective_mask(const Tensor& mask, const Points& startpoints, const Points& endpoints, double fill) {
  return on_mask(mask, "perspective_mask", [&](const Tensor& m) {
    return F1::perspective(m, startpoints, endpoints, InterpolationMode::NEAREST, OptionalFloats(fill));
  });
}
Tensor elastic_mask(const Tensor& mask, const Tensor& displacement, double fill) {
  return on_mask(mask, "elastic_mask", [&](const Tensor& m) {
    return F1::elastic_transform(m, displacement, InterpolationMode::NEAREST, OptionalFloats(fill));
  });
}

// ---- images ----
Tensor horizontal_flip_image(const Tensor& image) { return F1::hflip(image); }
Tensor vertical_flip_image(const Tensor& image) { return F1::vflip(image); }
Tensor resize_image(const Tensor& image, const IntList& size, InterpolationMode interpolation,
                    std::optional<int64_t> max_size, std::optional<bool> antialias) {
  return F1::resize(image, size, interpolation, max_size, antialias);
}
Tensor crop_image(const Tensor& image, int64_t top, int64_t left, int64_t height, int64_t width) {
  return F1::crop(image, top, left, height, width);
}
Tensor center_crop_image(const Tensor& image, const IntList& output_size) {
  return F1::center_crop(image, output_size);
}
Tensor resized_crop_image(const Tensor& image, int64_t top, int64_t left, int64_t height, int64_t width,
                          const IntList& size, InterpolationMode interpolation, std::optional<bool> antialias) {
  return F1::resized_crop(image, top, left, height, width, size, interpolation, antialias);
}
Tensor pad_image(const Tensor& image, const IntList& padding, const OptionalFloats& fill,
                 const std::string& padding_mode) {
  if (!fill || fill->size() == 1) return F1::pad(image, padding, fill ? (*fill)[0] : 0.0, padding_mode);
  // A per-channel fill: pad each channel with its own value (constant mode only).
  EMBER_CHECK(padding_mode == "constant", "pad_image: a per-channel fill needs padding_mode 'constant', got '",
              padding_mode, "'");
  EMBER_CHECK(image.dim() >= 3 && image.size(-3) == static_cast<int64_t>(fill->size()), "pad_image: fill has ",
              fill->size(), " values for an image of shape ", image.sizes());
  std::vector<Tensor> channels;
  for (int64_t c = 0; c < image.size(-3); ++c)
    channels.push_back(F1::pad(image.select(-3, c).unsqueeze(-3), padding, (*fill)[c], padding_mode));
  return cat(channels, -3);
}
Tensor rotate_image(const Tensor& image, double angle, InterpolationMode interpolation, bool expand,
                    const OptionalInts& center, const OptionalFloats& fill) {
  return F1::rotate(image, angle, interpolation, expand, center, fill);
}
Tensor affine_image(const Tensor& image, double angle, const std::vector<double>& translate, double scale,
                    const Shear& shear, InterpolationMode interpolation, const OptionalFloats& fill,
                    const OptionalInts& center) {
  return F1::affine(image, angle, whole_pixels(translate, "affine_image"), scale, shear, interpolation, fill, center);
}
Tensor perspective_image(const Tensor& image, const Points& startpoints, const Points& endpoints,
                         InterpolationMode interpolation, const OptionalFloats& fill) {
  return F1::perspective(image, startpoints, endpoints, interpolation, fill);
}
Tensor elastic_image(const Tensor& image, const Tensor& displacement, InterpolationMode interpolation,
                     const OptionalFloats& fill) {
  return F1::elastic_transform(image, displacement, interpolation, fill);
}
Tensor elastic_transform(const Tensor& inpt, const Tensor& displacement, InterpolationMode interpolation,
                         const OptionalFloats& fill) {
  return elastic_image(inpt, displacement, interpolation, fill);
}
std::tuple<Tensor, Tensor, Tensor, Tensor, Tensor> five_crop(const Tensor& inpt, const IntList& size) {
  return F1::five_crop(inpt, size);
}
std::vector<Tensor> ten_crop(const Tensor& inpt, const IntList& size, bool vertical_flip) {
  return F1::ten_crop(inpt, size, vertical_flip);
}

}  // namespace torch::vision::transforms::v2::functional
