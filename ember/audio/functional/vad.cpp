// SoX's vad as torchaudio 0.13 runs it: float32 state, one cepstral measure
// every measure period per channel, trigger on a smoothed measure, then trim.
#include "ember/audio/functional/vad.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "ember/core/error.h"
#include "ember/fft/fft.h"
#include "ember/fft/window.h"
#include "ember/ops/all_ops.h"

namespace torch::audio::functional {
namespace {

struct VadParams {
  int64_t measure_len_ws, dft_len_ws, spectrum_start, spectrum_end, cepstrum_start, cepstrum_end;
  double noise_reduction_amount, measure_smooth_time_mult, noise_up_time_mult, noise_down_time_mult;
  Tensor spectrum_window, cepstrum_window;  // float32
};

// One channel's measure: the smoothed, noise-reduced spectrum of the last
// measure_len_ws samples, then the energy of a band of its cepstrum.
double measure(const VadParams& p, const std::vector<float>& samples, std::vector<float>& spectrum,
               std::vector<float>& noise_spectrum, int64_t index_ns, int64_t boot_count) {
  const auto samples_len = static_cast<int64_t>(samples.size());
  Tensor buf = zeros({p.dft_len_ws});
  float* b = buf.data_ptr<float>();
  const float* win = p.spectrum_window.data_ptr<float>();
  for (int64_t i = 0; i < p.measure_len_ws; ++i)
    b[i] = samples[static_cast<size_t>((index_ns + i) % samples_len)] * win[i];
  Tensor dft = fft::rfft(buf).abs().contiguous();
  const float* d = dft.data_ptr<float>();
  const double mult_d = boot_count >= 0 ? static_cast<double>(boot_count) / (1.0 + static_cast<double>(boot_count))
                                        : p.measure_smooth_time_mult;
  const auto mult = static_cast<float>(mult_d), one_minus_mult = static_cast<float>(1 - mult_d);
  const int64_t n = p.spectrum_end - p.spectrum_start;
  Tensor reduced = zeros({p.dft_len_ws >> 1});
  float* r = reduced.data_ptr<float>();
  const float* cw = p.cepstrum_window.data_ptr<float>();
  const auto up = static_cast<float>(p.noise_up_time_mult), down = static_cast<float>(p.noise_down_time_mult);
  const auto nra = static_cast<float>(p.noise_reduction_amount);
  for (int64_t k = 0; k < n; ++k) {
    const auto s = static_cast<size_t>(p.spectrum_start + k);
    spectrum[s] = spectrum[s] * mult + d[s] * one_minus_mult;
    const float power = spectrum[s] * spectrum[s];
    const float nmult = boot_count >= 0 ? 0.0f : (power > noise_spectrum[s] ? up : down);
    noise_spectrum[s] = noise_spectrum[s] * nmult + power * (1 - nmult);
    const float clean = std::sqrt(std::max(0.0f, power - nra * noise_spectrum[s]));
    r[p.spectrum_start + k] = clean * cw[k];
  }
  Tensor cep = fft::rfft(reduced).abs().pow(2).slice(0, p.cepstrum_start, p.cepstrum_end).sum();
  const double result = cep.item<double>();
  const double level = result > 0 ? std::log(result / static_cast<double>(p.cepstrum_end - p.cepstrum_start))
                                  : -std::numeric_limits<double>::infinity();
  return std::max(0.0, 21 + level);
}

}  // namespace

Tensor vad(const Tensor& waveform, int64_t sample_rate, double trigger_level, double trigger_time, double search_time,
           double allowed_gap, double pre_trigger_time, double boot_time, double noise_up_time, double noise_down_time,
           double noise_reduction_amount, double measure_freq, std::optional<double> measure_duration,
           double measure_smooth_time, double hp_filter_freq, double lp_filter_freq, double hp_lifter_freq,
           double lp_lifter_freq) {
  EMBER_CHECK(waveform.dim() >= 1, "vad: expected a waveform of shape [..., time], got a 0-d tensor");
  EMBER_CHECK(waveform.is_floating_point(), "vad: expected a floating-point waveform, got ", waveform.scalar_type());
  EMBER_CHECK(sample_rate > 0, "vad: sample_rate must be positive, got ", sample_rate);
  EMBER_CHECK(measure_freq > 0 && search_time >= 0 && allowed_gap >= 0 && pre_trigger_time >= 0 && trigger_time > 0 &&
                  noise_up_time > 0 && noise_down_time > 0 && measure_smooth_time > 0,
              "vad: measure_freq and the time constants must be positive, got measure_freq ", measure_freq);
  for (double v : {trigger_level, trigger_time, search_time, allowed_gap, pre_trigger_time, boot_time, noise_up_time,
                   noise_down_time, noise_reduction_amount, measure_freq, measure_smooth_time, hp_filter_freq,
                   lp_filter_freq, hp_lifter_freq, lp_lifter_freq})
    EMBER_CHECK(std::isfinite(v), "vad: every parameter must be finite, got ", v);
  EMBER_CHECK(hp_filter_freq >= 0 && lp_filter_freq > 0 && hp_lifter_freq > 0 && lp_lifter_freq > 0 && boot_time >= 0,
              "vad: filter and lifter frequencies must be positive, got ", hp_filter_freq, ", ", lp_filter_freq, ", ",
              hp_lifter_freq, " and ", lp_lifter_freq);
  const auto sr = static_cast<double>(sample_rate);
  EMBER_CHECK(hp_filter_freq < 1e6 * sr && lp_filter_freq < 1e6 * sr && sr / hp_lifter_freq < 1e12 &&
                  sr / lp_lifter_freq < 1e12 && boot_time * measure_freq < 1e12,
              "vad: filter, lifter or boot parameters out of range");
  const double duration = measure_duration.value_or(2.0 / measure_freq);
  EMBER_CHECK(std::isfinite(duration) && duration > 0 && sr * duration < 1e8 && sr / measure_freq < 1e9 &&
                  search_time * measure_freq < 1e7 && pre_trigger_time * sr < 1e9,
              "vad: measure_duration, search_time or pre_trigger_time too large");
  VadParams p;
  p.measure_len_ws = static_cast<int64_t>(sr * duration + 0.5);
  EMBER_CHECK(p.measure_len_ws > 0, "vad: measure_duration ", duration, " is shorter than one sample");
  const int64_t measure_len_ns = p.measure_len_ws;
  p.dft_len_ws = 16;
  while (p.dft_len_ws < p.measure_len_ws) p.dft_len_ws *= 2;
  const auto measure_period_ns = static_cast<int64_t>(sr / measure_freq + 0.5);
  EMBER_CHECK(measure_period_ns > 0, "vad: measure_freq ", measure_freq, " is above the sample rate");
  const auto measures_len = static_cast<int64_t>(std::ceil(search_time * measure_freq));
  EMBER_CHECK(measures_len > 0, "vad: search_time ", search_time, " gives no measures");
  const int64_t search_pre_trigger_len_ns = measures_len * measure_period_ns;
  const auto gap_len = static_cast<int64_t>(allowed_gap * measure_freq + 0.5);
  const auto fixed_pre_trigger_len_ns = static_cast<int64_t>(pre_trigger_time * sr + 0.5);
  const int64_t samples_len_ns = fixed_pre_trigger_len_ns + search_pre_trigger_len_ns + measure_len_ns;

  p.spectrum_window =
      full({p.measure_len_ws}, static_cast<float>(2.0 / std::sqrt(static_cast<double>(p.measure_len_ws)))) *
      hann_window(p.measure_len_ws);
  p.spectrum_start =
      std::max<int64_t>(static_cast<int64_t>(hp_filter_freq / sr * static_cast<double>(p.dft_len_ws) + 0.5), 1);
  p.spectrum_end = std::min<int64_t>(
      static_cast<int64_t>(lp_filter_freq / sr * static_cast<double>(p.dft_len_ws) + 0.5), p.dft_len_ws / 2);
  EMBER_CHECK(p.spectrum_end > p.spectrum_start, "vad: lp_filter_freq ", lp_filter_freq,
              " must be above hp_filter_freq ", hp_filter_freq);
  const int64_t band = p.spectrum_end - p.spectrum_start;
  p.cepstrum_window = full({band}, static_cast<float>(2.0 / std::sqrt(static_cast<double>(band)))) * hann_window(band);
  p.cepstrum_start = static_cast<int64_t>(std::ceil(sr * 0.5 / lp_lifter_freq));
  p.cepstrum_end = std::min<int64_t>(static_cast<int64_t>(std::floor(sr * 0.5 / hp_lifter_freq)), p.dft_len_ws / 4);
  EMBER_CHECK(p.cepstrum_end > p.cepstrum_start, "vad: expected cepstrum_start to be smaller than cepstrum_end, got ",
              p.cepstrum_start, " and ", p.cepstrum_end);
  p.noise_reduction_amount = noise_reduction_amount;
  p.noise_up_time_mult = std::exp(-1.0 / (noise_up_time * measure_freq));
  p.noise_down_time_mult = std::exp(-1.0 / (noise_down_time * measure_freq));
  p.measure_smooth_time_mult = std::exp(-1.0 / (measure_smooth_time * measure_freq));
  const double trigger_meas_time_mult = std::exp(-1.0 / (trigger_time * measure_freq));
  const auto boot_count_max = static_cast<int64_t>(boot_time * measure_freq - 0.5);

  const auto shape = waveform.sizes().vec();
  Tensor x = waveform.reshape({-1, shape.back()});
  const int64_t n_channels = x.size(0), ilen = x.size(1);
  Tensor xf = x.to(kFloat).contiguous();
  const float* xp = xf.data_ptr<float>();
  std::vector<float> mean_meas(static_cast<size_t>(n_channels), 0.0f);
  std::vector<std::vector<float>> samples(static_cast<size_t>(n_channels),
                                          std::vector<float>(static_cast<size_t>(samples_len_ns), 0.0f));
  std::vector<std::vector<float>> spectrum(static_cast<size_t>(n_channels),
                                           std::vector<float>(static_cast<size_t>(p.dft_len_ws), 0.0f));
  auto noise = spectrum;
  std::vector<std::vector<float>> measures(static_cast<size_t>(n_channels),
                                           std::vector<float>(static_cast<size_t>(measures_len), 0.0f));
  const auto trigger = static_cast<float>(trigger_level);
  int64_t measure_timer_ns = measure_len_ns, boot_count = 0, measures_index = 0, flushed_len_ns = 0;
  int64_t samples_index_ns = 0, num_measures_to_flush = 0, pos = 0;
  bool has_triggered = false;
  while (pos < ilen && !has_triggered) {
    --measure_timer_ns;
    for (int64_t i = 0; i < n_channels; ++i) {
      auto ci = static_cast<size_t>(i);
      samples[ci][static_cast<size_t>(samples_index_ns)] = xp[i * ilen + pos];
      if (measure_timer_ns != 0) continue;
      const int64_t index_ns = (samples_index_ns + samples_len_ns - measure_len_ns) % samples_len_ns;
      const double meas = measure(p, samples[ci], spectrum[ci], noise[ci], index_ns, boot_count);
      measures[ci][static_cast<size_t>(measures_index)] = static_cast<float>(meas);
      mean_meas[ci] = static_cast<float>(mean_meas[ci] * static_cast<float>(trigger_meas_time_mult) +
                                         static_cast<float>(meas * (1.0 - trigger_meas_time_mult)));
      has_triggered = has_triggered || mean_meas[ci] >= trigger;
      if (has_triggered) {
        const int64_t n = measures_len;
        int64_t k = measures_index, j_trigger = n, j_zero = n, j = 0;
        for (j = 0; j < n; ++j) {
          const float m = measures[ci][static_cast<size_t>(k)];
          if (m >= trigger && j <= j_trigger + gap_len) {
            j_zero = j_trigger = j;
          } else if (m == 0 && j_trigger >= j_zero) {
            j_zero = j;
          }
          k = (k + n - 1) % n;
        }
        // Python's loop variable stays at n - 1 after the loop.
        j = std::min(n - 1, j_zero);
        num_measures_to_flush = std::min(std::max(num_measures_to_flush, j), n);
      }
    }
    ++samples_index_ns;
    ++pos;
    if (samples_index_ns == samples_len_ns) samples_index_ns = 0;
    if (measure_timer_ns == 0) {
      measure_timer_ns = measure_period_ns;
      measures_index = (measures_index + 1) % measures_len;
      if (boot_count >= 0) boot_count = boot_count == boot_count_max ? -1 : boot_count + 1;
    }
    if (has_triggered) {
      flushed_len_ns = (measures_len - num_measures_to_flush) * measure_period_ns;
      samples_index_ns = (samples_index_ns + flushed_len_ns) % samples_len_ns;
    }
  }
  // Python slicing: a negative start counts from the end.
  int64_t start = pos - samples_len_ns + flushed_len_ns;
  if (start < 0) start = std::max<int64_t>(start + ilen, 0);
  start = std::min(start, ilen);
  Tensor res = x.slice(1, start, ilen);
  auto out_shape = shape;
  out_shape.back() = res.size(1);
  return res.reshape(out_shape);
}

}  // namespace torch::audio::functional
