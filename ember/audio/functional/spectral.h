#pragma once
// torchaudio.functional's spectral features (torchaudio 0.13 numerics):
// spectrogram and its inverse, Griffin-Lim, filter banks, the DCT matrix,
// decibel conversion, the phase vocoder, spectral centroid and deltas.
// Every function composes Ember's differentiable ops (stft/istft included),
// so gradients flow where torchaudio's do.
#include <cstdint>
#include <optional>
#include <string>

#include "ember/core/tensor.h"

namespace torch::audio::functional {

// torchaudio's `normalized: Union[bool, str]`: true or "window" divides the
// spectrum by the window's L2 norm; "frame_length" lets stft divide by
// sqrt(n_fft); false or "" (the default) does neither.
class Normalized {
 public:
  Normalized(bool on = false) : window_(on) {}                     // NOLINT(google-explicit-constructor)
  Normalized(const char* mode) : Normalized(std::string(mode)) {}  // NOLINT(google-explicit-constructor)
  Normalized(const std::string& mode);                             // NOLINT(google-explicit-constructor)
  bool window() const { return window_; }
  bool frame_length() const { return frame_length_; }

 private:
  bool window_ = false;
  bool frame_length_ = false;
};

// [..., time] -> [..., n_fft / 2 + 1, frames]; complex when power is nullopt.
Tensor spectrogram(const Tensor& waveform, int64_t pad, const Tensor& window, int64_t n_fft, int64_t hop_length,
                   int64_t win_length, std::optional<double> power, Normalized normalized, bool center = true,
                   const std::string& pad_mode = "reflect", bool onesided = true,
                   std::optional<bool> return_complex = std::nullopt);

// Complex [..., freq, frames] -> [..., time].
Tensor inverse_spectrogram(const Tensor& spectrogram, std::optional<int64_t> length, int64_t pad, const Tensor& window,
                           int64_t n_fft, int64_t hop_length, int64_t win_length, Normalized normalized,
                           bool center = true, const std::string& pad_mode = "reflect", bool onesided = true);

Tensor griffinlim(const Tensor& specgram, const Tensor& window, int64_t n_fft, int64_t hop_length, int64_t win_length,
                  double power, int64_t n_iter, double momentum, std::optional<int64_t> length, bool rand_init);

Tensor amplitude_to_DB(const Tensor& x, double multiplier, double amin, double db_multiplier,
                       std::optional<double> top_db = std::nullopt);
Tensor DB_to_amplitude(const Tensor& x, double ref, double power);

// [n_freqs, n_mels] triangular filters, float32 as torchaudio's.
Tensor melscale_fbanks(int64_t n_freqs, double f_min, double f_max, int64_t n_mels, int64_t sample_rate,
                       const std::optional<std::string>& norm = std::nullopt, const std::string& mel_scale = "htk");
Tensor linear_fbanks(int64_t n_freqs, double f_min, double f_max, int64_t n_filter, int64_t sample_rate);
// [n_mels, n_mfcc] DCT-II matrix; norm nullopt or "ortho".
Tensor create_dct(int64_t n_mfcc, int64_t n_mels, const std::optional<std::string>& norm);

Tensor phase_vocoder(const Tensor& complex_specgrams, double rate, const Tensor& phase_advance);

Tensor spectral_centroid(const Tensor& waveform, int64_t sample_rate, int64_t pad, const Tensor& window, int64_t n_fft,
                         int64_t hop_length, int64_t win_length);

Tensor compute_deltas(const Tensor& specgram, int64_t win_length = 5, const std::string& mode = "replicate");

Tensor pitch_shift(const Tensor& waveform, int64_t sample_rate, int64_t n_steps, int64_t bins_per_octave = 12,
                   int64_t n_fft = 512, std::optional<int64_t> win_length = std::nullopt,
                   std::optional<int64_t> hop_length = std::nullopt,
                   const std::optional<Tensor>& window = std::nullopt);

namespace detail {
// pitch_shift's two halves, shared with transforms::PitchShift: the phase-vocoder
// stretch by 2^(-n_steps / bins_per_octave), and trimming/padding the resampled
// result back to `shape`.
Tensor stretch_waveform(const Tensor& waveform, int64_t n_steps, int64_t bins_per_octave, int64_t n_fft,
                        int64_t win_length, int64_t hop_length, const Tensor& window);
Tensor fix_waveform_shape(const Tensor& shifted, IntArrayRef shape);
}  // namespace detail

}  // namespace torch::audio::functional
