#include "ember/audio/transforms/convolution.h"

#include "ember/audio/functional/convolution.h"
#include "ember/core/error.h"

namespace torch::audio::transforms {
namespace {
void check_mode(const char* name, const std::string& mode) {
  EMBER_CHECK(mode == "full" || mode == "valid" || mode == "same", name,
              ": mode must be \"full\", \"valid\" or \"same\", got \"", mode, "\"");
}
}  // namespace

void ConvolveImpl::reset() { check_mode("Convolve", options.mode()); }
Tensor ConvolveImpl::forward(const Tensor& x, const Tensor& y) { return functional::convolve(x, y, options.mode()); }

void FFTConvolveImpl::reset() { check_mode("FFTConvolve", options.mode()); }
Tensor FFTConvolveImpl::forward(const Tensor& x, const Tensor& y) {
  return functional::fftconvolve(x, y, options.mode());
}

Tensor AddNoiseImpl::forward(const Tensor& waveform, const Tensor& noise, const Tensor& snr,
                             const std::optional<Tensor>& lengths) {
  return functional::add_noise(waveform, noise, snr, lengths);
}

void SpeedImpl::reset() {
  EMBER_CHECK(options.orig_freq() > 0, "Speed: orig_freq must be positive, got ", options.orig_freq());
  EMBER_CHECK(options.factor() > 0, "Speed: factor must be positive, got ", options.factor());
}
std::tuple<Tensor, std::optional<Tensor>> SpeedImpl::forward(const Tensor& waveform,
                                                             const std::optional<Tensor>& lengths) {
  return functional::speed(waveform, options.orig_freq(), options.factor(), lengths);
}

Tensor PreemphasisImpl::forward(const Tensor& waveform) { return functional::preemphasis(waveform, options.coeff()); }
Tensor DeemphasisImpl::forward(const Tensor& waveform) { return functional::deemphasis(waveform, options.coeff()); }

}  // namespace torch::audio::transforms
