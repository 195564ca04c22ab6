#pragma once
// The audio_features example's pipeline, header-only so that
// tests/audio/models_example_test.cpp runs the very code main.cpp runs:
// describe a file's metadata, and turn a waveform into an 8-bit log-Mel
// spectrogram picture (low frequencies at the bottom, time left to right).
#include <cstdint>
#include <sstream>
#include <string>

#include "ember/audio/io/audio_metadata.h"
#include "ember/audio/transforms/mel.h"
#include "ember/audio/transforms/spectrogram.h"
#include "ember/autograd/grad_mode.h"
#include "ember/core/error.h"
#include "ember/ops/all_ops.h"

namespace audio_features {

inline std::string describe(const std::string& path, const ember::audio::AudioMetaData& meta) {
  std::ostringstream out;
  out << path << ": " << meta.num_channels << " channel(s), " << meta.sample_rate << " Hz, " << meta.num_frames
      << " frames";
  if (meta.sample_rate > 0)
    out << " (" << static_cast<double>(meta.num_frames) / static_cast<double>(meta.sample_rate) << " s)";
  out << ", encoding " << meta.encoding;
  if (meta.bits_per_sample > 0) out << ", " << meta.bits_per_sample << " bits per sample";
  return out.str();
}

struct LogMelOptions {
  int64_t n_fft = 400;
  int64_t hop_length = 160;
  int64_t n_mels = 64;
  double top_db = 80.0;
};

// waveform [channels, frames] (float in [-1, 1]) -> uint8 image [1, n_mels, time]:
// the channel mean's power Mel spectrogram in dB (clipped top_db below its peak),
// scaled so its minimum is 0 and its maximum 255.
inline ember::Tensor log_mel_image(const ember::Tensor& waveform, int64_t sample_rate,
                                   const LogMelOptions& o = LogMelOptions()) {
  namespace T = ember::audio::transforms;
  EMBER_CHECK(waveform.dim() == 2 && waveform.size(0) > 0 && waveform.size(1) > 0,
              "log_mel_image: expected a waveform [channels, frames], got ", waveform.sizes());
  EMBER_CHECK(sample_rate > 0, "log_mel_image: sample_rate must be positive, got ", sample_rate);
  ember::NoGradGuard no_grad;
  ember::Tensor mono = waveform.to(ember::kFloat).mean({0}, true);
  T::MelSpectrogram mel(
      T::MelSpectrogramOptions().sample_rate(sample_rate).n_fft(o.n_fft).hop_length(o.hop_length).n_mels(o.n_mels));
  T::AmplitudeToDB to_db("power", o.top_db);
  ember::Tensor db = to_db(mel(mono));  // [1, n_mels, time]
  const double lo = db.min().item<double>(), hi = db.max().item<double>();
  ember::Tensor unit = hi > lo ? (db - lo) / (hi - lo) : ember::zeros_like(db);
  return (unit * 255.0).round().clamp(0, 255).flip({1}).to(ember::kUInt8).contiguous();
}

}  // namespace audio_features
