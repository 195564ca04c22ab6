// The two resamplers of Kaldi's pitch tracker and its lag grid. Both
// resamplers use the same kernel: a sinc low-pass at `cutoff` under a Hann
// window num_zeros / (2 cutoff) seconds wide on each side, scaled by 1/rate_in
// so it integrates to one.
#include <cmath>
#include <numeric>

#include "ember/audio/functional/kaldi_pitch_detail.h"
#include "ember/core/error.h"

namespace torch::audio::functional::kaldi_pitch_detail {
namespace {

double windowed_sinc(double t, double cutoff, int32_t num_zeros) {
  const double half_width = num_zeros / (2.0 * cutoff);
  if (std::fabs(t) >= half_width) return 0.0;
  const double window = 0.5 * (1 + std::cos(2 * M_PI * cutoff / num_zeros * t));
  const double sinc = t != 0 ? std::sin(2 * M_PI * cutoff * t) / (M_PI * t) : 2 * cutoff;
  return sinc * window;
}

}  // namespace

LinearResampler::LinearResampler(int32_t rate_in, int32_t rate_out, double cutoff, int32_t num_zeros)
    : rate_in_(rate_in), rate_out_(rate_out), cutoff_(cutoff), num_zeros_(num_zeros) {
  EMBER_CHECK(rate_in > 0 && rate_out > 0, "compute_kaldi_pitch: sample rates must be positive, got ", rate_in, " and ",
              rate_out);
  EMBER_CHECK(cutoff > 0 && cutoff * 2 <= rate_in && cutoff * 2 <= rate_out,
              "compute_kaldi_pitch: lowpass_cutoff must be positive and at most half of both the sample rate (",
              rate_in, ") and resample_frequency (", rate_out, "), got ", cutoff);
  EMBER_CHECK(num_zeros > 0, "compute_kaldi_pitch: lowpass_filter_width must be positive, got ", num_zeros);
  const int32_t g = std::gcd(rate_in, rate_out);
  in_unit_ = rate_in / g;
  out_unit_ = rate_out / g;
  // The output times repeat their position between input samples every
  // out_unit_ samples, so one period of kernels serves the whole signal.
  const double half_width = num_zeros / (2.0 * cutoff);
  first_index_.resize(out_unit_);
  weights_.resize(out_unit_);
  for (int32_t i = 0; i < out_unit_; ++i) {
    const double t_out = i / static_cast<double>(rate_out);
    const auto lo = static_cast<int64_t>(std::ceil((t_out - half_width) * rate_in));
    const auto hi = static_cast<int64_t>(std::floor((t_out + half_width) * rate_in));
    first_index_[i] = lo;
    for (int64_t k = lo; k <= hi; ++k)
      weights_[i].push_back(
          static_cast<float>(windowed_sinc(k / static_cast<double>(rate_in) - t_out, cutoff, num_zeros) / rate_in));
  }
}

int64_t LinearResampler::num_output_samples(int64_t n, bool flush) const {
  // Time counted in ticks of 1 / lcm(rate_in, rate_out) seconds keeps it exact.
  const int64_t tick_freq = std::lcm(static_cast<int64_t>(rate_in_), static_cast<int64_t>(rate_out_));
  int64_t ticks = n * (tick_freq / rate_in_);
  if (!flush) ticks -= static_cast<int64_t>(std::floor(num_zeros_ / (2.0 * cutoff_) * tick_freq));
  if (ticks <= 0) return 0;
  const int64_t per_out = tick_freq / rate_out_;
  int64_t last = ticks / per_out;
  if (last * per_out == ticks) --last;  // the interval is open on the right
  return last + 1;
}

std::vector<float> LinearResampler::resample(const float* x, int64_t n, int64_t num_out) const {
  std::vector<float> out(static_cast<size_t>(num_out));
  for (int64_t t = 0; t < num_out; ++t) {
    const int64_t unit = t / out_unit_, i = t % out_unit_;
    const int64_t first = unit * in_unit_ + first_index_[i];
    const auto& w = weights_[i];
    double acc = 0;
    for (size_t j = 0; j < w.size(); ++j) {
      const int64_t k = first + static_cast<int64_t>(j);
      if (k >= 0 && k < n) acc += static_cast<double>(w[j]) * x[k];
    }
    out[t] = static_cast<float>(acc);
  }
  return out;
}

std::vector<float> select_lags(const PitchOptions& opts) {
  const float min_lag = 1.0f / opts.max_f0, max_lag = 1.0f / opts.min_f0;
  std::vector<float> lags;
  for (float lag = min_lag; lag <= max_lag; lag = static_cast<float>(lag * (1.0 + opts.delta_pitch)))
    lags.push_back(lag);
  return lags;
}

// The outer lag range widens [1/max_f0, 1/min_f0] by the upsampling kernel's
// half-width so every grid lag has all its interpolation taps measured.
int32_t first_measured_lag(const PitchOptions& opts) {
  const double outer = 1.0 / opts.max_f0 - opts.upsample_filter_width / (2.0 * opts.resample_freq);
  return static_cast<int32_t>(std::ceil(opts.resample_freq * outer));
}

int32_t last_measured_lag(const PitchOptions& opts) {
  const double outer = 1.0 / opts.min_f0 + opts.upsample_filter_width / (2.0 * opts.resample_freq);
  return static_cast<int32_t>(std::floor(opts.resample_freq * outer));
}

LagResampler::LagResampler(const PitchOptions& opts, const std::vector<float>& lags) {
  const int32_t first = first_measured_lag(opts), last = last_measured_lag(opts);
  num_in_ = last + 1 - first;
  const float rate = opts.resample_freq;
  // Cut off at the Nyquist frequency of resample_freq: the NCCF is band-limited to about lowpass_cutoff.
  const float cutoff = rate * 0.5f;
  const int32_t zeros = opts.upsample_filter_width;
  const float half_width = static_cast<float>(zeros / (2.0 * cutoff));
  first_index_.resize(lags.size());
  weights_.resize(lags.size());
  for (size_t i = 0; i < lags.size(); ++i) {
    // Times relative to the first measured lag, which is sample 0 of the input row.
    const float t = lags[i] - first / rate;
    auto lo = static_cast<int64_t>(std::ceil(rate * (t - half_width)));
    auto hi = static_cast<int64_t>(std::floor(rate * (t + half_width)));
    lo = std::max<int64_t>(lo, 0);
    hi = std::min<int64_t>(hi, num_in_ - 1);
    first_index_[i] = lo;
    for (int64_t k = lo; k <= hi; ++k) {
      const float dt = t - k / rate;
      weights_[i].push_back(static_cast<float>(windowed_sinc(dt, cutoff, zeros) / rate));
    }
  }
}

void LagResampler::apply(const float* in, float* out) const {
  for (size_t i = 0; i < first_index_.size(); ++i) {
    double acc = 0;
    const float* row = in + first_index_[i];
    for (size_t j = 0; j < weights_[i].size(); ++j) acc += static_cast<double>(weights_[i][j]) * row[j];
    out[i] = static_cast<float>(acc);
  }
}

std::vector<float> LagResampler::dense() const {
  const int64_t m = num_out();
  std::vector<float> w(static_cast<size_t>(num_in_ * m), 0.0f);
  for (int64_t i = 0; i < m; ++i)
    for (size_t j = 0; j < weights_[i].size(); ++j)
      w[(first_index_[i] + static_cast<int64_t>(j)) * m + i] = weights_[i][j];
  return w;
}

}  // namespace torch::audio::functional::kaldi_pitch_detail
