#pragma once
// torchaudio.transforms Resample and PitchShift: the sinc kernel is built once
// per module (buffer "kernel" of Resample; parameter "kernel" of PitchShift,
// as torchaudio registers them).
#include <cstdint>
#include <optional>
#include <string>

#include "ember/audio/transforms/spectrogram.h"
#include "ember/core/arg.h"
#include "ember/core/dtype.h"
#include "ember/core/tensor.h"
#include "ember/nn/cloneable.h"
#include "ember/nn/pimpl.h"

namespace torch::audio::transforms {

struct ResampleOptions {
  TORCH_ARG(int64_t, orig_freq) = 16000;
  TORCH_ARG(int64_t, new_freq) = 16000;
  TORCH_ARG(std::string, resampling_method) = "sinc_interpolation";
  TORCH_ARG(int64_t, lowpass_filter_width) = 6;
  TORCH_ARG(double, rolloff) = 0.99;
  TORCH_ARG(std::optional<double>, beta) = std::nullopt;
  // The kernel's dtype; nullopt builds it in float64 and stores float32, as torchaudio.
  TORCH_ARG(std::optional<ScalarType>, dtype) = std::nullopt;
};

class ResampleImpl : public nn::Cloneable<ResampleImpl> {
 public:
  explicit ResampleImpl(const ResampleOptions& options_ = {});
  ResampleImpl(int64_t orig_freq, int64_t new_freq)
      : ResampleImpl(ResampleOptions().orig_freq(orig_freq).new_freq(new_freq)) {}
  void reset() override;
  Tensor forward(const Tensor& waveform);

  ResampleOptions options;
  int64_t gcd = 1, width = 0;
  Tensor kernel;  // undefined when orig_freq == new_freq
};
TORCH_MODULE(Resample);

struct PitchShiftOptions {
  PitchShiftOptions(int64_t sample_rate, int64_t n_steps) : sample_rate_(sample_rate), n_steps_(n_steps) {}
  TORCH_ARG(int64_t, sample_rate);
  TORCH_ARG(int64_t, n_steps);
  TORCH_ARG(int64_t, bins_per_octave) = 12;
  TORCH_ARG(int64_t, n_fft) = 512;
  TORCH_ARG(std::optional<int64_t>, win_length) = std::nullopt;
  TORCH_ARG(std::optional<int64_t>, hop_length) = std::nullopt;
  TORCH_ARG(WindowFunction, window_fn) = default_window_fn();
};

class PitchShiftImpl : public nn::Cloneable<PitchShiftImpl> {
 public:
  explicit PitchShiftImpl(const PitchShiftOptions& options_);
  PitchShiftImpl(int64_t sample_rate, int64_t n_steps) : PitchShiftImpl(PitchShiftOptions(sample_rate, n_steps)) {}
  void reset() override;
  Tensor forward(const Tensor& waveform);

  PitchShiftOptions options;
  int64_t win_length = 0, hop_length = 0, orig_freq = 0, gcd = 1, width = 0;
  Tensor window;
  Tensor kernel;  // float32; rebuilt in the input's dtype for other inputs
};
TORCH_MODULE(PitchShift);

}  // namespace torch::audio::transforms
