#include "ember/vision/transforms/tensor_modules.h"

#include <cmath>

#include "ember/core/error.h"
#include "ember/ops/all_ops.h"
#include "ember/vision/transforms/functional.h"
#include "ember/vision/transforms/random_draws.h"

namespace torch::vision::transforms {

namespace F = functional;
using detail::py_round;
using detail::rand_float;
using detail::randint_one;
using detail::uniform_float;

ConvertImageDtypeImpl::ConvertImageDtypeImpl(ConvertImageDtypeOptions options_) : options(options_) {}
Tensor ConvertImageDtypeImpl::forward(Tensor image) { return F::convert_image_dtype(image, options.dtype()); }

NormalizeImpl::NormalizeImpl(NormalizeOptions options_) : options(std::move(options_)) {}
Tensor NormalizeImpl::forward(Tensor tensor) {
  return F::normalize(tensor, options.mean(), options.std(), options.inplace());
}

void RandomErasingOptions::set_value_string(std::string_view v) {
  EMBER_CHECK(v == "random", "RandomErasing: if value is a string, it should be 'random', got '", v, "'");
  random_ = true;
}

RandomErasingImpl::RandomErasingImpl(RandomErasingOptions options_) : options(std::move(options_)) { reset(); }
void RandomErasingImpl::reset() {
  const auto &s = options.scale(), &r = options.ratio();
  EMBER_CHECK(s.size() == 2 && r.size() == 2, "RandomErasing: scale and ratio should be sequences of two values");
  EMBER_CHECK(s[0] >= 0 && s[1] <= 1, "RandomErasing: scale should be between 0 and 1, got (", s[0], ", ", s[1], ")");
  EMBER_CHECK(r[0] > 0, "RandomErasing: ratio must be positive, got ", r[0]);
  EMBER_CHECK(options.p() >= 0 && options.p() <= 1,
              "RandomErasing: random erasing probability should be between 0 and 1, got ", options.p());
}

std::tuple<int64_t, int64_t, int64_t, int64_t, Tensor> RandomErasingImpl::get_params(
    const Tensor& img, const std::vector<double>& scale, const std::vector<double>& ratio,
    const std::optional<std::vector<double>>& value) {
  EMBER_CHECK(img.defined() && img.dim() >= 3, "RandomErasing: expected an image [..., C, H, W], got ",
              img.defined() ? img.sizes() : IntArrayRef{});
  const int64_t c = img.size(-3), ih = img.size(-2), iw = img.size(-1);
  const double area = static_cast<double>(ih * iw);
  const Tensor log_ratio = log(tensor(ratio, kFloat));
  const double lr0 = log_ratio[0].item<float>(), lr1 = log_ratio[1].item<float>();
  for (int attempt = 0; attempt < 10; ++attempt) {
    const double erase_area = area * uniform_float(scale.at(0), scale.at(1));
    const double aspect = exp(empty({1}, kFloat).uniform_(lr0, lr1)).item<float>();
    const int64_t h = py_round(std::sqrt(erase_area * aspect));
    const int64_t w = py_round(std::sqrt(erase_area / aspect));
    if (!(h < ih && w < iw)) continue;
    Tensor v;
    if (!value)
      v = empty({c, h, w}, kFloat).normal_();
    else
      v = tensor(*value, kFloat).view({-1, 1, 1});
    const int64_t i = randint_one(0, ih - h + 1);
    const int64_t j = randint_one(0, iw - w + 1);
    return {i, j, h, w, v};
  }
  return {0, 0, ih, iw, img};
}

Tensor RandomErasingImpl::forward(Tensor img) {
  if (rand_float() < static_cast<float>(options.p())) {
    std::optional<std::vector<double>> value;
    if (!options.random_value()) value = options.value();
    if (value)
      EMBER_CHECK(value->size() == 1 || static_cast<int64_t>(value->size()) == img.size(-3),
                  "RandomErasing: if value is a sequence, it should have either a single value or ", img.size(-3),
                  " (number of input channels), got ", value->size());
    auto [i, j, h, w, v] = get_params(img, options.scale(), options.ratio(), value);
    return F::erase(img, i, j, h, w, v.to(img.scalar_type()), options.inplace());
  }
  return img;
}

LinearTransformationImpl::LinearTransformationImpl(Tensor matrix, Tensor mean)
    : transformation_matrix(std::move(matrix)), mean_vector(std::move(mean)) {
  reset();
}
void LinearTransformationImpl::reset() {
  EMBER_CHECK(transformation_matrix.defined() && transformation_matrix.dim() == 2 &&
                  transformation_matrix.size(0) == transformation_matrix.size(1),
              "LinearTransformation: transformation_matrix should be square, got ",
              transformation_matrix.defined() ? transformation_matrix.sizes() : IntArrayRef{});
  EMBER_CHECK(mean_vector.defined() && mean_vector.dim() == 1 && mean_vector.size(0) == transformation_matrix.size(0),
              "LinearTransformation: mean_vector should have the same length ", transformation_matrix.size(0),
              " as the transformation_matrix");
}
Tensor LinearTransformationImpl::forward(Tensor t) {
  EMBER_CHECK(t.defined() && t.dim() >= 3, "LinearTransformation: expected a tensor [..., C, H, W]");
  const int64_t n = t.size(-3) * t.size(-2) * t.size(-1);
  EMBER_CHECK(n == transformation_matrix.size(0),
              "LinearTransformation: input tensor and transformation matrix have incompatible shape: [", t.size(-3),
              " x ", t.size(-2), " x ", t.size(-1), "] != ", transformation_matrix.size(0));
  const Tensor flat = t.reshape({-1, n}) - mean_vector;
  return mm(flat, transformation_matrix).view(t.sizes());
}

}  // namespace torch::vision::transforms
