#pragma once
// torchaudio 2's functional additions (prototype in 0.13, absent from the
// Debian build): convolve, fftconvolve, add_noise, speed, preemphasis and
// deemphasis, with torchaudio 2.0's signatures and semantics.
#include <cstdint>
#include <optional>
#include <string>
#include <tuple>

#include "ember/core/tensor.h"

namespace torch::audio::functional {

// Linear convolution along the last dim; leading dims broadcast.
// mode: "full" (N + M - 1), "valid" (max - min + 1) or "same" (N).
Tensor convolve(const Tensor& x, const Tensor& y, const std::string& mode = "full");
// The same through the real FFT (faster for long kernels).
Tensor fftconvolve(const Tensor& x, const Tensor& y, const std::string& mode = "full");
// waveform + noise scaled to the given signal-to-noise ratio (dB); lengths
// [...] masks samples past each item's length out of both energies.
Tensor add_noise(const Tensor& waveform, const Tensor& noise, const Tensor& snr,
                 const std::optional<Tensor>& lengths = std::nullopt);
// Speed change by `factor` (a resample from factor * orig_freq to orig_freq);
// returns the new lengths too when given.
std::tuple<Tensor, std::optional<Tensor>> speed(const Tensor& waveform, int64_t orig_freq, double factor,
                                                const std::optional<Tensor>& lengths = std::nullopt);
Tensor preemphasis(const Tensor& waveform, double coeff = 0.97);
Tensor deemphasis(const Tensor& waveform, double coeff = 0.97);

}  // namespace torch::audio::functional
