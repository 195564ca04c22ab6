#pragma once
// The pieces of compute_kaldi_pitch, exposed so tests can check each against a
// direct computation: Kaldi's LinearResample (the downsampler), the lag grid,
// the ArbitraryResample that moves the NCCF onto it, one Viterbi step, and the
// tracker that drives them.
#include <cstdint>
#include <vector>

namespace torch::audio::functional::kaldi_pitch_detail {

// Kaldi's PitchExtractionOptions, in Kaldi's types (BaseFloat is float).
struct PitchOptions {
  float samp_freq = 16000;
  float frame_shift_ms = 10;
  float frame_length_ms = 25;
  float min_f0 = 50;
  float max_f0 = 400;
  float soft_min_f0 = 10;
  float penalty_factor = 0.1f;
  float lowpass_cutoff = 1000;
  float resample_freq = 4000;
  float delta_pitch = 0.005f;
  float nccf_ballast = 7000;
  int32_t lowpass_filter_width = 1;
  int32_t upsample_filter_width = 5;
  int32_t max_frames_latency = 0;
  int32_t frames_per_chunk = 0;
  bool simulate_first_pass_online = false;
  int32_t recompute_frame = 500;
  bool snip_edges = true;

  // The NCCF window and hop in samples at resample_freq.
  int32_t window_size() const { return static_cast<int32_t>(resample_freq * frame_length_ms / 1000.0); }
  int32_t window_shift() const { return static_cast<int32_t>(resample_freq * frame_shift_ms / 1000.0); }
};

// A windowed-sinc (Hann window, num_zeros zero crossings each side)
// resampler between integer rates, sampled at output times t / rate_out.
class LinearResampler {
 public:
  LinearResampler(int32_t rate_in, int32_t rate_out, double cutoff, int32_t num_zeros);
  // How many output samples n input samples give: with flush, every output
  // time before the end of the input; without, only those whose whole window
  // lies inside it.
  int64_t num_output_samples(int64_t n, bool flush) const;
  // The first num_out output samples of x[0, n) (zero outside).
  std::vector<float> resample(const float* x, int64_t n, int64_t num_out) const;

 private:
  int32_t rate_in_, rate_out_, in_unit_, out_unit_;
  double cutoff_;
  int32_t num_zeros_;
  std::vector<int64_t> first_index_;
  std::vector<std::vector<float>> weights_;
};

// The lags (seconds) the tracker's states stand for: 1/max_f0 up to 1/min_f0
// in steps of a factor (1 + delta_pitch), in float as Kaldi steps them.
std::vector<float> select_lags(const PitchOptions& opts);
// The integer lags (samples at resample_freq) the NCCF is measured at.
int32_t first_measured_lag(const PitchOptions& opts);
int32_t last_measured_lag(const PitchOptions& opts);

// Windowed-sinc interpolation of a row of NCCF values measured at the integer
// lags [first, last] onto the lag grid (Kaldi's ArbitraryResample).
class LagResampler {
 public:
  LagResampler(const PitchOptions& opts, const std::vector<float>& lags);
  int64_t num_in() const { return num_in_; }
  int64_t num_out() const { return static_cast<int64_t>(first_index_.size()); }
  void apply(const float* in, float* out) const;
  // The weights as a dense [num_in, num_out] row-major matrix.
  std::vector<float> dense() const;

 private:
  int64_t num_in_;
  std::vector<int64_t> first_index_;
  std::vector<std::vector<float>> weights_;
};

// cost[i] = min_j prev[j] + factor * (i - j)^2 and its argmin, for factor >= 0.
void viterbi_step(const std::vector<double>& prev, double factor, std::vector<double>& cost,
                  std::vector<int32_t>& backpointer);

// The best state sequence for NCCF rows nccf[frames][states] on the lag grid
// (local cost 1 - n + soft_min_f0 * lag * n, transition penalty
// penalty_factor * log(1 + delta_pitch)^2 * (i - j)^2).
std::vector<int32_t> best_path(const std::vector<std::vector<float>>& nccf, const std::vector<float>& lags,
                               const PitchOptions& opts);

// Kaldi's ComputeKaldiPitch on one waveform: frames x (nccf, pitch), row-major.
std::vector<float> compute_pitch(const PitchOptions& opts, const float* wave, int64_t n);

}  // namespace torch::audio::functional::kaldi_pitch_detail
