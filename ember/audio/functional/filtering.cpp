// lfilter, filtfilt and the biquad family of torchaudio/functional/filtering.py.
// Biquad coefficients are computed in double and cast to the waveform's dtype.
#include "ember/audio/functional/filtering.h"

#include <cmath>
#include <numbers>
#include <vector>

#include "ember/audio/functional/iir.h"
#include "ember/autograd/custom_function.h"
#include "ember/core/error.h"
#include "ember/fft/window.h"
#include "ember/ops/all_ops.h"

namespace torch::audio::functional {
namespace {

constexpr double kPi = std::numbers::pi;

void check_rate(const char* fn, int64_t sample_rate) {
  EMBER_CHECK(sample_rate > 0, fn, ": sample_rate must be positive, got ", sample_rate);
}

void check_wave(const char* fn, const Tensor& waveform) {
  EMBER_CHECK(waveform.defined() && waveform.dim() >= 1, fn, ": expected a waveform of shape [..., time]");
  EMBER_CHECK(waveform.scalar_type() == kFloat || waveform.scalar_type() == kDouble, fn,
              ": expected a float32 or float64 waveform, got ", waveform.scalar_type());
}

// torchaudio's _lfilter_core on [batch, filters, time].
Tensor lfilter_core(const Tensor& waveform, const Tensor& a_coeffs, const Tensor& b_coeffs) {
  const int64_t n_channel = waveform.size(1), n_order = a_coeffs.size(1);
  Tensor padded = constant_pad_nd(waveform, {n_order - 1, 0});
  Tensor a0 = a_coeffs.slice(1, 0, 1);
  Tensor windows = conv1d(padded, b_coeffs.flip({1}).unsqueeze(1), {}, 1, 0, 1, n_channel) / a0;
  return detail::iir(windows, a_coeffs.flip({1}) / a0);
}

// torchaudio computes most biquad coefficients as 0-d tensors in the
// waveform's dtype; doing the same keeps float32 filters bit-compatible.
Tensor scalar(const Tensor& like, double v) { return scalar_tensor(v, TensorOptions(like.scalar_type())); }

Tensor biquad_t(const Tensor& waveform, const Tensor& b0, const Tensor& b1, const Tensor& b2, const Tensor& a0,
                const Tensor& a1, const Tensor& a2);

Tensor wave_table(bool sine, bool as_int, int64_t table_size, double min, double max, double phase) {
  const auto phase_offset = static_cast<int64_t>(phase / kPi / 2 * static_cast<double>(table_size) + 0.5);
  Tensor point = remainder(arange(table_size, TensorOptions(kLong)) + phase_offset, table_size);
  Tensor pf = point.to(kDouble);
  Tensor d;
  if (sine) {
    d = (sin(pf / static_cast<double>(table_size) * 2 * kPi) + 1) / 2;
  } else {
    d = pf * 2 / static_cast<double>(table_size);
    Tensor quarter = div(4 * point, table_size, "floor");
    d = where(quarter == 0, d + 0.5, where(quarter == 3, d - 1.5, 1.5 - d));
  }
  d = d * (max - min) + min;
  if (as_int) return where(d < 0, d - 0.5, d + 0.5).to(kInt);
  return d.to(kFloat);
}

}  // namespace

Tensor lfilter(const Tensor& waveform, const Tensor& a_coeffs, const Tensor& b_coeffs, bool clamp, bool batching) {
  check_wave("lfilter", waveform);
  EMBER_CHECK(a_coeffs.sizes() == b_coeffs.sizes(), "lfilter: expected coeffs to be the same size, got a_coeffs ",
              a_coeffs.sizes(), " and b_coeffs ", b_coeffs.sizes());
  EMBER_CHECK(a_coeffs.dim() == 1 || a_coeffs.dim() == 2, "lfilter: expected 1-D or 2-D coefficients, got ",
              a_coeffs.sizes());
  EMBER_CHECK(a_coeffs.size(-1) > 0, "lfilter: expected a positive filter order, got ", a_coeffs.sizes());
  Tensor x = waveform;
  Tensor a = a_coeffs.to(waveform.scalar_type());
  Tensor b = b_coeffs.to(waveform.scalar_type());
  if (a.dim() == 2) {
    if (batching) {
      EMBER_CHECK(x.dim() >= 2 && x.size(-2) == a.size(0), "lfilter: expected ", a.size(0),
                  " filters along dim -2 of the waveform, got shape ", x.sizes());
    } else {
      std::vector<Tensor> copies(static_cast<size_t>(a.size(0)), x);
      x = stack(copies, -2);
    }
  } else {
    a = a.unsqueeze(0);
    b = b.unsqueeze(0);
  }
  auto shape = x.sizes().vec();
  Tensor out = lfilter_core(x.reshape({-1, a.size(0), shape.back()}), a, b);
  if (clamp) out = torch::clamp(out, -1.0, 1.0);
  return out.reshape(shape);
}

Tensor filtfilt(const Tensor& waveform, const Tensor& a_coeffs, const Tensor& b_coeffs, bool clamp) {
  Tensor forward = lfilter(waveform, a_coeffs, b_coeffs, false, true);
  return lfilter(forward.flip({-1}), a_coeffs, b_coeffs, clamp, true).flip({-1});
}

Tensor biquad(const Tensor& waveform, double b0, double b1, double b2, double a0, double a1, double a2) {
  check_wave("biquad", waveform);
  EMBER_CHECK(a0 != 0, "biquad: a0 must be non-zero");
  auto opts = TensorOptions(waveform.scalar_type());
  return lfilter(waveform, tensor({a0, a1, a2}, opts), tensor({b0, b1, b2}, opts));
}

namespace {
Tensor biquad_t(const Tensor& waveform, const Tensor& b0, const Tensor& b1, const Tensor& b2, const Tensor& a0,
                const Tensor& a1, const Tensor& a2) {
  return lfilter(waveform, stack({a0, a1, a2}), stack({b0, b1, b2}));
}
}  // namespace

Tensor allpass_biquad(const Tensor& waveform, int64_t sample_rate, double central_freq, double Q) {
  check_rate("allpass_biquad", sample_rate);
  check_wave("allpass_biquad", waveform);
  Tensor w0 = 2 * kPi * scalar(waveform, central_freq) / static_cast<double>(sample_rate);
  Tensor alpha = sin(w0) / 2 / scalar(waveform, Q);
  return biquad_t(waveform, 1 - alpha, -2 * cos(w0), 1 + alpha, 1 + alpha, -2 * cos(w0), 1 - alpha);
}

Tensor band_biquad(const Tensor& waveform, int64_t sample_rate, double central_freq, double Q, bool noise) {
  check_rate("band_biquad", sample_rate);
  check_wave("band_biquad", waveform);
  const auto sr = static_cast<double>(sample_rate);
  Tensor cf = scalar(waveform, central_freq);
  Tensor w0 = 2 * kPi * cf / sr;
  Tensor bw_hz = cf / scalar(waveform, Q);
  Tensor a2 = exp(-2 * kPi * bw_hz / sr);
  Tensor a1 = -4 * a2 / (1 + a2) * cos(w0);
  Tensor b0 = sqrt(1 - a1 * a1 / (4 * a2)) * (1 - a2);
  if (noise) b0 = sqrt(((1 + a2) * (1 + a2) - a1 * a1) * (1 - a2) / (1 + a2)) / b0 * b0;
  return biquad_t(waveform, b0, scalar(waveform, 0.0), scalar(waveform, 0.0), scalar(waveform, 1.0), a1, a2);
}

Tensor bandpass_biquad(const Tensor& waveform, int64_t sample_rate, double central_freq, double Q,
                       bool const_skirt_gain) {
  check_rate("bandpass_biquad", sample_rate);
  check_wave("bandpass_biquad", waveform);
  Tensor w0 = 2 * kPi * scalar(waveform, central_freq) / static_cast<double>(sample_rate);
  Tensor alpha = sin(w0) / 2 / scalar(waveform, Q);
  Tensor temp = const_skirt_gain ? sin(w0) / 2 : alpha;
  return biquad_t(waveform, temp, scalar(waveform, 0.0), -temp, 1 + alpha, -2 * cos(w0), 1 - alpha);
}

Tensor bandreject_biquad(const Tensor& waveform, int64_t sample_rate, double central_freq, double Q) {
  check_rate("bandreject_biquad", sample_rate);
  check_wave("bandreject_biquad", waveform);
  Tensor w0 = 2 * kPi * scalar(waveform, central_freq) / static_cast<double>(sample_rate);
  Tensor alpha = sin(w0) / 2 / scalar(waveform, Q);
  return biquad_t(waveform, scalar(waveform, 1.0), -2 * cos(w0), scalar(waveform, 1.0), 1 + alpha, -2 * cos(w0),
                  1 - alpha);
}

Tensor bass_biquad(const Tensor& waveform, int64_t sample_rate, double gain, double central_freq, double Q) {
  check_rate("bass_biquad", sample_rate);
  check_wave("bass_biquad", waveform);
  Tensor w0 = 2 * kPi * scalar(waveform, central_freq) / static_cast<double>(sample_rate);
  Tensor alpha = sin(w0) / 2 / scalar(waveform, Q);
  Tensor A = exp(scalar(waveform, gain) / 40 * std::log(10.0));
  Tensor t1 = 2 * sqrt(A) * alpha, t2 = (A - 1) * cos(w0), t3 = (A + 1) * cos(w0);
  Tensor b0 = A * ((A + 1) - t2 + t1), b1 = 2 * A * ((A - 1) - t3), b2 = A * ((A + 1) - t2 - t1);
  Tensor a0 = (A + 1) + t2 + t1, a1 = -2 * ((A - 1) + t3), a2 = (A + 1) + t2 - t1;
  return biquad_t(waveform, b0 / a0, b1 / a0, b2 / a0, a0 / a0, a1 / a0, a2 / a0);
}

Tensor deemph_biquad(const Tensor& waveform, int64_t sample_rate) {
  double central_freq, width_slope, gain;
  if (sample_rate == 44100) {
    central_freq = 5283, width_slope = 0.4845, gain = -9.477;
  } else if (sample_rate == 48000) {
    central_freq = 5356, width_slope = 0.479, gain = -9.62;
  } else {
    EMBER_CHECK(false, "deemph_biquad: sample rate must be 44100 (audio-CD) or 48000 (DAT), got ", sample_rate);
  }
  const double w0 = 2 * kPi * central_freq / static_cast<double>(sample_rate);
  const double A = std::exp(gain / 40.0 * std::log(10.0));
  const double alpha = std::sin(w0) / 2 * std::sqrt((A + 1 / A) * (1 / width_slope - 1) + 2);
  const double t1 = 2 * std::sqrt(A) * alpha, t2 = (A - 1) * std::cos(w0), t3 = (A + 1) * std::cos(w0);
  return biquad(waveform, A * ((A + 1) + t2 + t1), -2 * A * ((A - 1) + t3), A * ((A + 1) + t2 - t1), (A + 1) - t2 + t1,
                2 * ((A - 1) - t3), (A + 1) - t2 - t1);
}

Tensor equalizer_biquad(const Tensor& waveform, int64_t sample_rate, double center_freq, double gain, double Q) {
  check_rate("equalizer_biquad", sample_rate);
  check_wave("equalizer_biquad", waveform);
  Tensor w0 = 2 * kPi * scalar(waveform, center_freq) / static_cast<double>(sample_rate);
  Tensor A = exp(scalar(waveform, gain) / 40.0 * std::log(10.0));
  Tensor alpha = sin(w0) / 2 / scalar(waveform, Q);
  return biquad_t(waveform, 1 + alpha * A, -2 * cos(w0), 1 - alpha * A, 1 + alpha / A, -2 * cos(w0), 1 - alpha / A);
}

Tensor highpass_biquad(const Tensor& waveform, int64_t sample_rate, double cutoff_freq, double Q) {
  check_rate("highpass_biquad", sample_rate);
  check_wave("highpass_biquad", waveform);
  Tensor w0 = 2 * kPi * scalar(waveform, cutoff_freq) / static_cast<double>(sample_rate);
  Tensor alpha = sin(w0) / 2.0 / scalar(waveform, Q);
  Tensor b0 = (1 + cos(w0)) / 2;
  return biquad_t(waveform, b0, -1 - cos(w0), b0, 1 + alpha, -2 * cos(w0), 1 - alpha);
}

Tensor lowpass_biquad(const Tensor& waveform, int64_t sample_rate, double cutoff_freq, double Q) {
  check_rate("lowpass_biquad", sample_rate);
  check_wave("lowpass_biquad", waveform);
  Tensor w0 = 2 * kPi * scalar(waveform, cutoff_freq) / static_cast<double>(sample_rate);
  Tensor alpha = sin(w0) / 2 / scalar(waveform, Q);
  Tensor b0 = (1 - cos(w0)) / 2;
  return biquad_t(waveform, b0, 1 - cos(w0), b0, 1 + alpha, -2 * cos(w0), 1 - alpha);
}

Tensor riaa_biquad(const Tensor& waveform, int64_t sample_rate) {
  double z0, z1, p0, p1;
  if (sample_rate == 44100) {
    z0 = -0.2014898, z1 = 0.9233820, p0 = 0.7083149, p1 = 0.9924091;
  } else if (sample_rate == 48000) {
    z0 = -0.1766069, z1 = 0.9321590, p0 = 0.7396325, p1 = 0.9931330;
  } else if (sample_rate == 88200) {
    z0 = -0.1168735, z1 = 0.9648312, p0 = 0.8590646, p1 = 0.9964002;
  } else if (sample_rate == 96000) {
    z0 = -0.1141486, z1 = 0.9676817, p0 = 0.8699137, p1 = 0.9966946;
  } else {
    EMBER_CHECK(false, "riaa_biquad: sample rate must be 44.1k, 48k, 88.2k, or 96k, got ", sample_rate);
  }
  double b0 = 1.0, b1 = -(z0 + z1), b2 = z0 * z1;
  const double a0 = 1.0, a1 = -(p0 + p1), a2 = p0 * p1;
  // Unit gain at 1 kHz.
  const double y = 2 * kPi * 1000 / static_cast<double>(sample_rate);
  const double b_re = b0 + b1 * std::cos(-y) + b2 * std::cos(-2 * y);
  const double a_re = a0 + a1 * std::cos(-y) + a2 * std::cos(-2 * y);
  const double b_im = b1 * std::sin(-y) + b2 * std::sin(-2 * y);
  const double a_im = a1 * std::sin(-y) + a2 * std::sin(-2 * y);
  const double g = 1 / std::sqrt((b_re * b_re + b_im * b_im) / (a_re * a_re + a_im * a_im));
  b0 *= g, b1 *= g, b2 *= g;
  return biquad(waveform, b0, b1, b2, a0, a1, a2);
}

Tensor treble_biquad(const Tensor& waveform, int64_t sample_rate, double gain, double central_freq, double Q) {
  check_rate("treble_biquad", sample_rate);
  check_wave("treble_biquad", waveform);
  Tensor w0 = 2 * kPi * scalar(waveform, central_freq) / static_cast<double>(sample_rate);
  Tensor alpha = sin(w0) / 2 / scalar(waveform, Q);
  Tensor A = exp(scalar(waveform, gain) / 40 * std::log(10.0));
  Tensor t1 = 2 * sqrt(A) * alpha, t2 = (A - 1) * cos(w0), t3 = (A + 1) * cos(w0);
  return biquad_t(waveform, A * ((A + 1) + t2 + t1), -2 * A * ((A - 1) + t3), A * ((A + 1) + t2 - t1),
                  (A + 1) - t2 + t1, 2 * ((A - 1) - t3), (A + 1) - t2 - t1);
}

Tensor contrast(const Tensor& waveform, double enhancement_amount) {
  EMBER_CHECK(enhancement_amount >= 0 && enhancement_amount <= 100,
              "contrast: allowed range of values for enhancement_amount is 0-100, got ", enhancement_amount);
  const double c = enhancement_amount / 750.0;
  Tensor t1 = waveform * (kPi / 2);
  return sin(t1 + c * sin(t1 * 4));
}

Tensor dcshift(const Tensor& waveform, double shift, std::optional<double> limiter_gain) {
  Tensor shifted = (waveform + shift).clamp(-1, 1);
  if (!limiter_gain || shift == 0) return shifted;
  const double lg = *limiter_gain;
  const double thr = 1.0 - (std::abs(shift) - lg);
  if (shift > 0) {
    Tensor limited = ((waveform - thr) * lg / (1 - thr) + thr + shift).clamp_max(thr);
    return where(waveform > thr, limited, shifted);
  }
  Tensor limited = ((waveform + thr) * lg / (1 - thr) - thr + shift).clamp_min(-thr);
  return where(waveform < -thr, limited, shifted);
}

Tensor gain(const Tensor& waveform, double gain_db) {
  if (gain_db == 0) return waveform;
  return waveform * std::pow(10.0, gain_db / 20);
}

Tensor overdrive(const Tensor& waveform, double gain, double colour) {
  check_wave("overdrive", waveform);
  const auto shape = waveform.sizes().vec();
  Tensor x = waveform.reshape({-1, shape.back()});
  const double g = std::exp(gain * std::log(10.0) / 20.0);
  Tensor temp = x * g + colour / 200;
  temp = where(temp < -1, -2.0 / 3.0, where(temp > 1, 2.0 / 3.0, temp - temp.pow(3) * (1.0 / 3)));
  // The one-pole DC blocker: last_out = temp[i] - temp[i-1] + 0.995 last_out.
  Tensor diff = temp - constant_pad_nd(temp, {1, 0}).slice(1, 0, temp.size(1));
  Tensor one = ones({1, 1}, TensorOptions(x.scalar_type()));
  Tensor a_flipped = cat({full({1, 1}, -0.995, TensorOptions(x.scalar_type())), one}, 1);
  Tensor last_out = detail::iir(diff.unsqueeze(0), a_flipped.expand({diff.size(0), 2}).contiguous()).squeeze(0);
  return (x * 0.5 + last_out * 0.75).clamp(-1, 1).reshape(shape);
}

Tensor dither(const Tensor& waveform, const std::string& density_function, bool noise_shaping) {
  check_wave("dither", waveform);
  EMBER_CHECK(density_function == "TPDF" || density_function == "RPDF" || density_function == "GPDF",
              "dither: density_function must be \"TPDF\", \"RPDF\" or \"GPDF\", got \"", density_function, "\"");
  const auto shape = waveform.sizes().vec();
  Tensor x = waveform.reshape({-1, shape.back()});
  const int64_t channel_size = x.size(0) - 1, time_size = x.size(1) - 1;
  auto pick = [](int64_t n) { return n > 0 ? randint(n, {1}).item<int64_t>() : int64_t{0}; };
  const double up_scaling = 32768.0 - 2, down_scaling = 32768.0;
  Tensor scaled = x * up_scaling;
  Tensor dis;
  if (density_function == "RPDF") {
    const int64_t rc = pick(channel_size), rt = pick(time_size);
    dis = scaled + (x.select(0, rc).select(0, rt) - 0.5);
  } else if (density_function == "GPDF") {
    const int64_t rc = pick(channel_size), rt = pick(time_size);
    Tensor gaussian = x.select(0, rc).select(0, rt);
    for (int i = 0; i < 6; ++i) gaussian = gaussian + x.select(0, pick(channel_size)).select(0, pick(time_size));
    dis = scaled + gaussian;
  } else {
    Tensor tpdf = bartlett_window(time_size + 1, TensorOptions(x.scalar_type())).repeat({channel_size + 1, 1});
    dis = scaled + tpdf;
  }
  Tensor dithered = round(dis) / down_scaling;
  if (noise_shaping) {
    Tensor error = dithered - x;
    dithered = dithered + constant_pad_nd(error, {1, 0}).slice(1, 0, error.size(1));
  }
  return dithered.reshape(shape);
}

// Note [Delay-line gradients]: flanger's and phaser's delay lines are linear,
// time-varying maps of the input (the LFO only picks taps and weights), so the
// gradient is the transposed map: the same taps walked backwards in time,
// adjoint writes before adjoint reads. Each direction is a custom function
// whose backward is the other one, so gradgradcheck holds too. Rows are
// [batch * channels, time] float64; the forward loops are torchaudio's.
namespace {

struct FlangerTaps {
  const int64_t* idelay;  // [channels, n]
  const double* frac;
  int64_t channels, n, buf_len;
  double feedback, in_gain, delay_gain;
  bool quadratic;
};

// Tap weights of the linear or quadratic interpolation between taps 0, 1, 2.
void tap_weights(const FlangerTaps& p, double f, double w[3]) {
  if (!p.quadratic) {
    w[0] = 1 - f, w[1] = f, w[2] = 0;
  } else {
    w[0] = 1 + f * f / 2 - 1.5 * f, w[1] = 2 * f - f * f, w[2] = (f * f - f) / 2;
  }
}

void flanger_forward(const FlangerTaps& p, const double* x, double* out, int64_t rows) {
  for (int64_t r = 0; r < rows; ++r) {
    const int64_t c = r % p.channels;
    std::vector<double> buf(static_cast<size_t>(p.buf_len), 0.0);
    double last = 0.0;
    int64_t pos = 0;
    for (int64_t i = 0; i < p.n; ++i) {
      pos = (pos + p.buf_len - 1) % p.buf_len;
      const double frac = p.frac[c * p.n + i];
      const int64_t idelay = p.idelay[c * p.n + i];
      buf[static_cast<size_t>(pos)] = x[r * p.n + i] + last * p.feedback;
      const double d0 = buf[static_cast<size_t>((pos + idelay) % p.buf_len)];
      double d1 = buf[static_cast<size_t>((pos + idelay + 1) % p.buf_len)];
      double delayed;
      if (!p.quadratic) {
        delayed = d0 + (d1 - d0) * frac;
      } else {
        double d2 = buf[static_cast<size_t>((pos + idelay + 2) % p.buf_len)] - d0;
        d1 = d1 - d0;
        const double qa = d2 * 0.5 - d1, qb = d1 * 2 - d2 * 0.5;
        delayed = d0 + (qa * frac + qb) * frac;
      }
      last = delayed;
      out[r * p.n + i] = x[r * p.n + i] * p.in_gain + delayed * p.delay_gain;
    }
  }
}

void flanger_adjoint(const FlangerTaps& p, const double* g, double* gx, int64_t rows) {
  for (int64_t r = 0; r < rows; ++r) {
    const int64_t c = r % p.channels;
    std::vector<double> gbuf(static_cast<size_t>(p.buf_len), 0.0);
    double glast = 0.0;
    // The write position of sample i is (-(i + 1)) mod buf_len.
    for (int64_t i = p.n - 1; i >= 0; --i) {
      const int64_t pos = ((-(i + 1)) % p.buf_len + p.buf_len) % p.buf_len;
      const int64_t idelay = p.idelay[c * p.n + i];
      double w[3];
      tap_weights(p, p.frac[c * p.n + i], w);
      const double gdelayed = g[r * p.n + i] * p.delay_gain + glast;
      for (int k = 0; k < (p.quadratic ? 3 : 2); ++k)
        gbuf[static_cast<size_t>((pos + idelay + k) % p.buf_len)] += w[k] * gdelayed;
      const double gwritten = gbuf[static_cast<size_t>(pos)];
      gbuf[static_cast<size_t>(pos)] = 0;
      gx[r * p.n + i] = g[r * p.n + i] * p.in_gain + gwritten;
      glast = gwritten * p.feedback;
    }
  }
}

FlangerTaps flanger_taps(const Tensor& idelay, const Tensor& frac, int64_t buf_len, double feedback, double in_gain,
                         double delay_gain, bool quadratic) {
  return {idelay.data_ptr<int64_t>(),
          frac.data_ptr<double>(),
          idelay.size(0),
          idelay.size(1),
          buf_len,
          feedback,
          in_gain,
          delay_gain,
          quadratic};
}

struct DelayLineAdjoint;

// x: [batch, channels, n] float64 -> the delay line's output (before clamping).
struct DelayLine : autograd::Function<DelayLine> {
  static Tensor forward(autograd::AutogradContext* ctx, const Tensor& x, const Tensor& idelay, const Tensor& frac,
                        int64_t buf_len, double feedback, double in_gain, double delay_gain, bool quadratic);
  static autograd::variable_list backward(autograd::AutogradContext* ctx, autograd::variable_list grads);
};
struct DelayLineAdjoint : autograd::Function<DelayLineAdjoint> {
  static Tensor forward(autograd::AutogradContext* ctx, const Tensor& g, const Tensor& idelay, const Tensor& frac,
                        int64_t buf_len, double feedback, double in_gain, double delay_gain, bool quadratic);
  static autograd::variable_list backward(autograd::AutogradContext* ctx, autograd::variable_list grads);
};

void save_flanger(autograd::AutogradContext* ctx, const Tensor& idelay, const Tensor& frac, int64_t buf_len,
                  double feedback, double in_gain, double delay_gain, bool quadratic) {
  ctx->saved_data["idelay"] = idelay;
  ctx->saved_data["frac"] = frac;
  ctx->saved_data["buf_len"] = buf_len;
  ctx->saved_data["feedback"] = feedback;
  ctx->saved_data["in_gain"] = in_gain;
  ctx->saved_data["delay_gain"] = delay_gain;
  ctx->saved_data["quadratic"] = quadratic;
}

template <class Fn>
Tensor apply_saved_flanger(autograd::AutogradContext* ctx, const Tensor& g) {
  auto& d = ctx->saved_data;
  return Fn::apply(g, d["idelay"].toTensor(), d["frac"].toTensor(), d["buf_len"].toInt(), d["feedback"].toDouble(),
                   d["in_gain"].toDouble(), d["delay_gain"].toDouble(), d["quadratic"].toBool());
}

Tensor DelayLine::forward(autograd::AutogradContext* ctx, const Tensor& x, const Tensor& idelay, const Tensor& frac,
                          int64_t buf_len, double feedback, double in_gain, double delay_gain, bool quadratic) {
  save_flanger(ctx, idelay, frac, buf_len, feedback, in_gain, delay_gain, quadratic);
  Tensor xc = x.contiguous(), out = empty_like(xc);
  flanger_forward(flanger_taps(idelay, frac, buf_len, feedback, in_gain, delay_gain, quadratic), xc.data_ptr<double>(),
                  out.data_ptr<double>(), xc.size(0) * xc.size(1));
  return out;
}
autograd::variable_list DelayLine::backward(autograd::AutogradContext* ctx, autograd::variable_list grads) {
  return {apply_saved_flanger<DelayLineAdjoint>(ctx, grads[0]), {}, {}, {}, {}, {}, {}, {}};
}
Tensor DelayLineAdjoint::forward(autograd::AutogradContext* ctx, const Tensor& g, const Tensor& idelay,
                                 const Tensor& frac, int64_t buf_len, double feedback, double in_gain,
                                 double delay_gain, bool quadratic) {
  save_flanger(ctx, idelay, frac, buf_len, feedback, in_gain, delay_gain, quadratic);
  Tensor gc = g.contiguous(), gx = empty_like(gc);
  flanger_adjoint(flanger_taps(idelay, frac, buf_len, feedback, in_gain, delay_gain, quadratic), gc.data_ptr<double>(),
                  gx.data_ptr<double>(), gc.size(0) * gc.size(1));
  return gx;
}
autograd::variable_list DelayLineAdjoint::backward(autograd::AutogradContext* ctx, autograd::variable_list grads) {
  return {apply_saved_flanger<DelayLine>(ctx, grads[0]), {}, {}, {}, {}, {}, {}, {}};
}

// phaser's line: temp = x + buf[tap]; buf[next] = temp * decay; out = temp.
void phaser_forward(const int64_t* taps, int64_t delay_len, double decay, const double* x, double* out, int64_t rows,
                    int64_t n) {
  for (int64_t r = 0; r < rows; ++r) {
    std::vector<double> buf(static_cast<size_t>(delay_len), 0.0);
    for (int64_t i = 0; i < n; ++i) {
      const double temp = x[r * n + i] + buf[static_cast<size_t>(taps[i])];
      buf[static_cast<size_t>((i + 1) % delay_len)] = temp * decay;
      out[r * n + i] = temp;
    }
  }
}
void phaser_adjoint(const int64_t* taps, int64_t delay_len, double decay, const double* g, double* gx, int64_t rows,
                    int64_t n) {
  for (int64_t r = 0; r < rows; ++r) {
    std::vector<double> gbuf(static_cast<size_t>(delay_len), 0.0);
    for (int64_t i = n - 1; i >= 0; --i) {
      const auto w = static_cast<size_t>((i + 1) % delay_len);
      const double gtemp = g[r * n + i] + gbuf[w] * decay;
      gbuf[w] = 0;
      gbuf[static_cast<size_t>(taps[i])] += gtemp;
      gx[r * n + i] = gtemp;
    }
  }
}

template <bool Adjoint>
struct PhaserLineT : autograd::Function<PhaserLineT<Adjoint>> {
  static Tensor forward(autograd::AutogradContext* ctx, const Tensor& x, const Tensor& taps, int64_t delay_len,
                        double decay) {
    ctx->saved_data["taps"] = taps;
    ctx->saved_data["delay_len"] = delay_len;
    ctx->saved_data["decay"] = decay;
    Tensor xc = x.contiguous(), out = empty_like(xc);
    (Adjoint ? phaser_adjoint : phaser_forward)(taps.data_ptr<int64_t>(), delay_len, decay, xc.data_ptr<double>(),
                                                out.data_ptr<double>(), xc.size(0), xc.size(1));
    return out;
  }
  static autograd::variable_list backward(autograd::AutogradContext* ctx, autograd::variable_list grads) {
    auto& d = ctx->saved_data;
    return {PhaserLineT<!Adjoint>::apply(grads[0], d["taps"].toTensor(), d["delay_len"].toInt(), d["decay"].toDouble()),
            {},
            {},
            {}};
  }
};
using PhaserLine = PhaserLineT<false>;

}  // namespace

Tensor flanger(const Tensor& waveform, int64_t sample_rate, double delay, double depth, double regen, double width,
               double speed, double phase, const std::string& modulation, const std::string& interpolation) {
  check_wave("flanger", waveform);
  check_rate("flanger", sample_rate);
  EMBER_CHECK(modulation == "sinusoidal" || modulation == "triangular",
              "flanger: only \"sinusoidal\" or \"triangular\" modulation allowed, got \"", modulation, "\"");
  EMBER_CHECK(interpolation == "linear" || interpolation == "quadratic",
              "flanger: only \"linear\" or \"quadratic\" interpolation allowed, got \"", interpolation, "\"");
  EMBER_CHECK(waveform.dim() >= 2 && waveform.size(-2) <= 4, "flanger: expected [..., channels <= 4, time], got ",
              waveform.sizes());
  EMBER_CHECK(speed > 0 && delay >= 0 && depth >= 0, "flanger: speed must be positive and delay, depth non-negative");
  EMBER_CHECK(std::isfinite(phase) && std::abs(phase) < 1e6 && std::isfinite(regen) && std::isfinite(width),
              "flanger: phase, regen and width must be finite, got ", phase, ", ", regen, " and ", width);
  const auto sr = static_cast<double>(sample_rate);
  EMBER_CHECK(static_cast<double>(sample_rate) / speed < 1e9 && (delay + depth) / 1000 * sr < 1e9, "flanger: speed ",
              speed, " or delay ", delay + depth, " ms gives too large a buffer");
  const auto shape = waveform.sizes().vec();
  Tensor x = waveform.reshape({-1, shape[shape.size() - 2], shape.back()}).to(kDouble).contiguous();
  const int64_t n_channels = x.size(1), n = x.size(2);
  const double feedback_gain = regen / 100, channel_phase = phase / 100;
  double delay_gain = width / 100;
  const double delay_min = delay / 1000, delay_depth = depth / 1000;
  const double in_gain = 1.0 / (1 + delay_gain);
  delay_gain = delay_gain / (1 + delay_gain) * (1 - std::abs(feedback_gain));
  const int64_t buf_len = static_cast<int64_t>((delay_min + delay_depth) * sr + 0.5) + 2;
  const auto lfo_length = static_cast<int64_t>(sr / speed);
  EMBER_CHECK(lfo_length > 0, "flanger: speed ", speed, " is too high for sample rate ", sample_rate);
  const double table_min = std::floor(delay_min * sr + 0.5), table_max = static_cast<double>(buf_len) - 2.0;
  Tensor lfo_t = wave_table(modulation == "sinusoidal", false, lfo_length, table_min, table_max, 3 * kPi / 2);
  const float* lfo = lfo_t.data_ptr<float>();
  // The LFO's integer delay and fraction per (channel, sample); channels differ only in phase.
  Tensor idelay_t = empty({n_channels, n}, TensorOptions(kLong));
  Tensor frac_t = empty({n_channels, n}, TensorOptions(kDouble));
  int64_t* idelay = idelay_t.data_ptr<int64_t>();
  double* frac = frac_t.data_ptr<double>();
  for (int64_t c = 0; c < n_channels; ++c) {
    const auto chan_phase = static_cast<int64_t>(
        static_cast<float>(static_cast<float>(c * lfo_length) * static_cast<float>(channel_phase)) + 0.5f);
    for (int64_t i = 0, lfo_pos = 0; i < n; ++i, lfo_pos = (lfo_pos + 1) % lfo_length) {
      // A negative channel phase wraps around, as Python's negative indices do.
      const float d = lfo[((lfo_pos + chan_phase) % lfo_length + lfo_length) % lfo_length];
      frac[c * n + i] = static_cast<double>(d - std::floor(d));
      idelay[c * n + i] = static_cast<int64_t>(std::floor(d));
    }
  }
  Tensor out_t =
      DelayLine::apply(x, idelay_t, frac_t, buf_len, feedback_gain, in_gain, delay_gain, interpolation == "quadratic");
  return out_t.clamp(-1, 1).to(waveform.scalar_type()).reshape(shape);
}

Tensor phaser(const Tensor& waveform, int64_t sample_rate, double gain_in, double gain_out, double delay_ms,
              double decay, double mod_speed, bool sinusoidal) {
  check_wave("phaser", waveform);
  check_rate("phaser", sample_rate);
  const auto sr = static_cast<double>(sample_rate);
  EMBER_CHECK(delay_ms > 0 && mod_speed > 0 && delay_ms * 0.001 * sr < 1e9 && sr / mod_speed < 1e9,
              "phaser: delay_ms and mod_speed must be positive and give a reasonable buffer, got ", delay_ms, " and ",
              mod_speed);
  const auto shape = waveform.sizes().vec();
  Tensor x = (waveform.reshape({-1, shape.back()}) * gain_in).to(kDouble).contiguous();
  const auto delay_len = static_cast<int64_t>(delay_ms * 0.001 * sr + 0.5);
  const auto mod_len = static_cast<int64_t>(sr / mod_speed + 0.5);
  EMBER_CHECK(delay_len > 0 && mod_len > 0, "phaser: delay_ms ", delay_ms, " is shorter than one sample");
  Tensor mod_t = wave_table(sinusoidal, true, mod_len, 1.0, static_cast<double>(delay_len), kPi / 2);
  const int32_t* mod = mod_t.data_ptr<int32_t>();
  const int64_t n = x.size(1);
  // The tap read at each sample (the same for every row).
  Tensor taps_t = empty({n}, TensorOptions(kLong));
  int64_t* taps = taps_t.data_ptr<int64_t>();
  for (int64_t i = 0, delay_pos = 0, mod_pos = 0; i < n; ++i) {
    taps[i] = (delay_pos + mod[mod_pos]) % delay_len;
    mod_pos = (mod_pos + 1) % mod_len;
    delay_pos = (delay_pos + 1) % delay_len;
  }
  Tensor out_t = PhaserLine::apply(x, taps_t, delay_len, decay);
  return (out_t * gain_out).clamp(-1, 1).to(waveform.scalar_type()).reshape(shape);
}

}  // namespace torch::audio::functional
