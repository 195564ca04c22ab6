#pragma once
// torchaudio.transforms Spectrogram, InverseSpectrogram, GriffinLim and
// AmplitudeToDB as LibTorch-style module holders. The window is the buffer
// "window", as in torchaudio's state_dict.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "ember/audio/functional/spectral.h"
#include "ember/core/arg.h"
#include "ember/core/tensor.h"
#include "ember/nn/cloneable.h"
#include "ember/nn/pimpl.h"

namespace torch::audio::transforms {

// torchaudio's window_fn: called with win_length (torch.hann_window by default).
using WindowFunction = std::function<Tensor(int64_t)>;
WindowFunction default_window_fn();

namespace detail {
// Raises, naming the transform `name`, unless `waveform` is a floating-point
// [..., time] signal long enough for an n_fft frame after padding.
void check_stft_input(const char* name, const Tensor& waveform, int64_t n_fft, int64_t pad, bool center,
                      const std::string& pad_mode);
}  // namespace detail

struct SpectrogramOptions {
  TORCH_ARG(int64_t, n_fft) = 400;
  TORCH_ARG(std::optional<int64_t>, win_length) = std::nullopt;
  TORCH_ARG(std::optional<int64_t>, hop_length) = std::nullopt;
  TORCH_ARG(int64_t, pad) = 0;
  TORCH_ARG(WindowFunction, window_fn) = default_window_fn();
  TORCH_ARG(std::optional<double>, power) = 2.0;
  TORCH_ARG(functional::Normalized, normalized) = false;
  TORCH_ARG(bool, center) = true;
  TORCH_ARG(std::string, pad_mode) = "reflect";
  TORCH_ARG(bool, onesided) = true;
  TORCH_ARG(std::optional<bool>, return_complex) = std::nullopt;
};

// [..., time] -> [..., n_fft / 2 + 1, frames].
class SpectrogramImpl : public nn::Cloneable<SpectrogramImpl> {
 public:
  explicit SpectrogramImpl(const SpectrogramOptions& options_ = {});
  void reset() override;
  Tensor forward(const Tensor& waveform);

  SpectrogramOptions options;
  int64_t win_length = 0, hop_length = 0;
  Tensor window;
};
TORCH_MODULE(Spectrogram);

struct InverseSpectrogramOptions {
  TORCH_ARG(int64_t, n_fft) = 400;
  TORCH_ARG(std::optional<int64_t>, win_length) = std::nullopt;
  TORCH_ARG(std::optional<int64_t>, hop_length) = std::nullopt;
  TORCH_ARG(int64_t, pad) = 0;
  TORCH_ARG(WindowFunction, window_fn) = default_window_fn();
  TORCH_ARG(functional::Normalized, normalized) = false;
  TORCH_ARG(bool, center) = true;
  TORCH_ARG(std::string, pad_mode) = "reflect";
  TORCH_ARG(bool, onesided) = true;
};

// Complex [..., freq, frames] -> [..., time].
class InverseSpectrogramImpl : public nn::Cloneable<InverseSpectrogramImpl> {
 public:
  explicit InverseSpectrogramImpl(const InverseSpectrogramOptions& options_ = {});
  void reset() override;
  Tensor forward(const Tensor& spectrogram, std::optional<int64_t> length = std::nullopt);

  InverseSpectrogramOptions options;
  int64_t win_length = 0, hop_length = 0;
  Tensor window;
};
TORCH_MODULE(InverseSpectrogram);

struct GriffinLimOptions {
  TORCH_ARG(int64_t, n_fft) = 400;
  TORCH_ARG(int64_t, n_iter) = 32;
  TORCH_ARG(std::optional<int64_t>, win_length) = std::nullopt;
  TORCH_ARG(std::optional<int64_t>, hop_length) = std::nullopt;
  TORCH_ARG(WindowFunction, window_fn) = default_window_fn();
  TORCH_ARG(double, power) = 2.0;
  TORCH_ARG(double, momentum) = 0.99;
  TORCH_ARG(std::optional<int64_t>, length) = std::nullopt;
  TORCH_ARG(bool, rand_init) = true;
};

class GriffinLimImpl : public nn::Cloneable<GriffinLimImpl> {
 public:
  explicit GriffinLimImpl(const GriffinLimOptions& options_ = {});
  void reset() override;
  Tensor forward(const Tensor& specgram);

  GriffinLimOptions options;
  int64_t win_length = 0, hop_length = 0;
  Tensor window;
};
TORCH_MODULE(GriffinLim);

struct AmplitudeToDBOptions {
  TORCH_ARG(std::string, stype) = "power";
  TORCH_ARG(std::optional<double>, top_db) = std::nullopt;
};

class AmplitudeToDBImpl : public nn::Cloneable<AmplitudeToDBImpl> {
 public:
  explicit AmplitudeToDBImpl(const AmplitudeToDBOptions& options_ = {});
  AmplitudeToDBImpl(std::string stype, std::optional<double> top_db = std::nullopt)
      : AmplitudeToDBImpl(AmplitudeToDBOptions().stype(std::move(stype)).top_db(top_db)) {}
  void reset() override;
  Tensor forward(const Tensor& x);

  AmplitudeToDBOptions options;
  double multiplier = 10.0, amin = 1e-10, ref_value = 1.0, db_multiplier = 0.0;
};
TORCH_MODULE(AmplitudeToDB);

}  // namespace torch::audio::transforms
