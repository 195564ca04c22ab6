#include "ember/audio/functional/kaldi_pitch.h"

#include <cmath>
#include <cstring>
#include <vector>

#include "ember/audio/functional/kaldi_pitch_detail.h"
#include "ember/core/error.h"
#include "ember/core/parallel.h"
#include "ember/ops/all_ops.h"

namespace torch::audio::functional {
namespace {

// Rejects what Kaldi would assert on, crash on or loop on without end, and
// caps what would make the lag grid or the frame window absurdly large.
kaldi_pitch_detail::PitchOptions make_options(double sample_rate, double frame_length, double frame_shift,
                                              double min_f0, double max_f0, double soft_min_f0, double penalty_factor,
                                              double lowpass_cutoff, double resample_frequency, double delta_pitch,
                                              double nccf_ballast, int64_t lowpass_filter_width,
                                              int64_t upsample_filter_width, int64_t max_frames_latency,
                                              int64_t frames_per_chunk, bool simulate_first_pass_online,
                                              int64_t recompute_frame, bool snip_edges) {
  const char* fn = "compute_kaldi_pitch";
  EMBER_CHECK(std::isfinite(sample_rate) && sample_rate >= 1 && sample_rate < 2147483648.0, fn,
              ": sample_rate must be a positive rate in Hz, got ", sample_rate);
  EMBER_CHECK(std::isfinite(resample_frequency) && resample_frequency >= 1 && resample_frequency <= 1e6, fn,
              ": resample_frequency must be positive, got ", resample_frequency);
  EMBER_CHECK(std::isfinite(frame_length) && frame_length > 0 && frame_length <= 1e5, fn,
              ": frame_length must be positive (ms), got ", frame_length);
  EMBER_CHECK(std::isfinite(frame_shift) && frame_shift > 0 && frame_shift <= 1e5, fn,
              ": frame_shift must be positive (ms), got ", frame_shift);
  EMBER_CHECK(std::isfinite(min_f0) && min_f0 > 0 && std::isfinite(max_f0) && max_f0 > min_f0, fn,
              ": need 0 < min_f0 < max_f0, got min_f0 ", min_f0, " and max_f0 ", max_f0);
  EMBER_CHECK(std::isfinite(delta_pitch) && delta_pitch > 0, fn, ": delta_pitch must be positive, got ", delta_pitch);
  EMBER_CHECK(std::log(max_f0 / min_f0) / std::log1p(delta_pitch) <= 1e5, fn, ": min_f0 ", min_f0, ", max_f0 ", max_f0,
              " and delta_pitch ", delta_pitch, " give more than 100000 pitch states");
  EMBER_CHECK(std::isfinite(penalty_factor) && penalty_factor >= 0, fn, ": penalty_factor must be non-negative, got ",
              penalty_factor);
  EMBER_CHECK(std::isfinite(soft_min_f0) && std::isfinite(nccf_ballast) && nccf_ballast >= 0, fn,
              ": soft_min_f0 must be finite and nccf_ballast non-negative, got ", soft_min_f0, " and ", nccf_ballast);
  EMBER_CHECK(lowpass_filter_width > 0 && lowpass_filter_width <= 1024, fn,
              ": lowpass_filter_width must be positive, got ", lowpass_filter_width);
  EMBER_CHECK(upsample_filter_width > 0 && upsample_filter_width <= 1024, fn,
              ": upsample_filter_width must be positive, got ", upsample_filter_width);
  EMBER_CHECK(max_frames_latency >= 0 && max_frames_latency < (1LL << 31), fn,
              ": max_frames_latency must be non-negative, got ", max_frames_latency);
  EMBER_CHECK(frames_per_chunk >= 0 && frames_per_chunk < (1LL << 31), fn,
              ": frames_per_chunk must be non-negative, got ", frames_per_chunk);
  EMBER_CHECK(!simulate_first_pass_online || frames_per_chunk > 0, fn,
              ": simulate_first_pass_online needs frames_per_chunk > 0, got ", frames_per_chunk);
  EMBER_CHECK(recompute_frame >= 0 && recompute_frame < (1LL << 31), fn, ": recompute_frame must be non-negative, got ",
              recompute_frame);
  kaldi_pitch_detail::PitchOptions o;
  o.samp_freq = static_cast<float>(sample_rate);
  o.frame_length_ms = static_cast<float>(frame_length);
  o.frame_shift_ms = static_cast<float>(frame_shift);
  o.min_f0 = static_cast<float>(min_f0);
  o.max_f0 = static_cast<float>(max_f0);
  o.soft_min_f0 = static_cast<float>(soft_min_f0);
  o.penalty_factor = static_cast<float>(penalty_factor);
  o.lowpass_cutoff = static_cast<float>(lowpass_cutoff);
  o.resample_freq = static_cast<float>(resample_frequency);
  o.delta_pitch = static_cast<float>(delta_pitch);
  o.nccf_ballast = static_cast<float>(nccf_ballast);
  o.lowpass_filter_width = static_cast<int32_t>(lowpass_filter_width);
  o.upsample_filter_width = static_cast<int32_t>(upsample_filter_width);
  o.max_frames_latency = static_cast<int32_t>(max_frames_latency);
  o.frames_per_chunk = static_cast<int32_t>(frames_per_chunk);
  o.simulate_first_pass_online = simulate_first_pass_online;
  o.recompute_frame = static_cast<int32_t>(recompute_frame);
  o.snip_edges = snip_edges;
  EMBER_CHECK(o.window_size() > 0 && o.window_shift() > 0, fn, ": frame_length ", frame_length, " ms and frame_shift ",
              frame_shift, " ms must each span at least one sample at resample_frequency ", resample_frequency);
  // The measured lags in samples, bounded before they are cast to int32 and sized.
  const double first =
      std::ceil(o.resample_freq * (1.0 / o.max_f0 - o.upsample_filter_width / (2.0 * o.resample_freq)));
  const double last =
      std::floor(o.resample_freq * (1.0 / o.min_f0 + o.upsample_filter_width / (2.0 * o.resample_freq)));
  EMBER_CHECK(first >= 0 && last <= (1 << 22), fn, ": the lag range of max_f0 ", max_f0, " and min_f0 ", min_f0,
              " at resample_frequency ", resample_frequency, " is [", first, ", ", last,
              "] samples; it must start at 0 or later and span at most 4194304");
  EMBER_CHECK(!kaldi_pitch_detail::select_lags(o).empty(), fn, ": min_f0 ", min_f0, " and max_f0 ", max_f0,
              " leave no pitch states");
  if (frames_per_chunk > 0) {
    const auto chunk = static_cast<int32_t>(o.frames_per_chunk * o.samp_freq * o.frame_shift_ms / 1000.0f);
    EMBER_CHECK(chunk > 0, fn, ": frames_per_chunk ", frames_per_chunk, " gives chunks of no samples");
  }
  return o;
}

}  // namespace

Tensor compute_kaldi_pitch(const Tensor& waveform, double sample_rate, double frame_length, double frame_shift,
                           double min_f0, double max_f0, double soft_min_f0, double penalty_factor,
                           double lowpass_cutoff, double resample_frequency, double delta_pitch, double nccf_ballast,
                           int64_t lowpass_filter_width, int64_t upsample_filter_width, int64_t max_frames_latency,
                           int64_t frames_per_chunk, bool simulate_first_pass_online, int64_t recompute_frame,
                           bool snip_edges) {
  EMBER_CHECK(waveform.defined() && waveform.dim() >= 1, "compute_kaldi_pitch: expected a waveform [..., time], got ",
              waveform.defined() ? str(waveform.sizes()) : std::string("an undefined tensor"));
  EMBER_CHECK(waveform.is_floating_point(), "compute_kaldi_pitch: expected a floating-point waveform, got ",
              waveform.scalar_type());
  const auto opts =
      make_options(sample_rate, frame_length, frame_shift, min_f0, max_f0, soft_min_f0, penalty_factor, lowpass_cutoff,
                   resample_frequency, delta_pitch, nccf_ballast, lowpass_filter_width, upsample_filter_width,
                   max_frames_latency, frames_per_chunk, simulate_first_pass_online, recompute_frame, snip_edges);
  // Checks the resampler's options once, before any worker can throw.
  (void)kaldi_pitch_detail::LinearResampler(static_cast<int32_t>(opts.samp_freq),
                                            static_cast<int32_t>(opts.resample_freq), opts.lowpass_cutoff,
                                            opts.lowpass_filter_width);
  const int64_t n = waveform.size(-1);
  int64_t rows = 1;
  for (int64_t d = 0; d + 1 < waveform.dim(); ++d) rows *= waveform.size(d);
  Tensor x = waveform.detach().reshape({rows, n}).to(kFloat).contiguous();
  std::vector<std::vector<float>> out(static_cast<size_t>(rows));
  const float* data = x.data_ptr<float>();
  parallel_for(0, rows, 1, [&](int64_t begin, int64_t end) {
    for (int64_t r = begin; r < end; ++r) out[r] = kaldi_pitch_detail::compute_pitch(opts, data + r * n, n);
  });
  const int64_t frames = rows > 0 ? static_cast<int64_t>(out[0].size()) / 2 : 0;
  Tensor result = empty({rows, frames, 2}, TensorOptions().dtype(kFloat));
  auto* dst = result.data_ptr<float>();
  for (int64_t r = 0; r < rows; ++r) {
    EMBER_CHECK(static_cast<int64_t>(out[r].size()) == frames * 2,
                "compute_kaldi_pitch: internal frame count mismatch");
    // A signal shorter than one frame gives no frames: memcpy may not see null pointers.
    if (frames > 0) std::memcpy(dst + r * frames * 2, out[r].data(), out[r].size() * sizeof(float));
  }
  std::vector<int64_t> shape(waveform.sizes().begin(), waveform.sizes().end() - 1);
  shape.push_back(frames);
  shape.push_back(2);
  return result.reshape(shape);
}

}  // namespace torch::audio::functional
