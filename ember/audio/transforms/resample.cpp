#include "ember/audio/transforms/resample.h"

#include <cmath>
#include <numeric>

#include "ember/audio/functional/resample.h"
#include "ember/audio/functional/spectral.h"
#include "ember/core/error.h"

namespace torch::audio::transforms {

ResampleImpl::ResampleImpl(const ResampleOptions& options_) : options(options_) { reset(); }

void ResampleImpl::reset() {
  EMBER_CHECK(options.orig_freq() > 0 && options.new_freq() > 0,
              "Resample: original and new frequencies must be positive, got ", options.orig_freq(), " and ",
              options.new_freq());
  gcd = std::gcd(options.orig_freq(), options.new_freq());
  if (options.orig_freq() == options.new_freq()) return;
  auto [k, w] = functional::detail::get_sinc_resample_kernel(
      options.orig_freq(), options.new_freq(), gcd, options.lowpass_filter_width(), options.rolloff(),
      options.resampling_method(), options.beta(), options.dtype());
  width = w;
  kernel = register_buffer("kernel", k.clone());
}

Tensor ResampleImpl::forward(const Tensor& waveform) {
  EMBER_CHECK(waveform.defined() && waveform.dim() >= 1 && waveform.is_floating_point(),
              "Resample: expected a floating-point waveform of shape [..., time]");
  if (options.orig_freq() == options.new_freq()) return waveform;
  return functional::detail::apply_sinc_resample_kernel(waveform, options.orig_freq(), options.new_freq(), gcd, kernel,
                                                        width);
}

PitchShiftImpl::PitchShiftImpl(const PitchShiftOptions& options_) : options(options_) { reset(); }

void PitchShiftImpl::reset() {
  EMBER_CHECK(options.sample_rate() > 0, "PitchShift: sample_rate must be positive, got ", options.sample_rate());
  EMBER_CHECK(options.bins_per_octave() != 0, "PitchShift: bins_per_octave must be non-zero");
  EMBER_CHECK(options.n_fft() > 0, "PitchShift: n_fft must be positive, got ", options.n_fft());
  win_length = options.win_length().value_or(options.n_fft());
  hop_length = options.hop_length().value_or(win_length / 4);
  EMBER_CHECK(hop_length > 0, "PitchShift: hop_length must be positive, got ", hop_length);
  EMBER_CHECK(static_cast<bool>(options.window_fn()), "PitchShift: window_fn is empty");
  window = register_buffer("window", options.window_fn()(win_length));
  const double rate =
      std::pow(2.0, -static_cast<double>(options.n_steps()) / static_cast<double>(options.bins_per_octave()));
  EMBER_CHECK(static_cast<double>(options.sample_rate()) / rate < 9e18, "PitchShift: n_steps ", options.n_steps(),
              " is out of range");
  orig_freq = static_cast<int64_t>(static_cast<double>(options.sample_rate()) / rate);
  EMBER_CHECK(orig_freq > 0, "PitchShift: n_steps ", options.n_steps(), " shifts the rate to zero");
  gcd = std::gcd(orig_freq, options.sample_rate());
  if (orig_freq != options.sample_rate()) {
    auto [k, w] = functional::detail::get_sinc_resample_kernel(orig_freq, options.sample_rate(), gcd, 6, 0.99,
                                                               "sinc_interpolation", std::nullopt, kFloat);
    width = w;
    kernel = register_parameter("kernel", k.clone(), false);
  }
}

Tensor PitchShiftImpl::forward(const Tensor& waveform) {
  EMBER_CHECK(waveform.dim() >= 1 && waveform.is_floating_point(),
              "PitchShift: expected a floating-point waveform [..., time]");
  const int64_t ori_len = waveform.size(-1);
  EMBER_CHECK(options.n_fft() / 2 < ori_len, "PitchShift: n_fft = ", options.n_fft(), " is too large for a signal of ",
              ori_len, " samples");
  Tensor stretched = functional::detail::stretch_waveform(waveform, options.n_steps(), options.bins_per_octave(),
                                                          options.n_fft(), win_length, hop_length, window);
  Tensor shifted = stretched;
  if (orig_freq != options.sample_rate()) {
    Tensor k = kernel;
    if (waveform.scalar_type() != kernel.scalar_type())
      k = std::get<0>(functional::detail::get_sinc_resample_kernel(
          orig_freq, options.sample_rate(), gcd, 6, 0.99, "sinc_interpolation", std::nullopt, waveform.scalar_type()));
    shifted =
        functional::detail::apply_sinc_resample_kernel(stretched, orig_freq, options.sample_rate(), gcd, k, width);
  }
  return functional::detail::fix_waveform_shape(shifted, waveform.sizes());
}

}  // namespace torch::audio::transforms
