#pragma once
// torchaudio.transforms MelScale, InverseMelScale, MelSpectrogram, MFCC and
// LFCC. Buffers and submodules carry torchaudio's state_dict names:
// MelScale "fb"; MelSpectrogram "spectrogram.window", "mel_scale.fb"; MFCC
// "dct_mat", "MelSpectrogram.*"; LFCC "filter_mat", "dct_mat", "Spectrogram.*".
#include <cstdint>
#include <optional>
#include <string>

#include "ember/audio/transforms/spectrogram.h"
#include "ember/core/arg.h"
#include "ember/core/tensor.h"
#include "ember/nn/cloneable.h"
#include "ember/nn/pimpl.h"
#include "ember/optim/sgd.h"

namespace torch::audio::transforms {

struct MelScaleOptions {
  TORCH_ARG(int64_t, n_mels) = 128;
  TORCH_ARG(int64_t, sample_rate) = 16000;
  TORCH_ARG(double, f_min) = 0.0;
  TORCH_ARG(std::optional<double>, f_max) = std::nullopt;
  TORCH_ARG(int64_t, n_stft) = 201;
  TORCH_ARG(std::optional<std::string>, norm) = std::nullopt;
  TORCH_ARG(std::string, mel_scale) = "htk";
};

// [..., n_stft, time] -> [..., n_mels, time].
class MelScaleImpl : public nn::Cloneable<MelScaleImpl> {
 public:
  explicit MelScaleImpl(const MelScaleOptions& options_ = {});
  void reset() override;
  Tensor forward(const Tensor& specgram);

  MelScaleOptions options;
  Tensor fb;  // [n_stft, n_mels]
};
TORCH_MODULE(MelScale);

struct InverseMelScaleOptions {
  InverseMelScaleOptions(int64_t n_stft) : n_stft_(n_stft) {}  // NOLINT(google-explicit-constructor)
  TORCH_ARG(int64_t, n_stft);
  TORCH_ARG(int64_t, n_mels) = 128;
  TORCH_ARG(int64_t, sample_rate) = 16000;
  TORCH_ARG(double, f_min) = 0.0;
  TORCH_ARG(std::optional<double>, f_max) = std::nullopt;
  TORCH_ARG(int64_t, max_iter) = 100000;
  TORCH_ARG(double, tolerance_loss) = 1e-5;
  TORCH_ARG(double, tolerance_change) = 1e-8;
  // torchaudio's sgdargs dict; nullopt means {"lr": 0.1, "momentum": 0.9}.
  TORCH_ARG(std::optional<optim::SGDOptions>, sgdargs) = std::nullopt;
  TORCH_ARG(std::optional<std::string>, norm) = std::nullopt;
  TORCH_ARG(std::string, mel_scale) = "htk";
};

// Least-squares inverse of MelScale by SGD from a random start (torchaudio's
// algorithm; the start comes from Ember's default generator).
class InverseMelScaleImpl : public nn::Cloneable<InverseMelScaleImpl> {
 public:
  explicit InverseMelScaleImpl(const InverseMelScaleOptions& options_);
  explicit InverseMelScaleImpl(int64_t n_stft) : InverseMelScaleImpl(InverseMelScaleOptions(n_stft)) {}
  void reset() override;
  Tensor forward(const Tensor& melspec);

  InverseMelScaleOptions options;
  Tensor fb;
};
TORCH_MODULE(InverseMelScale);

struct MelSpectrogramOptions {
  TORCH_ARG(int64_t, sample_rate) = 16000;
  TORCH_ARG(int64_t, n_fft) = 400;
  TORCH_ARG(std::optional<int64_t>, win_length) = std::nullopt;
  TORCH_ARG(std::optional<int64_t>, hop_length) = std::nullopt;
  TORCH_ARG(double, f_min) = 0.0;
  TORCH_ARG(std::optional<double>, f_max) = std::nullopt;
  TORCH_ARG(int64_t, pad) = 0;
  TORCH_ARG(int64_t, n_mels) = 128;
  TORCH_ARG(WindowFunction, window_fn) = default_window_fn();
  TORCH_ARG(double, power) = 2.0;
  TORCH_ARG(bool, normalized) = false;
  TORCH_ARG(bool, center) = true;
  TORCH_ARG(std::string, pad_mode) = "reflect";
  TORCH_ARG(bool, onesided) = true;
  TORCH_ARG(std::optional<std::string>, norm) = std::nullopt;
  TORCH_ARG(std::string, mel_scale) = "htk";
};

// [..., time] -> [..., n_mels, frames].
class MelSpectrogramImpl : public nn::Cloneable<MelSpectrogramImpl> {
 public:
  explicit MelSpectrogramImpl(const MelSpectrogramOptions& options_ = {});
  void reset() override;
  Tensor forward(const Tensor& waveform);

  MelSpectrogramOptions options;
  Spectrogram spectrogram{nullptr};
  MelScale mel_scale{nullptr};
};
TORCH_MODULE(MelSpectrogram);

struct MFCCOptions {
  TORCH_ARG(int64_t, sample_rate) = 16000;
  TORCH_ARG(int64_t, n_mfcc) = 40;
  TORCH_ARG(int64_t, dct_type) = 2;
  TORCH_ARG(std::optional<std::string>, norm) = "ortho";
  TORCH_ARG(bool, log_mels) = false;
  // torchaudio's melkwargs; its sample_rate is replaced by this sample_rate.
  TORCH_ARG(MelSpectrogramOptions, melkwargs) = {};
};

// [..., time] -> [..., n_mfcc, frames].
class MFCCImpl : public nn::Cloneable<MFCCImpl> {
 public:
  explicit MFCCImpl(const MFCCOptions& options_ = {});
  void reset() override;
  Tensor forward(const Tensor& waveform);

  MFCCOptions options;
  AmplitudeToDB amplitude_to_DB{nullptr};
  transforms::MelSpectrogram MelSpectrogram{nullptr};
  Tensor dct_mat;
};
TORCH_MODULE(MFCC);

struct LFCCOptions {
  TORCH_ARG(int64_t, sample_rate) = 16000;
  TORCH_ARG(int64_t, n_filter) = 128;
  TORCH_ARG(double, f_min) = 0.0;
  TORCH_ARG(std::optional<double>, f_max) = std::nullopt;
  TORCH_ARG(int64_t, n_lfcc) = 40;
  TORCH_ARG(int64_t, dct_type) = 2;
  TORCH_ARG(std::optional<std::string>, norm) = "ortho";
  TORCH_ARG(bool, log_lf) = false;
  TORCH_ARG(SpectrogramOptions, speckwargs) = {};
};

// [..., time] -> [..., n_lfcc, frames].
class LFCCImpl : public nn::Cloneable<LFCCImpl> {
 public:
  explicit LFCCImpl(const LFCCOptions& options_ = {});
  void reset() override;
  Tensor forward(const Tensor& waveform);

  LFCCOptions options;
  AmplitudeToDB amplitude_to_DB{nullptr};
  transforms::Spectrogram Spectrogram{nullptr};
  Tensor filter_mat, dct_mat;
};
TORCH_MODULE(LFCC);

}  // namespace torch::audio::transforms
