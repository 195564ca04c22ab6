#pragma once
// torchaudio.functional.vad: SoX's voice-activity detector, which trims the
// silence (and quiet noise) before the first detected speech. waveform is
// [time] or [channels, time]; the result keeps the leading dims.
#include <cstdint>
#include <optional>

#include "ember/core/tensor.h"

namespace torch::audio::functional {

Tensor vad(const Tensor& waveform, int64_t sample_rate, double trigger_level = 7.0, double trigger_time = 0.25,
           double search_time = 1.0, double allowed_gap = 0.25, double pre_trigger_time = 0.0, double boot_time = 0.35,
           double noise_up_time = 0.1, double noise_down_time = 0.01, double noise_reduction_amount = 1.35,
           double measure_freq = 20.0, std::optional<double> measure_duration = std::nullopt,
           double measure_smooth_time = 0.4, double hp_filter_freq = 50.0, double lp_filter_freq = 6000.0,
           double hp_lifter_freq = 150.0, double lp_lifter_freq = 2000.0);

}  // namespace torch::audio::functional
