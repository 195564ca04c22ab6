// The v2 dispatchers: one overload per tv_tensors type, each calling its kernel
// and re-wrapping the result with the type's metadata (a box's new canvas).
#include "ember/vision/transforms/v2/functional.h"

namespace torch::vision::transforms::v2::functional {

namespace {

// A mask's fill: the first fill value, else 0.
double mask_fill(const OptionalFloats& fill) { return fill && !fill->empty() ? (*fill)[0] : 0.0; }

std::optional<std::vector<double>> box_center(const OptionalInts& center) {
  if (!center) return std::nullopt;
  return std::vector<double>(center->begin(), center->end());
}

}  // namespace

// ---- flips ----
Tensor horizontal_flip(const Tensor& inpt) { return horizontal_flip_image(inpt); }
Image horizontal_flip(const Image& inpt) { return Image(horizontal_flip_image(inpt)); }
Video horizontal_flip(const Video& inpt) { return Video(horizontal_flip_image(inpt)); }
Mask horizontal_flip(const Mask& inpt) { return Mask(horizontal_flip_mask(inpt)); }
BoundingBoxes horizontal_flip(const BoundingBoxes& inpt) {
  return BoundingBoxes(horizontal_flip_bounding_boxes(inpt, inpt.format, inpt.canvas_size), inpt.format,
                       inpt.canvas_size);
}
Tensor vertical_flip(const Tensor& inpt) { return vertical_flip_image(inpt); }
Image vertical_flip(const Image& inpt) { return Image(vertical_flip_image(inpt)); }
Video vertical_flip(const Video& inpt) { return Video(vertical_flip_image(inpt)); }
Mask vertical_flip(const Mask& inpt) { return Mask(vertical_flip_mask(inpt)); }
BoundingBoxes vertical_flip(const BoundingBoxes& inpt) {
  return BoundingBoxes(vertical_flip_bounding_boxes(inpt, inpt.format, inpt.canvas_size), inpt.format,
                       inpt.canvas_size);
}

// ---- resize ----
Tensor resize(const Tensor& inpt, const IntList& size, InterpolationMode interpolation, std::optional<int64_t> max_size,
              std::optional<bool> antialias) {
  return resize_image(inpt, size, interpolation, max_size, antialias);
}
Image resize(const Image& inpt, const IntList& size, InterpolationMode interpolation, std::optional<int64_t> max_size,
             std::optional<bool> antialias) {
  return Image(resize_image(inpt, size, interpolation, max_size, antialias));
}
Video resize(const Video& inpt, const IntList& size, InterpolationMode interpolation, std::optional<int64_t> max_size,
             std::optional<bool> antialias) {
  return Video(resize_image(inpt, size, interpolation, max_size, antialias));
}
Mask resize(const Mask& inpt, const IntList& size, InterpolationMode interpolation, std::optional<int64_t> max_size,
            std::optional<bool> antialias) {
  return Mask(resize_mask(inpt, size, max_size));
}
BoundingBoxes resize(const BoundingBoxes& inpt, const IntList& size, InterpolationMode interpolation,
                     std::optional<int64_t> max_size, std::optional<bool> antialias) {
  auto [b, c] = resize_bounding_boxes(inpt, inpt.canvas_size, size, max_size);
  return BoundingBoxes(b, inpt.format, c);
}

// ---- crop ----
Tensor crop(const Tensor& inpt, int64_t top, int64_t left, int64_t height, int64_t width) {
  return crop_image(inpt, top, left, height, width);
}
Image crop(const Image& inpt, int64_t top, int64_t left, int64_t height, int64_t width) {
  return Image(crop_image(inpt, top, left, height, width));
}
Video crop(const Video& inpt, int64_t top, int64_t left, int64_t height, int64_t width) {
  return Video(crop_image(inpt, top, left, height, width));
}
Mask crop(const Mask& inpt, int64_t top, int64_t left, int64_t height, int64_t width) {
  return Mask(crop_mask(inpt, top, left, height, width));
}
BoundingBoxes crop(const BoundingBoxes& inpt, int64_t top, int64_t left, int64_t height, int64_t width) {
  auto [b, c] = crop_bounding_boxes(inpt, inpt.format, top, left, height, width);
  return BoundingBoxes(b, inpt.format, c);
}

// ---- center_crop ----
Tensor center_crop(const Tensor& inpt, const IntList& output_size) { return center_crop_image(inpt, output_size); }
Image center_crop(const Image& inpt, const IntList& output_size) { return Image(center_crop_image(inpt, output_size)); }
Video center_crop(const Video& inpt, const IntList& output_size) { return Video(center_crop_image(inpt, output_size)); }
Mask center_crop(const Mask& inpt, const IntList& output_size) { return Mask(center_crop_mask(inpt, output_size)); }
BoundingBoxes center_crop(const BoundingBoxes& inpt, const IntList& output_size) {
  auto [b, c] = center_crop_bounding_boxes(inpt, inpt.format, inpt.canvas_size, output_size);
  return BoundingBoxes(b, inpt.format, c);
}

// ---- resized_crop ----
Tensor resized_crop(const Tensor& inpt, int64_t top, int64_t left, int64_t height, int64_t width, const IntList& size,
                    InterpolationMode interpolation, std::optional<bool> antialias) {
  return resized_crop_image(inpt, top, left, height, width, size, interpolation, antialias);
}
Image resized_crop(const Image& inpt, int64_t top, int64_t left, int64_t height, int64_t width, const IntList& size,
                   InterpolationMode interpolation, std::optional<bool> antialias) {
  return Image(resized_crop_image(inpt, top, left, height, width, size, interpolation, antialias));
}
Video resized_crop(const Video& inpt, int64_t top, int64_t left, int64_t height, int64_t width, const IntList& size,
                   InterpolationMode interpolation, std::optional<bool> antialias) {
  return Video(resized_crop_image(inpt, top, left, height, width, size, interpolation, antialias));
}
Mask resized_crop(const Mask& inpt, int64_t top, int64_t left, int64_t height, int64_t width, const IntList& size,
                  InterpolationMode interpolation, std::optional<bool> antialias) {
  return Mask(resized_crop_mask(inpt, top, left, height, width, size));
}
BoundingBoxes resized_crop(const BoundingBoxes& inpt, int64_t top, int64_t left, int64_t height, int64_t width,
                           const IntList& size, InterpolationMode interpolation, std::optional<bool> antialias) {
  auto [b, c] = resized_crop_bounding_boxes(inpt, inpt.format, top, left, height, width, size);
  return BoundingBoxes(b, inpt.format, c);
}

// ---- pad ----
Tensor pad(const Tensor& inpt, const IntList& padding, const OptionalFloats& fill, const std::string& padding_mode) {
  return pad_image(inpt, padding, fill, padding_mode);
}
Image pad(const Image& inpt, const IntList& padding, const OptionalFloats& fill, const std::string& padding_mode) {
  return Image(pad_image(inpt, padding, fill, padding_mode));
}
Video pad(const Video& inpt, const IntList& padding, const OptionalFloats& fill, const std::string& padding_mode) {
  return Video(pad_image(inpt, padding, fill, padding_mode));
}
Mask pad(const Mask& inpt, const IntList& padding, const OptionalFloats& fill, const std::string& padding_mode) {
  return Mask(pad_mask(inpt, padding, mask_fill(fill), padding_mode));
}
BoundingBoxes pad(const BoundingBoxes& inpt, const IntList& padding, const OptionalFloats& fill,
                  const std::string& padding_mode) {
  auto [b, c] = pad_bounding_boxes(inpt, inpt.format, inpt.canvas_size, padding, padding_mode);
  return BoundingBoxes(b, inpt.format, c);
}

// ---- rotate ----
Tensor rotate(const Tensor& inpt, double angle, InterpolationMode interpolation, bool expand,
              const OptionalInts& center, const OptionalFloats& fill) {
  return rotate_image(inpt, angle, interpolation, expand, center, fill);
}
Image rotate(const Image& inpt, double angle, InterpolationMode interpolation, bool expand, const OptionalInts& center,
             const OptionalFloats& fill) {
  return Image(rotate_image(inpt, angle, interpolation, expand, center, fill));
}
Video rotate(const Video& inpt, double angle, InterpolationMode interpolation, bool expand, const OptionalInts& center,
             const OptionalFloats& fill) {
  return Video(rotate_image(inpt, angle, interpolation, expand, center, fill));
}
Mask rotate(const Mask& inpt, double angle, InterpolationMode interpolation, bool expand, const OptionalInts& center,
            const OptionalFloats& fill) {
  return Mask(rotate_mask(inpt, angle, expand, center, mask_fill(fill)));
}
BoundingBoxes rotate(const BoundingBoxes& inpt, double angle, InterpolationMode interpolation, bool expand,
                     const OptionalInts& center, const OptionalFloats& fill) {
  auto [b, c] = rotate_bounding_boxes(inpt, inpt.format, inpt.canvas_size, angle, expand, box_center(center));
  return BoundingBoxes(b, inpt.format, c);
}

// ---- affine ----
Tensor affine(const Tensor& inpt, double angle, const std::vector<double>& translate, double scale, const Shear& shear,
              InterpolationMode interpolation, const OptionalFloats& fill, const OptionalInts& center) {
  return affine_image(inpt, angle, translate, scale, shear, interpolation, fill, center);
}
Image affine(const Image& inpt, double angle, const std::vector<double>& translate, double scale, const Shear& shear,
             InterpolationMode interpolation, const OptionalFloats& fill, const OptionalInts& center) {
  return Image(affine_image(inpt, angle, translate, scale, shear, interpolation, fill, center));
}
Video affine(const Video& inpt, double angle, const std::vector<double>& translate, double scale, const Shear& shear,
             InterpolationMode interpolation, const OptionalFloats& fill, const OptionalInts& center) {
  return Video(affine_image(inpt, angle, translate, scale, shear, interpolation, fill, center));
}
Mask affine(const Mask& inpt, double angle, const std::vector<double>& translate, double scale, const Shear& shear,
            InterpolationMode interpolation, const OptionalFloats& fill, const OptionalInts& center) {
  return Mask(affine_mask(inpt, angle, translate, scale, shear, mask_fill(fill), center));
}
BoundingBoxes affine(const BoundingBoxes& inpt, double angle, const std::vector<double>& translate, double scale,
                     const Shear& shear, InterpolationMode interpolation, const OptionalFloats& fill,
                     const OptionalInts& center) {
  Tensor b =
      affine_bounding_boxes(inpt, inpt.format, inpt.canvas_size, angle, translate, scale, shear, box_center(center));
  const CanvasSize c = inpt.canvas_size;
  return BoundingBoxes(b, inpt.format, c);
}

// ---- perspective ----
Tensor perspective(const Tensor& inpt, const Points& startpoints, const Points& endpoints,
                   InterpolationMode interpolation, const OptionalFloats& fill) {
  return perspective_image(inpt, startpoints, endpoints, interpolation, fill);
}
Image perspective(const Image& inpt, const Points& startpoints, const Points& endpoints,
                  InterpolationMode interpolation, const OptionalFloats& fill) {
  return Image(perspective_image(inpt, startpoints, endpoints, interpolation, fill));
}
Video perspective(const Video& inpt, const Points& startpoints, const Points& endpoints,
                  InterpolationMode interpolation, const OptionalFloats& fill) {
  return Video(perspective_image(inpt, startpoints, endpoints, interpolation, fill));
}
Mask perspective(const Mask& inpt, const Points& startpoints, const Points& endpoints, InterpolationMode interpolation,
                 const OptionalFloats& fill) {
  return Mask(perspective_mask(inpt, startpoints, endpoints, mask_fill(fill)));
}
BoundingBoxes perspective(const BoundingBoxes& inpt, const Points& startpoints, const Points& endpoints,
                          InterpolationMode interpolation, const OptionalFloats& fill) {
  Tensor b = perspective_bounding_boxes(inpt, inpt.format, inpt.canvas_size, startpoints, endpoints);
  const CanvasSize c = inpt.canvas_size;
  return BoundingBoxes(b, inpt.format, c);
}

// ---- elastic ----
Tensor elastic(const Tensor& inpt, const Tensor& displacement, InterpolationMode interpolation,
               const OptionalFloats& fill) {
  return elastic_image(inpt, displacement, interpolation, fill);
}
Image elastic(const Image& inpt, const Tensor& displacement, InterpolationMode interpolation,
              const OptionalFloats& fill) {
  return Image(elastic_image(inpt, displacement, interpolation, fill));
}
Video elastic(const Video& inpt, const Tensor& displacement, InterpolationMode interpolation,
              const OptionalFloats& fill) {
  return Video(elastic_image(inpt, displacement, interpolation, fill));
}
Mask elastic(const Mask& inpt, const Tensor& displacement, InterpolationMode interpolation,
             const OptionalFloats& fill) {
  return Mask(elastic_mask(inpt, displacement, mask_fill(fill)));
}
BoundingBoxes elastic(const BoundingBoxes& inpt, const Tensor& displacement, InterpolationMode interpolation,
                      const OptionalFloats& fill) {
  Tensor b = elastic_bounding_boxes(inpt, inpt.format, inpt.canvas_size, displacement);
  const CanvasSize c = inpt.canvas_size;
  return BoundingBoxes(b, inpt.format, c);
}

}  // namespace torch::vision::transforms::v2::functional
