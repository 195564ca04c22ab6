// The geometric transform modules; get_params follow torchvision's draws one
// for one (same generator calls, same float32 intermediates, Python's
// round-half-to-even), so a seeded run reproduces torchvision's parameters.
#include "ember/vision/transforms/geometry_modules.h"

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

namespace {

std::vector<int64_t> setup_size(const std::vector<int64_t>& size, const char* op) {
  EMBER_CHECK(size.size() == 1 || size.size() == 2, op, ": please provide only two dimensions (h, w) for size, got ",
              size.size(), " values");
  return size.size() == 1 ? std::vector<int64_t>{size[0], size[0]} : size;
}

// torchvision's _setup_angle: a number d means [-d, d].
std::vector<double> setup_angle(const std::vector<double>& x, const char* op, const char* name, bool allow4) {
  if (x.size() == 1) {
    EMBER_CHECK(x[0] >= 0, op, ": if ", name, " is a single number, it must be positive, got ", x[0]);
    return {-x[0], x[0]};
  }
  EMBER_CHECK(x.size() == 2 || (allow4 && x.size() == 4), op, ": ", name, " should be a sequence of length ",
              allow4 ? "2 or 4" : "2", ", got ", x.size(), " values");
  return x;
}

// A number fill applies to every channel; a list must match the channels.
std::vector<double> channel_fill(const std::vector<double>& fill, const Tensor& img) {
  if (fill.size() == 1) return std::vector<double>(F::get_dimensions(img)[0], fill[0]);
  return fill;
}

void check_probability(double p, const char* op) {
  EMBER_CHECK(p >= 0 && p <= 1, op, ": probability p should be between 0 and 1, got ", p);
}

void check_pair(const std::vector<double>& v, const char* op, const char* name) {
  EMBER_CHECK(v.size() == 2, op, ": ", name, " should be a sequence of two values, got ", v.size());
}

}  // namespace

// ---- Resize ----
ResizeImpl::ResizeImpl(ResizeOptions options_) : options(std::move(options_)) { reset(); }
void ResizeImpl::reset() {
  EMBER_CHECK(options.size().size() == 1 || options.size().size() == 2,
              "Resize: if size is a sequence, it should have 1 or 2 values, got ", options.size().size());
}
void ResizeImpl::pretty_print(std::ostream& stream) const {
  stream << "torch::vision::transforms::Resize(size=" << IntArrayRef(options.size())
         << ", interpolation=" << interpolation_mode_name(options.interpolation()) << ")";
}
Tensor ResizeImpl::forward(Tensor img) {
  return F::resize(img, options.size(), options.interpolation(), options.max_size(), options.antialias());
}

// ---- CenterCrop ----
CenterCropImpl::CenterCropImpl(CenterCropOptions options_) : options(std::move(options_)) { reset(); }
void CenterCropImpl::reset() { options.size(setup_size(options.size(), "CenterCrop")); }
Tensor CenterCropImpl::forward(Tensor img) { return F::center_crop(img, options.size()); }

// ---- Pad ----
PadImpl::PadImpl(PadOptions options_) : options(std::move(options_)) { reset(); }
void PadImpl::reset() {
  const auto n = options.padding().size();
  EMBER_CHECK(n == 1 || n == 2 || n == 4, "Pad: padding must be an int or a 1, 2, or 4 element sequence, not ", n);
  const std::string& m = options.padding_mode();
  EMBER_CHECK(m == "constant" || m == "edge" || m == "reflect" || m == "symmetric",
              "Pad: padding_mode should be either constant, edge, reflect or symmetric, got '", m, "'");
}
Tensor PadImpl::forward(Tensor img) { return F::pad(img, options.padding(), options.fill(), options.padding_mode()); }

// ---- RandomCrop ----
RandomCropImpl::RandomCropImpl(RandomCropOptions options_) : options(std::move(options_)) { reset(); }
void RandomCropImpl::reset() { options.size(setup_size(options.size(), "RandomCrop")); }

std::tuple<int64_t, int64_t, int64_t, int64_t> RandomCropImpl::get_params(const Tensor& img,
                                                                          const std::vector<int64_t>& output_size) {
  const auto dims = F::get_dimensions(img);
  const int64_t h = dims[1], w = dims[2];
  const int64_t th = output_size.at(0), tw = output_size.at(1);
  EMBER_CHECK(h >= th && w >= tw, "RandomCrop: required crop size (", th, ", ", tw,
              ") is larger than input image size (", h, ", ", w, ")");
  if (w == tw && h == th) return {0, 0, h, w};
  const int64_t i = randint_one(0, h - th + 1);
  const int64_t j = randint_one(0, w - tw + 1);
  return {i, j, th, tw};
}

Tensor RandomCropImpl::forward(Tensor img) {
  if (options.padding()) img = F::pad(img, *options.padding(), options.fill(), options.padding_mode());
  const auto dims = F::get_dimensions(img);
  const auto& size = options.size();
  if (options.pad_if_needed() && dims[2] < size[1])
    img = F::pad(img, {size[1] - dims[2], 0}, options.fill(), options.padding_mode());
  if (options.pad_if_needed() && F::get_dimensions(img)[1] < size[0])
    img = F::pad(img, {0, size[0] - F::get_dimensions(img)[1]}, options.fill(), options.padding_mode());
  const auto [i, j, h, w] = get_params(img, size);
  return F::crop(img, i, j, h, w);
}

// ---- RandomResizedCrop ----
RandomResizedCropImpl::RandomResizedCropImpl(RandomResizedCropOptions options_) : options(std::move(options_)) {
  reset();
}
void RandomResizedCropImpl::reset() {
  options.size(setup_size(options.size(), "RandomResizedCrop"));
  check_pair(options.scale(), "RandomResizedCrop", "scale");
  check_pair(options.ratio(), "RandomResizedCrop", "ratio");
  EMBER_CHECK(options.ratio()[0] > 0, "RandomResizedCrop: ratio must be positive, got ", options.ratio()[0]);
}

std::tuple<int64_t, int64_t, int64_t, int64_t> RandomResizedCropImpl::get_params(const Tensor& img,
                                                                                 const std::vector<double>& scale,
                                                                                 const std::vector<double>& ratio) {
  check_pair(scale, "RandomResizedCrop", "scale");
  check_pair(ratio, "RandomResizedCrop", "ratio");
  const auto dims = F::get_dimensions(img);
  const int64_t height = dims[1], width = dims[2];
  const double area = static_cast<double>(height * width);
  // torch.log(torch.tensor(ratio)): float32 bounds.
  const Tensor log_ratio = log(tensor(ratio, kFloat));
  const double lr0 = log_ratio[0].item<float>(), lr1 = log_ratio[1].item<float>();
  for (int attempt = 0; attempt < 10; ++attempt) {
    const double target_area = area * uniform_float(scale[0], scale[1]);
    const double aspect = exp(empty({1}, kFloat).uniform_(lr0, lr1)).item<float>();
    const int64_t w = py_round(std::sqrt(target_area * aspect));
    const int64_t h = py_round(std::sqrt(target_area / aspect));
    if (0 < w && w <= width && 0 < h && h <= height) {
      const int64_t i = randint_one(0, height - h + 1);
      const int64_t j = randint_one(0, width - w + 1);
      return {i, j, h, w};
    }
  }
  // Fallback to a central crop.
  const double in_ratio = static_cast<double>(width) / static_cast<double>(height);
  const double rmin = std::min(ratio[0], ratio[1]), rmax = std::max(ratio[0], ratio[1]);
  int64_t w = width, h = height;
  if (in_ratio < rmin) {
    h = py_round(static_cast<double>(w) / rmin);
  } else if (in_ratio > rmax) {
    w = py_round(static_cast<double>(h) * rmax);
  }
  return {(height - h) / 2, (width - w) / 2, h, w};
}

Tensor RandomResizedCropImpl::forward(Tensor img) {
  const auto [i, j, h, w] = get_params(img, options.scale(), options.ratio());
  return F::resized_crop(img, i, j, h, w, options.size(), options.interpolation(), options.antialias());
}

// ---- FiveCrop / TenCrop ----
FiveCropImpl::FiveCropImpl(FiveCropOptions options_) : options(std::move(options_)) { reset(); }
void FiveCropImpl::reset() { options.size(setup_size(options.size(), "FiveCrop")); }
std::tuple<Tensor, Tensor, Tensor, Tensor, Tensor> FiveCropImpl::forward(Tensor img) {
  return F::five_crop(img, options.size());
}

TenCropImpl::TenCropImpl(TenCropOptions options_) : options(std::move(options_)) { reset(); }
void TenCropImpl::reset() { options.size(setup_size(options.size(), "TenCrop")); }
std::vector<Tensor> TenCropImpl::forward(Tensor img) {
  return F::ten_crop(img, options.size(), options.vertical_flip());
}

// ---- flips ----
RandomHorizontalFlipImpl::RandomHorizontalFlipImpl(RandomHorizontalFlipOptions options_) : options(options_) {
  check_probability(options.p(), "RandomHorizontalFlip");
}
Tensor RandomHorizontalFlipImpl::forward(Tensor img) {
  return rand_float() < static_cast<float>(options.p()) ? F::hflip(img) : img;
}

RandomVerticalFlipImpl::RandomVerticalFlipImpl(RandomVerticalFlipOptions options_) : options(options_) {
  check_probability(options.p(), "RandomVerticalFlip");
}
Tensor RandomVerticalFlipImpl::forward(Tensor img) {
  return rand_float() < static_cast<float>(options.p()) ? F::vflip(img) : img;
}

// ---- RandomPerspective ----
RandomPerspectiveImpl::RandomPerspectiveImpl(RandomPerspectiveOptions options_) : options(std::move(options_)) {
  reset();
}
void RandomPerspectiveImpl::reset() {
  check_probability(options.p(), "RandomPerspective");
  EMBER_CHECK(options.distortion_scale() >= 0 && options.distortion_scale() <= 1,
              "RandomPerspective: distortion_scale should be between 0 and 1, got ", options.distortion_scale());
}

std::tuple<std::vector<std::vector<int64_t>>, std::vector<std::vector<int64_t>>> RandomPerspectiveImpl::get_params(
    int64_t width, int64_t height, double distortion_scale) {
  const int64_t hh = height / 2, hw = width / 2;
  const auto dw = static_cast<int64_t>(distortion_scale * hw), dh = static_cast<int64_t>(distortion_scale * hh);
  std::vector<int64_t> topleft = {randint_one(0, dw + 1)};
  topleft.push_back(randint_one(0, dh + 1));
  std::vector<int64_t> topright = {randint_one(width - dw - 1, width)};
  topright.push_back(randint_one(0, dh + 1));
  std::vector<int64_t> botright = {randint_one(width - dw - 1, width)};
  botright.push_back(randint_one(height - dh - 1, height));
  std::vector<int64_t> botleft = {randint_one(0, dw + 1)};
  botleft.push_back(randint_one(height - dh - 1, height));
  std::vector<std::vector<int64_t>> start = {{0, 0}, {width - 1, 0}, {width - 1, height - 1}, {0, height - 1}};
  return {start, {topleft, topright, botright, botleft}};
}

Tensor RandomPerspectiveImpl::forward(Tensor img) {
  const auto dims = F::get_dimensions(img);
  const std::vector<double> fill = channel_fill(options.fill(), img);
  if (rand_float() < static_cast<float>(options.p())) {
    const auto [start, end] = get_params(dims[2], dims[1], options.distortion_scale());
    return F::perspective(img, start, end, options.interpolation(), fill);
  }
  return img;
}

// ---- RandomRotation ----
RandomRotationImpl::RandomRotationImpl(RandomRotationOptions options_) : options(std::move(options_)) { reset(); }
void RandomRotationImpl::reset() {
  degrees = setup_angle(options.degrees(), "RandomRotation", "degrees", false);
  if (options.center())
    EMBER_CHECK(options.center()->size() == 2, "RandomRotation: center should be a sequence of length 2, got ",
                options.center()->size());
}
double RandomRotationImpl::get_params(const std::vector<double>& degrees) {
  return uniform_float(degrees.at(0), degrees.at(1));
}
Tensor RandomRotationImpl::forward(Tensor img) {
  const std::vector<double> fill = channel_fill(options.fill(), img);
  const double angle = get_params(degrees);
  return F::rotate(img, angle, options.interpolation(), options.expand(), options.center(), fill);
}

// ---- RandomAffine ----
RandomAffineImpl::RandomAffineImpl(RandomAffineOptions options_) : options(std::move(options_)) { reset(); }
void RandomAffineImpl::reset() {
  degrees = setup_angle(options.degrees(), "RandomAffine", "degrees", false);
  if (options.translate()) {
    check_pair(*options.translate(), "RandomAffine", "translate");
    for (double t : *options.translate())
      EMBER_CHECK(t >= 0.0 && t <= 1.0, "RandomAffine: translation values should be between 0 and 1, got ", t);
  }
  if (options.scale()) {
    check_pair(*options.scale(), "RandomAffine", "scale");
    for (double s : *options.scale()) EMBER_CHECK(s > 0, "RandomAffine: scale values should be positive, got ", s);
  }
  shears.reset();
  if (options.shear()) shears = setup_angle(*options.shear(), "RandomAffine", "shear", true);
  if (options.center())
    EMBER_CHECK(options.center()->size() == 2, "RandomAffine: center should be a sequence of length 2, got ",
                options.center()->size());
}

std::tuple<double, std::vector<int64_t>, double, std::vector<double>> RandomAffineImpl::get_params(
    const std::vector<double>& degrees, const OptionalFloats& translate, const OptionalFloats& scale_ranges,
    const OptionalFloats& shears, const std::vector<int64_t>& img_size) {
  const double angle = uniform_float(degrees.at(0), degrees.at(1));
  std::vector<int64_t> translations = {0, 0};
  if (translate) {
    const double max_dx = translate->at(0) * static_cast<double>(img_size.at(0));
    const double max_dy = translate->at(1) * static_cast<double>(img_size.at(1));
    const int64_t tx = py_round(uniform_float(-max_dx, max_dx));
    const int64_t ty = py_round(uniform_float(-max_dy, max_dy));
    translations = {tx, ty};
  }
  const double scale = scale_ranges ? uniform_float(scale_ranges->at(0), scale_ranges->at(1)) : 1.0;
  double shear_x = 0.0, shear_y = 0.0;
  if (shears) {
    shear_x = uniform_float(shears->at(0), shears->at(1));
    if (shears->size() == 4) shear_y = uniform_float(shears->at(2), shears->at(3));
  }
  return {angle, translations, scale, {shear_x, shear_y}};
}

Tensor RandomAffineImpl::forward(Tensor img) {
  const auto dims = F::get_dimensions(img);
  const std::vector<double> fill = channel_fill(options.fill(), img);
  const auto [angle, translations, scale, shear] =
      get_params(degrees, options.translate(), options.scale(), shears, {dims[2], dims[1]});
  return F::affine(img, angle, translations, scale, shear, options.interpolation(), fill, options.center());
}

// ---- ElasticTransform ----
ElasticTransformImpl::ElasticTransformImpl(ElasticTransformOptions options_) : options(std::move(options_)) { reset(); }
void ElasticTransformImpl::reset() {
  auto pair = [](const std::vector<double>& v, const char* name) {
    EMBER_CHECK(v.size() == 1 || v.size() == 2, "ElasticTransform: if ", name,
                " is a sequence its length should be 2, got ", v.size());
    return v.size() == 1 ? std::vector<double>{v[0], v[0]} : v;
  };
  options.alpha(pair(options.alpha(), "alpha"));
  options.sigma(pair(options.sigma(), "sigma"));
  for (double a : options.alpha()) EMBER_CHECK(std::isfinite(a), "ElasticTransform: alpha must be finite, got ", a);
  // The blur kernel is int(8 * sigma + 1) wide.
  for (double s : options.sigma())
    EMBER_CHECK(s >= 0 && s <= 1e6, "ElasticTransform: sigma must be in [0, 1e6], got ", s);
}

Tensor ElasticTransformImpl::get_params(const std::vector<double>& alpha, const std::vector<double>& sigma,
                                        const std::vector<int64_t>& size) {
  EMBER_CHECK(size.size() == 2 && alpha.size() == 2 && sigma.size() == 2,
              "ElasticTransform.get_params: expected size [H, W], alpha and sigma pairs");
  auto field = [&](int axis) {
    Tensor d = rand({1, 1, size[0], size[1]}) * 2 - 1;
    if (sigma[axis] > 0.0) {
      auto k = static_cast<int64_t>(8 * sigma[axis] + 1);
      if (k % 2 == 0) k += 1;
      d = F::gaussian_blur(d, {k, k}, sigma);
    }
    return d * alpha[axis] / static_cast<double>(size[axis]);
  };
  const Tensor dx = field(0);
  const Tensor dy = field(1);
  return cat({dx, dy}, 1).permute({0, 2, 3, 1});
}

Tensor ElasticTransformImpl::forward(Tensor img) {
  const auto dims = F::get_dimensions(img);
  const Tensor displacement = get_params(options.alpha(), options.sigma(), {dims[1], dims[2]});
  return F::elastic_transform(img, displacement, options.interpolation(), std::vector<double>{options.fill()});
}

}  // namespace torch::vision::transforms
