#include "ember/audio/transforms/spectrogram.h"

#include <algorithm>
#include <cmath>

#include "ember/core/error.h"
#include "ember/fft/window.h"

namespace torch::audio::transforms {
namespace {

// torchaudio's defaults: win_length = n_fft, hop_length = win_length / 2.
int64_t resolve_win(const char* name, int64_t n_fft, std::optional<int64_t> win_length) {
  EMBER_CHECK(n_fft > 0, name, ": n_fft must be positive, got ", n_fft);
  const int64_t w = win_length.value_or(n_fft);
  EMBER_CHECK(w > 0 && w <= n_fft, name, ": win_length must be in [1, n_fft = ", n_fft, "], got ", w);
  return w;
}

Tensor make_window(const char* name, const WindowFunction& fn, int64_t win_length) {
  EMBER_CHECK(static_cast<bool>(fn), name, ": window_fn is empty");
  Tensor w = fn(win_length);
  EMBER_CHECK(w.defined() && w.dim() == 1 && w.size(0) == win_length, name, ": window_fn(", win_length,
              ") must return a 1-D tensor of that length");
  return w;
}

}  // namespace

namespace detail {

void check_stft_input(const char* name, const Tensor& waveform, int64_t n_fft, int64_t pad, bool center,
                      const std::string& pad_mode) {
  EMBER_CHECK(waveform.defined() && waveform.dim() >= 1, name, ": expected a waveform of shape [..., time], got ",
              waveform.defined() ? waveform.sizes() : IntArrayRef{});
  EMBER_CHECK(waveform.is_floating_point(), name, ": expected a floating-point waveform, got ", waveform.scalar_type());
  const int64_t padded = waveform.size(-1) + 2 * pad;
  if (center && pad_mode != "constant")
    EMBER_CHECK(n_fft / 2 < padded, name, ": n_fft = ", n_fft, " is larger than the padded signal (", padded,
                " samples; \"", pad_mode, "\" padding needs more than n_fft / 2)");
  else if (!center)
    EMBER_CHECK(n_fft <= padded, name, ": n_fft = ", n_fft, " is larger than the padded signal (", padded, " samples)");
}

}  // namespace detail

WindowFunction default_window_fn() {
  return [](int64_t n) { return hann_window(n); };
}

SpectrogramImpl::SpectrogramImpl(const SpectrogramOptions& options_) : options(options_) { reset(); }

void SpectrogramImpl::reset() {
  win_length = resolve_win("Spectrogram", options.n_fft(), options.win_length());
  hop_length = options.hop_length().value_or(win_length / 2);
  EMBER_CHECK(hop_length > 0, "Spectrogram: hop_length must be positive, got ", hop_length);
  window = register_buffer("window", make_window("Spectrogram", options.window_fn(), win_length));
}

Tensor SpectrogramImpl::forward(const Tensor& waveform) {
  detail::check_stft_input("Spectrogram", waveform, options.n_fft(), options.pad(), options.center(),
                           options.pad_mode());
  return functional::spectrogram(waveform, options.pad(), window, options.n_fft(), hop_length, win_length,
                                 options.power(), options.normalized(), options.center(), options.pad_mode(),
                                 options.onesided());
}

InverseSpectrogramImpl::InverseSpectrogramImpl(const InverseSpectrogramOptions& options_) : options(options_) {
  reset();
}

void InverseSpectrogramImpl::reset() {
  win_length = resolve_win("InverseSpectrogram", options.n_fft(), options.win_length());
  hop_length = options.hop_length().value_or(win_length / 2);
  EMBER_CHECK(hop_length > 0, "InverseSpectrogram: hop_length must be positive, got ", hop_length);
  window = register_buffer("window", make_window("InverseSpectrogram", options.window_fn(), win_length));
}

Tensor InverseSpectrogramImpl::forward(const Tensor& spectrogram, std::optional<int64_t> length) {
  EMBER_CHECK(spectrogram.defined() && spectrogram.dim() >= 2 && spectrogram.is_complex(),
              "InverseSpectrogram: expected a complex spectrogram of shape [..., freq, time]");
  return functional::inverse_spectrogram(spectrogram, length, options.pad(), window, options.n_fft(), hop_length,
                                         win_length, options.normalized(), options.center(), options.pad_mode(),
                                         options.onesided());
}

GriffinLimImpl::GriffinLimImpl(const GriffinLimOptions& options_) : options(options_) { reset(); }

void GriffinLimImpl::reset() {
  EMBER_CHECK(options.momentum() >= 0 && options.momentum() < 1, "GriffinLim: momentum must be in range [0, 1), got ",
              options.momentum());
  win_length = resolve_win("GriffinLim", options.n_fft(), options.win_length());
  hop_length = options.hop_length().value_or(win_length / 2);
  EMBER_CHECK(hop_length > 0, "GriffinLim: hop_length must be positive, got ", hop_length);
  window = register_buffer("window", make_window("GriffinLim", options.window_fn(), win_length));
}

Tensor GriffinLimImpl::forward(const Tensor& specgram) {
  EMBER_CHECK(specgram.defined() && specgram.dim() >= 2 && specgram.is_floating_point() &&
                  specgram.size(-2) == options.n_fft() / 2 + 1,
              "GriffinLim: expected a real spectrogram of shape [..., ", options.n_fft() / 2 + 1, ", time], got ",
              specgram.defined() ? specgram.sizes() : IntArrayRef{});
  return functional::griffinlim(specgram, window, options.n_fft(), hop_length, win_length, options.power(),
                                options.n_iter(), options.momentum(), options.length(), options.rand_init());
}

AmplitudeToDBImpl::AmplitudeToDBImpl(const AmplitudeToDBOptions& options_) : options(options_) { reset(); }

void AmplitudeToDBImpl::reset() {
  EMBER_CHECK(!options.top_db() || *options.top_db() >= 0, "AmplitudeToDB: top_db must be positive, got ",
              options.top_db().value_or(0));
  // As torchaudio: "power" is 10 dB per decade, anything else ("magnitude") 20.
  multiplier = options.stype() == "power" ? 10.0 : 20.0;
  db_multiplier = std::log10(std::max(amin, ref_value));
}

Tensor AmplitudeToDBImpl::forward(const Tensor& x) {
  return functional::amplitude_to_DB(x, multiplier, amin, db_multiplier, options.top_db());
}

}  // namespace torch::audio::transforms
