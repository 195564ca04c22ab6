// Dtype conversion, normalisation, Gaussian blur and erasing
// (torchvision's functional.py / functional_tensor.py).
#include <cmath>

#include "ember/core/error.h"
#include "ember/ops/all_ops.h"
#include "ember/vision/transforms/detail.h"
#include "ember/vision/transforms/functional.h"

namespace torch::vision::transforms::functional {

using namespace ::torch::indexing;

Tensor convert_image_dtype(const Tensor& image, ScalarType dtype) {
  EMBER_CHECK(image.defined(), "convert_image_dtype: the image tensor is undefined");
  if (image.scalar_type() == dtype) return image;
  EMBER_CHECK(!isComplexType(dtype) && !isComplexType(image.scalar_type()), "convert_image_dtype: cannot convert ",
              image.scalar_type(), " to ", dtype);
  if (image.is_floating_point()) {
    if (isFloatingType(dtype)) return image.to(dtype);
    EMBER_CHECK(!((image.scalar_type() == kFloat && (dtype == kInt || dtype == kLong)) ||
                  (image.scalar_type() == kDouble && dtype == kLong)),
                "convert_image_dtype: the cast from ", image.scalar_type(), " to ", dtype,
                " cannot be performed safely");
    // eps keeps 1.0 from landing one past the integer range.
    const double eps = 1e-3;
    return image.mul(detail::max_value(dtype) + 1.0 - eps).to(dtype);
  }
  const double input_max = detail::max_value(image.scalar_type());
  if (isFloatingType(dtype)) return image.to(dtype) / input_max;
  const double output_max = detail::max_value(dtype);
  if (input_max > output_max) {
    const auto factor = static_cast<int64_t>(std::floor((input_max + 1) / (output_max + 1)));
    return div(image, Scalar(factor), "floor").to(dtype);
  }
  const auto factor = static_cast<int64_t>(std::floor((output_max + 1) / (input_max + 1)));
  return image.to(dtype) * Scalar(factor);
}

Tensor to_dtype(const Tensor& image, ScalarType dtype, bool scale) {
  EMBER_CHECK(image.defined(), "to_dtype: the image tensor is undefined");
  return scale ? convert_image_dtype(image, dtype) : image.to(dtype);
}

Tensor to_tensor(const Tensor& pic) {
  EMBER_CHECK(pic.defined() && (pic.dim() == 2 || pic.dim() == 3),
              "to_tensor: pic should be 2/3 dimensional [H, W(, C)], got ", pic.defined() ? pic.dim() : 0,
              " dimensions");
  const Tensor hwc = pic.dim() == 2 ? pic.unsqueeze(-1) : pic;
  const Tensor chw = hwc.permute({2, 0, 1}).contiguous();
  return chw.scalar_type() == kByte ? chw.to(kFloat).div(255) : chw;
}

Tensor normalize(const Tensor& tensor_in, const std::vector<double>& mean, const std::vector<double>& std,
                 bool inplace) {
  detail::check_image(tensor_in, "normalize");
  EMBER_CHECK(tensor_in.is_floating_point(), "normalize: input tensor should be a float tensor, got ",
              tensor_in.scalar_type());
  EMBER_CHECK(tensor_in.dim() >= 3, "normalize: expected a tensor image of size (..., C, H, W), got ",
              tensor_in.sizes());
  const int64_t c = tensor_in.size(-3);
  for (const auto* v : {&mean, &std})
    EMBER_CHECK(v->size() == 1 || static_cast<int64_t>(v->size()) == c,
                "normalize: mean and std need one value or one per channel (", c, "), got ", v->size());
  const ScalarType dt = tensor_in.scalar_type();
  const Tensor m = tensor(mean, dt).view({-1, 1, 1});
  const Tensor s = tensor(std, dt).view({-1, 1, 1});
  EMBER_CHECK(!(s == 0).any().item<bool>(), "normalize: std evaluated to zero after conversion to ", dt,
              ", leading to division by zero");
  Tensor out = inplace ? tensor_in : tensor_in.clone();
  return out.sub_(m).div_(s);
}

namespace {

// functional_tensor._get_gaussian_kernel1d, in float32 as torchvision computes it.
Tensor gaussian_kernel1d(int64_t k, double sigma) {
  const double half = (k - 1) * 0.5;
  const Tensor x = linspace(-half, half, k, kFloat);
  const Tensor pdf = exp(-0.5 * (x / sigma).pow(2));
  return pdf / pdf.sum();
}

}  // namespace

Tensor gaussian_blur(const Tensor& img, const IntList& kernel_size, const OptionalFloats& sigma) {
  detail::check_ndim(img, 3, "gaussian_blur");
  EMBER_CHECK(kernel_size.size() == 1 || kernel_size.size() == 2,
              "gaussian_blur: kernel_size should be an int or a sequence of two ints, got ", kernel_size.size(),
              " values");
  const std::vector<int64_t> ks = kernel_size.size() == 1 ? std::vector<int64_t>{kernel_size[0], kernel_size[0]}
                                                          : std::vector<int64_t>(kernel_size);
  for (int64_t k : ks)
    EMBER_CHECK(k > 0 && k % 2 == 1, "gaussian_blur: kernel_size should have odd and positive integers, got ",
                IntArrayRef(ks));
  std::vector<double> sg;
  if (sigma) {
    EMBER_CHECK(sigma->size() == 1 || sigma->size() == 2,
                "gaussian_blur: sigma should be a float or a sequence of two floats, got ", sigma->size(), " values");
    sg = sigma->size() == 1 ? std::vector<double>{(*sigma)[0], (*sigma)[0]} : *sigma;
  } else {
    sg = {ks[0] * 0.15 + 0.35, ks[1] * 0.15 + 0.35};
  }
  for (double s : sg) EMBER_CHECK(s > 0.0, "gaussian_blur: sigma should have positive values, got ", s);
  const ScalarType dt = img.is_floating_point() ? img.scalar_type() : kFloat;
  const Tensor kx = gaussian_kernel1d(ks[0], sg[0]).to(dt);
  const Tensor ky = gaussian_kernel1d(ks[1], sg[1]).to(dt);
  const Tensor k2 = mm(ky.unsqueeze(1), kx.unsqueeze(0));
  const int64_t c = img.size(-3);
  const Tensor kernel = k2.expand({c, 1, ks[1], ks[0]});
  const detail::Batched b = detail::to_batched(img, dt, false);
  EMBER_CHECK(ks[0] / 2 < img.size(-1) && ks[1] / 2 < img.size(-2), "gaussian_blur: kernel_size ", IntArrayRef(ks),
              " is too large for an image of size ", img.size(-2), " x ", img.size(-1),
              " (reflect padding needs kernel_size // 2 < the image size)");
  const Tensor padded = ::torch::pad(b.x, {ks[0] / 2, ks[0] / 2, ks[1] / 2, ks[1] / 2}, "reflect");
  return b.restore(conv2d(padded, kernel, {}, 1, 0, 1, c));
}

Tensor erase(const Tensor& img, int64_t i, int64_t j, int64_t h, int64_t w, const Tensor& v, bool inplace) {
  detail::check_image(img, "erase");
  EMBER_CHECK(v.defined(), "erase: the value tensor v is undefined");
  EMBER_CHECK(h >= 0 && w >= 0, "erase: h and w must be non-negative, got ", h, " x ", w);
  Tensor out = inplace ? img : img.clone();
  out.index_put_({Ellipsis, Slice(i, i + h), Slice(j, j + w)}, v);
  return out;
}

}  // namespace torch::vision::transforms::functional
