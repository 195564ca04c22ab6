#pragma once
// torchaudio.functional.compute_kaldi_pitch: Kaldi's compute-kaldi-pitch-feats
// (the pitch tracker of Ghahremani et al., "A pitch extraction algorithm tuned
// for automatic speech recognition", ICASSP 2014).
#include <cstdint>

#include "ember/core/tensor.h"

namespace torch::audio::functional {

// waveform [..., time] (float) -> [..., frames, 2] float32: (NCCF, pitch in Hz)
// per frame, every leading entry tracked on its own. frame_length and
// frame_shift are in milliseconds. frames_per_chunk > 0 feeds the tracker in
// chunks as an online decoder would; simulate_first_pass_online then returns
// each frame as it was first output (with at most max_frames_latency frames
// of look-ahead) instead of after the final traceback.
Tensor compute_kaldi_pitch(const Tensor& waveform, double sample_rate, double frame_length = 25.0,
                           double frame_shift = 10.0, double min_f0 = 50, double max_f0 = 400,
                           double soft_min_f0 = 10.0, double penalty_factor = 0.1, double lowpass_cutoff = 1000,
                           double resample_frequency = 4000, double delta_pitch = 0.005, double nccf_ballast = 7000,
                           int64_t lowpass_filter_width = 1, int64_t upsample_filter_width = 5,
                           int64_t max_frames_latency = 0, int64_t frames_per_chunk = 0,
                           bool simulate_first_pass_online = false, int64_t recompute_frame = 500,
                           bool snip_edges = true);

}  // namespace torch::audio::functional
