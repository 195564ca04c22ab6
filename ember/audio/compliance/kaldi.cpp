// torchaudio/compliance/kaldi.py op for op (float32 filter banks included).
#include "ember/audio/compliance/kaldi.h"

#include <cmath>
#include <limits>
#include <numbers>

#include "ember/audio/functional/spectral.h"
#include "ember/core/error.h"
#include "ember/fft/fft.h"
#include "ember/fft/window.h"
#include "ember/ops/all_ops.h"

namespace torch::audio::compliance::kaldi {
namespace {

constexpr double kPi = std::numbers::pi;

Tensor epsilon(ScalarType dtype) {
  return scalar_tensor(static_cast<double>(std::numeric_limits<float>::epsilon()), TensorOptions(dtype));
}

int64_t next_power_of_2(int64_t x) {
  int64_t p = 1;
  while (p < x) p <<= 1;
  return p;
}

struct Framing {
  Tensor waveform;  // the chosen channel, [samples]
  int64_t window_shift, window_size, padded_window_size;
};

Framing window_properties(const char* fn, const Tensor& waveform, int64_t channel, double sample_frequency,
                          double frame_shift, double frame_length, bool round_to_power_of_two,
                          double preemphasis_coefficient) {
  EMBER_CHECK(waveform.defined() && waveform.dim() == 2, fn, ": expected a waveform of shape [channels, samples], got ",
              waveform.defined() ? waveform.sizes() : IntArrayRef{});
  EMBER_CHECK(waveform.scalar_type() == kFloat || waveform.scalar_type() == kDouble, fn,
              ": expected a float32 or float64 waveform, got ", waveform.scalar_type());
  EMBER_CHECK(sample_frequency > 0, fn, ": sample_frequency must be greater than zero, got ", sample_frequency);
  EMBER_CHECK(frame_length > 0 && frame_shift > 0 && std::isfinite(frame_length) && std::isfinite(frame_shift) &&
                  sample_frequency * frame_length < 1e12 && sample_frequency * frame_shift < 1e12,
              fn, ": frame_length and frame_shift must be positive, got ", frame_length, " and ", frame_shift);
  channel = std::max<int64_t>(channel, 0);
  EMBER_CHECK(channel < waveform.size(0), fn, ": invalid channel ", channel, " for ", waveform.size(0), " channels");
  Framing f;
  f.waveform = waveform.select(0, channel);
  f.window_shift = static_cast<int64_t>(sample_frequency * frame_shift * 0.001);
  f.window_size = static_cast<int64_t>(sample_frequency * frame_length * 0.001);
  f.padded_window_size = round_to_power_of_two ? next_power_of_2(f.window_size) : f.window_size;
  EMBER_CHECK(f.window_size >= 2 && f.window_size <= f.waveform.size(0), fn, ": choose a window size ", f.window_size,
              " that is in [2, ", f.waveform.size(0), "]");
  EMBER_CHECK(f.window_shift > 0, fn, ": window_shift must be greater than 0, got ", f.window_shift);
  EMBER_CHECK(f.padded_window_size % 2 == 0, fn, ": the padded window size ", f.padded_window_size,
              " must be divisible by two; use round_to_power_of_two or change frame_length");
  EMBER_CHECK(preemphasis_coefficient >= 0 && preemphasis_coefficient <= 1, fn,
              ": preemphasis_coefficient must be in [0, 1], got ", preemphasis_coefficient);
  return f;
}

// [frames, window_size]; without snip_edges the signal is mirrored at both ends
// (sample 0 repeated, as Kaldi does, unlike reflect padding).
Tensor strided_frames(const Tensor& waveform, int64_t window_size, int64_t window_shift, bool snip_edges) {
  const int64_t n = waveform.size(0);
  Tensor x = waveform.contiguous();
  int64_t m;
  if (snip_edges) {
    if (n < window_size) return empty({0, 0}, TensorOptions(waveform.scalar_type()));
    m = 1 + (n - window_size) / window_shift;
  } else {
    Tensor reversed = x.flip({0});
    m = (n + window_shift / 2) / window_shift;
    const int64_t pad = window_size / 2 - window_shift / 2;
    if (pad > 0) {
      EMBER_CHECK(pad <= n, "kaldi: frame_length is too long for a waveform of ", n, " samples");
      x = cat({reversed.slice(0, n - pad, n), x, reversed});
    } else {
      x = cat({x.slice(0, -pad, n), reversed});
    }
  }
  if (m <= 0) return empty({0, window_size}, TensorOptions(waveform.scalar_type()));
  return x.unfold(0, window_size, window_shift).slice(0, 0, m);
}

Tensor window_function(const std::string& type, int64_t size, double blackman_coeff, ScalarType dtype) {
  const auto opts = TensorOptions(dtype);
  if (type == "hanning") return hann_window(size, false, opts);
  if (type == "hamming") return hamming_window(size, false, 0.54, 0.46, opts);
  if (type == "povey") return hann_window(size, false, opts).pow(0.85);
  if (type == "rectangular") return ones({size}, opts);
  if (type == "blackman") {
    const double a = 2 * kPi / static_cast<double>(size - 1);
    Tensor n = arange(size, opts);
    return blackman_coeff - 0.5 * cos(a * n) + (0.5 - blackman_coeff) * cos(2 * a * n);
  }
  EMBER_CHECK(false, "kaldi: invalid window type \"", type, "\"");
  return {};
}

Tensor log_energy(const Tensor& frames, double energy_floor) {
  Tensor e = maximum(frames.pow(2).sum(1), epsilon(frames.scalar_type())).log();
  if (energy_floor == 0.0) return e;
  return maximum(e, scalar_tensor(std::log(energy_floor), TensorOptions(frames.scalar_type())));
}

// The windowed, padded frames and each frame's log energy.
std::tuple<Tensor, Tensor> windowed_frames(const Framing& f, const std::string& window_type, double blackman_coeff,
                                           bool snip_edges, bool raw_energy, double energy_floor, double dither,
                                           bool remove_dc_offset, double preemphasis_coefficient) {
  Tensor frames = strided_frames(f.waveform, f.window_size, f.window_shift, snip_edges);
  if (dither != 0.0) frames = frames + randn(frames.sizes(), TensorOptions(frames.scalar_type())) * dither;
  if (remove_dc_offset) frames = frames - frames.mean({1}, true);
  Tensor energy;
  if (raw_energy) energy = log_energy(frames, energy_floor);
  if (preemphasis_coefficient != 0.0) {
    Tensor previous = cat({frames.slice(1, 0, 1), frames.slice(1, 0, frames.size(1) - 1)}, 1);
    frames = frames - preemphasis_coefficient * previous;
  }
  frames = frames * window_function(window_type, f.window_size, blackman_coeff, frames.scalar_type()).unsqueeze(0);
  if (f.padded_window_size != f.window_size)
    frames = constant_pad_nd(frames, {0, f.padded_window_size - f.window_size});
  if (!raw_energy) energy = log_energy(frames, energy_floor);
  return {frames, energy};
}

Tensor subtract_column_mean(const Tensor& t, bool subtract_mean) { return subtract_mean ? t - t.mean({0}, true) : t; }

}  // namespace

double mel_scale_scalar(double freq) { return 1127.0 * std::log(1.0 + freq / 700.0); }
Tensor mel_scale(const Tensor& freq) { return 1127.0 * (1.0 + freq / 700.0).log(); }
double inverse_mel_scale_scalar(double mel_freq) { return 700.0 * (std::exp(mel_freq / 1127.0) - 1.0); }
Tensor inverse_mel_scale(const Tensor& mel_freq) { return 700.0 * ((mel_freq / 1127.0).exp() - 1.0); }

Tensor vtln_warp_freq(double vtln_low_cutoff, double vtln_high_cutoff, double low_freq, double high_freq,
                      double vtln_warp_factor, const Tensor& freq) {
  EMBER_CHECK(vtln_low_cutoff > low_freq, "vtln_warp_freq: vtln_low (", vtln_low_cutoff,
              ") must be higher than low_freq (", low_freq, ")");
  EMBER_CHECK(vtln_high_cutoff < high_freq, "vtln_warp_freq: vtln_high (", vtln_high_cutoff,
              ") must be lower than high_freq (", high_freq, ")");
  EMBER_CHECK(vtln_warp_factor > 0, "vtln_warp_freq: vtln_warp must be positive, got ", vtln_warp_factor);
  const double l = vtln_low_cutoff * std::max(1.0, vtln_warp_factor);
  const double h = vtln_high_cutoff * std::min(1.0, vtln_warp_factor);
  const double scale = 1.0 / vtln_warp_factor;
  const double fl = scale * l, fh = scale * h;
  EMBER_CHECK(l > low_freq && h < high_freq, "vtln_warp_freq: warped cutoffs ", l, " and ", h, " leave [", low_freq,
              ", ", high_freq, "]");
  const double scale_left = (fl - low_freq) / (l - low_freq);
  const double scale_right = (high_freq - fh) / (high_freq - h);
  Tensor res = where(freq < h, scale * freq, high_freq + scale_right * (freq - high_freq));
  res = where(freq < l, low_freq + scale_left * (freq - low_freq), res);
  return where(logical_or(freq<low_freq, freq> high_freq), freq, res);
}

Tensor vtln_warp_mel_freq(double vtln_low_cutoff, double vtln_high_cutoff, double low_freq, double high_freq,
                          double vtln_warp_factor, const Tensor& mel_freq) {
  return mel_scale(vtln_warp_freq(vtln_low_cutoff, vtln_high_cutoff, low_freq, high_freq, vtln_warp_factor,
                                  inverse_mel_scale(mel_freq)));
}

std::tuple<Tensor, Tensor> get_mel_banks(int64_t num_bins, int64_t window_length_padded, double sample_freq,
                                         double low_freq, double high_freq, double vtln_low, double vtln_high,
                                         double vtln_warp_factor) {
  EMBER_CHECK(num_bins > 3, "get_mel_banks: must have at least 3 mel bins, got ", num_bins);
  EMBER_CHECK(window_length_padded > 0 && window_length_padded % 2 == 0,
              "get_mel_banks: the padded window length must be positive and even, got ", window_length_padded);
  const double num_fft_bins = static_cast<double>(window_length_padded) / 2;
  const double nyquist = 0.5 * sample_freq;
  if (high_freq <= 0.0) high_freq += nyquist;
  EMBER_CHECK(low_freq >= 0.0 && low_freq < nyquist && high_freq > 0.0 && high_freq <= nyquist && low_freq < high_freq,
              "get_mel_banks: bad values in options: low_freq ", low_freq, " and high_freq ", high_freq,
              " vs. nyquist ", nyquist);
  const double fft_bin_width = sample_freq / static_cast<double>(window_length_padded);
  const double mel_low = mel_scale_scalar(low_freq), mel_high = mel_scale_scalar(high_freq);
  const double mel_delta = (mel_high - mel_low) / static_cast<double>(num_bins + 1);
  if (vtln_high < 0.0) vtln_high += nyquist;
  EMBER_CHECK(vtln_warp_factor == 1.0 || (low_freq < vtln_low && vtln_low < high_freq && vtln_high > 0.0 &&
                                          vtln_high < high_freq && vtln_low < vtln_high),
              "get_mel_banks: bad values in options: vtln_low ", vtln_low, " and vtln_high ", vtln_high,
              ", versus low_freq ", low_freq, " and high_freq ", high_freq);
  Tensor bin = arange(num_bins, TensorOptions(kLong)).unsqueeze(1);
  Tensor left = mel_low + bin * mel_delta;
  Tensor center = mel_low + (bin + 1.0) * mel_delta;
  Tensor right = mel_low + (bin + 2.0) * mel_delta;
  if (vtln_warp_factor != 1.0) {
    left = vtln_warp_mel_freq(vtln_low, vtln_high, low_freq, high_freq, vtln_warp_factor, left);
    center = vtln_warp_mel_freq(vtln_low, vtln_high, low_freq, high_freq, vtln_warp_factor, center);
    right = vtln_warp_mel_freq(vtln_low, vtln_high, low_freq, high_freq, vtln_warp_factor, right);
  }
  Tensor center_freqs = inverse_mel_scale(center);
  Tensor mel = mel_scale(fft_bin_width * arange(num_fft_bins, TensorOptions(kFloat))).unsqueeze(0);
  Tensor up = (mel - left) / (center - left);
  Tensor down = (right - mel) / (right - center);
  Tensor bins;
  if (vtln_warp_factor == 1.0) {
    bins = maximum(zeros({1}), minimum(up, down));
  } else {
    Tensor up_idx = logical_and(mel > left, mel <= center);
    Tensor down_idx = logical_and(mel > center, mel < right);
    bins = where(up_idx, up, where(down_idx, down, zeros({}, TensorOptions(up.scalar_type()))));
  }
  return {bins, center_freqs};
}

Tensor spectrogram(const Tensor& waveform, double blackman_coeff, int64_t channel, double dither, double energy_floor,
                   double frame_length, double frame_shift, double min_duration, double preemphasis_coefficient,
                   bool raw_energy, bool remove_dc_offset, bool round_to_power_of_two, double sample_frequency,
                   bool snip_edges, bool subtract_mean, const std::string& window_type) {
  Framing f = window_properties("spectrogram", waveform, channel, sample_frequency, frame_shift, frame_length,
                                round_to_power_of_two, preemphasis_coefficient);
  if (static_cast<double>(f.waveform.size(0)) < min_duration * sample_frequency) return empty({0});
  auto [frames, energy] = windowed_frames(f, window_type, blackman_coeff, snip_edges, raw_energy, energy_floor, dither,
                                          remove_dc_offset, preemphasis_coefficient);
  Tensor power = maximum(fft::rfft(frames).abs().pow(2.0), epsilon(frames.scalar_type())).log();
  power = cat({energy.unsqueeze(1), power.slice(1, 1, power.size(1))}, 1);
  return subtract_column_mean(power, subtract_mean);
}

Tensor fbank(const Tensor& waveform, double blackman_coeff, int64_t channel, double dither, double energy_floor,
             double frame_length, double frame_shift, double high_freq, bool htk_compat, double low_freq,
             double min_duration, int64_t num_mel_bins, double preemphasis_coefficient, bool raw_energy,
             bool remove_dc_offset, bool round_to_power_of_two, double sample_frequency, bool snip_edges,
             bool subtract_mean, bool use_energy, bool use_log_fbank, bool use_power, double vtln_high, double vtln_low,
             double vtln_warp, const std::string& window_type) {
  Framing f = window_properties("fbank", waveform, channel, sample_frequency, frame_shift, frame_length,
                                round_to_power_of_two, preemphasis_coefficient);
  const auto dtype = waveform.scalar_type();
  if (static_cast<double>(f.waveform.size(0)) < min_duration * sample_frequency)
    return empty({0}, TensorOptions(dtype));
  auto [frames, energy] = windowed_frames(f, window_type, blackman_coeff, snip_edges, raw_energy, energy_floor, dither,
                                          remove_dc_offset, preemphasis_coefficient);
  Tensor spectrum = fft::rfft(frames).abs();
  if (use_power) spectrum = spectrum.pow(2.0);
  Tensor banks = std::get<0>(get_mel_banks(num_mel_bins, f.padded_window_size, sample_frequency, low_freq, high_freq,
                                           vtln_low, vtln_high, vtln_warp));
  banks = constant_pad_nd(banks.to(dtype), {0, 1});
  Tensor mel = mm(spectrum, banks.t());
  if (use_log_fbank) mel = maximum(mel, epsilon(dtype)).log();
  if (use_energy) {
    Tensor e = energy.unsqueeze(1);
    mel = htk_compat ? cat({mel, e}, 1) : cat({e, mel}, 1);
  }
  return subtract_column_mean(mel, subtract_mean);
}

Tensor mfcc(const Tensor& waveform, double blackman_coeff, double cepstral_lifter, int64_t channel, double dither,
            double energy_floor, double frame_length, double frame_shift, double high_freq, bool htk_compat,
            double low_freq, int64_t num_ceps, double min_duration, int64_t num_mel_bins,
            double preemphasis_coefficient, bool raw_energy, bool remove_dc_offset, bool round_to_power_of_two,
            double sample_frequency, bool snip_edges, bool subtract_mean, bool use_energy, double vtln_high,
            double vtln_low, double vtln_warp, const std::string& window_type) {
  EMBER_CHECK(num_ceps >= 1 && num_ceps <= num_mel_bins,
              "mfcc: num_ceps cannot be larger than num_mel_bins: ", num_ceps, " vs ", num_mel_bins);
  const auto dtype = waveform.scalar_type();
  Tensor feature = fbank(waveform, blackman_coeff, channel, dither, energy_floor, frame_length, frame_shift, high_freq,
                         htk_compat, low_freq, min_duration, num_mel_bins, preemphasis_coefficient, raw_energy,
                         remove_dc_offset, round_to_power_of_two, sample_frequency, snip_edges, false, use_energy, true,
                         true, vtln_high, vtln_low, vtln_warp, window_type);
  if (feature.dim() != 2) return feature;  // shorter than min_duration
  Tensor energy;
  if (use_energy) {
    energy = feature.select(1, htk_compat ? num_mel_bins : 0);
    const int64_t offset = htk_compat ? 0 : 1;
    feature = feature.slice(1, offset, num_mel_bins + offset);
  }
  // Kaldi's DCT: orthonormal DCT-II whose first column is sqrt(1 / num_mel_bins).
  Tensor dct = functional::create_dct(num_mel_bins, num_mel_bins, "ortho");
  Tensor first = full({num_mel_bins, 1}, std::sqrt(1.0 / static_cast<double>(num_mel_bins)));
  dct = cat({first, dct.slice(1, 1, num_mel_bins)}, 1).slice(1, 0, num_ceps);
  feature = feature.matmul(dct.to(dtype));
  if (cepstral_lifter != 0.0) {
    Tensor i = arange(num_ceps, TensorOptions(kLong));
    Tensor lifter = 1.0 + 0.5 * cepstral_lifter * sin(kPi * i / cepstral_lifter);
    feature = feature * lifter.unsqueeze(0).to(dtype);
  }
  if (use_energy) feature = cat({energy.unsqueeze(1), feature.slice(1, 1, num_ceps)}, 1);
  if (htk_compat) {
    Tensor e = feature.slice(1, 0, 1);
    if (!use_energy) e = e * std::sqrt(2.0);
    feature = cat({feature.slice(1, 1, num_ceps), e}, 1);
  }
  return subtract_column_mean(feature, subtract_mean);
}

}  // namespace torch::audio::compliance::kaldi
