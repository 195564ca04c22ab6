#pragma once
// ember::vision::transforms::v2::functional — torchvision.transforms.v2.functional:
// each geometric op comes as per-type kernels (`<op>_image`, `<op>_mask`,
// `<op>_bounding_boxes`, in functional_boxes.h) and as a dispatcher `<op>`
// overloaded on the tv_tensors type: a plain Tensor is an image, an Image or
// Video goes through the v1 image kernel, a Mask through it with NEAREST
// interpolation and fill 0, BoundingBoxes through the box kernel (their
// canvas_size follows). The colour ops are v1's (they touch images only).
#include <cstdint>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "ember/core/tensor.h"
#include "ember/vision/transforms/functional.h"
#include "ember/vision/transforms/interpolation_mode.h"
#include "ember/vision/transforms/optional_list.h"
#include "ember/vision/transforms/v2/functional_boxes.h"
#include "ember/vision/tv_tensors/bounding_boxes.h"
#include "ember/vision/tv_tensors/tensor_types.h"

namespace torch::vision::transforms::v2::functional {

using ::torch::vision::transforms::InterpolationMode;
using ::torch::vision::transforms::OptionalFloats;
using ::torch::vision::tv_tensors::Image;
using ::torch::vision::tv_tensors::Mask;
using ::torch::vision::tv_tensors::Video;
using Points = std::vector<std::vector<int64_t>>;

// The colour and conversion ops, on images only (v1's kernels).
using ::torch::vision::transforms::functional::adjust_brightness;
using ::torch::vision::transforms::functional::adjust_contrast;
using ::torch::vision::transforms::functional::adjust_gamma;
using ::torch::vision::transforms::functional::adjust_hue;
using ::torch::vision::transforms::functional::adjust_saturation;
using ::torch::vision::transforms::functional::adjust_sharpness;
using ::torch::vision::transforms::functional::autocontrast;
using ::torch::vision::transforms::functional::equalize;
using ::torch::vision::transforms::functional::erase;
using ::torch::vision::transforms::functional::gaussian_blur;
using ::torch::vision::transforms::functional::invert;
using ::torch::vision::transforms::functional::normalize;
using ::torch::vision::transforms::functional::posterize;
using ::torch::vision::transforms::functional::rgb_to_grayscale;
using ::torch::vision::transforms::functional::solarize;
using ::torch::vision::transforms::functional::to_dtype;

using ::torch::vision::transforms::functional::get_dimensions;

// (height, width) of an image, video or mask.
CanvasSize get_size(const Tensor& inpt);
CanvasSize get_size(const BoundingBoxes& inpt);

// ---- mask kernels: [..., H, W], NEAREST, fill 0 by default; bool masks stay bool ----
Tensor horizontal_flip_mask(const Tensor& mask);
Tensor vertical_flip_mask(const Tensor& mask);
Tensor resize_mask(const Tensor& mask, const IntList& size, std::optional<int64_t> max_size = std::nullopt);
Tensor crop_mask(const Tensor& mask, int64_t top, int64_t left, int64_t height, int64_t width);
Tensor center_crop_mask(const Tensor& mask, const IntList& output_size);
Tensor resized_crop_mask(const Tensor& mask, int64_t top, int64_t left, int64_t height, int64_t width,
                         const IntList& size);
Tensor pad_mask(const Tensor& mask, const IntList& padding, double fill = 0,
                const std::string& padding_mode = "constant");
Tensor rotate_mask(const Tensor& mask, double angle, bool expand = false, const OptionalInts& center = std::nullopt,
                   double fill = 0);
Tensor affine_mask(const Tensor& mask, double angle, const std::vector<double>& translate, double scale,
                   const Shear& shear, double fill = 0, const OptionalInts& center = std::nullopt);
Tensor perspective_mask(const Tensor& mask, const Points& startpoints, const Points& endpoints, double fill = 0);
Tensor elastic_mask(const Tensor& mask, const Tensor& displacement, double fill = 0);

// ---- image kernels (v1's, with v2's defaults: antialias true) ----
Tensor horizontal_flip_image(const Tensor& image);
Tensor vertical_flip_image(const Tensor& image);
Tensor resize_image(const Tensor& image, const IntList& size,
                    InterpolationMode interpolation = InterpolationMode::BILINEAR,
                    std::optional<int64_t> max_size = std::nullopt, std::optional<bool> antialias = true);
Tensor crop_image(const Tensor& image, int64_t top, int64_t left, int64_t height, int64_t width);
Tensor center_crop_image(const Tensor& image, const IntList& output_size);
Tensor resized_crop_image(const Tensor& image, int64_t top, int64_t left, int64_t height, int64_t width,
                          const IntList& size, InterpolationMode interpolation = InterpolationMode::BILINEAR,
                          std::optional<bool> antialias = true);
Tensor pad_image(const Tensor& image, const IntList& padding, const OptionalFloats& fill = std::nullopt,
                 const std::string& padding_mode = "constant");
Tensor rotate_image(const Tensor& image, double angle, InterpolationMode interpolation = InterpolationMode::NEAREST,
                    bool expand = false, const OptionalInts& center = std::nullopt,
                    const OptionalFloats& fill = std::nullopt);
// translate must hold whole pixels for images (v1's kernel takes integers).
Tensor affine_image(const Tensor& image, double angle, const std::vector<double>& translate, double scale,
                    const Shear& shear, InterpolationMode interpolation = InterpolationMode::NEAREST,
                    const OptionalFloats& fill = std::nullopt, const OptionalInts& center = std::nullopt);
Tensor perspective_image(const Tensor& image, const Points& startpoints, const Points& endpoints,
                         InterpolationMode interpolation = InterpolationMode::BILINEAR,
                         const OptionalFloats& fill = std::nullopt);
Tensor elastic_image(const Tensor& image, const Tensor& displacement,
                     InterpolationMode interpolation = InterpolationMode::BILINEAR,
                     const OptionalFloats& fill = std::nullopt);
std::tuple<Tensor, Tensor, Tensor, Tensor, Tensor> five_crop(const Tensor& inpt, const IntList& size);
std::vector<Tensor> ten_crop(const Tensor& inpt, const IntList& size, bool vertical_flip = false);

// elastic_transform: v2's alias of elastic.
Tensor elastic_transform(const Tensor& inpt, const Tensor& displacement,
                         InterpolationMode interpolation = InterpolationMode::BILINEAR,
                         const OptionalFloats& fill = std::nullopt);

// ---- video kernels: a video [..., T, C, H, W] goes through the image kernels ----
inline Tensor horizontal_flip_video(const Tensor& video) { return horizontal_flip_image(video); }
inline Tensor vertical_flip_video(const Tensor& video) { return vertical_flip_image(video); }
inline Tensor crop_video(const Tensor& video, int64_t top, int64_t left, int64_t height, int64_t width) {
  return crop_image(video, top, left, height, width);
}
inline Tensor center_crop_video(const Tensor& video, const IntList& output_size) {
  return center_crop_image(video, output_size);
}
inline Tensor resize_video(const Tensor& video, const IntList& size,
                           InterpolationMode interpolation = InterpolationMode::BILINEAR,
                           std::optional<int64_t> max_size = std::nullopt, std::optional<bool> antialias = true) {
  return resize_image(video, size, interpolation, max_size, antialias);
}
inline Tensor pad_video(const Tensor& video, const IntList& padding, const OptionalFloats& fill = std::nullopt,
                        const std::string& padding_mode = "constant") {
  return pad_image(video, padding, fill, padding_mode);
}

// ---- dispatchers ----
// Each has the overloads of horizontal_flip: a plain Tensor (an image), Image, Video, Mask, BoundingBoxes.
Tensor horizontal_flip(const Tensor& inpt);
Image horizontal_flip(const Image& inpt);
Video horizontal_flip(const Video& inpt);
Mask horizontal_flip(const Mask& inpt);
BoundingBoxes horizontal_flip(const BoundingBoxes& inpt);

Tensor vertical_flip(const Tensor& inpt);
Image vertical_flip(const Image& inpt);
Video vertical_flip(const Video& inpt);
Mask vertical_flip(const Mask& inpt);
BoundingBoxes vertical_flip(const BoundingBoxes& inpt);

// hflip and vflip: v2's aliases.
template <typename T>
T hflip(const T& inpt) {
  return horizontal_flip(inpt);
}
template <typename T>
T vflip(const T& inpt) {
  return vertical_flip(inpt);
}

Tensor resize(const Tensor& inpt, const IntList& size, InterpolationMode interpolation = InterpolationMode::BILINEAR,
              std::optional<int64_t> max_size = std::nullopt, std::optional<bool> antialias = true);
Image resize(const Image& inpt, const IntList& size, InterpolationMode interpolation = InterpolationMode::BILINEAR,
             std::optional<int64_t> max_size = std::nullopt, std::optional<bool> antialias = true);
Video resize(const Video& inpt, const IntList& size, InterpolationMode interpolation = InterpolationMode::BILINEAR,
             std::optional<int64_t> max_size = std::nullopt, std::optional<bool> antialias = true);
Mask resize(const Mask& inpt, const IntList& size, InterpolationMode interpolation = InterpolationMode::BILINEAR,
            std::optional<int64_t> max_size = std::nullopt, std::optional<bool> antialias = true);
BoundingBoxes resize(const BoundingBoxes& inpt, const IntList& size,
                     InterpolationMode interpolation = InterpolationMode::BILINEAR,
                     std::optional<int64_t> max_size = std::nullopt, std::optional<bool> antialias = true);

Tensor crop(const Tensor& inpt, int64_t top, int64_t left, int64_t height, int64_t width);
Image crop(const Image& inpt, int64_t top, int64_t left, int64_t height, int64_t width);
Video crop(const Video& inpt, int64_t top, int64_t left, int64_t height, int64_t width);
Mask crop(const Mask& inpt, int64_t top, int64_t left, int64_t height, int64_t width);
BoundingBoxes crop(const BoundingBoxes& inpt, int64_t top, int64_t left, int64_t height, int64_t width);

Tensor center_crop(const Tensor& inpt, const IntList& output_size);
Image center_crop(const Image& inpt, const IntList& output_size);
Video center_crop(const Video& inpt, const IntList& output_size);
Mask center_crop(const Mask& inpt, const IntList& output_size);
BoundingBoxes center_crop(const BoundingBoxes& inpt, const IntList& output_size);

Tensor resized_crop(const Tensor& inpt, int64_t top, int64_t left, int64_t height, int64_t width, const IntList& size,
                    InterpolationMode interpolation = InterpolationMode::BILINEAR,
                    std::optional<bool> antialias = true);
Image resized_crop(const Image& inpt, int64_t top, int64_t left, int64_t height, int64_t width, const IntList& size,
                   InterpolationMode interpolation = InterpolationMode::BILINEAR, std::optional<bool> antialias = true);
Video resized_crop(const Video& inpt, int64_t top, int64_t left, int64_t height, int64_t width, const IntList& size,
                   InterpolationMode interpolation = InterpolationMode::BILINEAR, std::optional<bool> antialias = true);
Mask resized_crop(const Mask& inpt, int64_t top, int64_t left, int64_t height, int64_t width, const IntList& size,
                  InterpolationMode interpolation = InterpolationMode::BILINEAR, std::optional<bool> antialias = true);
BoundingBoxes resized_crop(const BoundingBoxes& inpt, int64_t top, int64_t left, int64_t height, int64_t width,
                           const IntList& size, InterpolationMode interpolation = InterpolationMode::BILINEAR,
                           std::optional<bool> antialias = true);

Tensor pad(const Tensor& inpt, const IntList& padding, const OptionalFloats& fill = std::nullopt,
           const std::string& padding_mode = "constant");
Image pad(const Image& inpt, const IntList& padding, const OptionalFloats& fill = std::nullopt,
          const std::string& padding_mode = "constant");
Video pad(const Video& inpt, const IntList& padding, const OptionalFloats& fill = std::nullopt,
          const std::string& padding_mode = "constant");
Mask pad(const Mask& inpt, const IntList& padding, const OptionalFloats& fill = std::nullopt,
         const std::string& padding_mode = "constant");
BoundingBoxes pad(const BoundingBoxes& inpt, const IntList& padding, const OptionalFloats& fill = std::nullopt,
                  const std::string& padding_mode = "constant");

Tensor rotate(const Tensor& inpt, double angle, InterpolationMode interpolation = InterpolationMode::NEAREST,
              bool expand = false, const OptionalInts& center = std::nullopt,
              const OptionalFloats& fill = std::nullopt);
Image rotate(const Image& inpt, double angle, InterpolationMode interpolation = InterpolationMode::NEAREST,
             bool expand = false, const OptionalInts& center = std::nullopt, const OptionalFloats& fill = std::nullopt);
Video rotate(const Video& inpt, double angle, InterpolationMode interpolation = InterpolationMode::NEAREST,
             bool expand = false, const OptionalInts& center = std::nullopt, const OptionalFloats& fill = std::nullopt);
Mask rotate(const Mask& inpt, double angle, InterpolationMode interpolation = InterpolationMode::NEAREST,
            bool expand = false, const OptionalInts& center = std::nullopt, const OptionalFloats& fill = std::nullopt);
BoundingBoxes rotate(const BoundingBoxes& inpt, double angle,
                     InterpolationMode interpolation = InterpolationMode::NEAREST, bool expand = false,
                     const OptionalInts& center = std::nullopt, const OptionalFloats& fill = std::nullopt);

Tensor affine(const Tensor& inpt, double angle, const std::vector<double>& translate, double scale, const Shear& shear,
              InterpolationMode interpolation = InterpolationMode::NEAREST, const OptionalFloats& fill = std::nullopt,
              const OptionalInts& center = std::nullopt);
Image affine(const Image& inpt, double angle, const std::vector<double>& translate, double scale, const Shear& shear,
             InterpolationMode interpolation = InterpolationMode::NEAREST, const OptionalFloats& fill = std::nullopt,
             const OptionalInts& center = std::nullopt);
Video affine(const Video& inpt, double angle, const std::vector<double>& translate, double scale, const Shear& shear,
             InterpolationMode interpolation = InterpolationMode::NEAREST, const OptionalFloats& fill = std::nullopt,
             const OptionalInts& center = std::nullopt);
Mask affine(const Mask& inpt, double angle, const std::vector<double>& translate, double scale, const Shear& shear,
            InterpolationMode interpolation = InterpolationMode::NEAREST, const OptionalFloats& fill = std::nullopt,
            const OptionalInts& center = std::nullopt);
BoundingBoxes affine(const BoundingBoxes& inpt, double angle, const std::vector<double>& translate, double scale,
                     const Shear& shear, InterpolationMode interpolation = InterpolationMode::NEAREST,
                     const OptionalFloats& fill = std::nullopt, const OptionalInts& center = std::nullopt);

Tensor perspective(const Tensor& inpt, const Points& startpoints, const Points& endpoints,
                   InterpolationMode interpolation = InterpolationMode::BILINEAR,
                   const OptionalFloats& fill = std::nullopt);
Image perspective(const Image& inpt, const Points& startpoints, const Points& endpoints,
                  InterpolationMode interpolation = InterpolationMode::BILINEAR,
                  const OptionalFloats& fill = std::nullopt);
Video perspective(const Video& inpt, const Points& startpoints, const Points& endpoints,
                  InterpolationMode interpolation = InterpolationMode::BILINEAR,
                  const OptionalFloats& fill = std::nullopt);
Mask perspective(const Mask& inpt, const Points& startpoints, const Points& endpoints,
                 InterpolationMode interpolation = InterpolationMode::BILINEAR,
                 const OptionalFloats& fill = std::nullopt);
BoundingBoxes perspective(const BoundingBoxes& inpt, const Points& startpoints, const Points& endpoints,
                          InterpolationMode interpolation = InterpolationMode::BILINEAR,
                          const OptionalFloats& fill = std::nullopt);

Tensor elastic(const Tensor& inpt, const Tensor& displacement,
               InterpolationMode interpolation = InterpolationMode::BILINEAR,
               const OptionalFloats& fill = std::nullopt);
Image elastic(const Image& inpt, const Tensor& displacement,
              InterpolationMode interpolation = InterpolationMode::BILINEAR, const OptionalFloats& fill = std::nullopt);
Video elastic(const Video& inpt, const Tensor& displacement,
              InterpolationMode interpolation = InterpolationMode::BILINEAR, const OptionalFloats& fill = std::nullopt);
Mask elastic(const Mask& inpt, const Tensor& displacement,
             InterpolationMode interpolation = InterpolationMode::BILINEAR, const OptionalFloats& fill = std::nullopt);
BoundingBoxes elastic(const BoundingBoxes& inpt, const Tensor& displacement,
                      InterpolationMode interpolation = InterpolationMode::BILINEAR,
                      const OptionalFloats& fill = std::nullopt);

}  // namespace torch::vision::transforms::v2::functional
