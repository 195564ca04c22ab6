#include "ember/vision/transforms/v2/pixel_modules.h"

#include <optional>
#include <utility>

#include "ember/core/error.h"
#include "ember/ops/all_ops.h"
#include "ember/vision/transforms/random_draws.h"
#include "ember/vision/transforms/v2/functional.h"

namespace torch::vision::transforms::v2 {

namespace F = functional;
using ::torch::vision::transforms::detail::rand_float;
using ::torch::vision::transforms::detail::uniform_float;

RandomPhotometricDistortImpl::RandomPhotometricDistortImpl(RandomPhotometricDistortOptions options_)
    : options(std::move(options_)) {
  reset();
}

void RandomPhotometricDistortImpl::reset() {
  for (const auto* r : {&options.brightness(), &options.contrast(), &options.saturation(), &options.hue()})
    EMBER_CHECK(r->size() == 2 && (*r)[0] <= (*r)[1],
                "RandomPhotometricDistort: each range should be {min, max} with min <= max, got ", r->size(),
                " values");
  EMBER_CHECK(options.hue()[0] >= -0.5 && options.hue()[1] <= 0.5,
              "RandomPhotometricDistort: hue values should be between -0.5 and 0.5");
  EMBER_CHECK(options.p() >= 0.0 && options.p() <= 1.0, "RandomPhotometricDistort: p should be in [0, 1], got ",
              options.p());
}

Sample RandomPhotometricDistortImpl::forward(Sample sample) {
  const Tensor& probe = sample.image ? Tensor(*sample.image) : sample.video ? Tensor(*sample.video) : Tensor();
  EMBER_CHECK(probe.defined() && probe.dim() >= 3, "RandomPhotometricDistort: the sample needs an image or a video");
  const int64_t channels = probe.size(-3);
  auto draw = [&](const std::vector<double>& range) -> std::optional<double> {
    if (!(rand_float() < options.p())) return std::nullopt;
    return uniform_float(range[0], range[1]);
  };
  const std::optional<double> b = draw(options.brightness()), c = draw(options.contrast()),
                              s = draw(options.saturation()), h = draw(options.hue());
  const bool contrast_before = rand({}).item<float>() < 0.5f;
  std::optional<Tensor> perm;
  if (rand_float() < options.p()) perm = randperm(channels);
  return apply_pixels(std::move(sample), [&](Tensor img) {
    if (b) img = F::adjust_brightness(img, *b);
    if (c && contrast_before) img = F::adjust_contrast(img, *c);
    if (s) img = F::adjust_saturation(img, *s);
    if (h) img = F::adjust_hue(img, *h);
    if (c && !contrast_before) img = F::adjust_contrast(img, *c);
    if (perm) img = img.index_select(-3, *perm);
    return img;
  });
}

}  // namespace torch::vision::transforms::v2
