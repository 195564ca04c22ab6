// Note [Kaldi pitch tracker on a downsampled whole signal]
// Kaldi's tracker is an online object: each AcceptWaveform call downsamples
// the new samples (LinearResample keeps a remainder), measures the NCCF of
// every frame whose window is now complete, and extends the Viterbi search;
// InputFinished flushes the resampler and the last frames. Without flushing,
// the resampler only emits samples whose whole kernel lies inside the input,
// so every downsampled sample it ever emits equals the same sample computed on
// the whole signal (zero past its end). We therefore downsample once and
// replay Kaldi's calls as growing prefixes of that signal, which keeps what
// depends on the call pattern exactly as Kaldi has it: which frames are
// measured in which call, the signal energy the NCCF ballast uses in each
// call, the recomputation of the first recompute_frame frames once the energy
// estimate settles, and the latency of online (first-pass) output.
#include <algorithm>
#include <cmath>

#include "ember/audio/functional/kaldi_pitch_detail.h"
#include "ember/core/error.h"

namespace torch::audio::functional::kaldi_pitch_detail {
namespace {

// Kaldi's ApproxEqual: |a - b| <= tol (|a| + |b|).
bool approx_equal(float a, float b, float tol) {
  if (a == b) return true;
  const float diff = std::fabs(a - b);
  if (std::isinf(diff) || std::isnan(diff)) return false;
  return diff <= tol * (std::fabs(a) + std::fabs(b));
}

class PitchTracker {
 public:
  PitchTracker(const PitchOptions& opts, std::vector<float> signal)
      : opts_(opts),
        signal_(std::move(signal)),
        lags_(select_lags(opts)),
        first_lag_(first_measured_lag(opts)),
        last_lag_(last_measured_lag(opts)),
        lag_resampler_(opts, lags_),
        forward_cost_(lags_.size(), 0.0) {
    factor_ = std::pow(std::log(1.0 + opts.delta_pitch), 2.0) * opts.penalty_factor;
  }

  // Kaldi's AcceptWaveform once the downsampled signal has `available` samples.
  void accept(int64_t available) {
    double sum = sum_, sumsq = sumsq_;
    for (int64_t k = processed_; k < available; ++k) {
      sum += signal_[k];
      sumsq += static_cast<double>(signal_[k]) * signal_[k];
    }
    const int64_t end_frame = frames_available(available), start_frame = num_frames();
    if (end_frame <= start_frame) {
      commit(available, sum, sumsq);
      return;
    }
    const double mean_square = sumsq / available - std::pow(sum / available, 2.0);
    const int32_t window = opts_.window_size(), shift = opts_.window_shift();
    const int32_t full = window + last_lag_;
    const auto num_measured = static_cast<size_t>(last_lag_ + 1 - first_lag_);
    const auto states = lags_.size();
    std::vector<float> samples(full), pitch_row(num_measured), pov_row(num_measured);
    std::vector<double> inner(num_measured), norm(num_measured);
    struct Measured {
      std::vector<float> pitch, pov;
      float avg_norm_prod;
    };
    std::vector<Measured> measured;
    for (int64_t f = start_frame; f < end_frame; ++f) {
      const int64_t start = opts_.snip_edges ? f * shift : static_cast<int64_t>((f + 0.5) * shift) - full / 2;
      extract(start, available, samples);
      correlate(samples, window, inner, norm);
      double avg = 0;
      for (double v : norm) avg += v;
      avg /= static_cast<double>(num_measured);
      const auto ballast = static_cast<float>(std::pow(mean_square * window, 2) * opts_.nccf_ballast);
      nccf(inner, norm, ballast, pitch_row);
      nccf(inner, norm, 0.0f, pov_row);
      Measured m{std::vector<float>(states), std::vector<float>(states), static_cast<float>(avg)};
      lag_resampler_.apply(pitch_row.data(), m.pitch.data());
      lag_resampler_.apply(pov_row.data(), m.pov.data());
      measured.push_back(std::move(m));
    }
    commit(available, sum, sumsq);
    for (int64_t f = start_frame; f < end_frame; ++f) {
      Measured& m = measured[f - start_frame];
      pov_.push_back(std::move(m.pov));
      backpointers_.emplace_back();
      step(m.pitch, backpointers_.back(), forward_cost_);
      if (f < opts_.recompute_frame)
        recompute_info_.push_back({std::move(m.pitch), m.avg_norm_prod, static_cast<float>(mean_square)});
      if (f == opts_.recompute_frame - 1) recompute_backtraces();
    }
    traceback();
    latency_ = compute_latency();
  }

  // Kaldi's InputFinished: the flushed signal's last frames, then settles the traceback.
  void finish(int64_t available) {
    input_finished_ = true;
    accept(available);
    if (num_frames() < opts_.recompute_frame) recompute_backtraces();
    latency_ = 0;
  }

  int64_t num_frames() const { return static_cast<int64_t>(backpointers_.size()); }
  int64_t frames_ready() const { return num_frames() - latency_; }
  // (nccf, pitch) of a frame on the current best path.
  std::pair<float, float> frame(int64_t f) const { return {pov_[f][best_state_[f]], 1.0f / lags_[best_state_[f]]}; }

 private:
  struct RecomputeInfo {
    std::vector<float> pitch;  // the resampled ballasted NCCF
    float avg_norm_prod;
    float mean_square;  // the energy its ballast was computed from
  };

  int64_t frames_available(int64_t n) const {
    const int32_t shift = opts_.window_shift();
    int32_t length = opts_.window_size();
    if (!input_finished_) length += last_lag_;
    if (n < length) return 0;
    if (!opts_.snip_edges) {
      if (input_finished_) return static_cast<int64_t>(static_cast<float>(n) * 1.0f / shift + 0.5f);
      return static_cast<int64_t>(static_cast<float>(n - length / 2) * 1.0f / shift + 0.5f);
    }
    return (n - length) / shift + 1;
  }

  void commit(int64_t available, double sum, double sumsq) {
    processed_ = available;
    sum_ = sum;
    sumsq_ = sumsq;
  }

  // The frame starting at `start`, zero outside the signal seen so far.
  void extract(int64_t start, int64_t available, std::vector<float>& out) const {
    for (size_t k = 0; k < out.size(); ++k) {
      const int64_t s = start + static_cast<int64_t>(k);
      out[k] = s >= 0 && s < available ? signal_[s] : 0.0f;
    }
  }

  // Inner products of the mean-removed first `window` samples with the
  // window at each measured lag, and the products of their energies.
  void correlate(std::vector<float>& frame, int32_t window, std::vector<double>& inner,
                 std::vector<double>& norm) const {
    double mean = 0;
    for (int32_t k = 0; k < window; ++k) mean += frame[k];
    mean /= window;
    for (auto& v : frame) v = static_cast<float>(v - mean);
    double e1 = 0;
    for (int32_t k = 0; k < window; ++k) e1 += static_cast<double>(frame[k]) * frame[k];
    for (int32_t lag = first_lag_; lag <= last_lag_; ++lag) {
      double e2 = 0, dot = 0;
      for (int32_t k = 0; k < window; ++k) {
        const double a = frame[k], b = frame[k + lag];
        e2 += b * b;
        dot += a * b;
      }
      inner[lag - first_lag_] = dot;
      norm[lag - first_lag_] = e1 * e2;
    }
  }

  static void nccf(const std::vector<double>& inner, const std::vector<double>& norm, float ballast,
                   std::vector<float>& out) {
    for (size_t k = 0; k < inner.size(); ++k) {
      const double d = std::sqrt(norm[k] + ballast);
      out[k] = d != 0 ? static_cast<float>(inner[k] / d) : 0.0f;
    }
  }

  // One Viterbi frame: forward_cost becomes this frame's cost, renormalised to minimum 0.
  void step(const std::vector<float>& nccf_pitch, std::vector<int32_t>& bp, std::vector<double>& forward) const {
    std::vector<double> cost;
    viterbi_step(forward, factor_, cost, bp);
    for (size_t i = 0; i < cost.size(); ++i)
      cost[i] += 1.0 - nccf_pitch[i] + static_cast<double>(opts_.soft_min_f0) * lags_[i] * nccf_pitch[i];
    const double lowest = *std::min_element(cost.begin(), cost.end());
    for (auto& c : cost) c -= lowest;
    forward.swap(cost);
  }

  void traceback() {
    best_state_.resize(backpointers_.size());
    if (backpointers_.empty()) return;
    auto s = static_cast<int32_t>(std::min_element(forward_cost_.begin(), forward_cost_.end()) - forward_cost_.begin());
    for (size_t t = backpointers_.size(); t-- > 0;) {
      best_state_[t] = s;
      s = backpointers_[t][s];
    }
  }

  // Frames at the end whose best state may still change: how far back the
  // paths from the lowest and highest states take to merge, up to max_frames_latency.
  int64_t compute_latency() const {
    if (opts_.max_frames_latency <= 0) return 0;
    int64_t latency = 0;
    int32_t lo = 0, hi = static_cast<int32_t>(lags_.size()) - 1;
    // t == -1 is Kaldi's frame before the first, whose states all point to 0.
    for (int64_t t = num_frames() - 1; t >= -1 && latency < opts_.max_frames_latency;) {
      if (t >= 0) {
        lo = backpointers_[t][lo];
        hi = backpointers_[t][hi];
      } else {
        lo = hi = 0;
      }
      if (lo == hi) return latency;
      --t;
      if (t >= -1) ++latency;
    }
    return latency;
  }

  // Once the signal energy estimate has settled, redoes the Viterbi search of
  // the first frames if the ballast they used was off by more than 1 %,
  // rescaling their NCCF by the ratio of the ballasted norms (as Kaldi does,
  // instead of re-measuring).
  void recompute_backtraces() {
    const int64_t frames = num_frames();
    if (frames == 0 || recompute_info_.empty()) {
      recompute_info_.clear();
      return;
    }
    const double mean = sum_ / processed_;
    const auto mean_square = static_cast<float>(sumsq_ / processed_ - mean * mean);
    bool must = false;
    for (const auto& info : recompute_info_) must = must || !approx_equal(info.mean_square, mean_square, 0.01f);
    if (!must) {
      recompute_info_.clear();
      return;
    }
    const int32_t window = opts_.window_size();
    const auto new_ballast = static_cast<float>(std::pow(mean_square * window, 2) * opts_.nccf_ballast);
    std::vector<double> forward(lags_.size(), 0.0);
    for (size_t f = 0; f < recompute_info_.size(); ++f) {
      auto& info = recompute_info_[f];
      const auto old_ballast = static_cast<float>(std::pow(info.mean_square * window, 2) * opts_.nccf_ballast);
      const auto scale = static_cast<float>(
          std::sqrt((old_ballast + info.avg_norm_prod) / static_cast<double>(new_ballast + info.avg_norm_prod)));
      for (auto& v : info.pitch) v *= scale;
      step(info.pitch, backpointers_[f], forward);
    }
    forward_cost_.swap(forward);
    traceback();
    latency_ = compute_latency();
    recompute_info_.clear();
  }

  PitchOptions opts_;
  std::vector<float> signal_;
  std::vector<float> lags_;
  int32_t first_lag_, last_lag_;
  LagResampler lag_resampler_;
  double factor_ = 0;
  bool input_finished_ = false;
  int64_t processed_ = 0;
  double sum_ = 0, sumsq_ = 0;
  std::vector<double> forward_cost_;
  std::vector<std::vector<int32_t>> backpointers_;
  std::vector<std::vector<float>> pov_;
  std::vector<int32_t> best_state_;
  std::vector<RecomputeInfo> recompute_info_;
  int64_t latency_ = 0;
};

}  // namespace

std::vector<float> compute_pitch(const PitchOptions& opts, const float* wave, int64_t n) {
  const auto rate_in = static_cast<int32_t>(opts.samp_freq);
  const auto rate_out = static_cast<int32_t>(opts.resample_freq);
  LinearResampler resampler(rate_in, rate_out, opts.lowpass_cutoff, opts.lowpass_filter_width);
  PitchTracker tracker(opts, resampler.resample(wave, n, resampler.num_output_samples(n, true)));
  std::vector<float> out;
  auto emit = [&](int64_t from, int64_t to) {
    for (int64_t f = from; f < to; ++f) {
      auto [nccf, pitch] = tracker.frame(f);
      out.push_back(nccf);
      out.push_back(pitch);
    }
  };
  if (opts.frames_per_chunk == 0) {
    tracker.accept(resampler.num_output_samples(n, false));
    tracker.finish(resampler.num_output_samples(n, true));
    emit(0, tracker.num_frames());
    return out;
  }
  // Kaldi's chunk of input samples: frames_per_chunk frame shifts, in its float arithmetic.
  const auto chunk = static_cast<int32_t>(opts.frames_per_chunk * opts.samp_freq * opts.frame_shift_ms / 1000.0f);
  EMBER_CHECK(chunk > 0, "compute_kaldi_pitch: frames_per_chunk ", opts.frames_per_chunk,
              " gives chunks of no samples at sample rate ", opts.samp_freq);
  int64_t emitted = 0;
  for (int64_t offset = 0; offset < n;) {
    offset = std::min(n, offset + chunk);
    tracker.accept(resampler.num_output_samples(offset, false));
    if (offset == n) tracker.finish(resampler.num_output_samples(n, true));
    if (opts.simulate_first_pass_online) {
      // Each frame as it was when it first became ready.
      emit(emitted, tracker.frames_ready());
      emitted = std::max(emitted, tracker.frames_ready());
    }
  }
  if (n == 0) tracker.finish(resampler.num_output_samples(0, true));
  if (!opts.simulate_first_pass_online) emit(0, tracker.num_frames());
  return out;
}

}  // namespace torch::audio::functional::kaldi_pitch_detail
