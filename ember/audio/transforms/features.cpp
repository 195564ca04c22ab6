#include "ember/audio/transforms/features.h"

#include <cmath>
#include <numbers>

#include "ember/audio/functional/cmn_pitch.h"
#include "ember/audio/functional/filtering.h"
#include "ember/audio/functional/loudness.h"
#include "ember/audio/functional/masking.h"
#include "ember/audio/functional/mu_law.h"
#include "ember/audio/functional/spectral.h"
#include "ember/audio/functional/vad.h"
#include "ember/core/error.h"
#include "ember/ops/all_ops.h"

namespace torch::audio::transforms {

void MuLawEncodingImpl::reset() {
  EMBER_CHECK(options.quantization_channels() >= 2, "MuLawEncoding: quantization_channels must be at least 2, got ",
              options.quantization_channels());
}
Tensor MuLawEncodingImpl::forward(const Tensor& x) {
  return functional::mu_law_encoding(x, options.quantization_channels());
}

void MuLawDecodingImpl::reset() {
  EMBER_CHECK(options.quantization_channels() >= 2, "MuLawDecoding: quantization_channels must be at least 2, got ",
              options.quantization_channels());
}
Tensor MuLawDecodingImpl::forward(const Tensor& x_mu) {
  return functional::mu_law_decoding(x_mu, options.quantization_channels());
}

void ComputeDeltasImpl::reset() {
  EMBER_CHECK(options.win_length() >= 3, "ComputeDeltas: window length should be greater than or equal to 3, got ",
              options.win_length());
}
Tensor ComputeDeltasImpl::forward(const Tensor& specgram) {
  return functional::compute_deltas(specgram, options.win_length(), options.mode());
}

void TimeStretchImpl::reset() {
  EMBER_CHECK(options.n_freq() > 0, "TimeStretch: n_freq must be positive, got ", options.n_freq());
  const int64_t n_fft = (options.n_freq() - 1) * 2;
  const int64_t hop = options.hop_length().value_or(n_fft / 2);
  phase_advance =
      register_buffer("phase_advance",
                      linspace(0, std::numbers::pi * static_cast<double>(hop), options.n_freq(), kFloat).unsqueeze(-1));
}
Tensor TimeStretchImpl::forward(const Tensor& complex_specgrams, std::optional<double> overriding_rate) {
  EMBER_CHECK(overriding_rate || options.fixed_rate(),
              "TimeStretch: if no fixed_rate is specified, must pass a valid rate to the forward method");
  const double rate = overriding_rate ? *overriding_rate : *options.fixed_rate();
  EMBER_CHECK(complex_specgrams.dim() >= 2 && complex_specgrams.size(-2) == phase_advance.size(0),
              "TimeStretch: expected a spectrogram of shape [..., ", phase_advance.size(0), ", time], got ",
              complex_specgrams.sizes());
  return functional::phase_vocoder(complex_specgrams, rate,
                                   phase_advance.to(to_real_type(complex_specgrams.scalar_type())));
}

void FadeImpl::reset() {
  const std::string& s = options.fade_shape();
  EMBER_CHECK(s == "linear" || s == "exponential" || s == "logarithmic" || s == "quarter_sine" || s == "half_sine",
              "Fade: unknown fade_shape \"", s, "\"");
  EMBER_CHECK(options.fade_in_len() >= 0 && options.fade_out_len() >= 0,
              "Fade: fade lengths must be non-negative, got ", options.fade_in_len(), " and ", options.fade_out_len());
}
Tensor FadeImpl::forward(const Tensor& waveform) {
  EMBER_CHECK(waveform.dim() >= 1, "Fade: expected a waveform of shape [..., time], got a 0-d tensor");
  const int64_t n = waveform.size(-1);
  EMBER_CHECK(options.fade_in_len() <= n && options.fade_out_len() <= n, "Fade: fade lengths (", options.fade_in_len(),
              ", ", options.fade_out_len(), ") exceed the waveform's ", n, " samples");
  const std::string& s = options.fade_shape();
  constexpr double kPi = std::numbers::pi;
  Tensor in = linspace(0, 1, options.fade_in_len(), kFloat);
  if (s == "exponential") in = pow(2, in - 1) * in;
  if (s == "logarithmic") in = log10(0.1 + in) + 1;
  if (s == "quarter_sine") in = sin(in * kPi / 2);
  if (s == "half_sine") in = sin(in * kPi - kPi / 2) / 2 + 0.5;
  Tensor out = linspace(0, 1, options.fade_out_len(), kFloat);
  if (s == "linear") out = -out + 1;
  if (s == "exponential") out = pow(2, -out) * (1 - out);
  if (s == "logarithmic") out = log10(1.1 - out) + 1;
  if (s == "quarter_sine") out = sin(out * kPi / 2 + kPi / 2);
  if (s == "half_sine") out = sin(out * kPi + kPi / 2) / 2 + 0.5;
  Tensor fade_in = cat({in, ones({n - options.fade_in_len()})}).clamp(0, 1);
  Tensor fade_out = cat({ones({n - options.fade_out_len()}), out}).clamp(0, 1);
  return fade_in * fade_out * waveform;
}

Tensor FrequencyMaskingImpl::forward(const Tensor& specgram, double mask_value) {
  EMBER_CHECK(specgram.dim() >= 2, "FrequencyMasking: expected [..., freq, time], got ", specgram.sizes());
  if (options.iid_masks() && specgram.dim() == 4)
    return functional::mask_along_axis_iid(specgram, options.freq_mask_param(), mask_value, 2);
  return functional::mask_along_axis(specgram, options.freq_mask_param(), mask_value, 1);
}

void TimeMaskingImpl::reset() {
  EMBER_CHECK(options.p() >= 0.0 && options.p() <= 1.0, "TimeMasking: the value of p must be between 0.0 and 1.0, got ",
              options.p());
}
Tensor TimeMaskingImpl::forward(const Tensor& specgram, double mask_value) {
  EMBER_CHECK(specgram.dim() >= 2, "TimeMasking: expected [..., freq, time], got ", specgram.sizes());
  if (options.iid_masks() && specgram.dim() == 4)
    return functional::mask_along_axis_iid(specgram, options.time_mask_param(), mask_value, 3, options.p());
  return functional::mask_along_axis(specgram, options.time_mask_param(), mask_value, 2, options.p());
}

void VolImpl::reset() {
  const std::string& t = options.gain_type();
  EMBER_CHECK(t == "amplitude" || t == "power" || t == "db",
              "Vol: gain_type must be \"amplitude\", \"power\" or \"db\", got \"", t, "\"");
  EMBER_CHECK(t == "db" || options.gain() >= 0, "Vol: if gain_type = amplitude or power, gain must be positive, got ",
              options.gain());
}
Tensor VolImpl::forward(const Tensor& waveform) {
  Tensor out = waveform;
  if (options.gain_type() == "amplitude") out = waveform * options.gain();
  if (options.gain_type() == "db") out = functional::gain(waveform, options.gain());
  if (options.gain_type() == "power") out = functional::gain(waveform, 10 * std::log10(options.gain()));
  return clamp(out, -1, 1);
}

Tensor SlidingWindowCmnImpl::forward(const Tensor& specgram) {
  return functional::sliding_window_cmn(specgram, options.cmn_window(), options.min_cmn_window(), options.center(),
                                        options.norm_vars());
}

void SpectralCentroidImpl::reset() {
  EMBER_CHECK(options.sample_rate() > 0, "SpectralCentroid: sample_rate must be positive, got ", options.sample_rate());
  EMBER_CHECK(options.n_fft() > 0, "SpectralCentroid: n_fft must be positive, got ", options.n_fft());
  win_length = options.win_length().value_or(options.n_fft());
  hop_length = options.hop_length().value_or(win_length / 2);
  EMBER_CHECK(static_cast<bool>(options.window_fn()), "SpectralCentroid: window_fn is empty");
  window = register_buffer("window", options.window_fn()(win_length));
}
Tensor SpectralCentroidImpl::forward(const Tensor& waveform) {
  detail::check_stft_input("SpectralCentroid", waveform, options.n_fft(), options.pad(), true, "reflect");
  return functional::spectral_centroid(waveform, options.sample_rate(), options.pad(), window, options.n_fft(),
                                       hop_length, win_length);
}

void VadImpl::reset() {
  EMBER_CHECK(options.sample_rate() > 0, "Vad: sample_rate must be positive, got ", options.sample_rate());
}
Tensor VadImpl::forward(const Tensor& waveform) {
  const VadOptions& o = options;
  return functional::vad(waveform, o.sample_rate(), o.trigger_level(), o.trigger_time(), o.search_time(),
                         o.allowed_gap(), o.pre_trigger_time(), o.boot_time(), o.noise_up_time(), o.noise_down_time(),
                         o.noise_reduction_amount(), o.measure_freq(), o.measure_duration(), o.measure_smooth_time(),
                         o.hp_filter_freq(), o.lp_filter_freq(), o.hp_lifter_freq(), o.lp_lifter_freq());
}

void LoudnessImpl::reset() {
  EMBER_CHECK(options.sample_rate() > 0, "Loudness: sample_rate must be positive, got ", options.sample_rate());
}
Tensor LoudnessImpl::forward(const Tensor& waveform) { return functional::loudness(waveform, options.sample_rate()); }

}  // namespace torch::audio::transforms
