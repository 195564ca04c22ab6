// Note [Sliding CMN as prefix sums]
// torchaudio walks the frames and updates running sums as the window slides.
// The window bounds depend only on the frame index, so we compute them with the
// same rules and read every window's sum off a prefix sum (in float64, so long
// inputs lose nothing to cancellation). That makes the op vectorised and
// differentiable, as torchaudio's tensor loop is.
#include "ember/audio/functional/cmn_pitch.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "ember/core/error.h"
#include "ember/ops/all_ops.h"

namespace torch::audio::functional {

Tensor sliding_window_cmn(const Tensor& specgram, int64_t cmn_window, int64_t min_cmn_window, bool center,
                          bool norm_vars) {
  EMBER_CHECK(specgram.dim() >= 2, "sliding_window_cmn: expected [..., frames, feats], got ", specgram.sizes());
  EMBER_CHECK(specgram.is_floating_point(), "sliding_window_cmn: expected a floating-point input, got ",
              specgram.scalar_type());
  EMBER_CHECK(cmn_window > 0 && min_cmn_window >= 0, "sliding_window_cmn: cmn_window must be positive, got ",
              cmn_window);
  const auto shape = specgram.sizes().vec();
  const int64_t num_frames = specgram.size(-2), num_feats = specgram.size(-1);
  if (num_frames == 0) return specgram;
  std::vector<int64_t> starts, ends, counts;
  for (int64_t t = 0; t < num_frames; ++t) {
    int64_t ws = center ? t - cmn_window / 2 : t - cmn_window;
    int64_t we = center ? ws + cmn_window : t + 1;
    if (ws < 0) {
      we -= ws;
      ws = 0;
    }
    if (!center && we > t) we = std::max(t + 1, min_cmn_window);
    if (we > num_frames) {
      ws = std::max<int64_t>(ws - (we - num_frames), 0);
      we = num_frames;
    }
    starts.push_back(ws);
    ends.push_back(we);
    counts.push_back(we - ws);
  }
  Tensor ws = tensor(starts, TensorOptions(kLong)), we = tensor(ends, TensorOptions(kLong));
  Tensor frames = tensor(counts, TensorOptions(kLong)).to(kDouble).unsqueeze(-1);
  Tensor x = specgram.reshape({-1, num_frames, num_feats});
  Tensor xd = x.to(kDouble);
  auto window_sum = [&](const Tensor& v) {
    Tensor cs = constant_pad_nd(cumsum(v, 1), {0, 0, 1, 0});
    return cs.index_select(1, we) - cs.index_select(1, ws);
  };
  Tensor sum = window_sum(xd);
  Tensor out = xd - sum / frames;
  if (norm_vars) {
    Tensor var = window_sum(xd * xd) / frames - sum * sum / (frames * frames);
    out = where(frames == 1, zeros({}, TensorOptions(kDouble)), out * var.pow(-0.5));
  }
  return out.to(specgram.scalar_type()).reshape(shape);
}

Tensor detect_pitch_frequency(const Tensor& waveform, int64_t sample_rate, double frame_time, int64_t win_length,
                              int64_t freq_low, int64_t freq_high) {
  EMBER_CHECK(waveform.dim() >= 1 && waveform.is_floating_point(),
              "detect_pitch_frequency: expected a floating-point waveform [..., time]");
  EMBER_CHECK(sample_rate > 0, "detect_pitch_frequency: sample_rate must be positive, got ", sample_rate);
  EMBER_CHECK(freq_low > 0 && freq_high > 0, "detect_pitch_frequency: freq_low and freq_high must be positive, got ",
              freq_low, " and ", freq_high);
  EMBER_CHECK(frame_time > 0 && frame_time * static_cast<double>(sample_rate) < 1e8,
              "detect_pitch_frequency: frame_time must be positive and below 1e8 samples, got ", frame_time);
  EMBER_CHECK(win_length >= 1, "detect_pitch_frequency: win_length must be positive, got ", win_length);
  const double eps = 1e-9;
  const auto sr = static_cast<double>(sample_rate);
  const auto shape = waveform.sizes().vec();
  Tensor x = waveform.reshape({-1, shape.back()});
  const int64_t length = x.size(1);
  EMBER_CHECK(length > 0, "detect_pitch_frequency: empty waveform");
  // NCCF of each frame at every lag in [1, lags].
  const auto lags = static_cast<int64_t>(std::ceil(sr / static_cast<double>(freq_low)));
  const auto frame_size = static_cast<int64_t>(std::ceil(sr * frame_time));
  const auto num_frames = (length + frame_size - 1) / frame_size;
  EMBER_CHECK(lags < 100000 && frame_size < 100000000,
              "detect_pitch_frequency: freq_low or frame_time too small for sample_rate ", sample_rate);
  x = constant_pad_nd(x, {0, lags + num_frames * frame_size - length});
  const int64_t padded = x.size(1);
  std::vector<Tensor> per_lag;
  for (int64_t lag = 1; lag <= lags; ++lag) {
    Tensor s1 = x.slice(1, 0, padded - lag).unfold(-1, frame_size, frame_size).slice(1, 0, num_frames);
    Tensor s2 = x.slice(1, lag, padded).unfold(-1, frame_size, frame_size).slice(1, 0, num_frames);
    per_lag.push_back((s1 * s2).sum(-1) / (eps + norm(s1, 2, {-1})).pow(2) / (eps + norm(s2, 2, {-1})).pow(2));
  }
  Tensor nccf = stack(per_lag, -1);
  // The smallest lag whose peak is near enough the best one.
  const auto lag_min = static_cast<int64_t>(std::ceil(sr / static_cast<double>(freq_high)));
  EMBER_CHECK(lag_min < nccf.size(-1), "detect_pitch_frequency: freq_high ", freq_high, " must exceed freq_low ",
              freq_low);
  const int64_t half_size = nccf.size(-1) / 2;
  auto [best_v, best_i] = max(nccf.slice(-1, lag_min, nccf.size(-1)), -1);
  Tensor indices = best_i;
  if (half_size > lag_min) {
    auto [half_v, half_i] = max(nccf.slice(-1, lag_min, half_size), -1);
    indices = where(half_v > 0.99 * best_v, half_i, best_i);
  }
  indices = indices + (lag_min + 1);
  // Median smoothing with the first value replicated in front.
  const int64_t pad_length = (win_length - 1) / 2;
  Tensor first = indices.slice(-1, 0, 1).expand({indices.size(0), pad_length});
  Tensor padded_idx = cat({first, indices}, -1);
  EMBER_CHECK(padded_idx.size(-1) >= win_length, "detect_pitch_frequency: win_length ", win_length,
              " is longer than the ", indices.size(-1), " frames");
  Tensor smoothed = std::get<0>(median(padded_idx.unfold(-1, win_length, 1), -1));
  Tensor freq = sr / (eps + smoothed.to(kFloat));
  auto out_shape = shape;
  out_shape.back() = freq.size(-1);
  return freq.reshape(out_shape);
}

}  // namespace torch::audio::functional
