#pragma once
// ember::vision::transforms::functional — torchvision 0.14's
// transforms.functional on tensors: images are [..., C, H, W] uint8 or
// floating tensors (float in [0, 1]). Each function follows torchvision's
// tensor op sequence (including its casts through float32 and the rounding
// back to integers), so results match torchvision's.
#include <cstdint>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "ember/core/tensor.h"
#include "ember/vision/transforms/interpolation_mode.h"
#include "ember/vision/transforms/optional_list.h"

namespace torch::vision::transforms::functional {

using ::torch::vision::transforms::InterpolationMode;
using ::torch::vision::transforms::IntList;
using ::torch::vision::transforms::OptionalFloats;
using ::torch::vision::transforms::OptionalInts;
using ::torch::vision::transforms::Shear;

// ---- introspection ----
// [channels, height, width]
std::vector<int64_t> get_dimensions(const Tensor& img);
// [width, height]
std::vector<int64_t> get_image_size(const Tensor& img);
int64_t get_image_num_channels(const Tensor& img);

// ---- dtype conversion ----
Tensor convert_image_dtype(const Tensor& image, ScalarType dtype = kFloat);
// transforms.v2's to_dtype: a plain cast, or convert_image_dtype's rescaling when scale.
Tensor to_dtype(const Tensor& image, ScalarType dtype = kFloat, bool scale = false);
// to_tensor on an [H, W, C] (or [H, W]) array, as for a NumPy ndarray: returns
// [C, H, W]; uint8 becomes float in [0, 1].
Tensor to_tensor(const Tensor& pic);
Tensor normalize(const Tensor& tensor, const std::vector<double>& mean, const std::vector<double>& std,
                 bool inplace = false);

// ---- geometry ----
// size: [h, w], or [s] / s for the shorter edge (with max_size bounding the longer one).
Tensor resize(const Tensor& img, const IntList& size, InterpolationMode interpolation = InterpolationMode::BILINEAR,
              std::optional<int64_t> max_size = std::nullopt, std::optional<bool> antialias = std::nullopt);
// padding: [all], [left/right, top/bottom] or [left, top, right, bottom]; padding_mode one of
// "constant", "edge", "reflect", "symmetric".
Tensor pad(const Tensor& img, const IntList& padding, double fill = 0, const std::string& padding_mode = "constant");
Tensor crop(const Tensor& img, int64_t top, int64_t left, int64_t height, int64_t width);
Tensor center_crop(const Tensor& img, const IntList& output_size);
Tensor resized_crop(const Tensor& img, int64_t top, int64_t left, int64_t height, int64_t width, const IntList& size,
                    InterpolationMode interpolation = InterpolationMode::BILINEAR,
                    std::optional<bool> antialias = std::nullopt);
// (top-left, top-right, bottom-left, bottom-right, center)
std::tuple<Tensor, Tensor, Tensor, Tensor, Tensor> five_crop(const Tensor& img, const IntList& size);
// five_crop of the image, then five_crop of its horizontal (or vertical) flip.
std::vector<Tensor> ten_crop(const Tensor& img, const IntList& size, bool vertical_flip = false);
Tensor hflip(const Tensor& img);
Tensor vflip(const Tensor& img);

// ---- resampling on a grid (nearest or bilinear; fill for the area outside the image) ----
Tensor rotate(const Tensor& img, double angle, InterpolationMode interpolation = InterpolationMode::NEAREST,
              bool expand = false, const OptionalInts& center = std::nullopt,
              const OptionalFloats& fill = std::nullopt);
// shear: degrees, a number s ([s, 0]), [s] ([s, s]) or [x, y], as in Python.
Tensor affine(const Tensor& img, double angle, const std::vector<int64_t>& translate, double scale, const Shear& shear,
              InterpolationMode interpolation = InterpolationMode::NEAREST, const OptionalFloats& fill = std::nullopt,
              const OptionalInts& center = std::nullopt);
// startpoints/endpoints: four [x, y] corners each.
Tensor perspective(const Tensor& img, const std::vector<std::vector<int64_t>>& startpoints,
                   const std::vector<std::vector<int64_t>>& endpoints,
                   InterpolationMode interpolation = InterpolationMode::BILINEAR,
                   const OptionalFloats& fill = std::nullopt);
// displacement: [1, H, W, 2] in grid_sample's normalised coordinates.
Tensor elastic_transform(const Tensor& img, const Tensor& displacement,
                         InterpolationMode interpolation = InterpolationMode::BILINEAR,
                         const OptionalFloats& fill = std::nullopt);

// ---- colour ----
Tensor rgb_to_grayscale(const Tensor& img, int64_t num_output_channels = 1);
Tensor adjust_brightness(const Tensor& img, double brightness_factor);
Tensor adjust_contrast(const Tensor& img, double contrast_factor);
Tensor adjust_saturation(const Tensor& img, double saturation_factor);
Tensor adjust_hue(const Tensor& img, double hue_factor);
Tensor adjust_gamma(const Tensor& img, double gamma, double gain = 1);
Tensor adjust_sharpness(const Tensor& img, double sharpness_factor);
Tensor posterize(const Tensor& img, int64_t bits);
Tensor solarize(const Tensor& img, double threshold);
Tensor equalize(const Tensor& img);
Tensor autocontrast(const Tensor& img);
Tensor invert(const Tensor& img);

// ---- filtering and erasing ----
// kernel_size: [kx, ky] (odd, positive); sigma: [sx, sy], by default k * 0.15 + 0.35.
Tensor gaussian_blur(const Tensor& img, const IntList& kernel_size, const OptionalFloats& sigma = std::nullopt);
// Sets img[..., i:i+h, j:j+w] = v (v broadcasts).
Tensor erase(const Tensor& img, int64_t i, int64_t j, int64_t h, int64_t w, const Tensor& v, bool inplace = false);

}  // namespace torch::vision::transforms::functional
