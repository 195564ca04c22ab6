// The photometric transform modules, drawing as torchvision does.
#include "ember/vision/transforms/color_modules.h"

#include <cmath>
#include <limits>

#include "ember/core/error.h"
#include "ember/ops/all_ops.h"
#include "ember/vision/transforms/functional.h"
#include "ember/vision/transforms/random_draws.h"

namespace torch::vision::transforms {

namespace F = functional;
using detail::rand_float;
using detail::uniform_float;

namespace {

void check_probability(double p, const char* op) {
  EMBER_CHECK(p >= 0 && p <= 1, op, ": probability p should be between 0 and 1, got ", p);
}

// ColorJitter._check_input: a number v becomes [center - v, center + v]; the
// identity range becomes nullopt.
std::optional<std::vector<double>> check_jitter(const std::vector<double>& value, const char* name, double center,
                                                double lo, double hi, bool clip_first_on_zero) {
  std::vector<double> v;
  if (value.size() == 1) {
    EMBER_CHECK(value[0] >= 0, "ColorJitter: if ", name, " is a single number, it must be non negative, got ",
                value[0]);
    v = {center - value[0], center + value[0]};
    if (clip_first_on_zero) v[0] = std::max(v[0], 0.0);
  } else {
    EMBER_CHECK(value.size() == 2, "ColorJitter: ", name, " should be a single number or a sequence of length 2, got ",
                value.size(), " values");
    EMBER_CHECK(lo <= value[0] && value[0] <= value[1] && value[1] <= hi, "ColorJitter: ", name,
                " values should be between (", lo, ", ", hi, ") and ordered, got (", value[0], ", ", value[1], ")");
    v = value;
  }
  if (v[0] == center && v[1] == center) return std::nullopt;
  return v;
}

}  // namespace

// ---- ColorJitter ----
ColorJitterImpl::ColorJitterImpl(ColorJitterOptions options_) : options(std::move(options_)) { reset(); }
ColorJitterImpl::ColorJitterImpl(double b, double c, double s, double h)
    : ColorJitterImpl(ColorJitterOptions().brightness(b).contrast(c).saturation(s).hue(h)) {}

void ColorJitterImpl::reset() {
  const double inf = std::numeric_limits<double>::infinity();
  brightness = check_jitter(options.brightness(), "brightness", 1, 0, inf, true);
  contrast = check_jitter(options.contrast(), "contrast", 1, 0, inf, true);
  saturation = check_jitter(options.saturation(), "saturation", 1, 0, inf, true);
  hue = check_jitter(options.hue(), "hue", 0, -0.5, 0.5, false);
}

void ColorJitterImpl::pretty_print(std::ostream& stream) const {
  auto range = [&](const OptionalFloats& r) {
    if (r)
      stream << "[" << (*r)[0] << ", " << (*r)[1] << "]";
    else
      stream << "None";
  };
  stream << "torch::vision::transforms::ColorJitter(brightness=";
  range(brightness);
  stream << ", contrast=";
  range(contrast);
  stream << ", saturation=";
  range(saturation);
  stream << ", hue=";
  range(hue);
  stream << ")";
}

std::tuple<Tensor, std::optional<double>, std::optional<double>, std::optional<double>, std::optional<double>>
ColorJitterImpl::get_params(const OptionalFloats& b, const OptionalFloats& c, const OptionalFloats& s,
                            const OptionalFloats& h) {
  const Tensor fn_idx = randperm(4);
  auto draw = [](const OptionalFloats& r) -> std::optional<double> {
    if (!r) return std::nullopt;
    return uniform_float(r->at(0), r->at(1));
  };
  // Drawn in this order, as torchvision's tuple is built.
  const auto fb = draw(b);
  const auto fc = draw(c);
  const auto fs = draw(s);
  const auto fh = draw(h);
  return {fn_idx, fb, fc, fs, fh};
}

Tensor ColorJitterImpl::forward(Tensor img) {
  const auto [fn_idx, b, c, s, h] = get_params(brightness, contrast, saturation, hue);
  for (int64_t k = 0; k < 4; ++k) {
    switch (fn_idx[k].item<int64_t>()) {
      case 0:
        if (b) img = F::adjust_brightness(img, *b);
        break;
      case 1:
        if (c) img = F::adjust_contrast(img, *c);
        break;
      case 2:
        if (s) img = F::adjust_saturation(img, *s);
        break;
      default:
        if (h) img = F::adjust_hue(img, *h);
        break;
    }
  }
  return img;
}

// ---- Grayscale / RandomGrayscale ----
GrayscaleImpl::GrayscaleImpl(GrayscaleOptions options_) : options(options_) { reset(); }
void GrayscaleImpl::reset() {
  EMBER_CHECK(options.num_output_channels() == 1 || options.num_output_channels() == 3,
              "Grayscale: num_output_channels should be either 1 or 3, got ", options.num_output_channels());
}
Tensor GrayscaleImpl::forward(Tensor img) { return F::rgb_to_grayscale(img, options.num_output_channels()); }

RandomGrayscaleImpl::RandomGrayscaleImpl(RandomGrayscaleOptions options_) : options(options_) {
  check_probability(options.p(), "RandomGrayscale");
}
Tensor RandomGrayscaleImpl::forward(Tensor img) {
  const int64_t channels = F::get_dimensions(img)[0];
  if (rand_float() < static_cast<float>(options.p())) return F::rgb_to_grayscale(img, channels);
  return img;
}

// ---- GaussianBlur ----
GaussianBlurImpl::GaussianBlurImpl(GaussianBlurOptions options_) : options(std::move(options_)) { reset(); }
void GaussianBlurImpl::reset() {
  auto ks = options.kernel_size();
  EMBER_CHECK(ks.size() == 1 || ks.size() == 2,
              "GaussianBlur: kernel size should be a tuple/list of two integers, got ", ks.size(), " values");
  if (ks.size() == 1) ks = {ks[0], ks[0]};
  for (int64_t k : ks)
    EMBER_CHECK(k > 0 && k % 2 == 1, "GaussianBlur: kernel size value should be an odd and positive number, got ", k);
  options.kernel_size(ks);
  const auto& s = options.sigma();
  if (s.size() == 1) {
    EMBER_CHECK(s[0] > 0, "GaussianBlur: if sigma is a single number, it must be positive, got ", s[0]);
    sigma = {s[0], s[0]};
  } else {
    EMBER_CHECK(s.size() == 2, "GaussianBlur: sigma should be a single number or a list/tuple with length 2, got ",
                s.size(), " values");
    EMBER_CHECK(0.0 < s[0] && s[0] <= s[1], "GaussianBlur: sigma values should be positive and of the form (min, max)");
    sigma = s;
  }
}
double GaussianBlurImpl::get_params(double sigma_min, double sigma_max) { return uniform_float(sigma_min, sigma_max); }
Tensor GaussianBlurImpl::forward(Tensor img) {
  const double s = get_params(sigma[0], sigma[1]);
  return F::gaussian_blur(img, options.kernel_size(), std::vector<double>{s, s});
}

// ---- p-gated adjustments: `if torch.rand(1).item() < self.p` (a double comparison) ----
#define EMBER_DEFINE_P_TRANSFORM(Name, call)                                      \
  Name##Impl::Name##Impl(Name##Options options_) : options(options_) { reset(); } \
  void Name##Impl::reset() { check_probability(options.p(), #Name); }             \
  Tensor Name##Impl::forward(Tensor img) {                                        \
    if (static_cast<double>(rand_float()) < options.p()) return call;             \
    return img;                                                                   \
  }

EMBER_DEFINE_P_TRANSFORM(RandomInvert, F::invert(img))
EMBER_DEFINE_P_TRANSFORM(RandomAutocontrast, F::autocontrast(img))
EMBER_DEFINE_P_TRANSFORM(RandomEqualize, F::equalize(img))
EMBER_DEFINE_P_TRANSFORM(RandomPosterize, F::posterize(img, options.bits()))
EMBER_DEFINE_P_TRANSFORM(RandomSolarize, F::solarize(img, options.threshold()))
EMBER_DEFINE_P_TRANSFORM(RandomAdjustSharpness, F::adjust_sharpness(img, options.sharpness_factor()))
#undef EMBER_DEFINE_P_TRANSFORM

}  // namespace torch::vision::transforms
