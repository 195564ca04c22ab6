#pragma once
// torchaudio.functional's filters and effects (torchaudio/functional/filtering.py):
// lfilter/filtfilt, the biquad family (SoX's coefficient formulas) and the
// sample-wise effects. Waveforms are [..., time].
#include <cstdint>
#include <optional>
#include <string>

#include "ember/core/tensor.h"

namespace torch::audio::functional {

// IIR filter  a0 y[n] = sum_k b_k x[n-k] - sum_{k>=1} a_k y[n-k].
// a_coeffs/b_coeffs: [order + 1], or [filters, order + 1] applied to dim -2
// of the waveform (batching) or to a stacked copy of it (batching = false).
// Differentiable in the waveform and both coefficient tensors.
Tensor lfilter(const Tensor& waveform, const Tensor& a_coeffs, const Tensor& b_coeffs, bool clamp = true,
               bool batching = true);
// Forward then backward lfilter: zero phase.
Tensor filtfilt(const Tensor& waveform, const Tensor& a_coeffs, const Tensor& b_coeffs, bool clamp = true);

Tensor biquad(const Tensor& waveform, double b0, double b1, double b2, double a0, double a1, double a2);
Tensor allpass_biquad(const Tensor& waveform, int64_t sample_rate, double central_freq, double Q = 0.707);
Tensor band_biquad(const Tensor& waveform, int64_t sample_rate, double central_freq, double Q = 0.707,
                   bool noise = false);
Tensor bandpass_biquad(const Tensor& waveform, int64_t sample_rate, double central_freq, double Q = 0.707,
                       bool const_skirt_gain = false);
Tensor bandreject_biquad(const Tensor& waveform, int64_t sample_rate, double central_freq, double Q = 0.707);
Tensor bass_biquad(const Tensor& waveform, int64_t sample_rate, double gain, double central_freq = 100,
                   double Q = 0.707);
Tensor deemph_biquad(const Tensor& waveform, int64_t sample_rate);
Tensor equalizer_biquad(const Tensor& waveform, int64_t sample_rate, double center_freq, double gain, double Q = 0.707);
Tensor highpass_biquad(const Tensor& waveform, int64_t sample_rate, double cutoff_freq, double Q = 0.707);
Tensor lowpass_biquad(const Tensor& waveform, int64_t sample_rate, double cutoff_freq, double Q = 0.707);
Tensor riaa_biquad(const Tensor& waveform, int64_t sample_rate);
Tensor treble_biquad(const Tensor& waveform, int64_t sample_rate, double gain, double central_freq = 3000,
                     double Q = 0.707);

Tensor contrast(const Tensor& waveform, double enhancement_amount = 75.0);
Tensor dcshift(const Tensor& waveform, double shift, std::optional<double> limiter_gain = std::nullopt);
Tensor gain(const Tensor& waveform, double gain_db = 1.0);
Tensor overdrive(const Tensor& waveform, double gain = 20, double colour = 20);
// density_function "TPDF" (the deterministic triangular shaping torchaudio
// applies), "RPDF" or "GPDF" (random, drawn from Ember's generator).
Tensor dither(const Tensor& waveform, const std::string& density_function = "TPDF", bool noise_shaping = false);
// waveform [..., channels <= 4, time].
Tensor flanger(const Tensor& waveform, int64_t sample_rate, double delay = 0.0, double depth = 2.0, double regen = 0.0,
               double width = 71.0, double speed = 0.5, double phase = 25.0,
               const std::string& modulation = "sinusoidal", const std::string& interpolation = "linear");
Tensor phaser(const Tensor& waveform, int64_t sample_rate, double gain_in = 0.4, double gain_out = 0.74,
              double delay_ms = 3.0, double decay = 0.4, double mod_speed = 0.5, bool sinusoidal = true);

}  // namespace torch::audio::functional
