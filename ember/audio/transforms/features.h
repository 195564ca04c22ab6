#pragma once
// torchaudio.transforms MuLawEncoding, MuLawDecoding, ComputeDeltas,
// TimeStretch (buffer "phase_advance"), Fade, FrequencyMasking, TimeMasking,
// Vol, SlidingWindowCmn, SpectralCentroid (buffer "window"), Vad and Loudness.
#include <cstdint>
#include <optional>
#include <string>

#include "ember/audio/transforms/spectrogram.h"
#include "ember/core/arg.h"
#include "ember/core/tensor.h"
#include "ember/nn/cloneable.h"
#include "ember/nn/pimpl.h"

namespace torch::audio::transforms {

struct MuLawEncodingOptions {
  TORCH_ARG(int64_t, quantization_channels) = 256;
};
class MuLawEncodingImpl : public nn::Cloneable<MuLawEncodingImpl> {
 public:
  explicit MuLawEncodingImpl(const MuLawEncodingOptions& options_ = {}) : options(options_) { reset(); }
  explicit MuLawEncodingImpl(int64_t quantization_channels)
      : MuLawEncodingImpl(MuLawEncodingOptions().quantization_channels(quantization_channels)) {}
  void reset() override;
  Tensor forward(const Tensor& x);
  MuLawEncodingOptions options;
};
TORCH_MODULE(MuLawEncoding);

using MuLawDecodingOptions = MuLawEncodingOptions;
class MuLawDecodingImpl : public nn::Cloneable<MuLawDecodingImpl> {
 public:
  explicit MuLawDecodingImpl(const MuLawDecodingOptions& options_ = {}) : options(options_) { reset(); }
  explicit MuLawDecodingImpl(int64_t quantization_channels)
      : MuLawDecodingImpl(MuLawDecodingOptions().quantization_channels(quantization_channels)) {}
  void reset() override;
  Tensor forward(const Tensor& x_mu);
  MuLawDecodingOptions options;
};
TORCH_MODULE(MuLawDecoding);

struct ComputeDeltasOptions {
  TORCH_ARG(int64_t, win_length) = 5;
  TORCH_ARG(std::string, mode) = "replicate";
};
class ComputeDeltasImpl : public nn::Cloneable<ComputeDeltasImpl> {
 public:
  explicit ComputeDeltasImpl(const ComputeDeltasOptions& options_ = {}) : options(options_) { reset(); }
  void reset() override;
  Tensor forward(const Tensor& specgram);
  ComputeDeltasOptions options;
};
TORCH_MODULE(ComputeDeltas);

struct TimeStretchOptions {
  TORCH_ARG(std::optional<int64_t>, hop_length) = std::nullopt;
  TORCH_ARG(int64_t, n_freq) = 201;
  TORCH_ARG(std::optional<double>, fixed_rate) = std::nullopt;
};
// Complex [..., freq, time] -> [..., freq, ceil(time / rate)].
class TimeStretchImpl : public nn::Cloneable<TimeStretchImpl> {
 public:
  explicit TimeStretchImpl(const TimeStretchOptions& options_ = {}) : options(options_) { reset(); }
  void reset() override;
  Tensor forward(const Tensor& complex_specgrams, std::optional<double> overriding_rate = std::nullopt);
  TimeStretchOptions options;
  Tensor phase_advance;  // [n_freq, 1]
};
TORCH_MODULE(TimeStretch);

struct FadeOptions {
  TORCH_ARG(int64_t, fade_in_len) = 0;
  TORCH_ARG(int64_t, fade_out_len) = 0;
  // "linear", "exponential", "logarithmic", "quarter_sine" or "half_sine".
  TORCH_ARG(std::string, fade_shape) = "linear";
};
class FadeImpl : public nn::Cloneable<FadeImpl> {
 public:
  explicit FadeImpl(const FadeOptions& options_ = {}) : options(options_) { reset(); }
  void reset() override;
  Tensor forward(const Tensor& waveform);
  FadeOptions options;
};
TORCH_MODULE(Fade);

struct FrequencyMaskingOptions {
  FrequencyMaskingOptions(int64_t freq_mask_param) : freq_mask_param_(freq_mask_param) {}  // NOLINT
  TORCH_ARG(int64_t, freq_mask_param);
  TORCH_ARG(bool, iid_masks) = false;
};
// One random band of frequency rows of [..., freq, time] (per example and
// channel of a 4-D input when iid_masks) set to mask_value.
class FrequencyMaskingImpl : public nn::Cloneable<FrequencyMaskingImpl> {
 public:
  explicit FrequencyMaskingImpl(const FrequencyMaskingOptions& options_) : options(options_) { reset(); }
  explicit FrequencyMaskingImpl(int64_t freq_mask_param)
      : FrequencyMaskingImpl(FrequencyMaskingOptions(freq_mask_param)) {}
  void reset() override {}
  Tensor forward(const Tensor& specgram, double mask_value = 0.0);
  FrequencyMaskingOptions options;
};
TORCH_MODULE(FrequencyMasking);

struct TimeMaskingOptions {
  TimeMaskingOptions(int64_t time_mask_param) : time_mask_param_(time_mask_param) {}  // NOLINT
  TORCH_ARG(int64_t, time_mask_param);
  TORCH_ARG(bool, iid_masks) = false;
  TORCH_ARG(double, p) = 1.0;
};
class TimeMaskingImpl : public nn::Cloneable<TimeMaskingImpl> {
 public:
  explicit TimeMaskingImpl(const TimeMaskingOptions& options_) : options(options_) { reset(); }
  explicit TimeMaskingImpl(int64_t time_mask_param) : TimeMaskingImpl(TimeMaskingOptions(time_mask_param)) {}
  void reset() override;
  Tensor forward(const Tensor& specgram, double mask_value = 0.0);
  TimeMaskingOptions options;
};
TORCH_MODULE(TimeMasking);

struct VolOptions {
  VolOptions(double gain) : gain_(gain) {}  // NOLINT(google-explicit-constructor)
  TORCH_ARG(double, gain);
  // "amplitude", "power" or "db".
  TORCH_ARG(std::string, gain_type) = "amplitude";
};
class VolImpl : public nn::Cloneable<VolImpl> {
 public:
  explicit VolImpl(const VolOptions& options_) : options(options_) { reset(); }
  VolImpl(double gain, std::string gain_type = "amplitude")
      : VolImpl(VolOptions(gain).gain_type(std::move(gain_type))) {}
  void reset() override;
  Tensor forward(const Tensor& waveform);
  VolOptions options;
};
TORCH_MODULE(Vol);

struct SlidingWindowCmnOptions {
  TORCH_ARG(int64_t, cmn_window) = 600;
  TORCH_ARG(int64_t, min_cmn_window) = 100;
  TORCH_ARG(bool, center) = false;
  TORCH_ARG(bool, norm_vars) = false;
};
class SlidingWindowCmnImpl : public nn::Cloneable<SlidingWindowCmnImpl> {
 public:
  explicit SlidingWindowCmnImpl(const SlidingWindowCmnOptions& options_ = {}) : options(options_) { reset(); }
  void reset() override {}
  Tensor forward(const Tensor& specgram);
  SlidingWindowCmnOptions options;
};
TORCH_MODULE(SlidingWindowCmn);

struct SpectralCentroidOptions {
  SpectralCentroidOptions(int64_t sample_rate) : sample_rate_(sample_rate) {}  // NOLINT
  TORCH_ARG(int64_t, sample_rate);
  TORCH_ARG(int64_t, n_fft) = 400;
  TORCH_ARG(std::optional<int64_t>, win_length) = std::nullopt;
  TORCH_ARG(std::optional<int64_t>, hop_length) = std::nullopt;
  TORCH_ARG(int64_t, pad) = 0;
  TORCH_ARG(WindowFunction, window_fn) = default_window_fn();
};
// [..., time] -> [..., frames] centroid frequency in Hz.
class SpectralCentroidImpl : public nn::Cloneable<SpectralCentroidImpl> {
 public:
  explicit SpectralCentroidImpl(const SpectralCentroidOptions& options_) : options(options_) { reset(); }
  explicit SpectralCentroidImpl(int64_t sample_rate) : SpectralCentroidImpl(SpectralCentroidOptions(sample_rate)) {}
  void reset() override;
  Tensor forward(const Tensor& waveform);
  SpectralCentroidOptions options;
  int64_t win_length = 0, hop_length = 0;
  Tensor window;
};
TORCH_MODULE(SpectralCentroid);

struct VadOptions {
  VadOptions(int64_t sample_rate) : sample_rate_(sample_rate) {}  // NOLINT(google-explicit-constructor)
  TORCH_ARG(int64_t, sample_rate);
  TORCH_ARG(double, trigger_level) = 7.0;
  TORCH_ARG(double, trigger_time) = 0.25;
  TORCH_ARG(double, search_time) = 1.0;
  TORCH_ARG(double, allowed_gap) = 0.25;
  TORCH_ARG(double, pre_trigger_time) = 0.0;
  TORCH_ARG(double, boot_time) = 0.35;
  TORCH_ARG(double, noise_up_time) = 0.1;
  TORCH_ARG(double, noise_down_time) = 0.01;
  TORCH_ARG(double, noise_reduction_amount) = 1.35;
  TORCH_ARG(double, measure_freq) = 20.0;
  TORCH_ARG(std::optional<double>, measure_duration) = std::nullopt;
  TORCH_ARG(double, measure_smooth_time) = 0.4;
  TORCH_ARG(double, hp_filter_freq) = 50.0;
  TORCH_ARG(double, lp_filter_freq) = 6000.0;
  TORCH_ARG(double, hp_lifter_freq) = 150.0;
  TORCH_ARG(double, lp_lifter_freq) = 2000.0;
};
// Trims leading silence: functional::vad with these options.
class VadImpl : public nn::Cloneable<VadImpl> {
 public:
  explicit VadImpl(const VadOptions& options_) : options(options_) { reset(); }
  explicit VadImpl(int64_t sample_rate) : VadImpl(VadOptions(sample_rate)) {}
  void reset() override;
  Tensor forward(const Tensor& waveform);
  VadOptions options;
};
TORCH_MODULE(Vad);

struct LoudnessOptions {
  LoudnessOptions(int64_t sample_rate) : sample_rate_(sample_rate) {}  // NOLINT(google-explicit-constructor)
  TORCH_ARG(int64_t, sample_rate);
};
// [..., channels <= 5, time] -> [...] integrated loudness in LKFS.
class LoudnessImpl : public nn::Cloneable<LoudnessImpl> {
 public:
  explicit LoudnessImpl(const LoudnessOptions& options_) : options(options_) { reset(); }
  explicit LoudnessImpl(int64_t sample_rate) : LoudnessImpl(LoudnessOptions(sample_rate)) {}
  void reset() override;
  Tensor forward(const Tensor& waveform);
  LoudnessOptions options;
};
TORCH_MODULE(Loudness);

}  // namespace torch::audio::transforms
