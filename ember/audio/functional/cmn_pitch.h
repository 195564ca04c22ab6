#pragma once
// torchaudio.functional.sliding_window_cmn (Kaldi's apply-cmvn-sliding) and
// detect_pitch_frequency (normalised cross-correlation with median smoothing).
#include <cstdint>

#include "ember/core/tensor.h"

namespace torch::audio::functional {

// specgram [..., frames, feats]: subtracts the mean (and with norm_vars
// divides by the standard deviation) over a sliding window of frames.
Tensor sliding_window_cmn(const Tensor& specgram, int64_t cmn_window = 600, int64_t min_cmn_window = 100,
                          bool center = false, bool norm_vars = false);

// waveform [..., time] -> [..., frames] pitch in Hz.
Tensor detect_pitch_frequency(const Tensor& waveform, int64_t sample_rate, double frame_time = 1e-2,
                              int64_t win_length = 30, int64_t freq_low = 85, int64_t freq_high = 3400);

}  // namespace torch::audio::functional
