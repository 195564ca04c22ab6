// torchaudio/functional/functional.py's spectral functions, op for op, so the
// float32 rounding follows torchaudio's (the filter banks are built in float32
// from the same linspace points, as torchaudio builds them).
#include "ember/audio/functional/spectral.h"

#include <cmath>
#include <numbers>
#include <vector>

#include "ember/audio/functional/resample.h"
#include "ember/core/error.h"
#include "ember/fft/stft.h"
#include "ember/fft/window.h"
#include "ember/ops/all_ops.h"

namespace torch::audio::functional {
namespace {

std::vector<int64_t> leading(const Tensor& t, int64_t drop) {
  auto s = t.sizes().vec();
  s.resize(s.size() - static_cast<size_t>(drop));
  return s;
}

std::vector<int64_t> concat(std::vector<int64_t> a, const std::vector<int64_t>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

void check_stft_args(const char* fn, int64_t n_fft, int64_t hop_length, int64_t win_length, const Tensor& window) {
  EMBER_CHECK(n_fft > 0, fn, ": n_fft must be positive, got ", n_fft);
  EMBER_CHECK(hop_length > 0, fn, ": hop_length must be positive, got ", hop_length);
  EMBER_CHECK(win_length > 0 && win_length <= n_fft, fn, ": win_length must be in [1, n_fft = ", n_fft, "], got ",
              win_length);
  EMBER_CHECK(window.defined() && window.dim() == 1 && window.size(0) == win_length, fn,
              ": window must be 1-D of win_length = ", win_length, " samples, got ",
              window.defined() ? window.sizes() : IntArrayRef{});
}

// torch.stft wants the window in the signal's real dtype; a float32 window (a
// module's buffer, hann_window's default) follows a float64 signal.
Tensor window_like(const Tensor& window, ScalarType real_dtype) {
  return window.scalar_type() == real_dtype ? window : window.to(real_dtype);
}

double hz_to_mel(double freq, const std::string& mel_scale) {
  if (mel_scale == "htk") return 2595.0 * std::log10(1.0 + freq / 700.0);
  const double f_sp = 200.0 / 3, min_log_hz = 1000.0, min_log_mel = min_log_hz / f_sp;
  const double logstep = std::log(6.4) / 27.0;
  if (freq >= min_log_hz) return min_log_mel + std::log(freq / min_log_hz) / logstep;
  return freq / f_sp;
}

Tensor mel_to_hz(const Tensor& mels, const std::string& mel_scale) {
  if (mel_scale == "htk") return 700.0 * (pow(10.0, mels / 2595.0) - 1.0);
  const double f_sp = 200.0 / 3, min_log_hz = 1000.0, min_log_mel = min_log_hz / f_sp;
  const double logstep = std::log(6.4) / 27.0;
  Tensor freqs = f_sp * mels;
  return where(mels >= min_log_mel, min_log_hz * exp(logstep * (mels - min_log_mel)), freqs);
}

// [n_freqs, n_filter] triangles whose corners are f_pts (n_filter + 2 points).
Tensor triangular_filterbank(const Tensor& all_freqs, const Tensor& f_pts) {
  const int64_t n = f_pts.size(0);
  Tensor f_diff = f_pts.slice(0, 1, n) - f_pts.slice(0, 0, n - 1);
  Tensor slopes = f_pts.unsqueeze(0) - all_freqs.unsqueeze(1);
  Tensor down = (-1.0 * slopes.slice(1, 0, n - 2)) / f_diff.slice(0, 0, n - 2);
  Tensor up = slopes.slice(1, 2, n) / f_diff.slice(0, 1, n - 1);
  return maximum(zeros({1}), minimum(down, up));
}

}  // namespace

Normalized::Normalized(const std::string& mode) {
  EMBER_CHECK(mode.empty() || mode == "window" || mode == "frame_length",
              "spectrogram: invalid normalized parameter \"", mode, "\" (expected \"window\" or \"frame_length\")");
  window_ = mode == "window";
  frame_length_ = mode == "frame_length";
}

Tensor spectrogram(const Tensor& waveform, int64_t pad, const Tensor& window, int64_t n_fft, int64_t hop_length,
                   int64_t win_length, std::optional<double> power, Normalized normalized, bool center,
                   const std::string& pad_mode, bool onesided, std::optional<bool> return_complex) {
  (void)return_complex;  // deprecated in torchaudio 0.13 and ignored there too
  EMBER_CHECK(waveform.dim() >= 1, "spectrogram: expected a waveform of shape [..., time], got a 0-d tensor");
  EMBER_CHECK(waveform.is_floating_point(), "spectrogram: expected a floating-point waveform, got ",
              waveform.scalar_type());
  EMBER_CHECK(pad >= 0, "spectrogram: pad must be non-negative, got ", pad);
  check_stft_args("spectrogram", n_fft, hop_length, win_length, window);
  const int64_t padded = waveform.size(-1) + 2 * pad;
  if (center) {
    EMBER_CHECK(pad_mode == "reflect" || pad_mode == "constant" || pad_mode == "replicate" || pad_mode == "circular",
                "spectrogram: unknown pad_mode \"", pad_mode, "\"");
    EMBER_CHECK(pad_mode == "constant" || n_fft / 2 < padded, "spectrogram: n_fft = ", n_fft,
                " needs more than n_fft / 2 samples to pad in mode \"", pad_mode, "\", got a signal of ", padded);
  } else {
    EMBER_CHECK(n_fft <= padded, "spectrogram: n_fft = ", n_fft, " is larger than the padded signal (", padded,
                " samples)");
  }
  Tensor x = pad > 0 ? torch::pad(waveform, {pad, pad}) : waveform;
  const auto batch = leading(x, 1);
  x = x.reshape({-1, x.size(-1)});
  Tensor spec = stft(x, n_fft, hop_length, win_length, window_like(window, x.scalar_type()), center, pad_mode,
                     normalized.frame_length(), onesided, true);
  spec = spec.reshape(concat(batch, {spec.size(-2), spec.size(-1)}));
  if (normalized.window()) spec = spec / window.pow(2.0).sum().sqrt();
  if (!power) return spec;
  if (*power == 1.0) return spec.abs();
  if (*power == 2.0) {
    // |z|^2 without the square root: within 2 ulp of torchaudio's abs().pow(2)
    // and twice as fast (the power spectrum dominates MelSpectrogram's time).
    Tensor re = real(spec), im = imag(spec);
    return re * re + im * im;
  }
  return spec.abs().pow(*power);
}

Tensor inverse_spectrogram(const Tensor& spectrogram, std::optional<int64_t> length, int64_t pad, const Tensor& window,
                           int64_t n_fft, int64_t hop_length, int64_t win_length, Normalized normalized, bool center,
                           const std::string& pad_mode, bool onesided) {
  (void)pad_mode;  // istft has no padding mode; torchaudio ignores it too
  EMBER_CHECK(spectrogram.is_complex(), "inverse_spectrogram: expected a complex spectrogram, got ",
              spectrogram.scalar_type());
  EMBER_CHECK(spectrogram.dim() >= 2, "inverse_spectrogram: expected shape [..., freq, time], got ",
              spectrogram.sizes());
  check_stft_args("inverse_spectrogram", n_fft, hop_length, win_length, window);
  EMBER_CHECK(pad >= 0, "inverse_spectrogram: pad must be non-negative, got ", pad);
  Tensor spec = spectrogram;
  if (normalized.window()) spec = spec * window.pow(2.0).sum().sqrt();
  const auto batch = leading(spec, 2);
  spec = spec.reshape({-1, spec.size(-2), spec.size(-1)});
  std::optional<int64_t> full_length;
  if (length) full_length = *length + 2 * pad;
  Tensor wave = istft(spec, n_fft, hop_length, win_length, window_like(window, to_real_type(spec.scalar_type())),
                      center, normalized.frame_length(), onesided, full_length, false);
  if (length && pad > 0) wave = wave.slice(1, pad, wave.size(1) - pad);
  return wave.reshape(concat(batch, {wave.size(-1)}));
}

Tensor griffinlim(const Tensor& specgram, const Tensor& window, int64_t n_fft, int64_t hop_length, int64_t win_length,
                  double power, int64_t n_iter, double momentum, std::optional<int64_t> length, bool rand_init) {
  EMBER_CHECK(momentum >= 0 && momentum < 1, "griffinlim: momentum must be in range [0, 1), got ", momentum);
  EMBER_CHECK(specgram.dim() >= 2, "griffinlim: expected shape [..., freq, time], got ", specgram.sizes());
  EMBER_CHECK(power > 0, "griffinlim: power must be positive, got ", power);
  EMBER_CHECK(n_iter >= 0, "griffinlim: n_iter must be non-negative, got ", n_iter);
  check_stft_args("griffinlim", n_fft, hop_length, win_length, window);
  EMBER_CHECK(specgram.size(-2) == n_fft / 2 + 1, "griffinlim: expected ", n_fft / 2 + 1,
              " frequency bins for n_fft = ", n_fft, ", got ", specgram.size(-2));
  momentum = momentum / (1 + momentum);
  const auto batch = leading(specgram, 2);
  Tensor mag = specgram.reshape({-1, specgram.size(-2), specgram.size(-1)}).pow(1.0 / power);
  const auto cdtype = to_complex_type(mag.scalar_type());
  const Tensor w = window_like(window, mag.scalar_type());
  Tensor angles = rand_init ? rand(mag.sizes(), TensorOptions(cdtype)) : ones(mag.sizes(), TensorOptions(cdtype));
  Tensor tprev;
  for (int64_t i = 0; i < n_iter; ++i) {
    Tensor inverse = istft(mag * angles, n_fft, hop_length, win_length, w, true, false, std::nullopt, length);
    Tensor rebuilt = stft(inverse, n_fft, hop_length, win_length, w, true, "reflect", false, true, true);
    angles = rebuilt;
    if (momentum != 0 && tprev.defined()) angles = angles - tprev * momentum;
    angles = angles / (angles.abs() + 1e-16);
    tprev = rebuilt;
  }
  Tensor wave = istft(mag * angles, n_fft, hop_length, win_length, w, true, false, std::nullopt, length);
  return wave.reshape(concat(batch, {wave.size(-1)}));
}

Tensor amplitude_to_DB(const Tensor& x, double multiplier, double amin, double db_multiplier,
                       std::optional<double> top_db) {
  EMBER_CHECK(amin > 0, "amplitude_to_DB: amin must be positive, got ", amin);
  Tensor x_db = multiplier * log10(clamp(x, amin));
  x_db = x_db - multiplier * db_multiplier;
  if (top_db) {
    EMBER_CHECK(*top_db >= 0, "amplitude_to_DB: top_db must be non-negative, got ", *top_db);
    const auto shape = x_db.sizes().vec();
    EMBER_CHECK(x_db.dim() >= 2, "amplitude_to_DB: top_db needs an input of shape [..., freq, time], got ",
                x_db.sizes());
    const int64_t channels = x_db.dim() > 2 ? x_db.size(-3) : 1;
    Tensor packed = x_db.reshape({-1, channels, x_db.size(-2), x_db.size(-1)});
    Tensor floor_db = (packed.amax({-3, -2, -1}) - *top_db).view({-1, 1, 1, 1});
    x_db = maximum(packed, floor_db).reshape(shape);
  }
  return x_db;
}

Tensor DB_to_amplitude(const Tensor& x, double ref, double power) { return ref * pow(pow(10.0, 0.1 * x), power); }

Tensor melscale_fbanks(int64_t n_freqs, double f_min, double f_max, int64_t n_mels, int64_t sample_rate,
                       const std::optional<std::string>& norm, const std::string& mel_scale) {
  EMBER_CHECK(!norm || *norm == "slaney", "melscale_fbanks: norm must be one of None or \"slaney\", got \"", *norm,
              "\"");
  EMBER_CHECK(mel_scale == "htk" || mel_scale == "slaney",
              "melscale_fbanks: mel_scale should be one of \"htk\" or \"slaney\", got \"", mel_scale, "\"");
  EMBER_CHECK(n_freqs > 0 && n_mels > 0, "melscale_fbanks: n_freqs and n_mels must be positive, got ", n_freqs, " and ",
              n_mels);
  EMBER_CHECK(sample_rate > 0, "melscale_fbanks: sample_rate must be positive, got ", sample_rate);
  Tensor all_freqs = linspace(0, static_cast<double>(sample_rate / 2), n_freqs, kFloat);
  Tensor m_pts = linspace(hz_to_mel(f_min, mel_scale), hz_to_mel(f_max, mel_scale), n_mels + 2, kFloat);
  Tensor f_pts = mel_to_hz(m_pts, mel_scale);
  Tensor fb = triangular_filterbank(all_freqs, f_pts);
  if (norm) {
    Tensor enorm = 2.0 / (f_pts.slice(0, 2, n_mels + 2) - f_pts.slice(0, 0, n_mels));
    fb = fb * enorm.unsqueeze(0);
  }
  return fb;
}

Tensor linear_fbanks(int64_t n_freqs, double f_min, double f_max, int64_t n_filter, int64_t sample_rate) {
  EMBER_CHECK(n_freqs > 0 && n_filter > 0, "linear_fbanks: n_freqs and n_filter must be positive, got ", n_freqs,
              " and ", n_filter);
  EMBER_CHECK(sample_rate > 0, "linear_fbanks: sample_rate must be positive, got ", sample_rate);
  Tensor all_freqs = linspace(0, static_cast<double>(sample_rate / 2), n_freqs, kFloat);
  Tensor f_pts = linspace(f_min, f_max, n_filter + 2, kFloat);
  return triangular_filterbank(all_freqs, f_pts);
}

Tensor create_dct(int64_t n_mfcc, int64_t n_mels, const std::optional<std::string>& norm) {
  EMBER_CHECK(!norm || *norm == "ortho", "create_dct: norm must be either \"ortho\" or None, got \"", *norm, "\"");
  EMBER_CHECK(n_mfcc > 0 && n_mels > 0, "create_dct: n_mfcc and n_mels must be positive, got ", n_mfcc, " and ",
              n_mels);
  Tensor n = arange(static_cast<double>(n_mels), kFloat);
  Tensor k = arange(static_cast<double>(n_mfcc), kFloat).unsqueeze(1);
  Tensor dct = cos(std::numbers::pi / static_cast<double>(n_mels) * (n + 0.5) * k);
  if (!norm) {
    dct = dct * 2.0;
  } else {
    Tensor scale = ones({n_mfcc, 1});
    scale.select(0, 0).fill_(1.0 / std::sqrt(2.0));
    dct = dct * scale * std::sqrt(2.0 / static_cast<double>(n_mels));
  }
  return dct.t().contiguous();
}

Tensor phase_vocoder(const Tensor& complex_specgrams, double rate, const Tensor& phase_advance) {
  EMBER_CHECK(rate > 0, "phase_vocoder: rate must be positive, got ", rate);
  EMBER_CHECK(complex_specgrams.is_complex(), "phase_vocoder: expected a complex spectrogram, got ",
              complex_specgrams.scalar_type());
  EMBER_CHECK(complex_specgrams.dim() >= 2, "phase_vocoder: expected shape [..., freq, time], got ",
              complex_specgrams.sizes());
  if (rate == 1.0) return complex_specgrams;
  const auto batch = leading(complex_specgrams, 2);
  Tensor spec = complex_specgrams.reshape({-1, complex_specgrams.size(-2), complex_specgrams.size(-1)});
  const auto real_dtype = to_real_type(spec.scalar_type());
  Tensor time_steps = arange(0, spec.size(-1), rate, TensorOptions(real_dtype));
  Tensor alphas = fmod(time_steps, 1.0);
  Tensor phase_0 = spec.slice(-1, 0, 1).angle();
  spec = constant_pad_nd(spec, {0, 2});
  Tensor steps = time_steps.to(kLong);
  Tensor s0 = spec.index_select(-1, steps);
  Tensor s1 = spec.index_select(-1, steps + 1);
  Tensor phase = s1.angle() - s0.angle() - phase_advance;
  phase = phase - 2 * std::numbers::pi * round(phase / (2 * std::numbers::pi));
  phase = phase + phase_advance;
  phase = cat({phase_0, phase.slice(-1, 0, phase.size(-1) - 1)}, -1);
  // torch's CPU cumsum accumulates float32 in double; the accumulated phase
  // reaches thousands of radians, where float32 accumulation loses ~1e-4.
  Tensor phase_acc = phase.scalar_type() == kFloat ? cumsum(phase.to(kDouble), -1).to(kFloat) : cumsum(phase, -1);
  Tensor mag = alphas * s1.abs() + (1 - alphas) * s0.abs();
  Tensor out = polar(mag, phase_acc);
  return out.reshape(concat(batch, {out.size(-2), out.size(-1)}));
}

Tensor spectral_centroid(const Tensor& waveform, int64_t sample_rate, int64_t pad, const Tensor& window, int64_t n_fft,
                         int64_t hop_length, int64_t win_length) {
  EMBER_CHECK(sample_rate > 0, "spectral_centroid: sample_rate must be positive, got ", sample_rate);
  Tensor spec = spectrogram(waveform, pad, window, n_fft, hop_length, win_length, 1.0, false);
  Tensor freqs = linspace(0, static_cast<double>(sample_rate / 2), 1 + n_fft / 2, kFloat).reshape({-1, 1});
  return (freqs * spec).sum(-2) / spec.sum(-2);
}

Tensor compute_deltas(const Tensor& specgram, int64_t win_length, const std::string& mode) {
  EMBER_CHECK(win_length >= 3, "compute_deltas: window length should be greater than or equal to 3, got ", win_length);
  EMBER_CHECK(specgram.dim() >= 1, "compute_deltas: expected shape [..., time], got a 0-d tensor");
  const auto shape = specgram.sizes().vec();
  Tensor x = specgram.reshape({1, -1, specgram.size(-1)});
  const int64_t n = (win_length - 1) / 2;
  const double denom = static_cast<double>(n * (n + 1) * (2 * n + 1)) / 3.0;
  x = torch::pad(x, {n, n}, mode);
  Tensor kernel = arange(-n, n + 1, 1, TensorOptions(specgram.scalar_type())).repeat({x.size(1), 1, 1});
  return (conv1d(x, kernel, {}, 1, 0, 1, x.size(1)) / denom).reshape(shape);
}

namespace detail {

Tensor stretch_waveform(const Tensor& waveform, int64_t n_steps, int64_t bins_per_octave, int64_t n_fft,
                        int64_t win_length, int64_t hop_length, const Tensor& window) {
  EMBER_CHECK(waveform.dim() >= 1 && waveform.is_floating_point(),
              "pitch_shift: expected a floating-point waveform of shape [..., time]");
  EMBER_CHECK(bins_per_octave != 0, "pitch_shift: bins_per_octave must be non-zero");
  check_stft_args("pitch_shift", n_fft, hop_length, win_length, window);
  const int64_t ori_len = waveform.size(-1);
  EMBER_CHECK(n_fft / 2 < ori_len, "pitch_shift: n_fft = ", n_fft, " is too large for a signal of ", ori_len,
              " samples");
  Tensor x = waveform.reshape({-1, ori_len});
  const double rate = std::pow(2.0, -static_cast<double>(n_steps) / static_cast<double>(bins_per_octave));
  EMBER_CHECK(rate > 0 && static_cast<double>(ori_len) / rate < 1e12, "pitch_shift: n_steps ", n_steps,
              " is out of range for bins_per_octave ", bins_per_octave);
  const Tensor w = window_like(window, x.scalar_type());
  Tensor spec = stft(x, n_fft, hop_length, win_length, w, true, "reflect", false, true, true);
  Tensor phase_advance =
      linspace(0, std::numbers::pi * static_cast<double>(hop_length), spec.size(-2), kFloat).unsqueeze(-1);
  Tensor stretched = phase_vocoder(spec, rate, phase_advance);
  // Python's round() rounds half to even, as nearbyint does by default.
  const auto len_stretch = static_cast<int64_t>(std::nearbyint(static_cast<double>(ori_len) / rate));
  return istft(stretched, n_fft, hop_length, win_length, w, true, false, std::nullopt, len_stretch);
}

Tensor fix_waveform_shape(const Tensor& shifted, IntArrayRef shape) {
  const int64_t ori_len = shape.back(), shift_len = shifted.size(-1);
  Tensor out = shift_len > ori_len ? shifted.slice(-1, 0, ori_len) : constant_pad_nd(shifted, {0, ori_len - shift_len});
  return out.reshape(shape);
}

}  // namespace detail

Tensor pitch_shift(const Tensor& waveform, int64_t sample_rate, int64_t n_steps, int64_t bins_per_octave, int64_t n_fft,
                   std::optional<int64_t> win_length, std::optional<int64_t> hop_length,
                   const std::optional<Tensor>& window) {
  EMBER_CHECK(sample_rate > 0, "pitch_shift: sample_rate must be positive, got ", sample_rate);
  EMBER_CHECK(bins_per_octave != 0, "pitch_shift: bins_per_octave must be non-zero");
  EMBER_CHECK(n_fft > 0, "pitch_shift: n_fft must be positive, got ", n_fft);
  const int64_t hop = hop_length.value_or(n_fft / 4);
  const int64_t win = win_length.value_or(n_fft);
  Tensor w = window ? *window : hann_window(win);
  Tensor stretched = detail::stretch_waveform(waveform, n_steps, bins_per_octave, n_fft, win, hop, w);
  const double rate = std::pow(2.0, -static_cast<double>(n_steps) / static_cast<double>(bins_per_octave));
  EMBER_CHECK(static_cast<double>(sample_rate) / rate < 9e18, "pitch_shift: n_steps ", n_steps, " is out of range");
  Tensor shifted = resample(stretched, static_cast<int64_t>(static_cast<double>(sample_rate) / rate), sample_rate);
  return detail::fix_waveform_shape(shifted, waveform.sizes());
}

}  // namespace torch::audio::functional
